// exercise.js enhances the practice page (X1, X4): marks toggle in place,
// arrow keys move between squares, and Check asks the JSON API instead of
// reloading the page. Without this file the same page works as a form.

const RESULT_CLASSES = ["missed", "wrong", "hit", "dest"];

function squareName(file, rank) {
  return "abcdefgh"[file] + String(rank + 1);
}

class Exercise {
  constructor(root) {
    this.root = root;
    this.form = root.querySelector("[data-exercise-form]");
    this.board = root.querySelector("[data-board][data-exercise]");
    this.result = root.querySelector("[data-result]");
    this.api = root.dataset.api;
    this.piece = root.dataset.pieceName || "piece";
    this.busy = false;
    this.squares = new Map();
    for (const el of this.board.querySelectorAll("[data-square]")) {
      this.squares.set(el.dataset.square, el);
      if (!el.dataset.labelBase) {
        el.dataset.labelBase = el.getAttribute("aria-label") || el.dataset.square;
      }
    }
    this.setupFocus();
    this.board.addEventListener("click", (ev) => this.onSquareClick(ev));
    this.board.addEventListener("keydown", (ev) => this.onKey(ev));
    this.form.addEventListener("submit", (ev) => this.onSubmit(ev));
  }

  // Only one square is in the tab order; arrows move it (roving tabindex).
  setupFocus() {
    const first = this.board.querySelector("[data-square].marked") ||
      this.squares.get(this.board.dataset.from) ||
      this.board.querySelector("[data-square]");
    for (const el of this.squares.values()) {
      el.tabIndex = el === first ? 0 : -1;
    }
  }

  flipped() {
    const a1 = this.squares.get("a1");
    const a8 = this.squares.get("a8");
    if (!a1 || !a8) return false;
    return a1.getBoundingClientRect().top < a8.getBoundingClientRect().top;
  }

