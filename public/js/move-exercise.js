// move-exercise.js enhances the "play the move" and "click the square"
// practice pages (X6, X7) and the same exercises inside a lesson (L12,
// lesson.js): select a piece and its destinations show, click or drag it
// to a square, or use the keyboard (arrows, then Enter on the piece and on
// its new square). The move goes to the check API and the verdict appears
// without a reload; a wrong move is played, explained and taken back, as
// a puzzle does. Hint and Show answer ask the help API (X12). Without
// this file the same page works as a form, one click per post.
import {
  announce, clearStates, enableDrag, enableKeyboard, fen, onSquare, pieceAt, pieceSVG, postJSON, setPosition,
  setState,
} from "./board.js";
import { playSuccess } from "./celebrate.js";
import { t } from "./words.js";
import { showSAN } from "./notation.js";

const VERDICT_CLASSES = ["selected", "dest", "wrong", "correct", "missed", "last-move", "drag-from", "hint", "check"];
// How long a wrong move stays on the board before it is taken back.
const TAKE_BACK_MS = 1800;
const PROMOTIONS = ["q", "r", "b", "n"];

class MoveExercise {
  constructor(root) {
    this.root = root;
    this.board = root.querySelector("[data-board]");
    this.form = root.querySelector("[data-move-form]");
    this.result = root.querySelector("[data-result]");
    this.prompt = root.querySelector("[data-prompt]");
    this.retryButton = root.querySelector("[data-action=reset]");
    if (!this.board || !this.form || !this.result) return;
    this.kind = root.dataset.exerciseKind;
    this.api = root.dataset.api;
    this.helpAPI = root.dataset.helpApi || "";
    this.takeBack = null; // the pending take-back of a wrong move
    this.start = {
      fen: fen(this.board),
      moves: root.dataset.moves || "",
      line: root.dataset.line || "",
      prompt: this.prompt ? this.prompt.textContent : "",
    };
    this.busy = false;
    this.reset(false);
    // The page may arrive showing a result of the form; the first click
    // then starts afresh from the exercise's position.
    this.stale = Boolean(this.board.dataset.state);
    enableKeyboard(this.board, this.firstSquare());
    onSquare(this.board, (name) => this.click(name));
    this.enableDrag();
    this.form.addEventListener("submit", (ev) => this.onSubmit(ev));
    root.dataset.ready = ""; // tests wait for this before clicking
  }

  // The square keyboard focus starts on: the piece to save, else a piece of
  // the side to move, else the middle of the board.
  firstSquare() {
    const target = this.board.querySelector(".square.target");
    if (target) return target.dataset.square;
    const from = this.moves[0];
    return from ? from.slice(0, 2) : "e4";
  }

  reset(redraw = true) {
    this.finishTakeBack(false);
    this.moves = this.start.moves.split(" ").filter(Boolean);
    this.line = this.start.line ? this.start.line.split(",") : [];
    this.selected = "";
    this.done = false;
    if (!redraw) return;
    clearStates(this.board, ...VERDICT_CLASSES);
    setPosition(this.board, this.start.fen);
    if (this.prompt) this.prompt.textContent = this.start.prompt;
    this.hideResult();
    this.closePromotion();
    // Nothing to try again until a move is played (or the page came with one).
    if (this.retryButton) this.retryButton.hidden = this.line.length === 0;
  }

  onSubmit(ev) {
    const action = ev.submitter ? ev.submitter.value : "";
    if ((action === "hint" || action === "answer") && this.helpAPI) {
      ev.preventDefault();
      this.askHelp(action);
      return;
    }
    if (action !== "reset") return;
    ev.preventDefault();
    this.reset();
    announce(t("back_to_start"));
  }

