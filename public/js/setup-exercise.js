// setup-exercise.js enhances the setup practice page (X10): pick a piece
// from the tray (tap, click, or Enter on it) and put it on a square (tap,
// click, Enter, or drag it there); a placed piece goes back to the tray
// when it is tapped again. Check asks the check API and marks every
// square. Without this file the same page works as a form, one post per
// tap.
import {
  announce, clearStates, enableKeyboard, onSquare, parseFEN, pieceSVG, postJSON, setPiece,
  setState,
} from "./board.js";
import { t } from "./words.js";

const ORDER = ["K", "Q", "R", "B", "N", "P"];
const VERDICT_CLASSES = ["correct", "wrong", "missed"];

// rank orders the tray as the server does: White first, then king,
// queen, rooks, bishops, knights, pawns.
function rank(code) {
  return (code[0] === "w" ? 0 : 10) + ORDER.indexOf(code[1]);
}

class SetupExercise {
  constructor(root) {
    this.root = root;
    this.board = root.querySelector("[data-board]");
    this.form = root.querySelector("[data-setup-form]");
    this.tray = root.querySelector("[data-tray]");
    this.trayEmpty = root.querySelector("[data-tray-empty]");
    this.result = root.querySelector("[data-result]");
    this.input = root.querySelector("[data-placed]");
    if (!this.board || !this.form || !this.tray || !this.result || !this.input) return;
    this.api = root.dataset.api;
    this.given = parseFEN(this.board.dataset.given);
    this.names = {};
    for (const b of this.tray.querySelectorAll("[data-tray-piece]")) this.names[b.dataset.trayPiece] = b.getAttribute("aria-label");
    this.placed = {};
    for (const item of this.input.value.split(",").filter(Boolean)) this.placed[item.slice(0, 2)] = item.slice(2);
    for (const [sq, code] of Object.entries(this.placed)) {
      setState(this.board, sq, "placed");
      this.names[code] ||= code;
    }
    this.pick = "";
    const pressed = this.tray.querySelector('[aria-pressed="true"]');
    if (pressed) this.pick = pressed.dataset.trayPiece;
    this.stale = Boolean(this.board.dataset.state);
    this.tray.addEventListener("click", (ev) => {
      const b = ev.target.closest("[data-tray-piece]");
      if (!b) return;
      ev.preventDefault();
      this.choose(b);
    });
    enableKeyboard(this.board, "a1");
    onSquare(this.board, (name) => this.square(name));
    this.enableDrag();
    this.form.addEventListener("submit", (ev) => this.onSubmit(ev));
    root.dataset.ready = ""; // tests wait for this before clicking
  }

  // fresh clears a shown verdict before the board changes again.
  fresh() {
    if (!this.stale) return;
    this.stale = false;
    clearStates(this.board, ...VERDICT_CLASSES);
    this.result.hidden = true;
    this.result.replaceChildren();
    this.result.className = "exercise-result";
  }

  choose(button) {
    this.fresh();
    const code = button.dataset.trayPiece;
    const on = this.pick !== code || button.getAttribute("aria-pressed") !== "true";
    for (const b of this.tray.querySelectorAll("[data-tray-piece]")) b.setAttribute("aria-pressed", "false");
    this.pick = on ? code : "";
    if (on) {
      button.setAttribute("aria-pressed", "true");
      announce(t("selected", { Piece: this.names[code] }));
    }
  }

  square(name) {
    this.fresh();
    if (this.placed[name]) {
      const code = this.placed[name];
      delete this.placed[name];
      setPiece(this.board, name, "");
      setState(this.board, name, "placed", false);
      this.addToTray(code);
      this.sync();
      announce(t("lifted", { Piece: this.names[code] }));
      return;
    }
    if (this.given[name]) {
      announce(t("occupied", { Square: name }));
      return;
    }
    if (!this.pick) {
      announce(t("pick_first"));
      return;
    }
    this.place(this.pick, name);
  }

  place(code, name) {
    const button = this.tray.querySelector(`[data-tray-piece="${code}"][aria-pressed="true"]`) || this.tray.querySelector(`[data-tray-piece="${code}"]`);
    if (!button || this.given[name] || this.placed[name]) return;
    button.remove();
    this.placed[name] = code;
    setPiece(this.board, name, code);
    setState(this.board, name, "placed");
    this.pick = "";
    this.sync();
    announce(t("placed", { Piece: this.names[code], Square: name }));
  }

  addToTray(code) {
    const b = document.createElement("button");
    b.type = "submit";
    b.className = "tray-piece";
    b.name = "tray";
    b.value = code;
    b.dataset.trayPiece = code;
    b.setAttribute("aria-label", this.names[code]);
    b.setAttribute("aria-pressed", "false");
    b.append(pieceSVG(code));
    const after = [...this.tray.querySelectorAll("[data-tray-piece]")].find((x) => rank(x.dataset.trayPiece) > rank(code));
    if (after) after.before(b); else this.trayEmpty.before(b);
  }

