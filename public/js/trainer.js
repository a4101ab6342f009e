// trainer.js runs the square-name trainer (X7) in the page: Start begins a
// round of data-seconds seconds; in "find" mode a square name shows and a
// click (or Enter on a focused square) answers; in "name" mode a square is
// marked and the learner types its name. The score goes to the server at
// the end, which keeps the best. Without this file every answer is a form
// post and the server runs the round.
import { announce, clearStates, enableKeyboard, onSquare, postJSON, setState } from "./board.js";

const FILES = "abcdefgh";

function randomSquare(not) {
  for (;;) {
    const i = Math.floor(Math.random() * 64);
    const sq = FILES[i % 8] + String(Math.floor(i / 8) + 1);
    if (sq !== not) return sq;
  }
}

// How far the answer is from the target, in the words the server uses.
function hint(target, answer) {
  const df = FILES.indexOf(target[0]) - FILES.indexOf(answer[0]);
  const dr = Number(target[1]) - Number(answer[1]);
  const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  const steps = [];
  if (df) steps.push(`${plural(Math.abs(df), "file")} towards the ${df > 0 ? "h" : "a"}-file`);
  if (dr) steps.push(`${plural(Math.abs(dr), "rank")} towards rank ${dr > 0 ? 8 : 1}`);
  return `That is ${answer}, not ${target}. ${target} is ${steps.join(" and ")}.`;
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

  idle() {
    this.root.removeAttribute("data-running");
    delete this.root.dataset.target;
    this.el("target-name").textContent = "–";
    this.el("time").textContent = String(this.seconds);
    clearStates(this.board, "target", "wrong", "correct");
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
      else this.say("is-wrong", "wrong", "Type a square name: a letter a–h, then a number 1–8, like e4.");
    }
  }

  start() {
    this.seconds = Number(this.root.dataset.seconds) || 30;
    this.score = 0;
    this.misses = 0;
    this.running = true;
    this.root.setAttribute("data-running", "");
    this.el("score").textContent = "0";
    this.result.hidden = true;
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
    start.textContent = "Start again";
    start.classList.remove("button-primary");
  }

  next() {
    this.target = randomSquare(this.target);
    this.root.dataset.target = this.target;
    this.board.dataset.target = this.target;
    clearStates(this.board, "target");
    if (this.mode === "find") {
      this.el("target-name").textContent = this.target;
      announce(`Find ${this.target}`);
    } else {
      this.el("target-name").textContent = "?";
      setState(this.board, this.target, "target");
      announce("Name the marked square.");
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
    clearStates(this.board, "wrong", "correct");
    if (name === this.target) {
      this.score++;
      this.el("score").textContent = String(this.score);
      if (this.mode === "find") setState(this.board, name, "correct");
      this.say("is-correct", "correct", `Yes, ${name}!`);
      this.next();
      return;
    }
    this.misses++;
    if (this.mode === "find") setState(this.board, name, "wrong");
    this.say("is-wrong", "wrong", hint(this.target, name));
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
    this.idle();
    const n = this.score;
    this.say("is-correct", "done", `Time! You found ${n} ${n === 1 ? "square" : "squares"}.`);
    announce(`Time! You found ${n} squares.`);
    try {
      const res = await postJSON(this.root.dataset.api, {
        view: this.root.dataset.view, mode: this.mode, score: n, misses: this.misses,
      });
      this.el("best").textContent = String(res.best);
      if (res.newBest) this.say("is-correct", "done", `Time! You found ${n} ${n === 1 ? "square" : "squares"}. A new best score!`);
    } catch (err) {
      this.say("is-error", "error", `Your score could not be saved: ${err.message}`);
    }
    this.root.dataset.finished = String(n);
  }
}

for (const root of document.querySelectorAll("[data-trainer]")) new Trainer(root);
