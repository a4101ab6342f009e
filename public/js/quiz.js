// quiz.js enhances a quiz question page (Q2, Q3): marks toggle in place on
// board questions, and the answer goes to the JSON API, so the feedback
// appears without a reload. Without this file the same page works as a form
// (Post/Redirect/Get).
import { announce, enableKeyboard, onSquare, postJSON, setState, squaresWith, toggleState } from "./board.js";
import { playSuccess, tick } from "./celebrate.js";
import { t } from "./words.js";

class Question {
  constructor(root) {
    this.root = root;
    this.form = root.querySelector("[data-quiz-form]");
    this.feedback = root.querySelector("[data-quiz-feedback]");
    this.board = root.querySelector("[data-board]");
    this.api = root.dataset.api;
    this.index = Number(root.dataset.index);
    this.busy = false;
    if (!this.form || !this.feedback || !this.api || root.hasAttribute("data-answered")) return;

    if ((root.dataset.kind === "squares" || root.dataset.kind === "name") && this.board) {
      // The server names the start square in the help line (data-start).
      enableKeyboard(this.board, squaresWith(this.board, "marked")[0] || this.board.dataset.start || "e4");
      onSquare(this.board, (name) => this.toggle(name));
    }
    this.form.addEventListener("submit", (ev) => this.onSubmit(ev));
    // Tests (and anyone curious) can tell the in-place answering is live.
    root.dataset.ready = "true";
  }

  toggle(name) {
    if (this.root.hasAttribute("data-answered")) return;
    const on = toggleState(this.board, name, "marked");
    const el = this.board.querySelector(`[data-square="${name}"]`);
    if (el) el.setAttribute("aria-pressed", on ? "true" : "false");
    announce(t(on ? "marked" : "unmarked", { Square: name }));
    this.clearError();
    this.syncHidden();
  }

  // Hidden fields mirror the marks, so a plain form post still carries them.
  syncHidden() {
    for (const input of this.form.querySelectorAll("input[name=marked]")) input.remove();
    for (const sq of squaresWith(this.board, "marked")) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "marked";
      input.value = sq;
      this.form.append(input);
    }
  }

  answer() {
    if (this.root.dataset.kind === "squares" || this.root.dataset.kind === "name") return squaresWith(this.board, "marked");
    return Array.from(this.form.querySelectorAll("input[name=choice]:checked"), (el) => el.value);
  }

  onSubmit(ev) {
    const action = ev.submitter ? ev.submitter.value : "answer";
    if (action !== "answer") return;
    ev.preventDefault();
    this.send();
  }

  async send() {
    if (this.busy) return;
    this.busy = true;
    try {
      const r = await postJSON(this.api, { index: this.index, answer: this.answer() });
      this.show(r);
    } catch (err) {
      this.showError(err.status ? err.message : t("offline"));
    } finally {
      this.busy = false;
    }
  }

  clearError() {
    const old = this.root.querySelector("[data-quiz-error]");
    if (old) old.remove();
  }

  showError(text) {
    this.clearError();
    const p = document.createElement("p");
    p.className = "quiz-error";
    p.setAttribute("role", "alert");
    p.dataset.quizError = "";
    p.textContent = text;
    this.feedback.before(p);
    p.scrollIntoView({ block: "nearest" });
  }

  para(text, cls) {
    const p = document.createElement("p");
    if (cls) p.className = cls;
    p.textContent = text;
    return p;
  }

  show(r) {
    this.clearError();
    this.root.setAttribute("data-answered", "");
    const verdict = this.para(t(r.correct ? "right" : "not_quite"), "quiz-verdict");
    verdict.dataset.verdict = r.correct ? "right" : "wrong";
    if (r.correct) {
      verdict.classList.add("celebrate-line");
      verdict.prepend(tick());
    }
    const parts = [verdict];
    if (r.already) parts.push(this.para(t("already"), "muted"));
    if (!r.correct) parts.push(this.answerLine(r));
    parts.push(this.para(r.explanation, "quiz-explanation"));
    const link = document.createElement("a");
    link.href = r.lesson;
    link.dataset.lessonLink = "";
    link.textContent = t("read_lesson");
    const lp = document.createElement("p");
    lp.append(link);
    parts.push(lp);
    this.feedback.replaceChildren(...parts);
    this.feedback.className = `quiz-feedback ${r.correct ? "is-correct" : "is-wrong"}`;
    this.feedback.hidden = false;

    this.markBoard(r);
    this.markOptions(r);

    const score = document.querySelector("[data-quiz-score]");
    if (score) score.textContent = String(r.score);
    const progress = document.querySelector("[data-quiz-answered]");
    if (progress) progress.value = r.answered;

    const actions = this.form.querySelector(".quiz-actions");
    const next = document.createElement("a");
    next.className = "button button-primary";
    next.href = r.nextUrl;
    next.dataset.action = "next";
    next.textContent = r.nextLabel;
    actions.replaceChildren(next);
    announce(`${verdict.textContent} ${r.explanation}`);
    if (r.correct && !r.already) playSuccess();
    const help = this.root.querySelector("[data-board-help]");
    if (help) help.remove();
    next.focus({ preventScroll: true });
    this.feedback.scrollIntoView({ block: "nearest" });
  }

  // answerLine is "You answered: …. The right answer: …." with the right
  // answer in bold, wherever the page's language puts it in the sentence.
  answerLine(r) {
    const mark = "\u0000";
    const [before, after = ""] = t("answer_line", { Answer: r.yourAnswer, Key: mark }).split(mark);
    const p = this.para(before);
    const strong = document.createElement("strong");
    strong.textContent = r.keyText;
    p.append(strong, after);
    return p;
  }

  markBoard(r) {
    if (!(this.root.dataset.kind === "squares" || this.root.dataset.kind === "name") || !this.board) return;
    const wrong = new Set(r.wrong);
    for (const sq of r.answer) setState(this.board, sq, wrong.has(sq) ? "wrong" : "correct");
    for (const sq of r.missed) setState(this.board, sq, "missed");
    // The answer is in; the squares stop being buttons that toggle marks.
    for (const el of this.board.querySelectorAll("button[data-square]")) el.disabled = true;
  }

  markOptions(r) {
    const fieldset = this.form.querySelector(".quiz-options");
    if (!fieldset) return;
    const key = new Set(r.key);
    for (const input of fieldset.querySelectorAll("input[name=choice]")) {
      const label = input.closest(".quiz-option");
      if (key.has(input.value)) label.classList.add("is-key");
      else if (input.checked) label.classList.add("is-wrong");
    }
    fieldset.disabled = true;
  }
}

for (const root of document.querySelectorAll("[data-quiz]")) new Question(root);
