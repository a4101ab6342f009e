// paint.js: a view of the state: players, status line, result card, move
// list, the buttons' states and the pass screen. The board, clocks,
// material, dialogs and help have views of their own.

import { t } from "../words.js";
import { showSAN } from "../notation.js";
import { page } from "./page.js";
import { state, subscribe, active, bottomColor, isComputer, isThinking, other } from "./state.js";

/** "White" or "Black", in the page's words. */
const colorName = (c) => t(c === "black" ? "color_black" : "color_white");

/** The name a friend game's player was given, or "". */
const givenName = (c) => (state.game && state.game[`${c}_name`]) || "";

/** Whether the friends named themselves. */
const named = () => Boolean(givenName("white") || givenName("black"));

/** A player's name, or their colour when they gave none. */
const nameOrColor = (c) => givenName(c) || colorName(c);

/** Draws the page around the board on every change. */
export function initPaint() {
  subscribe(paint);
}

function paint() {
  if (!state.game) {
    page.el.status.textContent = state.message; // the game could not be loaded
    return;
  }
  page.root.toggleAttribute("data-thinking", isThinking());
  paintPlayers();
  paintStatus();
  paintResult();
  paintMoveList();
  paintControls();
}

function paintPlayers() {
  const s = state.game;
  const bottom = bottomColor();
  const name = (c) => {
    if (isComputer()) return c === s.human_color ? t(`you_${c}`) : t("computer_level", { Level: s.level });
    if (!givenName(c)) return colorName(c);
    return t(c === "black" ? "named_black" : "named_white", { Name: givenName(c) });
  };
  for (const [where, c] of [["top", other(bottom)], ["bottom", bottom]]) {
    const row = page.el.rows[where];
    row.querySelector(".game-player-name").textContent = name(c);
    row.querySelector(".game-player-info").appendChild(page.el.material[c]);
    row.appendChild(page.el.clocks[c]);
    const toMove = active() && (isThinking() ? c !== s.human_color : s.turn === c);
    row.classList.toggle("to-move", toMove);
    row.classList.toggle("thinking", isThinking() && c !== s.human_color);
  }
}

function paintStatus() {
  const s = state.game;
  const e = page.el;
  let text;
  if (!active()) {
    text = `${headline(s)}.`;
  } else if (isThinking()) {
    text = t("thinking");
  } else {
    if (isComputer()) text = s.turn === s.human_color ? t("your_move") : t("computer_move");
    else if (givenName(s.turn)) text = t("to_move_named", { Name: givenName(s.turn) });
    else text = t(`to_move_${s.turn}`);
    if (s.check) text += " " + (isComputer() && s.turn === s.human_color ? t("your_king_in_check") : t(`king_in_check_${s.turn}`));
  }
  if (state.message) text += " " + state.message;
  e.status.textContent = text;
  // After the game the result card says it; the line stays for screen
  // readers, and shows when it has more to say (the computer's answer).
  e.status.classList.toggle("visually-hidden", !active() && !state.message);
  e.status.classList.toggle("thinking", isThinking());
  e.notes.replaceChildren(...(s.notes || []).map((n) => {
    const li = document.createElement("li");
    li.textContent = n;
    return li;
  }));
  e.pass.hidden = !state.passVisible;
  if (state.passVisible) {
    // A draw offer is answered by the other player: the screen names them.
    const answerer = s.draw_offer === "white" ? "black" : "white";
    let title;
    if (s.draw_offer) {
      title = named()
        ? t("pass_title_draw_named", { Name: nameOrColor(answerer), Other: nameOrColor(s.draw_offer) })
        : t(`pass_title_draw_${answerer}`);
    } else {
      title = givenName(s.turn) ? t("pass_title_named", { Name: givenName(s.turn) }) : t(`pass_title_${s.turn}`);
    }
    e.pass.querySelector(".pass-screen-title").textContent = title;
  }
}

// How each ending is said to the visitor who played the computer (G19):
// the words' keys by status code, matched with spaces, dashes or
// underscores alike.
const WON = { checkmate: "end_won_checkmate", timeout: "end_won_timeout", resignation: "end_won_resignation" };
const LOST = { checkmate: "end_lost_checkmate", timeout: "end_lost_timeout", resignation: "end_lost_resignation" };
const DRAWN = {
  stalemate: "end_draw_stalemate",
  threefoldrepetition: "end_draw_repetition",
  repetition: "end_draw_repetition",
  fiftymoverule: "end_draw_fifty",
  fiftymove: "end_draw_fifty",
  insufficientmaterial: "end_draw_material",
  agreement: "end_draw_agreement",
  timeout: "end_draw_timeout",
  timeoutnomate: "end_draw_timeout",
};

/** The result card's headline: to the visitor, or by colour in friend games. */
export function headline(s) {
  if (s.status === "abandoned") return t("game_closed");
  const key = String(s.status).toLowerCase().replace(/[\s_-]+/g, "");
  if (s.result === "1/2-1/2") return DRAWN[key] ? t(DRAWN[key]) : s.reason;
  if (!isComputer()) return s.reason;
  const table = s.winner === s.human_color ? WON : LOST;
  return table[key] ? t(table[key]) : s.reason;
}

