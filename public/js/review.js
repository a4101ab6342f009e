// The review page without reloads: moves, graph points and the Previous /
// Next links fetch the page for that move and swap in its board and
// explanation; the arrow keys step through the game; while the review
// runs, the page asks for its progress every two seconds and shows the
// newly reviewed moves; a finished game's review starts by itself. Without
// this script every link loads the page and a button starts the review.
//
// Stepping never moves the window (issue 38): the move list scrolls inside
// itself to the current move, and the focus returns to the step pressed
// without scrolling, so on a phone the board and the sentence stay where
// they are. On a mistake or blunder "Try it again" (G27) lets the learner
// play another move in the position before it; the server judges it.

import { t } from "./words.js";
import { clearStates, enableKeyboard, fen, onSquare, pieceAt, postJSON, setPosition, setState } from "./board.js";

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
      const again = root.querySelector(`[data-review-step="${focusStep}"]:not([aria-disabled])`);
      (again || root.querySelector("#review-board")).focus({ preventScroll: true });
    }
    showCurrentMove();
    wireRetry();
  }

  // showCurrentMove scrolls the move list, and only the list, to the
  // current move.
  function showCurrentMove() {
    const current = root.querySelector(".review-move.current");
    const list = current && current.closest(".review-movelist");
    if (!list || list.scrollHeight <= list.clientHeight) return;
    const top = current.offsetTop - list.clientHeight / 2 + current.offsetHeight / 2;
    list.scrollTop = Math.max(0, top);
  }

  // Try it again: the position before the mistake, the learner to move.
  let retry = null;

  function retryText(text, result) {
    const box = root.querySelector("[data-retry-box]");
    if (!box) return;
    box.querySelector("[data-retry-text]").textContent = text;
    if (result) box.dataset.retryResult = result;
    else delete box.dataset.retryResult;
  }

  function startRetry() {
    const button = root.querySelector('[data-action="retry"]');
    const box = root.querySelector("[data-retry-box]");
    const board = root.querySelector("[data-review-board]");
    if (!button || !box || !board) return;
    const moves = button.dataset.retryMoves.split(" ").filter(Boolean);
    retry = { ply: Number(button.dataset.retryPly), moves, fen: fen(board), selected: "", busy: false, done: false,
      color: moves.length ? pieceAt(board, moves[0].slice(0, 2))[0] : "" };
    root.dataset.retrying = String(retry.ply);
    board.classList.add("retrying");
    clearStates(board, "last-move", "selected", "dest");
    button.hidden = true;
    box.hidden = false;
    box.querySelector('[data-action="retry-again"]').hidden = true;
    const next = root.querySelector('a[data-review-step="next-mistake"]');
    box.querySelector('[data-action="retry-next"]').hidden = !next;
    retryText(t("retry_prompt", { Move: button.dataset.retrySan }));
    const first = moves.length ? moves[0].slice(0, 2) : "e4";
    enableKeyboard(board, first);
    const square = board.querySelector(`[data-square="${first}"]`);
    if (square) square.focus({ preventScroll: true });
  }

  function retryClick(name) {
    if (!retry || retry.busy || retry.done) return;
    const board = root.querySelector("[data-review-board]");
    const piece = pieceAt(board, name);
    if (retry.selected && name === retry.selected) {
      select(board, "");
      return;
    }
    if (retry.selected && !(piece && piece[0] === retry.color)) {
      const uci = retry.selected + name;
      select(board, "");
      if (retry.moves.includes(uci)) sendRetry(board, uci);
      else if (retry.moves.includes(uci + "q")) sendRetry(board, uci + "q"); // a retry promotes to a queen
      return;
    }
    if (piece && piece[0] === retry.color) select(board, name);
  }

  function select(board, name) {
    clearStates(board, "selected", "dest");
    retry.selected = name;
    if (!name) return;
    setState(board, name, "selected");
    for (const m of retry.moves) if (m.startsWith(name)) setState(board, m.slice(2, 4), "dest");
  }

  async function sendRetry(board, uci) {
    retry.busy = true;
    retryText(t("retry_checking"));
    let res;
    try {
      res = await postJSON(`/api/games/${encodeURIComponent(id)}/review/retry`, { ply: retry.ply, move: uci });
    } catch (err) {
      retry.busy = false;
      retryText(err && err.data && err.data.error ? err.data.error : t("retry_failed"));
      return;
    }
    retry.busy = false;
    retry.done = true;
    setPosition(board, res.fen);
    setState(board, uci.slice(0, 2), "last-move");
    setState(board, uci.slice(2, 4), "last-move");
    retryText(res.reason, res.result);
    root.querySelector('[data-action="retry-again"]').hidden = false;
  }

  function retryAgain() {
    const board = root.querySelector("[data-review-board]");
    clearStates(board, "last-move", "selected", "dest");
    setPosition(board, retry.fen);
    retry.done = false;
    retry.selected = "";
    root.querySelector('[data-action="retry-again"]').hidden = true;
    retryText(t("retry_prompt", { Move: root.querySelector('[data-action="retry"]').dataset.retrySan }));
  }

  function retryShow() {
    if (retry && retry.done) retryAgain();
    root.querySelector("[data-review-board]").classList.remove("retrying");
  }

  // wireRetry readies a newly shown mistake's board for a retry.
  function wireRetry() {
    retry = null;
    delete root.dataset.retrying;
    const button = root.querySelector('[data-action="retry"]');
    const board = root.querySelector("[data-review-board]");
    if (!button || !board) return;
    button.hidden = false;
    onSquare(board, (name) => retryClick(name));
    // One tab stop for the board's 64 square buttons, not 64.
    enableKeyboard(board, button.dataset.retryMoves.slice(0, 2) || "e4");
  }

  root.addEventListener("click", (event) => {
    const b = event.target.closest("button[data-action]");
    if (!b || !root.contains(b)) return;
    switch (b.dataset.action) {
      case "retry": startRetry(); break;
      case "retry-again": if (retry) retryAgain(); break;
      case "retry-show": if (retry) retryShow(); break;
      case "retry-back": go(ply, "next"); break;
      case "retry-next": {
        const next = root.querySelector('a[data-review-step="next-mistake"]');
        if (next) go(Number(next.dataset.reviewPly)).then(() => startRetry());
        break;
      }
      default:
    }
  });

  root.addEventListener("click", (event) => {
    const a = event.target.closest("a[data-review-link]");
    if (!a || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    go(Number(a.dataset.reviewPly), a.dataset.reviewStep);
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select, [contenteditable]") || retry) return;
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
    // progress (0–1) grows through the first pass and the verification;
    // done reaches total before the verification ends, so it is no measure.
    const percent = Math.round((body.progress || 0) * 100);
    const progress = root.querySelector("[data-review-progress]");
    if (progress) progress.textContent = t("percent", { Percent: percent });
    const place = root.querySelector("[data-review-place]");
    if (place) {
      place.hidden = !body.place;
      place.textContent = body.place ? t("place", { Place: body.place }) : "";
    }
    const bar = root.querySelector("[data-review-part=progress] progress");
    if (bar) bar.value = percent;
    if (body.done !== done || body.status === "done") {
      done = body.done;
      try {
        const doc = await fetchPage(ply);
        swap(doc, ["progress", "graph", "summary", "moves"]);
        // The explanation of the move shown may have just arrived; keep
        // the focus where it is if it is inside the view.
        if (!retry && !root.querySelector("[data-review-part=view]").contains(document.activeElement)) {
          swap(doc, ["view"]);
          wireRetry();
        }
        showCurrentMove();
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
  showCurrentMove();
  wireRetry();
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
