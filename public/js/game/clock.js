// clock.js: the two clocks, a view of the state. Between the server's
// answers the running one counts down here from the server's time
// (time.js); the flag at 0:00 is the effects' to report.

import { t } from "../words.js";
import { page } from "./page.js";
import { state, subscribe, active, isComputer } from "./state.js";
import { clockText, timeLeft } from "./time.js";
import { playSound } from "./sound.js";

const warned = { white: false, black: false };

/** Draws both clocks. */
function paintClocks() {
  const s = state.game;
  if (!s) return;
  for (const c of ["white", "black"]) {
    const el = page.el.clocks[c];
    if (!s.clock) { el.hidden = true; continue; }
    el.hidden = false;
    const ms = timeLeft(state.clock, c, performance.now(), active());
    const running = active() && state.clock.running === c;
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
  }
}

/** Draws the clocks on every change and ticks the running one between answers. */
export function initClocks() {
  subscribe(paintClocks);
  window.setInterval(() => {
    const s = state.game;
    if (s && s.clock && state.clock.running && active()) paintClocks();
  }, 100);
}
