// help.js: help while playing against the first levels (G23). "Hint" in
// the More menu shows which piece to move, a second press the move itself;
// "Show threats" marks the opponent's capture threats. The server finds
// both (POST /hint, GET /threats), says which games offer them (the threats
// answer has "offered") and notes the hints in the PGN. The
// marks are classes and label words on the squares: `hint`, `hint-to`,
// `threat`, `threat-from`.

import { requestJSON, refreshLabel } from "../board.js";
import { g, errorText } from "./ctx.js";
import { t } from "../words.js";

const MARKS = ["hint", "hint-to", "threat", "threat-from"];

let offered = false;
let step = 0; // hint steps shown in this position: 0, 1 (piece), 2 (move)
let hint = null; // the last hint the server gave in this position
let threats = []; // the threats shown
let showThreats = false;
let fen = "";
let note, hintButton, threatsBox;

function square(name) {
  return g.el.board.querySelector(`[data-square="${name}"]`);
}

function mark(name, cls, words) {
  const el = square(name);
  if (!el) return;
  el.classList.add(cls);
  const extra = el.getAttribute("data-label-extra");
  el.setAttribute("data-label-extra", extra ? `${extra}, ${words}` : words);
  refreshLabel(el);
}

// paintMarks draws the hint and the threats anew (after a move, a flip).
function paintMarks() {
  for (const el of g.el.board.querySelectorAll(MARKS.map((c) => `.${c}`).join(", "))) {
    el.classList.remove(...MARKS);
    el.removeAttribute("data-label-extra");
    refreshLabel(el);
  }
  if (hint) {
    mark(hint.from, "hint", t("hint_label_piece"));
    if (hint.move) mark(hint.move.slice(2, 4), "hint-to", t("hint_label_to"));
  }
  // by and target are the pieces' names in the API ("knight"), never words.
  for (const th of threats) {
    mark(th.to, "threat", t(`threatened_by_${th.by}`, { Square: th.from }));
    mark(th.from, "threat-from", t(`threatens_${th.target}`));
  }
  const lines = [];
  if (hint) lines.push(hint.text);
  if (showThreats) {
    lines.push(...threats.map((th) => th.text));
    if (threats.length === 0 && yourMove()) lines.push(t("no_threats"));
  }
  note.textContent = lines.join(" ");
  note.hidden = lines.length === 0;
  hintButton.textContent = step === 1 ? t("hint_show_move") : t("hint_button");
}

function yourMove() {
  const s = g.state;
  return Boolean(s) && s.status === "active" && s.turn === s.human_color && !s.waiting;
}

function closeMenu() {
  g.el.moreMenu.hidden = true;
  const more = g.root.querySelector('[data-action="more"]');
  if (more) more.setAttribute("aria-expanded", "false");
}

async function askHint() {
  closeMenu();
  if (!yourMove()) {
    note.textContent = t("hint_wait");
    note.hidden = false;
    return;
  }
  const ply = g.state.ply;
  try {
    const h = await requestJSON("POST", `${g.api}/hint`, { ply, step: step === 0 ? "piece" : "move" });
    if (!g.state || g.state.ply !== ply) return; // the game moved on meanwhile
    hint = h;
    step = h.move ? 2 : 1;
  } catch (err) {
    note.textContent = errorText(err);
    note.hidden = false;
    return;
  }
  paintMarks();
}

async function loadThreats() {
  const at = fen;
  if (!showThreats || !yourMove()) {
    threats = [];
    paintMarks();
    return;
  }
  try {
    const data = await requestJSON("GET", `${g.api}/threats`);
    if (at !== fen) return; // a newer position is being shown
    threats = data.threats;
  } catch {
    threats = [];
  }
  paintMarks();
}

// install adds Hint and Show threats to the More menu.
function install() {
  const menu = g.el.moreMenu;
  hintButton = document.createElement("button");
  hintButton.type = "button";
  hintButton.className = "button";
  hintButton.setAttribute("data-action", "hint");
  hintButton.addEventListener("click", askHint);
  const label = document.createElement("label");
  label.className = "choice";
  threatsBox = document.createElement("input");
  threatsBox.type = "checkbox";
  threatsBox.setAttribute("data-option", "threats");
  label.append(threatsBox, " ", t("show_threats"));
  threatsBox.addEventListener("change", () => {
    showThreats = threatsBox.checked;
    loadThreats();
  });
  menu.prepend(hintButton, label);

  note = document.createElement("p");
  note.className = "help-note";
  note.setAttribute("data-help-note", "");
  note.setAttribute("aria-live", "polite");
  note.hidden = true;
  const actions = g.root.querySelector(".game-actions");
  actions.after(note);
  paintMarks();
}

/** Offers the help when the server does for this game, and keeps the marks in step with the board. */
export function initHelp() {
  const board = g.el.board;
  let probed = false;
  new MutationObserver(() => {
    const now = board.getAttribute("data-fen") || "";
    if (!offered) {
      if (probed || !g.state || g.state.mode !== "computer") return;
      probed = true;
      requestJSON("GET", `${g.api}/threats`).then((data) => {
        if (!data.offered) return;
        offered = true;
        fen = board.getAttribute("data-fen") || "";
        install();
        board.setAttribute("data-help", "");
      }, () => {}); // no answer: no help this time
      return;
    }
    if (now !== fen) {
      fen = now;
      step = 0;
      hint = null;
      threats = [];
      loadThreats();
    } else {
      paintMarks(); // the squares may have been rebuilt (a flip)
    }
  }).observe(board, { attributes: true, attributeFilter: ["data-fen", "data-orientation", "data-built"] });
}
