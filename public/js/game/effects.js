// effects.js: the page's reactions to a change of state that talk to the
// server or open a dialog: the flag when a running clock reaches 0:00
// (R9), the draw dialog when a friend offers a draw (G9), pausing and
// resuming the clock with what the screen shows (G11), asking for the
// computer's reply when it is missing (G17), and loading the help against
// levels 1–4 (G23). Views never do these; they only draw.

import { state, setState, subscribe, active, isComputer, isRemote, seat, shouldPause, yourMove } from "./state.js";
import { act, askReply, offersHelp, pause, reload, resume, threats } from "./net.js";
import { timeLeft } from "./time.js";

/**
 * Asks the server to stop or restart the clock so that the stored times
 * match what the screen shows (G11). The clocks start with the first move
 * (G6), so before it they show the full time.
 */
function syncPause(s) {
  const game = s.game;
  if (!active() || !game.clock || isRemote()) return; // two devices: the server's clocks never pause
  const paused = shouldPause();
  if (paused && game.running) pause();
  else if (!paused && !game.running && game.ply > 0 && !(isComputer() && game.waiting)) resume();
}

// drawOffer opens the dialog for the player whose turn it is when a
// friend's offer arrives, or when the pass screen that hid it goes. With
// the pass screen on, a new offer goes through the hand-over first: the
// other player picks up the device, then answers (G12).
function drawOffer(s, prev) {
  const offered = active() && !isComputer() && s.game.draw_offer &&
    !(isRemote() && s.game.draw_offer === seat()) && !(isRemote() && !seat());
  if (offered && s.game.pass_screen && !s.passVisible && !(prev.game && prev.game.draw_offer)) {
    setState({ passVisible: true });
    return;
  }
  const stands = offered && !s.passVisible;
  if (stands && s.dialog !== "draw" && (s.game !== prev.game || prev.passVisible)) setState({ dialog: "draw" });
}

let flagged = ""; // the ply and status the flag was reported in

/** Reports the flag once when the running clock shows 0:00 (R9); the server checks its own clock. */
function checkFlag() {
  const s = state.game;
  if (!s || !s.clock || !active() || !s.running || state.clock.running !== s.running) return;
  const at = `${s.ply} ${s.status}`;
  if (flagged === at || timeLeft(state.clock, s.running, performance.now(), true) > 0) return;
  flagged = at;
  act("/flag");
}

let probed = false;

// help asks once whether the game offers hints and threats, and in every
// new position starts afresh and loads the threats when they are shown.
function help(s, prev) {
  if (!s.game) return;
  if (!probed && isComputer()) {
    probed = true;
    offersHelp();
  }
  if (!s.help.offered) return;
  const moved = !prev.game || prev.game.fen !== s.game.fen;
  if (moved) setState({ help: { ...s.help, step: 0, hint: null, threats: [], note: "" } });
  if (s.help.show && yourMove() && (moved || !prev.help.show)) threats(s.game.fen);
  else if (!s.help.show && prev.help.show) setState({ help: { ...s.help, threats: [] } });
}

let awayTimer = 0;

// away asks for the state again when the friend, to move, would have
// been gone for a minute (G26): the server then says whether the game may
// be claimed. Presence is not pushed every few seconds, so the page asks.
function away(s, prev) {
  if (s.game === prev.game) return;
  clearTimeout(awayTimer);
  const r = s.game.remote;
  if (!r || !r.seat || !r.joined || r.claimable || !active() || s.game.turn === r.seat) return;
  awayTimer = window.setTimeout(reload, Math.max(1000, r.claim_after_ms + 500 - r.away_ms));
}

/** Subscribes the reactions; call after the views. */
export function initEffects() {
  subscribe((s, prev) => {
    if (!s.game) return;
    syncPause(s);
    if (s.game !== prev.game && active() && s.game.waiting) askReply();
    drawOffer(s, prev);
    help(s, prev);
    away(s, prev);
  });
  window.setInterval(checkFlag, 100);
}
