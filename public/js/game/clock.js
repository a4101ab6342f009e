// clock.js: the two clocks. The server runs them (G6); between answers the
// running one counts down here from the server's time.

import { g, active, colorName } from "./ctx.js";
import { act } from "./net.js";

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

/** The time colour c has left now, in milliseconds. */
export function currentMS(c) {
  let ms = g.state.clocks[c];
  if (g.state.running === c) ms -= performance.now() - g.receivedAt;
  return Math.max(0, ms);
}

/** Draws both clocks; a running clock at zero reports the flag (R9). */
export function paintClocks() {
  const s = g.state;
  for (const c of ["white", "black"]) {
    const el = g.el.clocks[c];
    if (!s.clock) { el.hidden = true; continue; }
    el.hidden = false;
    const ms = currentMS(c);
    el.querySelector(".clock-time").textContent = clockText(ms);
    el.classList.toggle("running", s.running === c);
    const low = ms < 20000 || ms < s.clock.base_ms / 10;
    el.classList.toggle("low", low);
    el.setAttribute("aria-label", `${colorName(c)}'s clock: ${clockText(ms)}${low ? ", low time" : ""}${s.running === c ? ", running" : ""}`);
    if (s.running === c && ms <= 0 && !g.flagSent && active()) {
      g.flagSent = true;
      act("/flag");
    }
  }
}

/** Ticks the running clock between answers. */
export function startTicking() {
  window.setInterval(() => {
    const s = g.state;
    if (s && s.clock && s.running && active()) paintClocks();
  }, 100);
}
