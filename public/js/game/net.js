// net.js: talking to the game API (H1). Requests run one after another,
// so each carries the ply of the state the previous one left behind. Net
// only sets state: every answer becomes `state.game`, and the views and
// effects take it from there. A game played from two devices is also
// followed live (follow, at the end): its pushed states go the same way.

import { requestJSON } from "../board.js";
import { t } from "../words.js";
import { page } from "./page.js";
import { state, setState, active, shouldPause } from "./state.js";
import { fromServer } from "./time.js";

let chain = Promise.resolve();

/** Runs fn after every request queued before it. */
export function enqueue(fn) {
  chain = chain.then(fn, fn);
  return chain;
}

/** One request to the game's API; path is "" for the game itself. */
function call(method, path, body) {
  return requestJSON(method, page.api + path, body);
}

/**
 * The words for a failed request: the server's sentence (already in the
 * visitor's language), or the page's own when no answer came.
 */
export const errorText = (err) => (err && err.data && err.data.error) || t("request_failed");

/**
 * Takes a state from the server. The clocks follow the server's times from
 * now on; a message that stopped being true (a draw refusal, a tap during
 * the computer's turn) goes when the game moves on (G19). `extra` is set
 * in the same change.
 */
function show(s, extra = {}) {
  const prev = state.game;
  // Two devices: a state may come twice, by the answer and by the stream,
  // in either order; the older one is dropped (G25).
  if (prev && prev.remote && s.remote && s.remote.version < prev.remote.version) return;
  const plyChanged = !prev || prev.ply !== s.ply || prev.status !== s.status;
  const over = s.status !== "active";
  let message = state.message;
  if (s.message) message = s.message;
  else if (plyChanged) message = "";
  setState({
    game: s,
    clock: fromServer(s, performance.now()),
    thinking: false,
    preview: null,
    pendingPly: null,
    message,
    selected: plyChanged ? null : state.selected,
    passVisible: over ? false : state.passVisible,
    dialog: over ? "" : state.dialog,
    ...extra,
  });
}

/**
 * Loads the game when the page opens. In a friend game with a pass screen
 * the page opens on it once a move is played, so the right player picks
 * up the device; the clocks stay paused till then. Before White's first
 * move there is nothing to hand over.
 */
export function load() {
  return enqueue(async () => {
    try {
      const s = await call("GET", "");
      show(s, {
        turnBoard: Boolean(s.turn_board),
        passVisible: s.status === "active" && s.mode === "friend" && s.pass_screen && (s.ply > 0 || Boolean(s.draw_offer)),
      });
    } catch (err) {
      setState({ message: errorText(err) });
    }
  });
}

/**
 * Posts an action with the current ply and shows the new state. On a
 * refusal it shows the server's sentence (or hands the error to onError)
 * and reloads the true state.
 */
export function act(path, extra = {}, onError = null) {
  return enqueue(async () => {
    if (!state.game) return null;
    setState({ busy: true });
    try {
      const s = await call("POST", path, { ply: state.game.ply, ...extra });
      show(s);
      return s;
    } catch (err) {
      if (onError) onError(err);
      else setState({ message: errorText(err) });
      setState({ thinking: false });
      await reload();
      return null;
    } finally {
      setState({ busy: false });
    }
  });
}

/** Fetches the true state again. */
export async function reload() {
  try {
    show(await call("GET", ""));
  } catch (err) {
    setState({ message: errorText(err) });
  }
}

/**
 * Takes the visitor's move back at once, outside the queue, while the
 * computer thinks about its reply: the server stops the search (C3).
 */
export function undoNow(ply) {
  setState({ pendingPly: null, message: "" });
  call("POST", "/undo", { ply }).then(show, (err) => {
    setState({ message: errorText(err) });
    reload();
  });
}

let asking = false;

/**
 * Asks for the computer's move when the state says it is missing: the page
 * sends the visitor's move alone, shows it and the computer thinking, then
 * asks for the reply (G17).
 */
export function askReply() {
  if (asking) return;
  asking = true;
  enqueue(async () => {
    asking = false;
    if (!state.game || !state.game.waiting || state.game.status !== "active") return;
    setState({ busy: true });
    try {
      show(await call("POST", "/reply", { ply: state.game.ply }));
    } catch (err) {
      if (err.status !== 409) setState({ message: errorText(err) }); // 409: an undo came first
      await reload();
    } finally {
      setState({ busy: false });
    }
  });
}

/** Stops the running clock on the server, if the page still pauses it (G11). */
export function pause() {
  enqueue(async () => {
    if (!active() || !state.game.running || !shouldPause()) return;
    try { show(await call("POST", "/pause", { ply: state.game.ply })); } catch { await reload(); }
  });
}

