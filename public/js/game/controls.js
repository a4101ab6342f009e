// controls.js: the buttons around the board: undo, draw offers (G9),
// resign (G8), the More menu, the pass screen (G12), review (G14) and
// rematch. Dialogs and the pass screen pause the clocks (G11).

import { postJSON } from "../board.js";
import { g, active, errorText, isComputer, isThinking, other } from "./ctx.js";
import { act, call, reload, show, syncPause } from "./net.js";
import { paint } from "./paint.js";
import { toggleSound } from "./sound.js";
import { t } from "../words.js";

/** Keeps Tab and Shift+Tab inside container. */
export function trapFocus(container, event) {
  const items = Array.from(container.querySelectorAll("button:not([hidden])"));
  const i = items.indexOf(document.activeElement);
  event.preventDefault();
  const next = event.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length;
  items[next].focus();
}

function openDialog(d) {
  if (!d.open) d.showModal();
  syncPause();
}

/** Asks the player whose turn it is to answer a draw offer (friend games). */
export function openDraw() {
  const d = g.el.drawDialog;
  d.querySelector(".dialog-text").textContent = t(g.state.draw_offer === "black" ? "draw_offer_black" : "draw_offer_white");
  openDialog(d);
  d.querySelector('[data-action="decline-draw"]').focus();
}

function openResign() {
  const d = g.el.resignDialog;
  d.querySelector(".dialog-text").textContent = t(isComputer() ? "resign_confirm_computer" : `resign_confirm_${g.state.turn}`);
  openDialog(d);
  d.querySelector('[data-action="cancel-resign"]').focus();
}

// undo takes back the last move; while the computer thinks it takes back
// the visitor's move at once, which stops the search (C3).
function undo() {
  g.message = "";
  if (isThinking() && (g.state.waiting || g.pendingPly !== null)) {
    const ply = g.state.waiting ? g.state.ply : g.pendingPly;
    g.pendingPly = null;
    paint();
    call("POST", "/undo", { ply }).then(show, (err) => {
      g.message = errorText(err);
      reload();
    });
    return;
  }
  act("/undo").then((s) => {
    if (s && !isComputer() && s.pass_screen && s.status === "active") { g.passVisible = true; paint(); }
  });
}

// actions maps each data-action of the page to what it does; the More
// menu's items are the buttons with these names (see addAction).
const actions = {
  undo,
  "offer-draw"() {
    g.message = "";
    act("/draw");
  },
  "accept-draw"() {
    g.el.drawDialog.close();
    act("/draw/accept");
  },
  "decline-draw"() {
    g.el.drawDialog.close();
    g.message = t("draw_declined");
    act("/draw/decline");
  },
  resign: openResign,
  "confirm-resign"() {
    g.el.resignDialog.close();
    act("/resign");
  },
  "cancel-resign"() {
    g.el.resignDialog.close();
  },
  flip() {
    g.flipped = !g.flipped;
    closeMore();
    paint();
  },
  "toggle-sound": toggleSound,
  more() {
    if (g.el.moreMenu.hidden) openMore();
    else closeMore();
  },
  rematch,
};

/**
 * Gives a data-action its behaviour, for a feature that adds a button or a
 * More menu item to the page (fn gets the clicked element).
 */
export function addAction(name, fn) {
  actions[name] = fn;
}

// openMore shows the menu and keeps it inside the viewport: it opens
// upwards when there is no room below, and ends at the button's right edge
// when there is no room on the right.
// On phones the CSS makes it a sheet at the bottom of the screen.
function openMore() {
  const menu = g.el.moreMenu;
  menu.classList.remove("up", "flip-x");
  menu.hidden = false;
  g.el.moreBtn.setAttribute("aria-expanded", "true");
  if (getComputedStyle(menu).position !== "fixed") {
    let r = menu.getBoundingClientRect();
    if (r.bottom > window.innerHeight) menu.classList.add("up");
    if (r.right > document.documentElement.clientWidth) menu.classList.add("flip-x");
    r = menu.getBoundingClientRect();
    if (r.top < 0) menu.classList.remove("up"); // taller than either side: the page scrolls
  }
  menu.querySelector("button, a, input")?.focus();
}

