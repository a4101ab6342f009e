// game.js: the game page (/play/{id}). The server holds the game, the rules
// and the clocks; the modules in game/ draw what the JSON API says and send
// the player's actions back with the ply it saw (H1):
//   ctx.js       shared state and the page's elements
//   net.js       requests, one after another; pause and resume (G11)
//   drawboard.js the board: squares, pieces, slides, move preview
//   paint.js     players, status, move list, buttons
//   clock.js     the clocks between answers
//   input.js     clicks, drag and drop, keys, typed moves, promotion (G3, G4)
//   controls.js  undo, draw, resign, More, review, rematch, pass screen
//   material.js  captured pieces and the material difference (G21)
//   sound.js     move, capture, check, end and low-time sounds (G20)
//   help.js      hints and threats against levels 1–4 (G23)

import { g, errorText, init } from "./game/ctx.js";
import { call, enqueue, show } from "./game/net.js";
import { startTicking } from "./game/clock.js";
import { initInput } from "./game/input.js";
import { initControls } from "./game/controls.js";
import { initSound } from "./game/sound.js";
import { initHelp } from "./game/help.js";

// fitToScreen tells the CSS where the game starts on the page, so the board
// is sized to leave room for both names and clocks below it (G18).
function fitToScreen(root) {
  const top = root.getBoundingClientRect().top + window.scrollY;
  root.style.setProperty("--game-top", `${Math.round(top)}px`);
}

const root = document.querySelector("[data-game]");
if (root) {
  init(root);
  fitToScreen(root);
  window.addEventListener("resize", () => fitToScreen(root));
  initInput();
  initControls();
  initSound();
  initHelp();
  startTicking();
  enqueue(async () => {
    try {
      const s = await call("GET", "");
      g.turnBoard = Boolean(s.turn_board);
      // In a friend game with a pass screen, the page opens on it, so the
      // right player picks up the device; the clocks stay paused till then.
      g.passVisible = s.status === "active" && s.mode === "friend" && s.pass_screen;
      show(s);
    } catch (err) {
      g.el.status.textContent = errorText(err);
    }
  });
}
