// puzzle.js enhances the puzzle page (P3, P6): select a piece and its
// destinations show, click or drag it to a square, or use the keyboard
// (arrows, then Enter on the piece and on its new square). The move goes
// to the puzzle API: a right move brings the opponent's answer, a wrong
// one shows the punishing reply and why, then takes the move back. Hint
// and Solution answer in place. Without this file the page works as a
// form, one click per post.
import {
  announce, clearStates, enableDrag, enableKeyboard, fen, onSquare, pieceAt, pieceSVG, postJSON, setPosition,
  setState,
} from "./board.js";
import { t } from "./words.js";
import { showSAN } from "./notation.js";

const MARKS = ["selected", "dest", "wrong", "correct", "last-move", "target", "drag-from"];
const PROMOTIONS = ["q", "r", "b", "n"];
// How long the punishing reply stays on the board before the take-back.
const SHOW_REPLY_MS = 1800;

class Puzzle {
  constructor(root) {
    this.root = root;
    this.board = root.querySelector("[data-board]");
    this.form = root.querySelector("[data-move-form]");
    this.result = root.querySelector("[data-result]");
    this.prompt = root.querySelector("[data-prompt]");
    if (!this.board || !this.form || !this.result) return;
    this.id = root.dataset.id;
    this.mode = root.dataset.mode || "";
    this.ply = Number(root.dataset.ply || 0);
    this.moves = (root.dataset.moves || "").split(" ").filter(Boolean);
    this.position = fen(this.board);
    this.selected = "";
    this.busy = false;
    this.done = this.moves.length === 0;
    enableKeyboard(this.board, this.moves[0] ? this.moves[0].slice(0, 2) : "e4");
    onSquare(this.board, (name) => this.click(name));
    this.enableDrag();
    this.form.addEventListener("submit", (ev) => this.onSubmit(ev));
    root.dataset.ready = ""; // tests wait for this before clicking
  }

  api(path) { return `/api/puzzles/${encodeURIComponent(this.id)}/${path}`; }

  side() { return this.moves.length ? pieceAt(this.board, this.moves[0].slice(0, 2))[0] : ""; }

  click(name) {
    if (this.busy || this.done) return;
    const piece = pieceAt(this.board, name);
    if (this.selected && name === this.selected) { this.select(""); return; }
    if (this.selected && !(piece && piece[0] === this.side())) { this.tryMove(this.selected, name); return; }
    if (piece && piece[0] === this.side()) this.select(name);
  }

  select(name) {
    clearStates(this.board, "selected", "dest");
    this.selected = name;
    if (!name) return;
    setState(this.board, name, "selected");
    const dests = new Set(this.moves.filter((m) => m.startsWith(name)).map((m) => m.slice(2, 4)));
    for (const d of dests) setState(this.board, d, "dest");
    announce(dests.size ? t("selected", { Square: name, Squares: [...dests].join(", ") })
      : t("selected_stuck", { Square: name }));
  }

  tryMove(from, to) {
    const uci = from + to;
    this.select("");
    if (this.moves.includes(uci + "q")) { this.askPromotion(uci); return; }
    if (!this.moves.includes(uci)) return;
    this.send(uci);
  }

