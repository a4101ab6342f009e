// ctx.js: the game page's shared state. The server holds the game, the
// rules and the clocks; the modules of this folder draw what the JSON API
// says (H1) and read and write the fields of `g` below. Their words come
// from the page (words.js), in the visitor's language.

import { t } from "../words.js";

export const g = {
  root: null,
  id: "",
  api: "",
  el: {}, // the page's elements, found once in init
  facts: {}, // shared facts the server rendered into the page
  state: null, // the last state the server sent
  receivedAt: 0, // performance.now() when state arrived
  selected: null, // the square of the selected piece
  flipped: false, // the Flip button, on top of the automatic orientation
  turnBoard: false,
  passVisible: false,
  promotion: null, // {from, to} while the picker shows
  review: null, // ply shown while reviewing a finished game
  busy: false, // a request is on its way
  flagSent: false,
  suppressClick: false,
  message: "",
  draggedMove: "",
  // thinking: the visitor's move is on its way and the computer replies
  // to it in the same request (G17); pendingPly is the ply after that move.
  thinking: false,
  pendingPly: null,
  previewing: false, // the board shows a move the server has not answered yet
  // The clocks as shown: the server's times at `since` (performance.now()),
  // and the colour whose clock runs from then on.
  clock: { base: { white: 0, black: 0 }, running: "", since: 0 },
};

/** Finds the page's elements and reads the facts the server rendered. */
export function init(root) {
  g.root = root;
  g.id = root.getAttribute("data-game");
  g.api = `/api/games/${g.id}`;
  const q = (sel) => root.querySelector(sel);
  g.el = {
    board: q("[data-board]"),
    status: q("[data-status]"),
    notes: q("[data-notes]"),
    moveList: q("[data-movelist]"),
    pass: q("[data-pass-screen]"),
    promo: q("[data-promotion]"),
    end: q("[data-result-card]"),
    review: q("[data-review]"),
    sanForm: q("[data-san-form]"),
    sanError: q("[data-san-error]"),
    sanInput: q("[data-san-input]"),
    moreBtn: q('[data-action="more"]'),
    moreMenu: q(".more-menu"),
    turnBoardBox: q('[data-option="turn-board"]'),
    drawDialog: q('[data-dialog="draw"]'),
    resignDialog: q('[data-dialog="resign"]'),
    clocks: { white: q('[data-clock="white"]'), black: q('[data-clock="black"]') },
    rows: { top: q('[data-player="top"]'), bottom: q('[data-player="bottom"]') },
    material: { white: q('[data-material="white"]'), black: q('[data-material="black"]') },
  };
  g.facts = JSON.parse(root.getAttribute("data-facts") || "{}");
}

/** "White" or "Black", in the page's words. */
export const colorName = (c) => t(c === "black" ? "color_black" : "color_white");

/**
 * The words for a failed request: the server's sentence (already in the
 * visitor's language), or the page's own when no answer came.
 */
export const errorText = (err) => (err && err.data && err.data.error) || t("request_failed");
export const other = (c) => (c === "white" ? "black" : "white");
export const active = () => Boolean(g.state) && g.state.status === "active";
export const isComputer = () => Boolean(g.state) && g.state.mode === "computer";

/** The colour at the bottom of the board. */
export function bottomColor() {
  const s = g.state;
  if (!s) return "white";
  let c = "white";
  if (isComputer()) c = s.human_color;
  else if (g.turnBoard) c = s.turn;
  return g.flipped ? other(c) : c;
}

/** Whether the computer is thinking about its reply (G17). */
export const isThinking = () => isComputer() && active() && (g.thinking || g.state.waiting);

/** Whether the visitor may move a piece now. */
export function canMove() {
  return active() && !g.state.waiting && !g.thinking && !g.busy && !g.passVisible && g.review === null && g.promotion === null;
}

/** The legal moves (UCI) grouped by their start square, when moving is allowed. */
export function legalFrom() {
  const out = {};
  if (!g.state || !canMove()) return out;
  for (const u of g.state.legal) {
    const from = u.slice(0, 2);
    (out[from] = out[from] || []).push(u);
  }
  return out;
}

/** Whether a dialog, the picker, the pass screen or a hidden tab pauses the clocks. */
export function shouldPause() {
  const e = g.el;
  return g.passVisible || g.promotion !== null || e.drawDialog.open || e.resignDialog.open || document.hidden;
}