  onKey(ev) {
    const el = ev.target.closest("[data-square]");
    if (!el) return;
    const steps = {
      ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0],
    };
    const step = steps[ev.key];
    if (!step) return;
    ev.preventDefault();
    const sign = this.flipped() ? -1 : 1;
    const name = el.dataset.square;
    const file = Math.min(7, Math.max(0, name.charCodeAt(0) - 97 + step[0] * sign));
    const rank = Math.min(7, Math.max(0, Number(name[1]) - 1 + step[1] * sign));
    const next = this.squares.get(squareName(file, rank));
    if (next && next !== el) {
      el.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    }
  }

  // Clicking a square (or Space/Enter on it, which browsers turn into a
  // click on a button) toggles its mark.
  onSquareClick(ev) {
    const el = ev.target.closest("[data-square]");
    if (!el || !this.board.contains(el)) return;
    ev.preventDefault();
    for (const other of this.squares.values()) other.tabIndex = other === el ? 0 : -1;
    if (this.board.dataset.state === "answer" || this.board.dataset.state === "checked") {
      this.clearResult(false);
    }
    this.setMark(el, !el.classList.contains("marked"));
    this.syncHidden();
  }

  setMark(el, on) {
    el.classList.toggle("marked", on);
    el.setAttribute("aria-pressed", on ? "true" : "false");
    this.relabel(el);
  }

  relabel(el) {
    const words = [];
    if (el.classList.contains("marked")) words.push("marked");
    if (el.classList.contains("hit")) words.push("correct");
    if (el.classList.contains("missed")) words.push("missed");
    if (el.classList.contains("wrong")) words.push("wrong");
    if (el.classList.contains("dest")) words.push("the piece may move here");
    el.setAttribute("aria-label", [el.dataset.labelBase, ...words].join(", "));
  }

  marked() {
    return [...this.squares.values()]
      .filter((el) => el.classList.contains("marked"))
      .map((el) => el.dataset.square);
  }

  // The hidden fields mirror the marks so that a plain form post (if the
  // API is unreachable) still carries them.
  syncHidden() {
    for (const input of this.form.querySelectorAll("input[name=marked]")) input.remove();
    for (const sq of this.marked()) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "marked";
      input.value = sq;
      this.form.append(input);
    }
  }

  clearResult(clearMarks) {
    for (const el of this.squares.values()) {
      el.classList.remove(...RESULT_CLASSES);
      if (clearMarks) el.classList.remove("marked");
      el.setAttribute("aria-pressed", el.classList.contains("marked") ? "true" : "false");
      this.relabel(el);
    }
    delete this.board.dataset.state;
    if (this.result) {
      this.result.replaceChildren();
      this.result.hidden = true;
    }
    if (clearMarks) this.syncHidden();
  }

  onSubmit(ev) {
    const action = ev.submitter ? ev.submitter.value : "check";
    if (action === "reset") {
      ev.preventDefault();
      this.clearResult(true);
      this.setupFocus();
      return;
    }
    if (action !== "check" && action !== "answer") return; // let the form go
    if (!window.fetch || !this.api) return;
    ev.preventDefault();
    this.check(action === "answer");
  }

  async check(showAnswer) {
    if (this.busy) return;
    this.busy = true;
    try {
      const res = await fetch(this.api, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ squares: this.marked() }),
      });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) {
        this.showError(body.error || "Something went wrong. Please try again.");
        return;
      }
      if (showAnswer) this.renderAnswer(body); else this.renderResult(body);
    } catch (err) {
      this.showError("The server could not be reached. Check your connection and try again.");
    } finally {
      this.busy = false;
    }
  }

  renderResult(r) {
    this.clearResult(false);
    const missed = new Set(r.missed || []);
    const wrong = new Set(r.wrong || []);
    for (const [sq, el] of this.squares) {
      if (missed.has(sq)) el.classList.add("missed");
      else if (wrong.has(sq)) el.classList.add("wrong");
      else if (el.classList.contains("marked")) el.classList.add("hit");
      this.relabel(el);
    }
    this.board.dataset.state = "checked";
    const box = this.result;
    box.hidden = false;
    box.className = "exercise-result " + (r.correct ? "is-correct" : "is-wrong");
    const head = document.createElement("p");
    head.className = "exercise-verdict";
    head.dataset.verdict = r.correct ? "correct" : "wrong";
    if (r.correct) {
      head.textContent = "Correct! You found every square.";
      box.append(head);
      const next = this.root.querySelector("[data-action=next]");
      if (next) next.focus();
      return;
    }
    const parts = [];
    if (missed.size) parts.push(`${missed.size} missed`);
    if (wrong.size) parts.push(`${wrong.size} wrong`);
    head.textContent = `Not quite: ${parts.join(" and ")}. Each one is explained below.`;
    box.append(head, this.reasonList(r));
  }

  reasonList(r) {
    const list = document.createElement("ul");
    list.className = "exercise-reasons";
    list.dataset.reasons = "";
    const add = (sq, kind) => {
      const li = document.createElement("li");
      li.dataset.reason = sq;
      li.className = kind;
      const tag = document.createElement("strong");
      tag.textContent = `${sq} ${kind === "missed" ? "(missed)" : "(wrong)"}: `;
      li.append(tag, (r.reasons && r.reasons[sq]) || "");
      list.append(li);
    };
    for (const sq of r.missed || []) add(sq, "missed");
    for (const sq of r.wrong || []) add(sq, "wrong");
    return list;
  }

  renderAnswer(r) {
    this.clearResult(true);
    const answer = new Set(r.answer || []);
    for (const [sq, el] of this.squares) {
      if (answer.has(sq)) el.classList.add("dest");
      this.relabel(el);
    }
    this.board.dataset.state = "answer";
    const box = this.result;
    box.hidden = false;
    box.className = "exercise-result is-answer";
    const head = document.createElement("p");
    head.className = "exercise-verdict";
    head.dataset.verdict = "answer";
    head.textContent = `Here is the answer: the ${this.piece} may move to ${[...answer].join(", ")}. ` +
      "Press Try again to mark them yourself.";
    box.append(head);
  }

  showError(message) {
    const box = this.result;
    box.hidden = false;
    box.className = "exercise-result is-error";
    const p = document.createElement("p");
    p.className = "exercise-verdict";
    p.dataset.verdict = "error";
    p.textContent = message;
    box.replaceChildren(p);
  }
}

for (const root of document.querySelectorAll("[data-exercise-page]")) {
  new Exercise(root);
}