  askPromotion(uci) {
    this.closePromotion();
    const box = document.createElement("fieldset");
    box.className = "move-promote";
    box.dataset.promote = "";
    const legend = document.createElement("legend");
    legend.textContent = t("promote_legend");
    box.append(legend);
    const color = pieceAt(this.board, uci.slice(0, 2))[0];
    for (const letter of PROMOTIONS) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "button";
      b.append(pieceSVG(color + letter.toUpperCase()), document.createTextNode(" " + t(`promote_${letter}`)));
      b.addEventListener("click", () => { this.closePromotion(); this.send(uci + letter); });
      box.append(b);
    }
    this.board.parentElement.after(box);
    box.querySelector("button").focus();
    announce(t("promote_say"));
  }

  closePromotion() {
    for (const el of this.root.querySelectorAll("[data-promote]")) el.remove();
  }

  async send(uci) {
    this.busy = true;
    const body = { move: uci, ply: this.ply };
    if (this.mode) body.mode = this.mode;
    try {
      const res = await postJSON(this.api("move"), body);
      if (res.correct) this.right(uci, res);
      else await this.wrong(uci, res);
    } catch (err) {
      this.show("is-error", t("went_wrong"), [err.message]);
    } finally {
      this.busy = false;
    }
  }

  right(uci, res) {
    clearStates(this.board, ...MARKS);
    setPosition(this.board, res.fen);
    this.ply = res.ply;
    this.moves = res.legal || [];
    this.position = res.fen;
    if (res.done) {
      this.done = true;
      setState(this.board, uci.slice(0, 2), "correct");
      setState(this.board, uci.slice(2, 4), "correct");
      const lines = [];
      if (res.rated) lines.push(t("rating_change", { Before: res.rating.before, After: res.rating.after }));
      this.show("is-correct", t("solved"), lines, showSAN(res.san));
      this.root.dataset.solved = "";
      this.finishButtons();
      if (res.streak !== undefined) this.setStreak(res.streak);
      return;
    }
    setState(this.board, res.reply.slice(0, 2), "last-move");
    setState(this.board, res.reply.slice(2, 4), "last-move");
    this.show("is-correct", t("good_move"), [], `${showSAN(res.san)} … ${showSAN(res.reply_san)}`);
  }

  async wrong(uci, res) {
    clearStates(this.board, ...MARKS);
    if (res.punished) setPosition(this.board, res.punished);
    setState(this.board, uci.slice(0, 2), "wrong");
    setState(this.board, uci.slice(2, 4), "wrong");
    if (res.reply) {
      setState(this.board, res.reply.slice(0, 2), "last-move");
      setState(this.board, res.reply.slice(2, 4), "last-move");
    }
    const lines = [res.reason];
    if (res.rated) lines.push(t("rating_change", { Before: res.rating.before, After: res.rating.after }));
    if (res.streak_over) lines.push(t("streak_over"));
    this.show("is-wrong", t("not_this"), lines, showSAN(res.san) + (res.reply_san ? ` … ${showSAN(res.reply_san)}` : ""));
    this.root.dataset.wrong = uci;
    if (res.streak_over) {
      this.done = true;
      this.finishButtons("/puzzles/streak");
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, SHOW_REPLY_MS));
    clearStates(this.board, ...MARKS);
    setPosition(this.board, this.position);
    delete this.root.dataset.wrong;
    this.root.dataset.takenBack = "";
    announce(t("taken_back"));
  }

  setStreak(n) {
    const el = this.root.querySelector("[data-streak]");
    if (el) el.dataset.streak = String(n);
  }

  // After the end: Hint and Solution go, Next becomes the primary button.
  finishButtons(href) {
    for (const b of this.root.querySelectorAll("[data-action=hint], [data-action=answer]")) b.hidden = true;
    const next = this.root.querySelector("[data-action=next]");
    if (next) {
      next.classList.add("button-primary");
      if (href) next.href = href;
    }
  }

  onSubmit(ev) {
    const action = ev.submitter ? ev.submitter.value : "";
    if (action !== "hint" && action !== "answer") return;
    ev.preventDefault();
    this.help(action);
  }

  async help(action) {
    if (this.busy) return;
    this.busy = true;
    const body = { ply: this.ply };
    if (this.mode) body.mode = this.mode;
    try {
      if (action === "hint") {
        const res = await postJSON(this.api("hint"), body);
        clearStates(this.board, "target");
        setState(this.board, res.from, "target");
        this.show("is-hint", res.hint, []);
      } else {
        const res = await postJSON(this.api("solution"), body);
        this.show("is-hint", res.text, []);
      }
    } catch (err) {
      this.show("is-error", t("went_wrong"), [err.message]);
    } finally {
      this.busy = false;
    }
  }

  show(cls, verdict, lines, move = "") {
    this.result.className = `exercise-result ${cls}`;
    const p = document.createElement("p");
    p.className = "exercise-verdict";
    p.dataset.verdict = cls === "is-correct" ? "correct" : cls === "is-wrong" ? "wrong" : "info";
    p.textContent = verdict + " ";
    const played = document.createElement("span");
    played.className = "move-played";
    played.textContent = move;
    p.append(played);
    const out = [p];
    for (const line of lines.filter(Boolean)) {
      const why = document.createElement("p");
      why.className = "move-reason";
      why.dataset.reason = "";
      why.textContent = line;
      out.push(why);
    }
    this.result.replaceChildren(...out);
    this.result.hidden = false;
    announce(`${verdict} ${move} ${lines.filter(Boolean).join(" ")}`);
  }

  // Drag: press on a piece of the side to move, release on another square.
  enableDrag() {
    enableDrag(this.board, {
      start: (square) => {
        if (this.done || this.busy || !this.moves.length) return false;
        const piece = pieceAt(this.board, square);
        return !!piece && piece[0] === this.side();
      },
      select: (square) => { if (this.selected !== square) this.click(square); },
      drop: (from, to) => this.tryMove(from, to),
    });
  }
}

for (const root of document.querySelectorAll("[data-puzzle-page]")) new Puzzle(root);
