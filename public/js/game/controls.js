// controls.js: the buttons around the board: undo, draw offers (G9),
// resign (G8), the More menu, the pass screen (G12), review (G14), rematch
// and the help (G23). They change the state or call net; the views show
// the result, and the effects pause the clocks while a dialog or the pass
// screen shows (G11).

import { t } from "../words.js";
import { page } from "./page.js";
import { state, setState, active, isComputer, isThinking, other, yourMove } from "./state.js";
import { act, createGame, hint, undoNow } from "./net.js";

/** Keeps Tab and Shift+Tab inside container. */
export function trapFocus(container, event) {
  const items = Array.from(container.querySelectorAll("button:not([hidden])"));
  const i = items.indexOf(document.activeElement);
  event.preventDefault();
  const next = event.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length;
  items[next].focus();
}

// undo takes back the last move; while the computer thinks it takes back
// the visitor's move at once, which stops the search (C3).
function undo() {
  setState({ message: "" });
  if (isThinking() && (state.game.waiting || state.pendingPly !== null)) {
    undoNow(state.game.waiting ? state.game.ply : state.pendingPly);
    return;
  }
  act("/undo").then((s) => {
    if (s && !isComputer() && s.pass_screen && s.status === "active") setState({ passVisible: true });
  });
}

// askHint asks for the next hint step on the visitor's move.
function askHint() {
  closeMore();
  if (!yourMove()) {
    setState({ help: { ...state.help, note: t("hint_wait") } });
    return;
  }
  hint(state.game.ply, state.help.step === 0 ? "piece" : "move");
}

// actions maps each data-action of the page to what it does; the More
// menu's items are the buttons with these names (see addAction). An
// answer to a dialog is sent before the dialog closes, so it goes to the
// server ahead of the clock's resume that the closing brings (G11).
const actions = {
  undo,
  "offer-draw"() {
    setState({ message: "" });
    act("/draw");
  },
  "accept-draw"() {
    act("/draw/accept");
    setState({ dialog: "" });
  },
  "decline-draw"() {
    act("/draw/decline");
    setState({ dialog: "", message: t("draw_declined") });
  },
  resign() {
    setState({ dialog: "resign" });
  },
  "confirm-resign"() {
    act("/resign");
    setState({ dialog: "" });
  },
  "cancel-resign"() {
    setState({ dialog: "" });
  },
  flip() {
    closeMore();
    setState({ flipped: !state.flipped });
  },
  "toggle-sound"() {
    setState({ sound: !state.sound });
  },
  more() {
    if (page.el.moreMenu.hidden) openMore();
    else closeMore();
  },
  rematch,
  hint: askHint,
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
  const menu = page.el.moreMenu;
  menu.classList.remove("up", "flip-x");
  menu.hidden = false;
  page.el.moreBtn.setAttribute("aria-expanded", "true");
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
  if (page.el.moreMenu.hidden) return;
  page.el.moreMenu.hidden = true;
  page.el.moreBtn.setAttribute("aria-expanded", "false");
  if (focusButton) page.el.moreBtn.focus();
}

async function rematch() {
  const s = state.game;
  const body = {
    mode: s.mode,
    color: isComputer() ? other(s.human_color) : "white",
    level: s.level || 0,
    clock: s.clock ? s.clock.name : "none",
    undo: s.undo,
    pass_screen: s.pass_screen,
    turn_board: s.turn_board,
  };
  if (s.start_fen !== page.facts.start_fen) body.fen = s.start_fen;
  // Friends who named themselves change colours for the next game.
  if (s.mode === "friend" && (s.white_name || s.black_name)) {
    body.white_name = s.black_name;
    body.black_name = s.white_name;
  }
  try {
    const data = await createGame(body);
    window.location.assign(`/play/${data.id}`);
  } catch (err) {
    setState({ message: (err && err.data && err.data.error) || t("rematch_failed") });
  }
}

/** Hides the pass screen; the clocks run again (G12). */
export function dismissPass() {
  if (state.passVisible) setState({ passVisible: false });
}

// review shows the position after ply n of a finished game (G14).
function review(n) {
  if (active() || !state.game) return;
  const inList = page.el.moveList.contains(document.activeElement);
  setState({ review: Math.max(0, Math.min(state.game.ply, n)) });
  // The list is redrawn: keep a keyboard user on the move shown.
  if (inList) page.el.moveList.querySelector(".current")?.focus();
}

const shownPly = () => (state.review === null ? state.game.ply : state.review);

/** Wires the buttons, dialogs, menu, review and pass screen. */
export function initControls() {
  const e = page.el;
  e.pass.addEventListener("click", () => {
    dismissPass();
    const first = e.board.querySelector('[tabindex="0"]');
    if (first) first.focus();
  });

  // A dialog closed by the browser (Escape) closes in the state too.
  for (const [d, name] of [[e.drawDialog, "draw"], [e.resignDialog, "resign"]]) {
    d.addEventListener("close", () => {
      if (state.dialog === name) setState({ dialog: "" });
    });
  }
  e.drawDialog.addEventListener("cancel", (event) => {
    event.preventDefault(); // the offer needs an answer
  });

  page.root.addEventListener("click", (event) => {
    const b = event.target.closest("[data-action]");
    if (!b || b.closest("[data-promotion]")) return;
    const fn = actions[b.getAttribute("data-action")];
    if (fn) fn(b);
  });
  page.root.addEventListener("change", (event) => {
    if (event.target.matches('[data-option="threats"]')) {
      setState({ help: { ...state.help, show: event.target.checked, note: "" } });
    }
  });

  // The menu closes on a click elsewhere and on Escape.
  document.addEventListener("click", (event) => {
    if (!event.target.closest(".more")) closeMore();
  });
  e.moreMenu.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeMore(true);
  });

  e.turnBoardBox.addEventListener("change", () => {
    setState({ turnBoard: e.turnBoardBox.checked });
  });

  e.review.addEventListener("click", (event) => {
    const b = event.target.closest("[data-review-step]");
    if (!b || active()) return;
    const steps = { start: 0, prev: shownPly() - 1, next: shownPly() + 1, last: state.game.ply };
    review(steps[b.getAttribute("data-review-step")]);
  });
  e.moveList.addEventListener("click", (event) => {
    const b = event.target.closest("button[data-ply]");
    if (b) review(Number(b.getAttribute("data-ply")));
  });
  // After the game the arrow keys step through it (outside text fields
  // and dialogs): left and right a move, Home and End to either end.
  window.addEventListener("keydown", (event) => {
    if (!state.game || active() || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, textarea, select, dialog, .more-menu")) return;
    const steps = { ArrowLeft: shownPly() - 1, ArrowRight: shownPly() + 1, Home: 0, End: state.game.ply };
    if (!(event.key in steps)) return;
    event.preventDefault();
    event.stopPropagation(); // not the board's square-to-square focus
    review(steps[event.key]);
  }, true);

  document.addEventListener("visibilitychange", () => setState({ pageHidden: document.hidden }));
}

