// help.js: help while playing against the first levels (G23), a view of
// state.help. "Hint" in the More menu shows which piece to move, a second
// press the move itself; "Show threats" marks the opponent's capture
// threats. The server finds both (POST /hint, GET /threats), says which
// games offer them and notes the hints in the PGN; the controls ask, the
// effects load. The marks are classes and label words on the squares:
// `hint`, `hint-to`, `threat`, `threat-from`.

import { refreshLabel } from "../board.js";
import { t } from "../words.js";
import { page } from "./page.js";
import { subscribe, yourMove } from "./state.js";

const MARKS = ["hint", "hint-to", "threat", "threat-from"];

let note, hintButton;

function square(name) {
  return page.el.board.querySelector(`[data-square="${name}"]`);
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
function paintMarks(help) {
  for (const el of page.el.board.querySelectorAll(MARKS.map((c) => `.${c}`).join(", "))) {
    el.classList.remove(...MARKS);
    el.removeAttribute("data-label-extra");
    refreshLabel(el);
  }
  const { hint, threats } = help;
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
  if (help.note) lines.push(help.note);
  else {
    if (hint) lines.push(hint.text);
    if (help.show) {
      lines.push(...threats.map((th) => th.text));
      if (threats.length === 0 && yourMove()) lines.push(t("no_threats"));
    }
  }
  note.textContent = lines.join(" ");
  note.hidden = lines.length === 0;
  hintButton.textContent = help.step === 1 ? t("hint_show_move") : t("hint_button");
}

// install adds Hint and Show threats to the More menu (the controls give
// them their behaviour) and the note under the game's buttons.
function install() {
  hintButton = document.createElement("button");
  hintButton.type = "button";
  hintButton.className = "button";
  hintButton.setAttribute("data-action", "hint");
  const label = document.createElement("label");
  label.className = "choice";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.setAttribute("data-option", "threats");
  label.append(box, " ", t("show_threats"));
  page.el.moreMenu.prepend(hintButton, label);

  note = document.createElement("p");
  note.className = "help-note";
  note.setAttribute("data-help-note", "");
  note.setAttribute("aria-live", "polite");
  note.hidden = true;
  page.root.querySelector(".game-actions").after(note);
  page.el.board.setAttribute("data-help", "");
}

/** Adds the help when the game offers it and keeps its marks in step with the board. */
export function initHelp() {
  subscribe((s) => {
    if (!s.help.offered) return;
    if (!note) install();
    paintMarks(s.help);
  });
}
