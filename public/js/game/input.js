// input.js: the ways to move (G3): click or tap a piece then a marked
// square, drag and drop, arrow keys + Enter (board.js), a typed move; and
// the promotion picker (G4). Input changes the state and sends moves
// through net; the views show them.

import { enableKeyboard, pieceSVG } from "../board.js";
import { t } from "../words.js";
import { page } from "./page.js";
import { state, setState, active, canMove, isComputer, isThinking, legalFrom } from "./state.js";
import { act, errorText } from "./net.js";
import { switched } from "./time.js";
import { dismissPass, trapFocus } from "./controls.js";

let suppressClick = false; // the click that ends a drag is not a tap

// whyNot says why a tap on the board does nothing, when that is not plain.
function whyNot() {
  if (!state.game || !active()) return "";
  if (isThinking()) return t("why_thinking");
  if (isComputer() && state.game.turn !== state.game.human_color) return t("why_computer_turn");
  return "";
}

function onSquareClick(name) {
  if (!canMove()) {
    const why = whyNot();
    if (why && why !== state.message) setState({ message: why });
    return;
  }
  const moves = legalFrom();
  const selected = state.selected;
  if (selected && selected !== name && (moves[selected] || []).some((u) => u.slice(2, 4) === name)) {
    tryMove(selected, name);
    return;
  }
  setState({ selected: selected === name || !moves[name] ? null : name });
}

function tryMove(from, to, dragged = false) {
  const cands = (state.game.legal || []).filter((u) => u.slice(0, 4) === from + to);
  if (cands.length === 0) return;
  if (cands.some((u) => u.length === 5)) {
    setState({ promotion: { from, to, dragged } });
    return;
  }
  play({ move: cands[0] }, null, dragged);
}

/**
 * Shows the move at once, then sends it; the answer (with the computer's
 * reply, if any) replaces the board. Against the computer the page shows
 * it thinking from this moment (G17): its clock runs, the visitor's stops.
 * A typed move's refusal goes to onError, next to the field.
 */
function play(body, onError = null, dragged = false) {
  const s = state.game;
  const wasFriendPass = !isComputer() && s.pass_screen;
  const change = { selected: null, message: "" };
  if (body.move) change.preview = { move: body.move, dragged };
  if (!wasFriendPass && s.clock) change.clock = switched(state.clock, s.turn, s.clock.increment_ms, performance.now());
  if (isComputer()) {
    // The answer comes as soon as the move is played; the reply follows.
    body = { ...body, reply: false };
    change.thinking = true;
    change.pendingPly = s.ply + 1;
  }
  setState(change);
  return act("/moves", body, onError).then((next) => {
    if (next && wasFriendPass && next.status === "active") {
      setState({ passVisible: true });
      page.el.pass.querySelector("button").focus();
    }
    return next;
  });
}

/** Wires the board, the typed-move form and the promotion picker. */
export function initInput() {
  const boardEl = page.el.board;
  boardEl.classList.add("board-interactive", "game-board");
  enableKeyboard(boardEl);

  boardEl.addEventListener("click", (event) => {
    const el = event.target.closest("[data-square]");
    if (!el) return;
    event.preventDefault();
    if (suppressClick) { suppressClick = false; return; }
    onSquareClick(el.getAttribute("data-square"));
  });
  boardEl.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && event.target.closest("[data-square]")) setState({ selected: null });
  });
  initDrag(boardEl);

  initTyping();

  const promo = page.el.promo;
  promo.addEventListener("click", (event) => {
    const b = event.target.closest("button");
    if (!b || !state.promotion) return;
    const { from, to, dragged } = state.promotion;
    if (b.hasAttribute("data-promote")) {
      setState({ promotion: null });
      play({ move: from + to + b.getAttribute("data-promote") }, null, dragged);
    } else if (b.getAttribute("data-action") === "cancel-promotion") {
      setState({ promotion: null, selected: null }); // the pawn stays where it was: no move is made
      boardEl.querySelector(`[data-square="${from}"]`)?.focus();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (!state.promotion) return;
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
  const input = page.el.sanInput;
  const setError = (text) => {
    page.el.sanError.textContent = text;
    if (text) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  };
  input.addEventListener("keydown", () => dismissPass());
  input.addEventListener("input", () => setError(""));
  page.el.sanForm.addEventListener("submit", (event) => {
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
      setState({ selected: drag.from });
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
    suppressClick = true;
    window.setTimeout(() => { suppressClick = false; }, 0);
    const under = event.type === "pointerup" ? document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-square]") : null;
    const to = under && boardEl.contains(under) ? under.getAttribute("data-square") : null;
    if (to && to !== d.from && (legalFrom()[d.from] || []).some((u) => u.slice(2, 4) === to)) {
      tryMove(d.from, to, true);
    } else {
      setState({ selected: to === d.from ? d.from : null });
    }
  };
  boardEl.addEventListener("pointerup", endDrag);
  boardEl.addEventListener("pointercancel", endDrag);
}
