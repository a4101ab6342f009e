// exercise.js enhances the practice page (X1, X4) and the same exercises
// inside a lesson (L12, lesson.js): marks toggle in place, arrow keys move
// between squares, and Check asks the JSON API instead of reloading the
// page. After Check the board stays where it is, with its marks: a short
// line in view says how it went, the reasons follow below. Without this
// file the same page works as a form.
import {
  announce, clearStates, enableKeyboard, onSquare, postJSON, setState, squaresWith, toggleState,
} from "./board.js";
import { playSuccess, tick } from "./celebrate.js";
import { t } from "./words.js";

const RESULT_CLASSES = ["missed", "wrong", "correct", "dest"];

class Exercise {
  constructor(root) {
    this.root = root;
    this.form = root.querySelector("[data-exercise-form]");
    this.board = root.querySelector("[data-board][data-exercise]");
    this.result = root.querySelector("[data-result]");
    this.summary = root.querySelector("[data-summary]");
    this.checkButton = root.querySelector("[data-action=check]");
    this.retryButton = root.querySelector("[data-action=reset]");
    this.nextLink = root.querySelector("[data-action=next]");
    this.api = root.dataset.api;
    this.piece = root.dataset.pieceName || "";
    this.busy = false;
    if (!this.form || !this.board || !this.result) return;

    const marked = squaresWith(this.board, "marked");
    enableKeyboard(this.board, marked[0] || this.board.dataset.from);
    onSquare(this.board, (name) => this.toggle(name));
    this.form.addEventListener("submit", (ev) => this.onSubmit(ev));
    root.dataset.ready = "true";
  }

  // Clicking a square, or Space/Enter on it (browsers turn those into a
  // click on a button), toggles its mark. A new mark starts a new try, so
  // the old result goes.
  toggle(name) {
    if (this.board.dataset.state) this.clearResult(this.board.dataset.state === "answer");
    const on = toggleState(this.board, name, "marked");
    const el = this.board.querySelector(`[data-square="${name}"]`);
    if (el) el.setAttribute("aria-pressed", on ? "true" : "false");
    this.syncHidden();
  }

  marked() {
    return squaresWith(this.board, "marked");
  }

  // The hidden fields mirror the marks, so a plain form post (Show answer
  // falling back, or the API unreachable) still carries them.
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

  // clearResult takes the verdict away. Try again (keepRight) also drops
  // the wrong marks and keeps the right ones; Start over (clearMarks)
  // drops every mark.
  clearResult(clearMarks, keepRight = false) {
    if (keepRight) {
      for (const sq of squaresWith(this.board, "wrong")) setState(this.board, sq, "marked", false);
    }
    clearStates(this.board, ...RESULT_CLASSES, ...(clearMarks ? ["marked"] : []));
    for (const el of this.board.querySelectorAll("[data-square]")) {
      el.setAttribute("aria-pressed", el.classList.contains("marked") ? "true" : "false");
    }
    delete this.board.dataset.state;
    this.result.replaceChildren();
    this.result.hidden = true;
    this.result.className = "exercise-result";
    if (this.summary) {
      this.summary.textContent = "";
      this.summary.hidden = true;
    }
    this.setSolved(false);
    if (this.retryButton) this.retryButton.hidden = true;
    this.syncHidden();
  }

  // After a right answer Next is the natural next step (primary).
  setSolved(solved) {
    if (this.checkButton) this.checkButton.classList.toggle("button-primary", !solved);
    if (this.nextLink) this.nextLink.classList.toggle("button-primary", solved);
  }

  onSubmit(ev) {
    const action = ev.submitter ? ev.submitter.value : "check";
    if (action === "reset") {
      ev.preventDefault();
      this.clearResult(false, true);
      const left = this.marked().length;
      announce(left ? t("kept", { Count: left }) : t("cleared"));
      return;
    }
    if (action === "restart") {
      ev.preventDefault();
      this.clearResult(true);
      announce(t("restarted"));
      return;
    }
    if (action !== "check" && action !== "answer") return; // let the form go
    if (!this.api) return;
    ev.preventDefault();
    this.check(action === "answer");
  }

