// input.js: the ways to move (G3): click or tap a piece then a marked
// square, drag and drop, arrow keys + Enter (board.js), a typed move; and
// the promotion picker (G4).

import { announce, enableKeyboard, pieceSVG } from "../board.js";
import { g, active, bottomColor, canMove, errorText, isComputer, isThinking, legalFrom, other } from "./ctx.js";
import { previewMove } from "./drawboard.js";
import { act, syncPause } from "./net.js";
import { paint } from "./paint.js";
import { dismissPass, trapFocus } from "./controls.js";
import { switchClocks } from "./clock.js";
import { soundOwnMove } from "./sound.js";
import { t } from "../words.js";

// whyNot says why a tap on the board does nothing, when that is not plain.
function whyNot() {
  if (!g.state || !active()) return "";
  if (isThinking()) return t("why_thinking");
  if (isComputer() && g.state.turn !== g.state.human_color) return t("why_computer_turn");
  return "";
}

function onSquareClick(name) {
  if (!canMove()) {
    const why = whyNot();
    if (why && why !== g.message) {
      g.message = why;
      paint();
    }
    return;
  }
  const moves = legalFrom();
  if (g.selected && g.selected !== name && (moves[g.selected] || []).some((u) => u.slice(2, 4) === name)) {
    tryMove(g.selected, name);
    return;
  }
  g.selected = g.selected === name || !moves[name] ? null : name;
  paint();
}

function tryMove(from, to) {
  const cands = (g.state.legal || []).filter((u) => u.slice(0, 4) === from + to);
  if (cands.length === 0) return;
  if (cands.some((u) => u.length === 5)) {
    openPromotion(from, to);
    return;
  }
  play({ move: cands[0] });
}

// spokenMove turns SAN into words for screen readers (N4):
// "Nf3+" by white -> "White played knight to f3, check". Each piece has
// its own sentence, so every language can word it its own way.
const PIECE_NAMES = { N: "knight", B: "bishop", R: "rook", Q: "queen", K: "king" };
function spokenMove(san, color) {
  const who = t(color === "black" ? "mover_black" : "mover_white");
  const core = san.replace(/[+#!?]+$/, "");
  const m = core.match(/^([NBRQK])?([a-h]?[1-8]?)(x)?([a-h][1-8])(?:=([NBRQ]))?$/);
  let said;
  if (core === "O-O") said = t("castled_short", { Who: who });
  else if (core === "O-O-O") said = t("castled_long", { Who: who });
  else if (!m) return t("played_other", { Who: who, Move: san });
  else if (m[5]) said = t(`${m[3] ? "promoted_took" : "promoted"}_${PIECE_NAMES[m[5]]}`, { Who: who, Square: m[4] });
  else said = t(`${m[3] ? "took" : "played"}_${m[1] ? PIECE_NAMES[m[1]] : "pawn"}`, { Who: who, Square: m[4] });
  if (san.endsWith("#")) return `${said}, ${t("said_checkmate")}`;
  if (san.endsWith("+")) return `${said}, ${t("said_check")}`;
  return said;
}

/** Tells screen readers the moves that are new in next (N4). */
export function announceMoves(prev, next) {
  if (!prev || next.ply <= prev.ply) return;
  const fresh = (next.moves || []).slice(prev.moves.length);
  if (fresh.length === 0) return;
  const words = fresh.map((san, i) => spokenMove(san, i % 2 === 0 ? prev.turn : other(prev.turn)));
  announce(`${words.join(". ")}. ${g.el.status.textContent}`);
}

/**
 * Shows the move at once, then sends it; the answer (with the computer's
 * reply, if any) replaces the board. Against the computer the page shows
 * it thinking from this moment (G17): its clock runs, the visitor's stops.
 * A typed move's refusal goes to onError, next to the field.
 */
function play(body, onError = null) {
  const s = g.state;
  const mover = s.turn;
  const wasFriendPass = !isComputer() && s.pass_screen;
  if (body.move) {
    const target = g.el.board.querySelector(`[data-square="${body.move.slice(2, 4)}"]`);
    const capture = target?.classList.contains("occupied") || (body.move[0] !== body.move[2] && target && g.el.board.querySelector(`[data-square="${body.move.slice(0, 2)}"] [data-piece$="P"]`) !== null);
    previewMove(body.move);
    g.previewing = true;
    soundOwnMove(Boolean(capture), s.ply + 1);
  }
  g.selected = null;
  g.message = "";
  if (!wasFriendPass) switchClocks(mover);
  if (isComputer()) {
    // The answer comes as soon as the move is played; the reply follows.
    body = { ...body, reply: false };
    g.thinking = true;
    g.pendingPly = s.ply + 1;
  }
  paint();
  return act("/moves", body, onError).then((next) => {
    if (next && wasFriendPass && next.status === "active") {
      g.passVisible = true;
      paint();
      g.el.pass.querySelector("button").focus();
    }
    return next;
  });
}

// ---------- promotion picker (G4) ----------

function openPromotion(from, to) {
  const promo = g.el.promo;
  g.promotion = { from, to };
  const color = g.state.turn === "white" ? "w" : "b";
  promo.querySelectorAll("[data-promote]").forEach((b) => {
    b.replaceChildren(pieceSVG(color + b.getAttribute("data-promote").toUpperCase()));
  });
  // A column over the promotion square, the queen nearest to it.
  const bottom = bottomColor();
  const file = to.charCodeAt(0) - 97;
  const col = bottom === "white" ? file : 7 - file;
  promo.style.setProperty("--col", col);
  const top = (to[1] === "8") === (bottom === "white");
  promo.classList.toggle("from-bottom", !top);
  promo.hidden = false;
  promo.querySelector('[data-promote="q"]').focus();
  syncPause();
}

function closePromotion() {
  g.promotion = null;
  g.el.promo.hidden = true;
  syncPause();
}

/** Wires the board, the typed-move form and the promotion picker. */
export function initInput() {
  const boardEl = g.el.board;
  boardEl.classList.add("board-interactive", "game-board");
  enableKeyboard(boardEl);

  boardEl.addEventListener("click", (event) => {
    const el = event.target.closest("[data-square]");
    if (!el) return;
    event.preventDefault();
    if (g.suppressClick) { g.suppressClick = false; return; }
    onSquareClick(el.getAttribute("data-square"));
  });
  boardEl.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && event.target.closest("[data-square]")) {
      g.selected = null;
      paint();
    }
  });
  initDrag(boardEl);

  initTyping();

  const promo = g.el.promo;
  promo.addEventListener("click", (event) => {
    const b = event.target.closest("button");
    if (!b || !g.promotion) return;
    const { from, to } = g.promotion;
    if (b.hasAttribute("data-promote")) {
      closePromotion();
      play({ move: from + to + b.getAttribute("data-promote") });
    } else if (b.getAttribute("data-action") === "cancel-promotion") {
      closePromotion();
      g.selected = null;
      paint(); // the pawn stays where it was: no move is made
      boardEl.querySelector(`[data-square="${from}"]`)?.focus();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (!g.promotion) return;
    // q r b n, or the letters of the page's language (ru: ф л с к).
    let k = event.key.toLowerCase();
    const own = Array.from(t("promote_keys").toLowerCase()).indexOf(k);
    if (own >= 0 && own < 4) k = "qrbn"[own];
    if (["q", "r", "b", "n"].includes(k)) {
      event.preventDefault();
      promo.querySelector(`[data-promote="${k}"]`).click();
    } else if (k === "escape") {
      event.preventDefault();
      promo.querySelector('[data-action="cancel-promotion"]').click();
    } else if (k === "tab") {
      trapFocus(promo, event);
    }
  });
}