  // sync writes the placed pieces into the form, so a post (Check without
  // the API) carries them, and shows or hides "the tray is empty".
  sync() {
    this.input.value = Object.entries(this.placed).map(([sq, code]) => sq + code).sort().join(",");
    this.trayEmpty.hidden = this.tray.querySelector("[data-tray-piece]") !== null;
  }

  onSubmit(ev) {
    const action = ev.submitter ? ev.submitter.value : "";
    const name = ev.submitter ? ev.submitter.name : "";
    if (name !== "action") return; // tray and squares are handled above
    if (action === "check") {
      ev.preventDefault();
      this.check();
    } else if (action === "restart") {
      ev.preventDefault();
      this.stale = true;
      this.fresh();
      for (const [sq, code] of Object.entries(this.placed)) {
        setPiece(this.board, sq, "");
        setState(this.board, sq, "placed", false);
        this.addToTray(code);
      }
      this.placed = {};
      this.sync();
    } else if (action === "answer") {
      ev.preventDefault();
      this.check(true);
    }
  }

  async check(answer = false) {
    let res;
    try {
      // The answer comes from the help address, which also tells the
      // stars that it was shown (X11).
      res = await postJSON(answer ? this.api.replace(/\/check$/, "/help") : this.api, answer ? {} : { placed: this.placed });
    } catch (err) {
      this.say("is-wrong", "error", t("went_wrong"), [err.message]);
      return;
    }
    this.stale = true;
    clearStates(this.board, ...VERDICT_CLASSES);
    if (answer) {
      for (const [sq, code] of Object.entries(this.placed)) setPiece(this.board, sq, "");
      this.placed = {};
      for (const [sq, code] of Object.entries(res.answer)) {
        this.placed[sq] = code;
        setPiece(this.board, sq, code);
        setState(this.board, sq, "placed");
      }
      for (const b of this.tray.querySelectorAll("[data-tray-piece]")) b.remove();
      this.pick = "";
      this.sync();
      this.say("is-answer", "answer", t("answer_shown"), []);
      return;
    }
    for (const sq of res.right) setState(this.board, sq, "correct");
    for (const sq of res.wrong) setState(this.board, sq, "wrong");
    for (const sq of res.missed) setState(this.board, sq, "missed");
    if (res.correct) {
      this.say("is-correct", "correct", t("correct"), []);
      const next = this.root.querySelector("[data-action=next]");
      if (next) next.classList.add("button-primary");
      this.root.querySelector("[data-action=check]").classList.remove("button-primary");
      return;
    }
    const lines = [...res.wrong, ...res.missed].filter((sq) => res.reasons[sq]).map((sq) => [sq, res.reasons[sq]]);
    this.say("is-wrong", "wrong", t("not_quite"), lines);
  }

  say(cls, verdict, text, lines) {
    this.result.className = `exercise-result ${cls}`;
    const p = document.createElement("p");
    p.className = "exercise-verdict";
    p.dataset.verdict = verdict;
    p.textContent = text;
    const parts = [p];
    if (lines.length) {
      const ul = document.createElement("ul");
      ul.className = "exercise-reasons";
      ul.dataset.reasons = "";
      for (const line of lines) {
        const li = document.createElement("li");
        if (Array.isArray(line)) {
          li.dataset.reason = line[0];
          li.textContent = line[1];
        } else {
          li.textContent = line;
        }
        ul.append(li);
      }
      parts.push(ul);
    }
    this.result.replaceChildren(...parts);
    this.result.hidden = false;
    announce([text, ...lines.map((l) => (Array.isArray(l) ? l[1] : l))].join(" "));
  }

  // Drag a piece from the tray onto a square.
  enableDrag() {
    let drag = null;
    this.tray.addEventListener("pointerdown", (ev) => {
      const b = ev.target.closest("[data-tray-piece]");
      if (!b || ev.button !== 0) return;
      drag = { button: b, code: b.dataset.trayPiece, ghost: null, x: ev.clientX, y: ev.clientY };
    });
    window.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      if (!drag.ghost && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 6) return;
      if (!drag.ghost) {
        this.choose(drag.button);
        if (this.pick !== drag.code) this.choose(drag.button);
        drag.ghost = pieceSVG(drag.code);
        drag.ghost.classList.add("drag-ghost");
        document.body.append(drag.ghost);
      }
      drag.ghost.style.left = `${ev.clientX}px`;
      drag.ghost.style.top = `${ev.clientY}px`;
    });
    window.addEventListener("pointerup", (ev) => {
      if (!drag) return;
      const d = drag;
      drag = null;
      if (!d.ghost) return; // a tap: the click handler picks the piece
      d.ghost.remove();
      const under = document.elementFromPoint(ev.clientX, ev.clientY);
      const el = under && under.closest("[data-square]");
      if (el && this.board.contains(el)) this.square(el.dataset.square);
    });
  }
}

for (const root of document.querySelectorAll("[data-setup-page]")) new SetupExercise(root);