function paintResult() {
  const s = state.game;
  const card = page.el.end;
  card.hidden = active();
  if (active()) return;
  card.querySelector(".end-title").textContent = `${headline(s)}.`;
  // An abandoned game has no result ("*"): the title says it was closed.
  card.querySelector(".end-result").textContent = s.status === "abandoned" ? "" : s.result === "1/2-1/2" ? "½–½" : s.result;
  // The reason is said once: not again when the headline already says it
  // ("Draw by agreement").
  card.querySelector(".end-reason").textContent = headline(s) === s.reason ? "" : `${s.reason}.`;
  card.querySelector(".end-cause").textContent = s.cause || "";
  // After a loss to the computer the highlighted way on is to learn from
  // the game, not to play again at once (issue 38).
  const lost = isComputer() && s.status !== "abandoned" && s.result !== "1/2-1/2" && s.winner && s.winner !== s.human_color;
  const rematch = card.querySelector('[data-action="rematch"]');
  const learn = card.querySelector('[data-action="review"]');
  rematch.classList.toggle("button-primary", !lost);
  learn.classList.toggle("button-primary", Boolean(lost));
  // The highlighted button comes first, where a phone shows it.
  rematch.parentElement.prepend(lost ? learn : rematch);
}

function paintMoveList() {
  const s = state.game;
  const items = [];
  const sans = s.moves;
  const startBlack = s.start_fen.split(" ")[1] === "b";
  let number = Number(s.start_fen.split(" ")[5]) || 1;
  let i = 0;
  while (i < sans.length) {
    const li = document.createElement("li");
    const num = document.createElement("span");
    num.className = "move-number";
    li.appendChild(num);
    if (i === 0 && startBlack) {
      num.textContent = `${number}…`;
      li.append(" ", moveItem(sans[0], 1));
      i = 1;
    } else {
      num.textContent = `${number}.`;
      li.append(" ", moveItem(sans[i], i + 1));
      if (i + 1 < sans.length) li.append(" ", moveItem(sans[i + 1], i + 2));
      i += 2;
    }
    number++;
    items.push(li);
  }
  const list = page.el.moveList;
  list.replaceChildren(...items);
  // Keep the current move in sight inside the list, never scrolling the page.
  const current = list.querySelector(".current");
  if (state.review !== null && current) {
    list.scrollLeft = Math.max(0, current.offsetLeft - list.clientWidth / 2);
    list.scrollTop = Math.max(0, current.offsetTop - list.clientHeight / 2);
  } else {
    list.scrollLeft = list.scrollWidth;
    list.scrollTop = list.scrollHeight;
  }
}

// moveItem is one move of the list; after the game it is a button that
// shows the position after that move (G14).
function moveItem(san, ply) {
  const done = !active();
  const el = document.createElement(done ? "button" : "span");
  el.className = "move";
  el.textContent = showSAN(san);
  if (done) {
    el.type = "button";
    el.setAttribute("data-ply", String(ply));
    el.setAttribute("aria-label", t("show_position_after", { Move: `${Math.ceil(ply / 2)}${ply % 2 ? "." : "…"} ${showSAN(san)}` }));
  }
  const shown = state.review === null ? state.game.ply : state.review;
  if (ply === shown) {
    el.classList.add("current");
    if (done) el.setAttribute("aria-current", "step");
  }
  return el;
}

function paintControls() {
  const s = state.game;
  const e = page.el;
  const on = active();
  const q = (a) => page.root.querySelector(`[data-action="${a}"]`);
  const mineToUndo = isComputer() ? s.ply >= (s.human_color === "white" ? 1 : 2) : s.ply > 0;
  const undo = q("undo");
  undo.hidden = !s.undo || !on;
  // While the computer thinks, Undo takes the move back and stops the search.
  undo.disabled = !on || (isThinking() ? !s.waiting && state.pendingPly === null : !mineToUndo || state.busy);
  q("offer-draw").hidden = !on;
  q("offer-draw").disabled = !on || state.busy || s.waiting;
  q("resign").hidden = !on;
  q("resign").disabled = !on || state.busy;
  e.sanForm.hidden = !on;
  e.review.hidden = on;
  if (!on) {
    const shown = state.review === null ? s.ply : state.review;
    e.review.querySelector(".review-where").textContent = shown === 0 ? t("review_start") : t("review_after", { Move: `${Math.ceil(shown / 2)}${shown % 2 ? "." : "…"} ${showSAN(s.moves[shown - 1])}` });
    // aria-disabled, not disabled, so a focused button keeps the focus.
    for (const [step, end] of [["start", 0], ["prev", 0], ["next", s.ply], ["last", s.ply]]) {
      e.review.querySelector(`[data-review-step="${step}"]`).setAttribute("aria-disabled", String(shown === end));
    }
  }
  e.turnBoardBox.closest("label").hidden = isComputer();
  e.turnBoardBox.checked = state.turnBoard;
}