  // askHelp shows a hint (the piece that makes a right move) or the
  // answer (its move), marked on the board and said in words.
  async askHelp(kind) {
    if (this.busy || this.done) return;
    this.finishTakeBack(true);
    this.busy = true;
    try {
      const body = { kind };
      if (this.line.length) body.line = this.line;
      const res = await postJSON(this.helpAPI, body);
      this.select("");
      clearStates(this.board, "hint", "wrong", "correct");
      setState(this.board, res.square, "hint");
      if (res.move) setState(this.board, res.move.slice(2, 4), "dest");
      this.result.className = "exercise-result is-help";
      const p = document.createElement("p");
      p.className = "exercise-verdict";
      p.dataset.verdict = kind;
      p.textContent = res.text;
      this.result.replaceChildren(p);
      this.result.hidden = false;
      announce(res.text);
    } catch (err) {
      this.showText("is-error", t("went_wrong"), err.message);
    } finally {
      this.busy = false;
    }
  }

  click(name) {
    if (this.busy || this.done) return;
    this.finishTakeBack(true);
    if (this.stale) {
      this.stale = false;
      if (this.line.length === 0) this.reset();
      else this.clearResult();
      delete this.board.dataset.state;
    }
    if (this.kind === "name") {
      this.clearResult();
      this.send({ square: name }, name);
      return;
    }
    const color = (this.moves[0] || "").length ? this.sideToMove() : "";
    const piece = pieceAt(this.board, name);
    if (this.selected && name === this.selected) {
      this.select("");
      return;
    }
    if (this.selected && !(piece && piece[0] === color)) {
      this.tryMove(this.selected, name);
      return;
    }
    if (piece && piece[0] === color) {
      this.clearResult();
      this.select(name);
    }
  }

  // The side to move is the colour of the piece on any legal move's square.
  sideToMove() {
    return pieceAt(this.board, this.moves[0].slice(0, 2))[0];
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
    if (this.moves.includes(uci + "q")) {
      this.askPromotion(uci);
      return;
    }
    this.sendMove(uci);
  }

