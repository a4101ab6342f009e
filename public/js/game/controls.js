// controls.js: the buttons around the board: undo, draw offers (G9),
// resign (G8), the More menu, the pass screen (G12), review (G14) and
// rematch. Dialogs and the pass screen pause the clocks (G11).

import { postJSON } from "../board.js";
import { g, colorName, isComputer, other } from "./ctx.js";
import { act, syncPause } from "./net.js";
import { paint } from "./paint.js";

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
  const by = colorName(g.state.draw_offer);
  const to = colorName(other(g.state.draw_offer));
  d.querySelector(".dialog-text").textContent = `${by} offers a draw. ${to}, do you accept? If you do, the game ends as a draw. If not, play goes on.`;
  openDialog(d);
  d.querySelector('[data-action="decline-draw"]').focus();
}

function openResign() {
  const d = g.el.resignDialog;
  const who = isComputer() ? "You" : colorName(g.state.turn);
  const winner = isComputer() ? "the computer" : colorName(other(g.state.turn));
  d.querySelector(".dialog-text").textContent = `${who} would give up this game, and ${winner} wins. This cannot be undone.`;
  openDialog(d);
  d.querySelector('[data-action="cancel-resign"]').focus();
}

// actions maps each data-action of the page to what it does.
const actions = {
  undo() {
    g.message = "";
    act("/undo").then((s) => {
      if (s && !isComputer() && s.pass_screen && s.status === "active") { g.passVisible = true; paint(); }
    });
  },
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
    g.message = "The draw offer was declined. Play on.";
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
    paint();
  },
  more(b) {
    const open = g.el.moreMenu.hidden;
    g.el.moreMenu.hidden = !open;
    b.setAttribute("aria-expanded", String(open));
  },
  review() {
    g.review = g.state.ply;
    paint();
  },
  rematch,
};

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
    g.message = err.message || "The new game could not start.";
    paint();
  }
}

/** Wires the buttons, dialogs, menu, review and pass screen. */
export function initControls() {
  const e = g.el;
  e.pass.addEventListener("click", () => {
    g.passVisible = false;
    paint();
    syncPause();
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

  e.turnBoardBox.addEventListener("change", () => {
    g.turnBoard = e.turnBoardBox.checked;
    paint();
  });

  e.review.addEventListener("click", (event) => {
    const b = event.target.closest("[data-review-step]");
    if (!b || g.review === null) return;
    const last = g.state.ply;
    switch (b.getAttribute("data-review-step")) {
      case "first": g.review = 0; break;
      case "prev": g.review = Math.max(0, g.review - 1); break;
      case "next": g.review = Math.min(last, g.review + 1); break;
      case "last": g.review = last; break;
    }
    paint();
  });

  document.addEventListener("visibilitychange", () => syncPause());
}
