// speech.js: tells screen readers each new move (N4), a view of the state:
// "Nf3+" by white -> "White played knight to f3, check", followed by the
// status line. Each piece has its own sentence, so every language can word
// it its own way.

import { announce } from "../board.js";
import { t } from "../words.js";
import { page } from "./page.js";
import { subscribe, other } from "./state.js";

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

/** Announces the moves that are new in next, after the status line is drawn. */
function announceMoves(prev, next) {
  if (!prev || next.ply <= prev.ply) return;
  const fresh = (next.moves || []).slice(prev.moves.length);
  if (fresh.length === 0) return;
  const words = fresh.map((san, i) => spokenMove(san, i % 2 === 0 ? prev.turn : other(prev.turn)));
  announce(`${words.join(". ")}. ${page.el.status.textContent}`);
}

/** Subscribe after the view that draws the status line. */
export function initSpeech() {
  subscribe((s, prev) => {
    if (s.game && s.game !== prev.game) announceMoves(prev.game, s.game);
  });
}
