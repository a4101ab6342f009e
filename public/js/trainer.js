// trainer.js runs the square-name trainer (X7) in the page: Start begins a
// round of data-seconds seconds; in "find" mode a square name shows and a
// click (or Enter on a focused square) answers; in "name" mode a square is
// marked and the learner types its name. A wrong answer is marked and
// explained, and the round goes on with a new square (as lichess's
// coordinates trainer does); the score counts the right answers. The board
// keeps its place through the round: the words around it have their room
// from the start. The score goes to the server at the end, which keeps the
// best. Without this file every answer is a form post and the server runs
// the round.
import { announce, clearStates, enableKeyboard, onSquare, postJSON, setState } from "./board.js";
import { t } from "./words.js";

const FILES = "abcdefgh";

function randomSquare(not) {
  for (;;) {
    const i = Math.floor(Math.random() * 64);
    const sq = FILES[i % 8] + String(Math.floor(i / 8) + 1);
    if (sq !== not) return sq;
  }
}

// How far the answer is from the target: the sentences the server's
// exercise.FindSquare builds, from the same words (square.* in the
// catalogue).
function hint(target, answer) {
  const df = FILES.indexOf(target[0]) - FILES.indexOf(answer[0]);
  const dr = Number(target[1]) - Number(answer[1]);
  const files = df > 0 ? t("files_to_h", { Count: df }) : t("files_to_a", { Count: -df });
  const ranks = dr > 0 ? t("ranks_to_8", { Count: dr }) : t("ranks_to_1", { Count: -dr });
  const base = { Clicked: answer, Target: target };
  if (df === 0) return t("wrong_file_right", { ...base, File: target[0], Steps: ranks });
  if (dr === 0) return t("wrong_rank_right", { ...base, Rank: target[1], Steps: files });
  return t("wrong_both", { ...base, Files: files, Ranks: ranks });
}

class Trainer {
  constructor(root) {
    this.root = root;
    this.board = root.querySelector("[data-trainer-board]");
    this.form = root.querySelector("[data-trainer-form]");
    this.result = root.querySelector("[data-result]");
    this.input = root.querySelector("[data-answer]");
    this.answerButton = root.querySelector("[data-action=answer]");
    if (!this.board || !this.form) return;
    this.mode = root.dataset.mode;
    this.seconds = Number(root.dataset.seconds) || 30;
    this.running = false;
    this.el = (name) => root.querySelector(`[data-${name}]`);
    // A round the server was running (the page came from the form) ends
    // here: the script starts its own rounds.
    for (const f of this.form.querySelectorAll("[data-state]")) f.remove();
    if (this.mode === "find") {
      enableKeyboard(this.board, "e4");
      onSquare(this.board, (name) => this.answer(name));
    }
    this.form.addEventListener("submit", (ev) => this.onSubmit(ev));
    if (root.hasAttribute("data-running")) this.idle();
    root.dataset.ready = ""; // tests wait for this before clicking
  }

  // idle waits for Start; after a round (ended) the clock stays at 0.
  idle(ended = false) {
    this.root.removeAttribute("data-running");
    delete this.root.dataset.target;
    this.el("target-name").textContent = "–";
    this.el("time").textContent = ended ? "0" : String(this.seconds);
    clearStates(this.board, "target", "wrong", "correct", "missed");
    if (this.input) this.input.disabled = true;
    if (this.answerButton) this.answerButton.disabled = true;
  }

  onSubmit(ev) {
    ev.preventDefault();
    const action = ev.submitter ? ev.submitter.value : "";
    if (action === "start") {
      this.start();
      return;
    }
    if (this.mode === "name" && this.running) {
      const typed = this.input.value.trim().toLowerCase();
      this.input.value = "";
      if (/^[a-h][1-8]$/.test(typed)) this.answer(typed);
      else this.say("is-wrong", "wrong", t("type_hint"));
    }
  }

  start() {
    this.seconds = Number(this.root.dataset.seconds) || 30;
    this.score = 0;
    this.misses = 0;
    this.running = true;
    this.root.setAttribute("data-running", "");
    this.el("score").textContent = "0";
    // The verdict's room is kept through the round, so the board never moves.
    this.result.replaceChildren();
    this.result.className = "exercise-result is-waiting";
    this.result.hidden = false;
    this.endAt = performance.now() + this.seconds * 1000;
    this.next();
    this.tick();
    if (this.input) {
      this.input.disabled = false;
      this.answerButton.disabled = false;
      this.input.focus();
    } else {
      const sq = this.board.querySelector('[data-square][tabindex="0"]');
      if (sq) sq.focus();
    }
    const start = this.root.querySelector("[data-action=start]");
    start.textContent = t("start_again");
    start.classList.remove("button-primary");
  }

  next() {
    this.target = randomSquare(this.target);
    this.root.dataset.target = this.target;
    this.board.dataset.target = this.target;
    clearStates(this.board, "target");
    if (this.mode === "find") {
      this.el("target-name").textContent = this.target;
      announce(t("find", { Square: this.target }));
    } else {
      this.el("target-name").textContent = "?";
      setState(this.board, this.target, "target");
      announce(t("name"));
    }
  }

  tick() {
    const left = Math.max(0, Math.ceil((this.endAt - performance.now()) / 1000));
    this.el("time").textContent = String(left);
    if (left <= 0) {
      this.finish();
      return;
    }
    this.timer = window.setTimeout(() => this.tick(), 200);
  }

  answer(name) {
    if (!this.running) return;
    clearStates(this.board, "wrong", "correct", "missed");
    if (name === this.target) {
      this.score++;
      this.el("score").textContent = String(this.score);
      if (this.mode === "find") setState(this.board, name, "correct");
      this.say("is-correct", "correct", t("yes", { Square: name }));
      this.next();
      return;
    }
    this.misses++;
    if (this.mode === "find") setState(this.board, name, "wrong");
    setState(this.board, this.target, "missed");
    this.say("is-wrong", "wrong", hint(this.target, name));
    this.next();
  }

  say(cls, verdict, text) {
    const p = document.createElement("p");
    p.className = "exercise-verdict";
    p.dataset.verdict = verdict;
    p.textContent = text;
    this.result.className = `exercise-result ${cls}`;
    this.result.replaceChildren(p);
    this.result.hidden = false;
  }

  async finish() {
    this.running = false;
    window.clearTimeout(this.timer);
    this.idle(true);
    // Start again is the natural next step.
    this.root.querySelector("[data-action=start]").classList.add("button-primary");
    const n = this.score;
    this.say("is-correct", "done", t("done", { Count: n }));
    announce(t("done", { Count: n }));
    try {
      const res = await postJSON(this.root.dataset.api, {
        view: this.root.dataset.view, mode: this.mode, score: n, misses: this.misses,
      });
      this.el("best").textContent = String(res.best);
      if (res.newBest) this.say("is-correct", "done", t("done_best", { Count: n }));
    } catch (err) {
      this.say("is-error", "error", t("not_saved", { Error: err.message }));
    }
    this.root.dataset.finished = String(n);
  }
}

for (const root of document.querySelectorAll("[data-trainer]")) new Trainer(root);