function closeMore(focusButton = false) {
  if (g.el.moreMenu.hidden) return;
  g.el.moreMenu.hidden = true;
  g.el.moreBtn.setAttribute("aria-expanded", "false");
  if (focusButton) g.el.moreBtn.focus();
}

async function rematch() {
  const s = g.state;
  const body = {
    mode: s.mode,
    color: isComputer() ? other(s.human_color) : "white",
    level: s.level || 0,
    clock: s.clock ? s.clock.name : "none",
    undo: s.undo,
    pass_screen: s.pass_screen,
    turn_board: s.turn_board,
  };
  if (s.start_fen !== g.facts.start_fen) body.fen = s.start_fen;
  try {
    const data = await postJSON("/api/games", body);
    window.location.assign(`/play/${data.id}`);
  } catch (err) {
    g.message = (err && err.data && err.data.error) || t("rematch_failed");
    paint();
  }
}

/** Hides the pass screen and restarts the clocks (G12). */
export function dismissPass() {
  if (!g.passVisible) return;
  g.passVisible = false;
  paint();
  syncPause();
}

// review shows the position after ply n of a finished game (G14).
function review(n) {
  if (active() || !g.state) return;
  const inList = g.el.moveList.contains(document.activeElement);
  g.review = Math.max(0, Math.min(g.state.ply, n));
  paint();
  // The list is redrawn: keep a keyboard user on the move shown.
  if (inList) g.el.moveList.querySelector(".current")?.focus();
}

const shownPly = () => (g.review === null ? g.state.ply : g.review);

/** Wires the buttons, dialogs, menu, review and pass screen. */
export function initControls() {
  const e = g.el;
  e.pass.addEventListener("click", () => {
    dismissPass();
    const first = e.board.querySelector('[tabindex="0"]');
    if (first) first.focus();
  });

  for (const d of [e.drawDialog, e.resignDialog]) {
    d.addEventListener("close", () => syncPause());
  }
  e.drawDialog.addEventListener("cancel", (event) => {
    event.preventDefault(); // the offer needs an answer
  });

  g.root.addEventListener("click", (event) => {
    const b = event.target.closest("[data-action]");
    if (!b || b.closest("[data-promotion]")) return;
    const fn = actions[b.getAttribute("data-action")];
    if (fn) fn(b);
  });

  // The menu closes on a click elsewhere and on Escape.
  document.addEventListener("click", (event) => {
    if (!event.target.closest(".more")) closeMore();
  });
  e.moreMenu.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeMore(true);
  });

  e.turnBoardBox.addEventListener("change", () => {
    g.turnBoard = e.turnBoardBox.checked;
    paint();
  });

  e.review.addEventListener("click", (event) => {
    const b = event.target.closest("[data-review-step]");
    if (!b || active()) return;
    const steps = { first: 0, prev: shownPly() - 1, next: shownPly() + 1, last: g.state.ply };
    review(steps[b.getAttribute("data-review-step")]);
  });
  e.moveList.addEventListener("click", (event) => {
    const b = event.target.closest("button[data-ply]");
    if (b) review(Number(b.getAttribute("data-ply")));
  });
  // After the game the arrow keys step through it (outside text fields
  // and dialogs): left and right a move, Home and End to either end.
  window.addEventListener("keydown", (event) => {
    if (!g.state || active() || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, textarea, select, dialog, .more-menu")) return;
    const steps = { ArrowLeft: shownPly() - 1, ArrowRight: shownPly() + 1, Home: 0, End: g.state.ply };
    if (!(event.key in steps)) return;
    event.preventDefault();
    event.stopPropagation(); // not the board's square-to-square focus
    review(steps[event.key]);
  }, true);

  document.addEventListener("visibilitychange", () => syncPause());
}
