// board.js: small helpers over the board page contract (H2), shared by
// exercise.js, quiz.js and game.js. No dependencies; import with
//   import { onSquare, enableKeyboard, announce } from "./board.js";
//
// The server renders every board (views.RenderBoard): an element with
// data-board and data-fen, 64 squares with data-square, pieces with
// data-piece. Interactive boards use <button name=square value=e4> inside a
// form, so they work without JavaScript; these helpers enhance them.

import { t } from "./words.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// The words of a square's label — piece names ("wK": "white king") and the
// state classes' words, in order — come from the server with every page
// (data-board-words on <body>), so the browser says what the server says.
let boardWords = null;
function words() {
  if (!boardWords) {
    try {
      boardWords = JSON.parse(document.body.dataset.boardWords || "{}");
    } catch {
      boardWords = {};
    }
  }
  return boardWords;
}

/** All boards on the page, or the boards inside root. */
export function boards(root = document) {
  return Array.from(root.querySelectorAll("[data-board]"));
}

/** The 64 square elements in display (reading) order. */
export function squares(board) {
  return Array.from(board.querySelectorAll("[data-square]"));
}

/** The element of one square, such as "e4", or null. */
export function squareEl(board, name) {
  return board.querySelector(`[data-square="${name}"]`);
}

/** The piece code on a square ("wK"), or "" when it is empty. */
export function pieceAt(board, name) {
  const sq = squareEl(board, name);
  const p = sq && sq.querySelector("[data-piece]");
  return p ? p.getAttribute("data-piece") : "";
}

/** The FEN the board shows. */
export function fen(board) {
  return board.getAttribute("data-fen") || "";
}

/** "white" or "black": the side at the bottom. */
export function orientation(board) {
  return board.getAttribute("data-orientation") || "white";
}

/** The names of squares that carry a class, such as "marked". */
export function squaresWith(board, cls) {
  return squares(board)
    .filter((el) => el.classList.contains(cls))
    .map((el) => el.getAttribute("data-square"));
}

/** Adds or removes a state class on one square and refreshes its label. */
export function setState(board, name, cls, on = true) {
  const el = squareEl(board, name);
  if (!el) return;
  el.classList.toggle(cls, on);
  refreshLabel(el);
}

/** Toggles a state class on one square; returns whether it is now on. */
export function toggleState(board, name, cls) {
  const el = squareEl(board, name);
  if (!el) return false;
  const on = el.classList.toggle(cls);
  refreshLabel(el);
  return on;
}

/** Removes state classes from every square. */
export function clearStates(board, ...classes) {
  for (const el of squares(board)) {
    let changed = false;
    for (const cls of classes) {
      if (el.classList.contains(cls)) {
        el.classList.remove(cls);
        changed = true;
      }
    }
    if (changed) refreshLabel(el);
  }
}

/** Rebuilds a square's aria-label from its piece and state classes. */
export function refreshLabel(el) {
  const name = el.getAttribute("data-square");
  const p = el.querySelector("[data-piece]");
  const said = [name];
  const { pieces = {}, states = [], empty = "", highlighted = "", sep = ", " } = words();
  if (p) {
    const code = p.getAttribute("data-piece");
    said.push(pieces[code] || code);
  } else {
    said.push(empty);
  }
  if (el.classList.contains("highlight")) said.push(highlighted);
  for (const [cls, word] of states) {
    if (el.classList.contains(cls) && !said.includes(word)) said.push(word);
  }
  const extra = el.getAttribute("data-label-extra");
  if (extra) said.push(extra);
  el.setAttribute("aria-label", said.join(sep));
}

/** Builds a piece ("wQ") as inline SVG using the layout's sprite. */
export function pieceSVG(code) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "piece");
  svg.setAttribute("data-piece", code);
  svg.setAttribute("viewBox", "0 0 45 45");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#piece-${code}`);
  svg.appendChild(use);
  return svg;
}

/** Puts a piece ("wQ") on a square, or clears it with "". */
export function setPiece(board, name, code) {
  const el = squareEl(board, name);
  if (!el) return;
  const old = el.querySelector("[data-piece]");
  if (old) old.remove();
  if (code) el.appendChild(pieceSVG(code));
  el.classList.toggle("occupied", Boolean(code));
  refreshLabel(el);
}

/**
 * The pieces of a FEN's placement field as {square: code}, such as
 * {e1: "wK", e8: "bK"}. Throws on a placement that is not eight rows.
 */
export function parseFEN(fenText) {
  const rows = fenText.split(" ")[0].split("/");
  if (rows.length !== 8) throw new Error(`board.js: not a FEN: ${fenText}`);
  const map = {};
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "8") { file += Number(ch); continue; }
      map["abcdefgh"[file++] + (8 - i)] = (ch === ch.toUpperCase() ? "w" : "b") + ch.toUpperCase();
    }
  });
  return map;
}

/**
 * Shows a new position from its FEN: pieces, data-fen and labels. State
 * classes are left alone; clear them first with clearStates.
 */
export function setPosition(board, fenText) {
  const pieces = parseFEN(fenText);
  for (const el of squares(board)) {
    const name = el.getAttribute("data-square");
    setPiece(board, name, pieces[name] || "");
  }
  board.setAttribute("data-fen", fenText);
}

