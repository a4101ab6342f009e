// page.js: the game page's elements, found once, and the facts the server
// rendered into it. Nothing here changes after init.

export const page = {
  root: null,
  id: "",
  api: "",
  events: "",
  el: {},
  facts: {}, // shared facts the server rendered into the page
};

/** Finds the page's elements and reads the facts the server rendered. */
export function initPage(root) {
  page.root = root;
  page.id = root.getAttribute("data-game");
  // A watch link's page reads the game through the watch link (G26).
  page.api = root.getAttribute("data-api") || `/api/games/${page.id}`;
  page.events = root.getAttribute("data-events") || ""; // a game from two devices: its event stream
  const q = (sel) => root.querySelector(sel);
  page.el = {
    board: q("[data-board]"),
    status: q("[data-status]"),
    notes: q("[data-notes]"),
    moveList: q("[data-movelist]"),
    pass: q("[data-pass-screen]"),
    promo: q("[data-promotion]"),
    end: q("[data-result-card]"),
    review: q("[data-review]"),
    sanForm: q("[data-san-form]"),
    sanError: q("[data-san-error]"),
    sanInput: q("[data-san-input]"),
    moreBtn: q('[data-action="more"]'),
    moreMenu: q(".more-menu"),
    turnBoardBox: q('[data-option="turn-board"]'),
    drawDialog: q('[data-dialog="draw"]'),
    resignDialog: q('[data-dialog="resign"]'),
    clocks: { white: q('[data-clock="white"]'), black: q('[data-clock="black"]') },
    rows: { top: q('[data-player="top"]'), bottom: q('[data-player="bottom"]') },
    material: { white: q('[data-material="white"]'), black: q('[data-material="black"]') },
  };
  page.facts = JSON.parse(root.getAttribute("data-facts") || "{}");
}
