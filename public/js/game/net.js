// net.js: talking to the game API (H1). Requests run one after another, so
// each carries the ply of the state the previous one left behind; every
// answer replaces the state and repaints the page.

import { requestJSON } from "../board.js";
import { g, active, errorText, isComputer, shouldPause } from "./ctx.js";
import { paint } from "./paint.js";
import { followServer } from "./clock.js";
import { soundFor } from "./sound.js";
import { announceMoves } from "./input.js";

let chain = Promise.resolve();

/** Runs fn after every request queued before it. */
export function enqueue(fn) {
  chain = chain.then(fn, fn);
  return chain;
}

/** One request to the game's API; path is "" for the game itself. */
export function call(method, path, body) {
  return requestJSON(method, g.api + path, body);
}

/**
 * Posts an action with the current ply and shows the new state. On a
 * refusal it shows the server's sentence (or hands the error to onError)
 * and reloads the true state.
 */
export function act(path, extra = {}, onError = null) {
  return enqueue(async () => {
    if (!g.state) return null;
    g.busy = true;
    try {
      const s = await call("POST", path, { ply: g.state.ply, ...extra });
      show(s);
      return s;
    } catch (err) {
      if (onError) onError(err);
      else g.message = errorText(err);
      g.thinking = false;
      await reload();
      return null;
    } finally {
      g.busy = false;
      paint();
    }
  });
}

/** Fetches the true state again. */
export async function reload() {
  try {
    show(await call("GET", ""));
  } catch (err) {
    g.el.status.textContent = errorText(err);
  }
}

/**
 * Takes a state from the server and draws it. The clocks follow the
 * server's times from now on; a message that stopped being true (a draw
 * refusal, a tap during the computer's turn) goes when the game moves on
 * (G19).
 */
export function show(s) {
  const prev = g.state;
  const plyChanged = !prev || prev.ply !== s.ply || prev.status !== s.status;
  g.state = s;
  g.receivedAt = performance.now();
  g.thinking = false;
  g.previewing = false;
  g.pendingPly = null;
  followServer(s, g.receivedAt);
  if (s.message) g.message = s.message;
  else if (plyChanged) g.message = "";
  if (plyChanged) {
    g.selected = null;
    g.flagSent = false;
    soundFor(prev, s);
  }
  if (s.status !== "active") {
    g.passVisible = false;
    for (const d of [g.el.drawDialog, g.el.resignDialog]) if (d.open) d.close();
  }
  paint();
  if (plyChanged) announceMoves(prev, s);
  syncPause();
  if (s.status === "active" && s.waiting) askReply();
}

let asking = false;

// askReply asks for the computer's move when a state says it is missing:
// the page sends the visitor's move alone, shows it and the computer
// thinking, then asks for the reply (G17).
function askReply() {
  if (asking) return;
  asking = true;
  enqueue(async () => {
    asking = false;
    if (!g.state || !g.state.waiting || g.state.status !== "active") return;
    g.busy = true;
    try {
      show(await call("POST", "/reply", { ply: g.state.ply }));
    } catch (err) {
      if (err.status !== 409) g.message = errorText(err); // 409: an undo came first
      await reload();
    } finally {
      g.busy = false;
      paint();
    }
  });
}

/**
 * Asks the server to stop or restart the clock so that the stored times
 * match what the screen shows (G11).
 */
export function syncPause() {
  const s = g.state;
  if (!active() || !s.clock) return;
  const pause = shouldPause();
  if (pause && s.running) {
    enqueue(async () => {
      if (!active() || !g.state.running || !shouldPause()) return;
      try { show(await call("POST", "/pause", { ply: g.state.ply })); } catch { await reload(); }
    });
  } else if (!pause && !s.running && s.ply > 0 && !(isComputer() && s.waiting)) {
    // The clocks start with the first move (G6), so before it they show
    // the full time.
    enqueue(async () => {
      if (!active() || g.state.running || shouldPause()) return;
      try { show(await call("POST", "/resume", { ply: g.state.ply })); } catch { await reload(); }
    });
  }
}