  sendMove(uci) {
    const body = { move: uci };
    if (this.line.length) body.line = this.line;
    this.send(body, uci);
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
      b.value = uci + letter;
      b.append(pieceSVG(color + letter.toUpperCase()), document.createTextNode(" " + t(`promote_${letter}`)));
      b.addEventListener("click", () => { this.closePromotion(); this.sendMove(uci + letter); });
      box.append(b);
    }
    this.board.parentElement.after(box);
    box.querySelector("button").focus();
    announce(t("promote_say"));
  }

  closePromotion() {
    for (const el of this.root.querySelectorAll("[data-promote]")) el.remove();
  }

  async send(body, tried) {
    this.busy = true;
    try {
      const res = await postJSON(this.api, body);
      this.show(res, tried);
    } catch (err) {
      this.showText("is-error", t("went_wrong"), err.message);
    } finally {
      this.busy = false;
    }
  }

  show(res, tried) {
    if (this.kind === "name") {
      setState(this.board, tried, res.correct ? "correct" : "wrong");
      if (!res.correct) setState(this.board, this.board.dataset.target, "missed");
      this.done = res.correct;
      this.showText(res.correct ? "is-correct" : "is-wrong", t(res.correct ? "right" : "not_this_time"), res.reason, tried);
      // A right square needs no Try again; a wrong one is tried again by
      // clicking another square.
      if (this.retryButton) this.retryButton.hidden = true;
      if (res.correct) this.solved();
      return;
    }
    const from = tried.slice(0, 2);
    const to = tried.slice(2, 4);
    clearStates(this.board, "hint", "last-move", "check");
    if (!res.correct) {
      if (res.fen) {
        // A legal wrong move is played, explained, then taken back.
        this.playWrong(res.fen, from, to, res.check);
      } else {
        setState(this.board, from, "wrong");
        setState(this.board, to, "wrong");
      }
      this.showText("is-wrong", t("not_this_time"), res.reason, res.said || (res.san ? showSAN(res.san) : tried));
      return;
    }
    setPosition(this.board, res.fen);
    this.moves = res.moves || [];
    if (res.solved) {
      this.done = true;
      setState(this.board, from, "last-move");
      setState(this.board, to, "last-move");
      setState(this.board, to, "correct");
      // A mated (or checked) king is marked, so the learner sees the mate.
      if (res.check) setState(this.board, res.check, "check");
      this.showText("is-correct", t("right"), res.reason, res.said || showSAN(res.san));
      if (this.retryButton) this.retryButton.hidden = true;
      for (const b of this.root.querySelectorAll("[data-action=hint], [data-action=answer]")) b.hidden = true;
      this.solved();
      return;
    }
    // A right move the computer has answered (a mate in two's first, a
    // mate technique's every move): go on from its reply.
    this.line = [...this.line, tried, res.reply];
    setState(this.board, res.reply.slice(0, 2), "last-move");
    setState(this.board, res.reply.slice(2, 4), "last-move");
    if (this.prompt) {
      this.prompt.textContent = res.prompt || t("mate_prompt", { Move: showSAN(res.san), Reply: showSAN(res.replySan) });
    }
    this.showText("is-correct", t("good_move"), res.reason, res.said || showSAN(res.san));
  }

  showText(cls, verdict, reason, move = "") {
    this.result.className = `exercise-result ${cls}`;
    const p = document.createElement("p");
    p.className = "exercise-verdict";
    p.dataset.verdict = cls === "is-correct" ? "correct" : cls === "is-wrong" ? "wrong" : "error";
    p.textContent = verdict + " ";
    const played = document.createElement("span");
    played.className = "move-played";
    played.textContent = move;
    p.append(played);
    const why = document.createElement("p");
    why.className = "move-reason";
    why.dataset.reason = "";
    why.textContent = reason || "";
    this.result.replaceChildren(p, why);
    this.result.hidden = false;
    if (this.retryButton) this.retryButton.hidden = false;
    announce(`${verdict} ${move} ${reason || ""}`);
  }

  // playWrong shows a wrong move on the board for a moment, then takes it
  // back (finishTakeBack), so the learner sees what it did.
  playWrong(after, from, to, check) {
    const before = fen(this.board);
    setPosition(this.board, after);
    setState(this.board, from, "last-move");
    setState(this.board, to, "last-move");
    setState(this.board, to, "wrong");
    if (check) setState(this.board, check, "check");
    this.board.dataset.takingBack = "";
    const timer = window.setTimeout(() => this.finishTakeBack(false), TAKE_BACK_MS);
    this.takeBack = { before, timer };
  }

  // finishTakeBack puts the position back as it was before a wrong move
  // (at once when the learner acts first); quiet keeps the verdict.
  finishTakeBack(early) {
    const tb = this.takeBack;
    if (!tb) return;
    this.takeBack = null;
    window.clearTimeout(tb.timer);
    clearStates(this.board, "last-move", "wrong", "check");
    setPosition(this.board, tb.before);
    delete this.board.dataset.takingBack;
    if (!early) announce(t("taken_back"));
  }

  // solved tells the page (the exercise list, a lesson's series) that
  // this exercise is done.
  solved() {
    playSuccess();
    // Next is the natural next step now (primary).
    const next = this.root.querySelector("[data-action=next]");
    if (next) next.classList.add("button-primary");
    const id = this.board.dataset.exercise;
    this.root.dispatchEvent(new CustomEvent("exercise-solved", { bubbles: true, detail: { id } }));
  }

  hideResult() {
    this.result.replaceChildren();
    this.result.hidden = true;
    this.result.className = "exercise-result";
  }

  clearResult() {
    clearStates(this.board, "wrong", "correct", "missed");
    if (!this.result.classList.contains("is-correct")) this.hideResult();
  }

  // Drag: press on a piece of the side to move, release on another square.
  // A drag that ends where it started is a plain click.
  enableDrag() {
    enableDrag(this.board, {
      start: (square) => {
        if (this.done || this.busy || this.kind === "name" || !this.moves.length) return false;
        this.finishTakeBack(true);
        const piece = pieceAt(this.board, square);
        return !!piece && piece[0] === this.sideToMove();
      },
      select: (square) => { if (this.selected !== square) this.click(square); },
      drop: (from, to) => this.tryMove(from, to),
    });
  }
}

for (const root of document.querySelectorAll("[data-move-page]")) new MoveExercise(root);
