// state.js: the game page's one state and its flow. The server holds the
// game, the rules and the clocks; `state.game` is the last state it sent
// (H1), the other fields are what the page shows around it. Only setState
// changes the state; every change is handed to the subscribers: the views
// draw it, the effects react to it.

export const state = {
  game: null, // the last state the server sent
  selected: null, // the square of the selected piece
  flipped: false, // the Flip button, on top of the automatic orientation
  turnBoard: false,
  passVisible: false,
  promotion: null, // {from, to, dragged} while the picker shows
  review: null, // ply shown while reviewing a finished game
  busy: false, // a request is on its way
  message: "",
  // thinking: the visitor's move is on its way and the computer replies
  // to it (G17); pendingPly is the ply after that move.
  thinking: false,
  pendingPly: null,
  // preview: the visitor's move ({move, dragged}), shown on the board
  // before the server has answered it.
  preview: null,
  // The clocks as shown: the server's times at `since` (performance.now()),
  // and the colour whose clock runs from then on.
  clock: { base: { white: 0, black: 0 }, running: "", since: 0 },
  dialog: "", // "draw" or "resign" while that dialog asks
  pageHidden: false,
  livePolling: false, // two devices: the page asks every few seconds instead of listening (live.js)
  sound: true, // the sound switch
  // Help against levels 1–4 (G23): whether this game offers it, the hint
  // steps shown in this position (0, 1 piece, 2 move) and the last hint,
  // the threats shown, the switch, and a note that stands in for them.
  help: { offered: false, step: 0, hint: null, threats: [], show: false, note: "" },
};

const subscribers = [];
const queue = [];
let notifying = false;

/**
 * Changes the state and hands every subscriber the new state and the one
 * before. A change made while the subscribers run (an effect's) is applied
 * after they have all seen the current one, in order.
 */
export function setState(patch) {
  queue.push(patch);
  if (notifying) return;
  notifying = true;
  try {
    while (queue.length > 0) {
      const prev = { ...state };
      Object.assign(state, queue.shift());
      for (const fn of subscribers) fn(state, prev);
    }
  } finally {
    notifying = false;
  }
}

/** Calls fn(state, prev) after every change, in the order of subscribing. */
export function subscribe(fn) {
  subscribers.push(fn);
}

export const other = (c) => (c === "white" ? "black" : "white");
export const active = () => Boolean(state.game) && state.game.status === "active";
export const isComputer = () => Boolean(state.game) && state.game.mode === "computer";
/** Whether the game is played from two devices (G24); then seat() is the visitor's colour, "" watching. */
export const isRemote = () => Boolean(state.game) && Boolean(state.game.remote);
export const seat = () => (isRemote() ? state.game.remote.seat : "");

/** The colour at the bottom of the board. */
export function bottomColor() {
  const s = state.game;
  if (!s) return "white";
  let c = "white";
  if (isComputer()) c = s.human_color;
  else if (isRemote()) c = seat() || "white";
  else if (state.turnBoard) c = s.turn;
  return state.flipped ? other(c) : c;
}

/** Whether the computer is thinking about its reply (G17). */
export const isThinking = () => isComputer() && active() && (state.thinking || state.game.waiting);

/** Whether the visitor may move a piece now. */
export function canMove() {
  return active() && !state.game.waiting && !state.thinking && !state.busy && !state.passVisible &&
    state.review === null && state.promotion === null &&
    (!isRemote() || (state.game.remote.joined && state.game.turn === seat()));
}

/** The legal moves (UCI) grouped by their start square, when moving is allowed. */
export function legalFrom() {
  const out = {};
  if (!state.game || !canMove()) return out;
  for (const u of state.game.legal) {
    const from = u.slice(0, 2);
    (out[from] = out[from] || []).push(u);
  }
  return out;
}

/** Whether a dialog, the picker, the pass screen or a hidden tab pauses the clocks (G11). */
export function shouldPause() {
  return state.passVisible || state.promotion !== null || state.dialog !== "" || state.pageHidden;
}

/** Whether it is the visitor's move against the computer (hints and threats). */
export function yourMove() {
  const s = state.game;
  return Boolean(s) && s.status === "active" && s.turn === s.human_color && !s.waiting;
}
