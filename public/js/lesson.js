// lesson.js: the exercises inside a lesson answer where they stand (L12).
// Each exercise section carries the hooks of a practice page, so the
// practice pages' own scripts run it (exercise.js for squares,
// move-exercise.js for moves and square names). This module shows the
// buttons that need a script, and walks a series of square-name
// exercises on one board: a solved one makes way for the next.
import "./exercise.js";
import "./move-exercise.js";
import { t } from "./words.js";

for (const el of document.querySelectorAll("[data-lesson-exercise] [data-needs-script]")) el.hidden = false;

// A series (lessons.groupSeries) shows one exercise at a time; the others
// wait hidden. Each prompt says where in the series it is.
function series(root) {
  const items = Array.from(root.querySelectorAll("[data-lesson-exercise]"));
  items.forEach((item, i) => {
    const prompt = item.querySelector(".exercise-prompt");
    if (!prompt) return;
    const count = document.createElement("span");
    count.className = "series-count";
    count.textContent = t("series_count", { Index: i + 1, Total: items.length });
    prompt.append(" ", count);
  });
  root.addEventListener("exercise-solved", (ev) => {
    const item = ev.target.closest("[data-lesson-exercise]");
    const i = items.indexOf(item);
    if (i < 0) return;
    const actions = item.querySelector(".exercise-actions");
    if (i + 1 >= items.length) {
      const done = document.createElement("p");
      done.className = "series-done";
      done.dataset.seriesDone = "";
      done.textContent = t("series_done", { Count: items.length });
      item.querySelector("[data-result]").append(done);
      return;
    }
    const next = document.createElement("button");
    next.type = "button";
    next.className = "button button-primary";
    next.dataset.action = "next-square";
    next.textContent = `${t("next_square")} →`;
    next.addEventListener("click", () => {
      item.hidden = true;
      const following = items[i + 1];
      following.hidden = false;
      const start = following.querySelector('[data-square][tabindex="0"]') || following.querySelector("[data-square]");
      if (start) start.focus({ preventScroll: true });
      following.scrollIntoView({ block: "nearest" });
    });
    if (actions) actions.prepend(next);
    next.focus({ preventScroll: true });
  });
}

for (const root of document.querySelectorAll("[data-exercise-series]")) series(root);
