// drawboard.js: the board, a view of the state. It draws the position with
// the H2 classes (selected, dest, check, last-move), slides arriving pieces
// and shows the visitor's move before the server has answered it.

import { parseFEN, pieceSVG, refreshLabel } from "../board.js";
import { t } from "../words.js";
import { page } from "./page.js";
import { state, subscribe, bottomColor, legalFrom } from "./state.js";

let drawnLastMove = "";

/**
 * Shows a position. The 64 squares are built once per orientation, in
 * reading order, and afterwards only changed where something differs, so
 * focus and element identity survive updates.
 */
function drawBoard(fen, lastMove, check) {
  const boardEl = page.el.board;
  const pieces = parseFEN(fen);
  const arrived = [];
  const bottom = bottomColor();
  const moves = legalFrom();
  const dests = new Set((state.selected && moves[state.selected] ? moves[state.selected] : []).map((u) => u.slice(2, 4)));
  const fresh = boardEl.getAttribute("data-built") !== bottom;
  if (fresh) buildSquares(bottom);
  for (const el of boardEl.querySelectorAll("[data-square]")) {
    const name = el.getAttribute("data-square");
    const piece = pieces[name] || "";
    const want = {
      occupied: Boolean(piece),
      selected: name === state.selected,
      dest: dests.has(name),
      "last-move": Boolean(lastMove) && (lastMove.slice(0, 2) === name || lastMove.slice(2, 4) === name),
      check: check === name,
    };
    let changed = false;
    for (const [cls, on] of Object.entries(want)) {
      if (el.classList.contains(cls) !== on) {
        el.classList.toggle(cls, on);
        changed = true;
      }
    }
    const old = el.querySelector("[data-piece]");
    if ((old ? old.getAttribute("data-piece") : "") !== piece || (old && old.classList.contains("dragging"))) {
      if (old) old.remove();
      if (piece) el.appendChild(pieceSVG(piece));
      if (piece) arrived.push(name);
      changed = true;
    }
    if (changed || fresh) refreshLabel(el); // new squares need a label even when empty
  }
  // A new last move whose piece has just been put on its square slides
  // in (the computer's reply, a replayed move); a move shown already as a
  // preview, or an undo, changes nothing there and does not slide.
  if (!fresh && lastMove && lastMove !== drawnLastMove && arrived.includes(lastMove.slice(2, 4)) && !pieces[lastMove.slice(0, 2)]) {
    slide(lastMove.slice(0, 2), lastMove.slice(2, 4));
  }
  drawnLastMove = lastMove || "";
  boardEl.setAttribute("data-fen", fen);
  boardEl.setAttribute("data-orientation", bottom);
  const turn = fen.split(" ")[1] === "b" ? "black" : "white";
  boardEl.setAttribute("aria-label", t(`board_bottom_${bottom}_turn_${turn}`));
}

// buildSquares makes the 64 square buttons for one orientation, keeping
// the keyboard focus on the same square.
function buildSquares(bottom) {
  const boardEl = page.el.board;
  const focused = document.activeElement && boardEl.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-square") : null;
  const frag = document.createDocumentFragment();
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = bottom === "white" ? col : 7 - col;
      const rank = bottom === "white" ? 7 - row : row;
      const name = "abcdefgh"[file] + (rank + 1);
      const el = document.createElement("button");
      el.type = "button";
      el.className = "square " + ((file + rank) % 2 === 1 ? "light" : "dark");
      el.setAttribute("data-square", name);
      el.tabIndex = -1;
      if (col === 0) el.insertAdjacentHTML("beforeend", `<span class="coord coord-rank" data-coord="${rank + 1}" aria-hidden="true"></span>`);
      if (row === 7) el.insertAdjacentHTML("beforeend", `<span class="coord coord-file" data-coord="${"abcdefgh"[file]}" aria-hidden="true"></span>`);
      frag.appendChild(el);
    }
  }
  boardEl.querySelectorAll("[data-square]").forEach((el) => el.remove());
  boardEl.prepend(frag);
  boardEl.setAttribute("data-built", bottom);
  const first = boardEl.querySelector(`[data-square="${focused || (bottom === "white" ? "e2" : "e7")}"]`);
  first.tabIndex = 0;
  if (focused) first.focus();
}

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/**
 * Animates a piece that has just arrived on `to` from `from` (about
 * 150 ms, DESIGN.md); the CSS transition on .piece does the work and
 * prefers-reduced-motion turns it off.
 */
function slide(from, to) {
  if (reducedMotion.matches) return;
  const src = page.el.board.querySelector(`[data-square="${from}"]`);
  const dst = page.el.board.querySelector(`[data-square="${to}"]`);
  const piece = dst?.querySelector("[data-piece]");
  if (!src || !piece) return;
  const a = src.getBoundingClientRect(), b = dst.getBoundingClientRect();
  dst.classList.add("arriving");
  piece.style.transition = "none";
  piece.style.transform = `translate(${a.left - b.left}px, ${a.top - b.top}px)`;
  piece.getBoundingClientRect(); // apply the start position before the transition
  piece.style.transition = "";
  piece.style.transform = "";
  window.setTimeout(() => dst.classList.remove("arriving"), 200);
}

/**
 * Moves the piece on the board before the server answers: the rook
 * follows a castling king, an en passant capture removes the pawn, a
 * promotion shows the new piece. A dragged piece is already where the
 * pointer left it, so it does not slide.
 */
function previewMove({ move: uci, dragged }) {
  const sq = (n) => page.el.board.querySelector(`[data-square="${n}"]`);
  const from = uci.slice(0, 2), to = uci.slice(2, 4);
  const moving = sq(from)?.querySelector("[data-piece]");
  if (!moving) return;
  const code = moving.getAttribute("data-piece");
  const target = sq(to);
  target.querySelector("[data-piece]")?.remove();
  if (code[1] === "P" && from[0] !== to[0] && !target.classList.contains("occupied")) {
    sq(to[0] + from[1])?.querySelector("[data-piece]")?.remove();
  }
  if (code[1] === "K" && Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) === 2) {
    const rank = from[1];
    const [rf, rt] = to[0] === "g" ? ["h", "f"] : ["a", "d"];
    const rook = sq(rf + rank)?.querySelector("[data-piece]");
    if (rook) sq(rt + rank).appendChild(rook);
  }
  if (uci.length === 5) {
    moving.remove();
    target.appendChild(pieceSVG(code[0] + uci[4].toUpperCase()));
  } else {
    target.appendChild(moving);
  }
  page.el.board.querySelectorAll(".dest, .selected").forEach((el) => el.classList.remove("dest", "selected"));
  if (!dragged) slide(from, to);
}

/** Draws the board on every change: the position shown, or the visitor's move on its way. */
export function initBoard() {
  subscribe((s, prev) => {
    const game = s.game;
    if (!game) return;
    if (s.preview) {
      if (s.preview !== prev.preview) previewMove(s.preview);
      return; // the move on its way is shown already
    }
    if (s.review !== null) {
      const fens = game.positions || [];
      const i = Math.min(s.review, fens.length - 1);
      drawBoard(fens[i], i > 0 ? game.uci[i - 1] : "", "");
    } else {
      drawBoard(game.fen, game.last_move, game.check);
    }
  });
}