  async check(showAnswer) {
    if (this.busy) return;
    this.busy = true;
    try {
      const r = await postJSON(this.api, { squares: this.marked() });
      if (showAnswer) this.renderAnswer(r); else this.renderResult(r);
    } catch (err) {
      this.showError(err.status ? err.message : t("offline"));
    } finally {
      this.busy = false;
    }
  }

  verdict(kind, text) {
    const p = document.createElement("p");
    p.className = "exercise-verdict";
    p.dataset.verdict = kind;
    p.textContent = text;
    return p;
  }

  renderResult(r) {
    this.clearResult(false);
    for (const sq of r.missed || []) setState(this.board, sq, "missed");
    for (const sq of r.wrong || []) setState(this.board, sq, "wrong");
    const wrong = new Set(r.wrong || []);
    for (const sq of this.marked()) {
      if (!wrong.has(sq)) setState(this.board, sq, "correct");
    }
    this.board.dataset.state = "checked";
    this.result.hidden = false;
    if (r.correct) {
      this.result.className = "exercise-result is-correct";
      const text = t("correct");
      const p = this.verdict("correct", text);
      p.classList.add("celebrate-line");
      p.prepend(tick());
      this.result.append(p);
      this.setSolved(true);
      announce(text);
      playSuccess();
      this.reveal();
      if (this.nextLink) this.nextLink.focus({ preventScroll: true });
      this.root.dispatchEvent(new CustomEvent("exercise-solved", { bubbles: true, detail: { id: this.board.dataset.exercise } }));
      return;
    }
    this.result.className = "exercise-result is-wrong";
    const nMissed = (r.missed || []).length;
    const nWrong = (r.wrong || []).length;
    const missedText = t("count_missed", { Count: nMissed });
    const wrongText = t("count_wrong", { Count: nWrong });
    let counts = nMissed ? missedText : wrongText;
    if (nMissed && nWrong) counts = t("count_both", { Missed: missedText, Wrong: wrongText });
    const text = t("not_quite", { Counts: counts });
    this.result.append(this.verdict("wrong", text), this.reasonList(r));
    if (this.retryButton) this.retryButton.hidden = false;
    if (this.summary) {
      // The one line beside the board; the live region below says it all.
      this.summary.textContent = t("summary", { Counts: counts });
      this.summary.hidden = false;
    }
    announce(text);
    this.reveal();
  }

  // Brings the verdict towards view, but never scrolls the board's top
  // out of the window: the marks are the answer, the words explain them.
  reveal() {
    const below = this.result.getBoundingClientRect().top + 48 - window.innerHeight;
    if (below <= 0) return;
    const room = this.board.getBoundingClientRect().top - 8;
    const by = Math.min(below, room);
    if (by > 0) window.scrollBy({ top: by, behavior: "instant" });
  }

  reasonList(r) {
    const list = document.createElement("ul");
    list.className = "exercise-reasons";
    list.dataset.reasons = "";
    const add = (sq, kind) => {
      const li = document.createElement("li");
      li.className = kind;
      li.dataset.reason = sq;
      const tag = document.createElement("strong");
      tag.textContent = t(`reason_${kind}`, { Square: sq });
      li.append(tag, " ", (r.reasons && r.reasons[sq]) || "");
      list.append(li);
    };
    for (const sq of r.missed || []) add(sq, "missed");
    for (const sq of r.wrong || []) add(sq, "wrong");
    return list;
  }

  renderAnswer(r) {
    this.clearResult(true);
    const answer = r.answer || [];
    for (const sq of answer) setState(this.board, sq, "dest");
    this.board.dataset.state = "answer";
    this.result.hidden = false;
    this.result.className = "exercise-result is-answer";
    const text = this.root.dataset.exerciseKind === "undefended"
      ? t("answer_loose", { Squares: answer.join(", ") })
      : t("answer", { Piece: this.piece, Squares: answer.join(", ") });
    this.result.append(this.verdict("answer", text));
    announce(text);
    this.reveal();
  }

  showError(message) {
    this.result.hidden = false;
    this.result.className = "exercise-result is-error";
    this.result.replaceChildren(this.verdict("error", message));
    announce(message);
  }
}

for (const root of document.querySelectorAll("[data-exercise-page]")) {
  new Exercise(root);
}