/**
 * Calls handler(name, el, event) when a square is clicked, tapped or
 * activated with Enter/Space. The default form submit is prevented, so the
 * page stays put; without JavaScript the same buttons post the form.
 */
export function onSquare(board, handler) {
  board.addEventListener("click", (event) => {
    const el = event.target.closest("[data-square]");
    if (!el || !board.contains(el)) return;
    event.preventDefault();
    handler(el.getAttribute("data-square"), el, event);
  });
}

/**
 * Roving keyboard focus over the 64 squares: one square is in the tab
 * order; arrow keys move (in screen directions, whatever the orientation),
 * Home/End jump along the row; Enter and Space activate (native buttons).
 * The squares are looked up on each key, so a page may rebuild them (the
 * game page does when the board turns); start is the square first in the
 * tab order when the squares are there already.
 */
// enableDrag lets a piece be dragged on board with the mouse or a finger:
// start(square) answers whether a press there may begin a drag (the
// piece's side, whether the page is busy); select(square) runs when the
// drag really begins (a move of 6 px), as a click on the piece would;
// drop(from, to) runs on release over another square. A press released
// where it began is a plain click, left to onSquare.
export function enableDrag(board, { start, select, drop }) {
  let drag = null;
  board.addEventListener("pointerdown", (ev) => {
    const el = ev.target.closest("[data-square]");
    if (!el || ev.button !== 0 || !start(el.dataset.square)) return;
    const piece = pieceAt(board, el.dataset.square);
    if (!piece) return;
    drag = { from: el.dataset.square, ghost: null, x: ev.clientX, y: ev.clientY, piece };
  });
  window.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    if (!drag.ghost && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 6) return;
    if (!drag.ghost) {
      select(drag.from);
      drag.ghost = pieceSVG(drag.piece);
      drag.ghost.classList.add("drag-ghost");
      document.body.append(drag.ghost);
      setState(board, drag.from, "drag-from");
    }
    drag.ghost.style.left = `${ev.clientX}px`;
    drag.ghost.style.top = `${ev.clientY}px`;
  });
  window.addEventListener("pointerup", (ev) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.ghost) return; // a click: the click handler does the rest
    d.ghost.remove();
    setState(board, d.from, "drag-from", false);
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const el = under && under.closest("[data-square]");
    // The click the browser fires after a drag lands on the board, not on
    // one square (press and release differ), so onSquare ignores it.
    if (el && board.contains(el) && el.dataset.square !== d.from) drop(d.from, el.dataset.square);
  });
}

export function enableKeyboard(board, start) {
  const list = squares(board);
  if (list.length === 64) {
    const first = Math.max(0, list.findIndex((el) => el.getAttribute("data-square") === start));
    list.forEach((el, i) => el.setAttribute("tabindex", i === first ? "0" : "-1"));
  }

  // rove puts one square in the tab order and takes the others out.
  const rove = (target) => {
    for (const el of squares(board)) el.setAttribute("tabindex", el === target ? "0" : "-1");
  };

  board.addEventListener("focusin", (event) => {
    const el = event.target.closest("[data-square]");
    if (el && el.getAttribute("tabindex") !== "0") rove(el);
  });

  board.addEventListener("keydown", (event) => {
    const all = squares(board);
    const i = all.indexOf(event.target.closest("[data-square]"));
    if (i < 0 || all.length !== 64) return;
    const row = Math.floor(i / 8);
    const col = i % 8;
    let next = -1;
    switch (event.key) {
      case "ArrowUp": next = row > 0 ? i - 8 : i; break;
      case "ArrowDown": next = row < 7 ? i + 8 : i; break;
      case "ArrowLeft": next = col > 0 ? i - 1 : i; break;
      case "ArrowRight": next = col < 7 ? i + 1 : i; break;
      case "Home": next = row * 8; break;
      case "End": next = row * 8 + 7; break;
      default: return;
    }
    event.preventDefault();
    rove(all[next]);
    all[next].focus();
  });
}

let announcer = null;

/** Says text to screen readers through the page's aria-live region. */
export function announce(text) {
  if (!announcer) {
    announcer = document.getElementById("announcer");
    if (!announcer) {
      announcer = document.createElement("div");
      announcer.id = "announcer";
      announcer.className = "visually-hidden";
      announcer.setAttribute("aria-live", "polite");
      document.body.appendChild(announcer);
    }
  }
  // Clear first so the same sentence twice is announced twice.
  announcer.textContent = "";
  window.setTimeout(() => { announcer.textContent = text; }, 30);
}

/** Reads the CSRF token a page rendered (meta or hidden field), or "". */
export function csrfToken() {
  const field = document.querySelector('input[name="_csrf"]');
  return field ? field.value : "";
}

/**
 * Sends a request and returns the parsed JSON reply; body, when given, is
 * sent as JSON. Throws an Error whose message is the server's
 * {"error": "..."} sentence when the answer is not 2xx (err.status and
 * err.data carry the details), or the page's words server_status (from
 * scriptWords "board.js.") when the answer has none.
 */
export async function requestJSON(method, url, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(url, {
    method,
    headers,
    credentials: "same-origin",
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = new Error((data && data.error) || t("server_status", { Status: res.status }));
    err.status = res.status;
    err.data = data;
    throw err;
  }
  return data;
}

/** Posts JSON and returns the parsed reply (see requestJSON). */
export function postJSON(url, body) {
  return requestJSON("POST", url, body);
}
