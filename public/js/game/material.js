// material.js: beside each player, the pieces they have captured as small
// icons and the material difference, "+2" (G21). Counted from the start
// position and the position shown, with the piece values the server
// renders into the page (the same values the computer's draw rule uses).

import { parseFEN, pieceSVG } from "../board.js";
import { g } from "./ctx.js";
import { t } from "../words.js";

const ORDER = ["Q", "R", "B", "N", "P"]; // most valuable first

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
export function captures(startFEN, fen) {
  const start = counts(startFEN), now = counts(fen);
  const values = g.facts.values || {};
  const out = { white: [], black: [], score: { white: 0, black: 0 } };
  for (const [side, victim] of [["white", "b"], ["black", "w"]]) {
    // A promoted piece is a pawn that went missing, not a capture.
    let promoted = 0;
    for (const t of ["Q", "R", "B", "N"]) promoted += Math.max(0, (now[victim][t] || 0) - (start[victim][t] || 0));
    for (const t of ORDER) {
      let missing = Math.max(0, (start[victim][t] || 0) - (now[victim][t] || 0));
      if (t === "P") missing = Math.max(0, missing - promoted);
      for (let i = 0; i < missing; i++) out[side].push(victim + t);
    }
    const own = victim === "b" ? "w" : "b";
    for (const [t, n] of Object.entries(now[own])) out.score[side] += (values[t] || 0) * n;
  }
  return out;
}

/** Draws the captured pieces and the lead beside each player. */
export function paintMaterial(fen) {
  const c = captures(g.state.start_fen, fen);
  for (const side of ["white", "black"]) {
    const el = g.el.material[side];
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

// The words' keys of the captured pieces' names.
const PIECE_WORDS = { Q: "piece_queen", R: "piece_rook", B: "piece_bishop", N: "piece_knight", P: "piece_pawn" };
