// net.js: talking to the game API (H1). Requests run one after another, so
// each carries the ply of the state the previous one left behind; every
// answer replaces the state and repaints the page.

import { requestJSON } from "../board.js";
import { g, active, isComputer, shouldPause } from "./ctx.js";
import { paint } from "./paint.js";

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
 * refusal it shows the server's sentence and reloads the true state.
 */
export function act(path, extra = {}) {
  return enqueue(async () => {
    if (!g.state) return null;
    g.busy = true;
    try {
      const s = await call("POST", path, { ply: g.state.ply, ...extra });
      show(s);
      return s;
    } catch (err) {
      g.message = err.message;
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
    g.el.status.textContent = err.message;
  }
}

/** Takes a state from the server and draws it. */
export function show(s) {
  const plyChanged = !g.state || g.state.ply !== s.ply || g.state.status !== s.status;
  g.state = s;
  g.receivedAt = performance.now();
  if (s.message) g.message = s.message;
  if (plyChanged) {
    g.selected = null;
    g.flagSent = false;
  }
  if (s.status !== "active") {
    g.passVisible = false;
    for (const d of [g.el.drawDialog, g.el.resignDialog]) if (d.open) d.close();
  }
  paint();
  syncPause();
  if (s.status === "active" && s.waiting && !g.busy) askReply();
}

// askReply asks for the computer's move when a state says it is missing
// (the move request ended before the search did).
function askReply() {
  enqueue(async () => {
    if (!g.state || !g.state.waiting || g.state.status !== "active") return;
    g.busy = true;
    paint();
    try {
      show(await call("POST", "/reply", { ply: g.state.ply }));
    } catch (err) {
      g.message = err.message;
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
  } else if (!pause && !s.running && !(isComputer() && s.waiting)) {
    enqueue(async () => {
      if (!active() || g.state.running || shouldPause()) return;
      try { show(await call("POST", "/resume", { ply: g.state.ply })); } catch { await reload(); }
    });
  }
}
