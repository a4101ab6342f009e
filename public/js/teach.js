// teach.js: the teacher's dashboard. The page works without it; with it,
// the copy button copies the teacher link, and the pupils, lessons and
// homework refresh themselves every data-refresh seconds (the same page
// fetched again, its live part swapped in), unless the teacher is typing
// or has a pupil's actions open there.
import { t } from "./words.js";

const root = document.querySelector("[data-dashboard]");

function setupCopy() {
  const button = root.querySelector('[data-action="copy-link"]');
  const input = root.querySelector("[data-teacher-url]");
  const status = root.querySelector("[data-copy-status]");
  if (!button || !input || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(input.value);
      status.textContent = t("copied");
    } catch {
      input.select();
      status.textContent = t("copy_failed");
    }
  });
}

function busy(live) {
  const active = document.activeElement;
  if (active && live.contains(active) && (active.matches("input, select, textarea"))) return true;
  return live.querySelector("details[open]") !== null;
}

async function refresh() {
  const live = root.querySelector("[data-dashboard-live]");
  if (!live || document.hidden || busy(live)) return;
  try {
    const res = await fetch(location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    if (!res.ok) return; // a rotated or deleted link: the page says so on the next load
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const fresh = doc.querySelector("[data-dashboard-live]");
    if (fresh && !busy(live)) live.replaceChildren(...fresh.childNodes);
  } catch {
    // offline for a moment: try again next time
  }
}

if (root) {
  setupCopy();
  const every = Number(root.dataset.refresh || 0);
  if (every > 0) setInterval(refresh, every * 1000);
}
