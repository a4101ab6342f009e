// remote.js: a view of the state for a game played from two devices
// (G24–G26): the invite over the board until the friend arrives, the
// names ("You", "Your friend"), the status line from the visitor's seat,
// who watches, the takeback question and the claim button, and the
// buttons a player may not use yet. It draws after paint.js and only
// draws; remotectl.js gives its buttons their actions.

import { t } from "../words.js";
import { page } from "./page.js";
import { state, subscribe, active, isRemote, seat, bottomColor, other } from "./state.js";

const q = (sel) => page.root.querySelector(sel);

/** Draws the two-device parts on every change. */
export function initRemote() {
  subscribe(draw);
}

function draw() {
  if (!isRemote()) return;
  const s = state.game;
  const r = s.remote;
  const me = seat();
  const invite = q("[data-invite]");
  if (invite) invite.hidden = r.joined || r.invite_expired || !active();

  // Names: the visitor at the bottom, the friend on top; a watcher sees colours.
  if (me) {
    const bottom = bottomColor();
    for (const [where, c] of [["top", other(bottom)], ["bottom", bottom]]) {
      page.el.rows[where].querySelector(".game-player-name").textContent = c === me ? t("you_name") : t("friend_name");
    }
  }

  // The status line, from the visitor's seat.
  if (me && active()) {
    let text;
    if (!r.joined) text = r.invite_expired ? t("invite_expired") : t("friend_waiting");
    else {
      text = s.turn === me ? t("your_move") : t("friend_move");
      if (s.check) text += " " + (s.turn === me ? t("your_king_in_check") : t(`king_in_check_${s.turn}`));
      if (r.takeback === me) text += " " + t("takeback_sent");
      if (s.draw_offer === me) text += " " + t("draw_sent");
    }
    if (state.message) text += " " + state.message;
    page.el.status.textContent = text;
  }

  // Who watches, and whether the friend is away.
  const line = q("[data-remote-line]");
  const parts = [];
  if (r.watchers > 0) parts.push(t("watchers", { Count: r.watchers }));
  if (me && active() && r.joined && s.turn !== me) {
    if (r.claimable) parts.push(t("claim_ready"));
    else if (r.away_ms > r.claim_after_ms / 2) parts.push(t("friend_away"));
  }
  if (state.livePolling) parts.push(t("live_polling"));
  // Redrawn only when it changes: the line is read aloud (aria-live).
  const text = parts.join(" ");
  if (line.dataset.said !== text) {
    line.dataset.said = text;
    const badge = line.querySelector(".watch-badge");
    line.replaceChildren(...(badge ? [badge, " "] : []), text);
  }

  const ask = q("[data-takeback]");
  ask.hidden = !(me && active() && r.takeback && r.takeback !== me);
  q('[data-action="claim"]').hidden = !(me && active() && r.claimable);

  // The buttons wait for the friend, and for the answer to a request.
  const waiting = !r.joined;
  const undo = q('[data-action="undo"]');
  undo.disabled = undo.disabled || waiting || Boolean(r.takeback) || state.busy;
  const draw = q('[data-action="offer-draw"]');
  draw.disabled = draw.disabled || waiting || s.draw_offer === me;
  q('[data-action="resign"]').disabled ||= waiting;
  page.el.sanForm.hidden = page.el.sanForm.hidden || !me || waiting;
}
