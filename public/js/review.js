// The review page without reloads: moves, graph points and the Previous /
// Next links fetch the page for that move and swap in its board and
// explanation; the arrow keys step through the game; while the review
// runs, the page asks for its progress every two seconds and shows the
// newly reviewed moves; a finished game's review starts by itself. Without
// this script every link loads the page and a button starts the review.

import { t } from "./words.js";

const root = document.querySelector("[data-review-root]");
if (root) {
  const id = root.dataset.game;
  let ply = Number(root.dataset.ply);
  let done = Number(root.dataset.done);
  let loading = null;

  const pageURL = (n) => `/play/${encodeURIComponent(id)}/review?ply=${n}`;

  // With this script the page fills in by itself, so a running review's
  // progress says so (in the words the page carries for it) instead of
  // offering the refresh link it has without scripts.
  function liveHint() {
    const hint = root.querySelector(".review-refresh[data-live-text]");
    if (hint) hint.textContent = hint.dataset.liveText;
  }

  // swap replaces the named parts of the page with those of doc.
  function swap(doc, parts) {
    for (const name of parts) {
      const now = root.querySelector(`[data-review-part="${name}"]`);
      const next = doc.querySelector(`[data-review-part="${name}"]`);
      if (now && next) now.replaceWith(next);
    }
    liveHint();
  }

  async function fetchPage(n) {
    const res = await fetch(pageURL(n), { headers: { Accept: "text/html" } });
    if (!res.ok) throw new Error(`status ${res.status}`);
    return new DOMParser().parseFromString(await res.text(), "text/html");
  }

  function markCurrent() {
    for (const a of root.querySelectorAll(".review-move[data-review-ply]")) {
      const on = Number(a.dataset.reviewPly) === ply;
      a.classList.toggle("current", on);
      if (on) a.setAttribute("aria-current", "true");
      else a.removeAttribute("aria-current");
    }
  }

  // go shows the position after n moves.
  async function go(n, focusStep) {
    if (Number.isNaN(n) || n < 0) return;
    const ticket = {};
    loading = ticket;
    let doc;
    try {
      doc = await fetchPage(n);
    } catch {
      window.location.href = pageURL(n) + "#review-board";
      return;
    }
    if (loading !== ticket) return; // a later click won
    ply = n;
    swap(doc, ["view", "graph"]);
    markCurrent();
    history.replaceState(null, "", `?ply=${n}`);
    if (focusStep) {
      const again = root.querySelector(`[data-review-step="${focusStep}"]`);
      (again || root.querySelector("#review-board")).focus();
    }
    const current = root.querySelector(".review-move.current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  root.addEventListener("click", (event) => {
    const a = event.target.closest("a[data-review-link]");
    if (!a || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    go(Number(a.dataset.reviewPly), a.dataset.reviewStep);
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    const last = root.querySelectorAll(".review-move[data-review-ply]").length;
    if (event.key === "ArrowLeft" && ply > 0) {
      event.preventDefault();
      go(ply - 1);
    } else if (event.key === "ArrowRight" && ply < last) {
      event.preventDefault();
      go(ply + 1);
    }
  });

  // While the review runs: poll its progress and refresh what changed.
  async function poll() {
    let body;
    try {
      const res = await fetch(`/api/games/${encodeURIComponent(id)}/review`, { headers: { Accept: "application/json" } });
      if (!res.ok) return setTimeout(poll, 5000);
      body = await res.json();
    } catch {
      return setTimeout(poll, 5000);
    }
    const progress = root.querySelector("[data-review-progress]");
    if (progress) progress.textContent = t("progress", { Done: body.done, Count: body.total });
    const bar = root.querySelector("[data-review-part=progress] progress");
    if (bar) bar.value = body.done;
    if (body.done !== done || body.status === "done") {
      done = body.done;
      try {
        const doc = await fetchPage(ply);
        swap(doc, ["progress", "graph", "summary", "moves"]);
        // The explanation of the move shown may have just arrived; keep
        // the focus where it is if it is inside the view.
        if (!root.querySelector("[data-review-part=view]").contains(document.activeElement)) swap(doc, ["view"]);
      } catch {
        // The next poll tries again.
      }
    }
    if (body.status === "done") {
      root.dataset.pending = "false";
      const announcer = document.getElementById("announcer");
      if (announcer) announcer.textContent = t("finished");
      return;
    }
    setTimeout(poll, 2000);
  }
  liveHint();
  if (root.dataset.pending === "true") setTimeout(poll, 2000);
  // A finished game's review starts by itself when the page is opened
  // (the result card's Review link); without scripts the button does it.
  if (root.dataset.requested === "false" && root.dataset.over === "true") {
    const button = root.querySelector('[data-action="start-review"]');
    if (button) {
      button.disabled = true;
      button.textContent = t("starting");
    }
    fetch(`/api/games/${encodeURIComponent(id)}/review`, { method: "POST", headers: { Accept: "application/json" } })
      .then((res) => {
        if (res.ok) window.location.reload();
        else if (button) {
          button.disabled = false;
          button.textContent = t("start");
        }
      }, () => {
        if (button) {
          button.disabled = false;
          button.textContent = t("start");
        }
      });
  }
  root.dataset.ready = "";
}
