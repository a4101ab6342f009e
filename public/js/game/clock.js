// clock.js: the two clocks. The server runs them (G6); between answers the
// running one counts down here from the server's time. When the visitor
// moves, the clocks switch at once on screen (G17); when the answer lands
// they take the server's times again, which differ from the shown ones only
// by the request's travel time, so they never jump.

import { g, active, isComputer, other } from "./ctx.js";
import { act } from "./net.js";
import { playSound } from "./sound.js";
import { t } from "../words.js";

/** "4:59", "1:02:03", or "0:09.4" under ten seconds. */
export function clockText(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** Takes the clocks of a state the server sent at time `at`. */
export function followServer(s, at) {
  g.clock = {
    base: { white: s.clocks ? s.clocks.white : 0, black: s.clocks ? s.clocks.black : 0 },
    running: s.running || "",
    since: at,
  };
}

/**
 * Shows the mover's clock stopped (with the increment added, as the
 * server will) and the other side's running, from the moment the move is
 * sent: on the server a move always starts the other clock, the first
 * move of the game included.
 */
export function switchClocks(mover) {
  const s = g.state;
  if (!s.clock) return;
  const now = performance.now();
  g.clock.base[mover] = currentMS(mover) + s.clock.increment_ms;
  g.clock.running = other(mover);
  g.clock.since = now;
  paintClocks();
}

/** The time colour c has left now, in milliseconds. */
export function currentMS(c) {
  let ms = g.clock.base[c];
  if (g.clock.running === c && active()) ms -= performance.now() - g.clock.since;
  return Math.max(0, ms);
}

const warned = { white: false, black: false };

/** Draws both clocks; a running clock at zero reports the flag (R9). */
export function paintClocks() {
  const s = g.state;
  for (const c of ["white", "black"]) {
    const el = g.el.clocks[c];
    if (!s.clock) { el.hidden = true; continue; }
    el.hidden = false;
    const ms = currentMS(c);
    const running = active() && g.clock.running === c;
    el.querySelector(".clock-time").textContent = clockText(ms);
    el.classList.toggle("running", running);
    el.toggleAttribute("data-running", running);
    el.dataset.ms = String(Math.round(ms));
    const low = ms < 20000 || ms < s.clock.base_ms / 10;
    el.classList.toggle("low", low);
    const said = [t(`clock_${c}`, { Time: clockText(ms) })];
    if (low) said.push(t("clock_low"));
    if (running) said.push(t("clock_running"));
    el.setAttribute("aria-label", said.join(", "));
    // Low time sounds once, for a player at the board (not the computer).
    if (low && running && !warned[c] && !(isComputer() && c !== s.human_color)) playSound("lowtime");
    warned[c] = warned[c] || (low && running);
    if (s.running === c && g.clock.running === c && ms <= 0 && !g.flagSent && active()) {
      g.flagSent = true;
      act("/flag");
    }
  }
}

/** Ticks the running clock between answers. */
export function startTicking() {
  window.setInterval(() => {
    const s = g.state;
    if (s && s.clock && g.clock.running && active()) paintClocks();
  }, 100);
}
