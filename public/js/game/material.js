// material.js: beside each player, the pieces they have captured as small
// icons and the material difference, "+2" (G21): a view of the position
// shown, counted from the start position with the piece values the server
// renders into the page (the same values the computer's draw rule uses).

import { parseFEN, pieceSVG } from "../board.js";
import { t } from "../words.js";
import { page } from "./page.js";
import { state, subscribe } from "./state.js";

const ORDER = ["Q", "R", "B", "N", "P"]; // most valuable first

// The words' keys of the captured pieces' names.
const PIECE_WORDS = { Q: "piece_queen", R: "piece_rook", B: "piece_bishop", N: "piece_knight", P: "piece_pawn" };

function counts(fen) {
  const n = { w: {}, b: {} };
  for (const code of Object.values(parseFEN(fen))) {
    n[code[0]][code[1]] = (n[code[0]][code[1]] || 0) + 1;
  }
  return n;
}

/**
 * What each colour has captured: {white: ["bN", "bP"], black: [...]} and
 * the material each side has on the board.
 */
function captures(startFEN, fen) {
  const start = counts(startFEN), now = counts(fen);
  const values = page.facts.values || {};
  const out = { white: [], black: [], score: { white: 0, black: 0 } };
  for (const [side, victim] of [["white", "b"], ["black", "w"]]) {
    // A promoted piece is a pawn that went missing, not a capture.
    let promoted = 0;
    for (const p of ["Q", "R", "B", "N"]) promoted += Math.max(0, (now[victim][p] || 0) - (start[victim][p] || 0));
    for (const p of ORDER) {
      let missing = Math.max(0, (start[victim][p] || 0) - (now[victim][p] || 0));
      if (p === "P") missing = Math.max(0, missing - promoted);
      for (let i = 0; i < missing; i++) out[side].push(victim + p);
    }
    const own = victim === "b" ? "w" : "b";
    for (const [p, n] of Object.entries(now[own])) out.score[side] += (values[p] || 0) * n;
  }
  return out;
}

/** Draws the captured pieces and the lead beside each player. */
function paintMaterial(fen) {
  const c = captures(state.game.start_fen, fen);
  for (const side of ["white", "black"]) {
    const el = page.el.material[side];
    const lead = c.score[side] - c.score[side === "white" ? "black" : "white"];
    const key = c[side].join(",") + "|" + lead;
    if (el.getAttribute("data-drawn") === key) continue;
    el.setAttribute("data-drawn", key);
    const parts = [];
    let last = "";
    for (const code of c[side]) {
      if (last && last !== code) {
        const gap = document.createElement("span");
        gap.className = "material-gap";
        parts.push(gap);
      }
      parts.push(pieceSVG(code));
      last = code;
    }
    if (lead > 0) {
      const span = document.createElement("span");
      span.className = "material-lead";
      span.textContent = `+${lead}`;
      parts.push(span);
    }
    el.replaceChildren(...parts);
    const names = c[side].map((code) => t(PIECE_WORDS[code[1]]));
    let label = t("nothing_captured");
    if (names.length && lead > 0) label = t("captured_ahead", { Pieces: names.join(", "), Count: lead });
    else if (names.length) label = t("captured", { Pieces: names.join(", ") });
    el.setAttribute("aria-label", label);
    el.setAttribute("role", "img");
  }
}

/** Draws the material of the position shown (a reviewed one after the game) on every change. */
export function initMaterial() {
  subscribe((s) => {
    const game = s.game;
    if (!game) return;
    let fen = game.fen;
    if (s.review !== null) {
      const fens = game.positions || [];
      fen = fens[Math.min(s.review, fens.length - 1)];
    }
    paintMaterial(fen);
  });
}
