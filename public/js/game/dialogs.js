// dialogs.js: the draw offer and resign dialogs (G8, G9) and the promotion
// picker (G4), a view of the state: each shows while the state says so,
// with its words, and takes the focus when it opens. The controls and the
// input set what shows; the effects open the draw dialog on an offer.

import { pieceSVG } from "../board.js";
import { t } from "../words.js";
import { page } from "./page.js";
import { state, subscribe, bottomColor, isComputer } from "./state.js";

// showDialog opens or closes d as `open` says; text gives its words and
// focus the button that takes the focus when it opens.
function showDialog(d, open, text, focus) {
  if (!open) {
    if (d.open) d.close();
    return;
  }
  if (d.open) return;
  d.querySelector(".dialog-text").textContent = text();
  d.showModal();
  d.querySelector(focus).focus();
}

// showPromotion puts the picker as a column over the promotion square,
// the queen nearest to it, in the mover's colour.
function showPromotion(promotion, prev) {
  const promo = page.el.promo;
  if (!promotion) {
    promo.hidden = true;
    return;
  }
  if (promotion === prev) return;
  const { to } = promotion;
  const color = state.game.turn === "white" ? "w" : "b";
  promo.querySelectorAll("[data-promote]").forEach((b) => {
    b.replaceChildren(pieceSVG(color + b.getAttribute("data-promote").toUpperCase()));
  });
  const bottom = bottomColor();
  const file = to.charCodeAt(0) - 97;
  const col = bottom === "white" ? file : 7 - file;
  promo.style.setProperty("--col", col);
  const top = (to[1] === "8") === (bottom === "white");
  promo.classList.toggle("from-bottom", !top);
  promo.hidden = false;
  promo.querySelector('[data-promote="q"]').focus();
}

/** Shows the dialogs and the picker on every change. */
export function initDialogs() {
  subscribe((s, prev) => {
    if (!s.game) return;
    showDialog(page.el.drawDialog, s.dialog === "draw",
      () => t(s.game.draw_offer === "black" ? "draw_offer_black" : "draw_offer_white"),
      '[data-action="decline-draw"]');
    showDialog(page.el.resignDialog, s.dialog === "resign",
      () => t(isComputer() ? "resign_confirm_computer" : `resign_confirm_${s.game.turn}`),
      '[data-action="cancel-resign"]');
    showPromotion(s.promotion, prev.promotion);
  });
}
