// paint.js: draws the whole page from the state: board, players, clocks,
// status line, move list and the buttons' enabled states.

import { g, active, bottomColor, colorName, isComputer, other } from "./ctx.js";
import { drawBoard } from "./drawboard.js";
import { paintClocks } from "./clock.js";
import { openDraw } from "./controls.js";

/** Draws everything from g.state. */
export function paint() {
  const s = g.state;
  if (!s) return;
  if (g.review !== null) {
    const fens = s.positions || [];
    const i = Math.min(g.review, fens.length - 1);
    drawBoard(fens[i], i > 0 ? s.uci[i - 1] : "", "");
  } else {
    drawBoard(s.fen, s.last_move, s.check);
  }
  paintPlayers();
  paintClocks();
  paintStatus();
  paintMoveList();
  paintControls();
}

function paintPlayers() {
  const s = g.state;
  const bottom = bottomColor();
  const name = (c) => {
    if (isComputer()) return c === s.human_color ? `You (${c})` : `Computer, level ${s.level} (${c})`;
    return colorName(c);
  };
  for (const [where, c] of [["top", other(bottom)], ["bottom", bottom]]) {
    const row = g.el.rows[where];
    row.querySelector(".game-player-name").textContent = name(c);
    row.appendChild(g.el.clocks[c]);
    row.classList.toggle("to-move", active() && s.turn === c);
  }
}

function paintStatus() {
  const s = g.state;
  const e = g.el;
  let text;
  if (!active()) {
    text = `${s.reason}.`;
  } else if (s.waiting || (g.busy && isComputer())) {
    text = "The computer is thinking…";
  } else {
    const who = colorName(s.turn);
    if (isComputer()) text = s.turn === s.human_color ? "Your move." : "The computer's move.";
    else text = `${who} to move.`;
    if (s.check) text += isComputer() && s.turn === s.human_color ? " Your king is in check: move it, block the attack, or capture the attacker." : ` ${who}'s king is in check.`;
  }
  if (g.message) text += " " + g.message;
  e.status.textContent = text;
  e.status.classList.toggle("thinking", Boolean(active() && (s.waiting || g.busy) && isComputer()));
  e.notes.replaceChildren(...(s.notes || []).map((n) => {
    const li = document.createElement("li");
    li.textContent = n;
    return li;
  }));
  e.end.hidden = active() || g.review !== null;
  if (!active()) {
    // An abandoned game has no result ("*"): the banner says "Closed".
    e.end.querySelector(".end-result").textContent = s.status === "abandoned" ? "Closed" : s.result === "1/2-1/2" ? "½–½" : s.result;
    e.end.querySelector(".end-reason").textContent = `${s.reason}.`;
    e.end.querySelector(".end-cause").textContent = s.cause || "";
  }
  e.pass.hidden = !g.passVisible;
  if (g.passVisible) {
    e.pass.querySelector(".pass-screen-title").textContent = `${colorName(s.turn)} to move — tap to continue`;
  }
}

function paintMoveList() {
  const s = g.state;
  const items = [];
  const sans = s.moves;
  const startBlack = s.start_fen.split(" ")[1] === "b";
  let number = Number(s.start_fen.split(" ")[5]) || 1;
  let i = 0;
  while (i < sans.length) {
    const li = document.createElement("li");
    const num = document.createElement("span");
    num.className = "move-number";
    li.appendChild(num);
    if (i === 0 && startBlack) {
      num.textContent = `${number}…`;
      li.append(" ", moveSpan(sans[0], 1));
      i = 1;
    } else {
      num.textContent = `${number}.`;
      li.append(" ", moveSpan(sans[i], i + 1));
      if (i + 1 < sans.length) li.append(" ", moveSpan(sans[i + 1], i + 2));
      i += 2;
    }
    number++;
    items.push(li);
  }
  const list = g.el.moveList;
  list.replaceChildren(...items);
  // Keep the latest move in sight inside the list, never scrolling the page.
  list.scrollLeft = list.scrollWidth;
  list.scrollTop = list.scrollHeight;
}

function moveSpan(san, ply) {
  const sp = document.createElement("span");
  sp.className = "move";
  sp.textContent = san;
  if ((g.review === null && ply === g.state.ply) || g.review === ply) sp.classList.add("current");
  return sp;
}

function paintControls() {
  const s = g.state;
  const e = g.el;
  const on = active();
  const q = (a) => g.root.querySelector(`[data-action="${a}"]`);
  const mineToUndo = isComputer() ? s.ply >= (s.human_color === "white" ? 1 : 2) : s.ply > 0;
  q("undo").hidden = !s.undo;
  q("undo").disabled = !on || !mineToUndo || g.busy;
  q("offer-draw").disabled = !on || g.busy || s.waiting;
  q("resign").disabled = !on || g.busy;
  e.sanForm.hidden = !on;
  e.review.hidden = g.review === null;
  if (g.review !== null) {
    e.review.querySelector(".review-where").textContent = g.review === 0 ? "Start position" : `After ${Math.ceil(g.review / 2)}${g.review % 2 ? "." : "…"} ${s.moves[g.review - 1]}`;
  }
  e.turnBoardBox.closest("label").hidden = isComputer();
  e.turnBoardBox.checked = g.turnBoard;
  if (on && !isComputer() && s.draw_offer && !e.drawDialog.open && !g.passVisible) openDraw();
}