/** Restarts the clock on the server, if nothing on the page pauses it any more. */
export function resume() {
  enqueue(async () => {
    if (!active() || state.game.running || shouldPause()) return;
    try { show(await call("POST", "/resume", { ply: state.game.ply })); } catch { await reload(); }
  });
}

/** Starts a new game (a rematch) and returns its state. */
export function createGame(body) {
  return requestJSON("POST", "/api/games", body);
}

/** Asks for the next hint step in the position at ply (G23). */
export async function hint(ply, step) {
  try {
    const h = await call("POST", "/hint", { ply, step });
    if (!state.game || state.game.ply !== ply) return; // the game moved on meanwhile
    setState({ help: { ...state.help, hint: h, step: h.move ? 2 : 1, note: "" } });
  } catch (err) {
    setState({ help: { ...state.help, note: errorText(err) } });
  }
}

/** Loads the opponent's threats in the position shown as fen (G23). */
export async function threats(fen) {
  let list = [];
  try {
    list = (await call("GET", "/threats")).threats;
  } catch { /* no threats shown this time */ }
  if (!state.game || state.game.fen !== fen) return; // a newer position is being shown
  setState({ help: { ...state.help, threats: list, note: "" } });
}

/** Asks whether this game offers hints and threats (levels 1–4). */
export async function offersHelp() {
  try {
    const data = await call("GET", "/threats");
    if (data.offered) setState({ help: { ...state.help, offered: true } });
  } catch { /* no answer: no help this time */ }
}

// Following a game from two devices (G25). The page listens to the
// game's event stream; the browser reconnects it by itself, naming the
// last state it had (Last-Event-ID). When streams do not work here (a
// proxy that buffers, an old browser) the page asks every few seconds
// instead, and tries the stream again now and then. A phone that wakes
// up asks at once and reconnects.

const POLL_MS = 2500; // asking instead of listening
const RETRY_STREAM_MS = 30000; // trying the stream again meanwhile
const SILENT_MS = 45000; // the server pings every 15 s: silence this long means a dead connection

let source = null;
let failures = 0;
let lastHeard = 0;
let pollTimer = 0;
let retryTimer = 0;

const over = () => Boolean(state.game) && state.game.status !== "active";

function close() {
  if (source) source.close();
  source = null;
}

function heard() {
  lastHeard = performance.now();
}

function connect() {
  window.clearTimeout(retryTimer);
  close();
  if (over()) return;
  if (!window.EventSource) {
    poll();
    return;
  }
  const g = state.game;
  const last = g && g.remote ? `?last=${g.ply}.${g.remote.version}` : "";
  const es = new EventSource(page.events + last);
  source = es;
  heard();
  es.addEventListener("open", () => {
    failures = 0;
    heard();
    stopPolling();
  });
  es.addEventListener("state", (ev) => {
    heard();
    try {
      show(JSON.parse(ev.data));
    } catch {
      return; // a broken event: the next one, or a poll, brings the truth
    }
    if (over()) close(); // the stream has said its last
  });
  es.addEventListener("ping", heard);
  // The server is shutting down: reconnect, through another instance
  // when there is one, a moment later (not every page at once).
  es.addEventListener("bye", () => {
    close();
    retryTimer = window.setTimeout(connect, 200 + Math.random() * 1000);
  });
  es.addEventListener("error", () => {
    if (source !== es) return;
    failures++;
    // The browser retries by itself; after a few failures in a row, or
    // when it gives up, the page polls and tries the stream later.
    if (es.readyState === EventSource.CLOSED || failures >= 3) {
      close();
      poll();
      retryTimer = window.setTimeout(connect, RETRY_STREAM_MS);
    }
  });
}

function poll() {
  if (pollTimer || over()) return;
  setState({ livePolling: true });
  pollTimer = window.setInterval(() => {
    if (over()) stopPolling();
    else if (!document.hidden) reload();
  }, POLL_MS);
}

function stopPolling() {
  if (!pollTimer) return;
  window.clearInterval(pollTimer);
  pollTimer = 0;
  setState({ livePolling: false });
}

/** Starts following the game; call once it has loaded. */
export function follow() {
  if (!page.events) return;
  connect();
  // Waking up: catch up at once, and reconnect a stream that went quiet
  // while the device slept.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden || over()) return;
    reload();
    if (!source || performance.now() - lastHeard > SILENT_MS) connect();
  });
  window.setInterval(() => {
    if (source && !over() && performance.now() - lastHeard > SILENT_MS) connect();
  }, SILENT_MS / 3);
}