// initTyping: a typed move (G22). The server reads it (one grammar,
// chess.ParseSAN); a refusal shows next to the field, which keeps the text.
// Typing while the pass screen shows dismisses it: the player has the device.
function initTyping() {
  const input = g.el.sanInput;
  const setError = (text) => {
    g.el.sanError.textContent = text;
    if (text) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  };
  input.addEventListener("keydown", () => dismissPass());
  input.addEventListener("input", () => setError(""));
  g.el.sanForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const san = input.value.trim();
    setError("");
    dismissPass();
    if (!san) {
      setError(t("type_first"));
      return;
    }
    if (!canMove()) {
      setError(whyNot() || t("cannot_move_now"));
      return;
    }
    play({ san }, (err) => setError(errorText(err))).then((next) => {
      if (next) input.value = "";
      input.focus();
    });
  });
}

// initDrag: drag and drop with pointer events (mouse, pen and touch alike).
function initDrag(boardEl) {
  let drag = null;
  boardEl.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || !canMove()) return;
    const el = event.target.closest("[data-square]");
    if (!el) return;
    const name = el.getAttribute("data-square");
    if (!legalFrom()[name]) return;
    drag = { from: name, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
  });
  boardEl.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      g.selected = drag.from;
      paint();
      const src = boardEl.querySelector(`[data-square="${drag.from}"]`);
      const piece = src.querySelector("[data-piece]");
      const size = src.getBoundingClientRect().width;
      drag.ghost = pieceSVG(piece.getAttribute("data-piece"));
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.style.width = drag.ghost.style.height = `${size}px`;
      document.body.appendChild(drag.ghost);
      piece.classList.add("dragging");
      try { boardEl.setPointerCapture(event.pointerId); } catch { /* the pointer is gone */ }
    }
    const w = drag.ghost.getBoundingClientRect().width;
    drag.ghost.style.left = `${event.clientX - w / 2}px`;
    drag.ghost.style.top = `${event.clientY - w / 2}px`;
    event.preventDefault();
  });
  const endDrag = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.ghost) return;
    d.ghost.remove();
    g.suppressClick = true;
    window.setTimeout(() => { g.suppressClick = false; }, 0);
    const under = event.type === "pointerup" ? document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-square]") : null;
    const to = under && boardEl.contains(under) ? under.getAttribute("data-square") : null;
    if (to && to !== d.from && (legalFrom()[d.from] || []).some((u) => u.slice(2, 4) === to)) {
      g.draggedMove = d.from + to;
      tryMove(d.from, to);
    } else {
      g.selected = to === d.from ? d.from : null;
      paint();
    }
  };
  boardEl.addEventListener("pointerup", endDrag);
  boardEl.addEventListener("pointercancel", endDrag);
}
