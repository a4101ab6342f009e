// game.js: the game page (/play/{id}). The server holds the game, the rules
// and the clocks; the page keeps one state and flows one way (H1):
//
//   input, controls --> net --setState--> state --> views, effects
//
//   game/page.js      the page's elements and facts, found once
//   game/state.js     the state, setState and subscribe; what it implies
//   game/net.js       requests, one after another, and a game from two
//                     devices followed live; answers become state
//   game/time.js      the clocks' arithmetic
//   views, which only draw the state:
//   game/drawboard.js the board: squares, pieces, slides, the move on its way
//   game/paint.js     players, status, move list, buttons, pass screen
//   game/clock.js     the clocks between answers
//   game/material.js  captured pieces and the material difference (G21)
//   game/dialogs.js   the draw and resign dialogs, the promotion picker
//   game/help.js      hints and threats against levels 1–4 (G23)
//   game/sound.js     move, capture, check, end and low-time sounds (G20)
//   game/speech.js    each move told to screen readers (N4)
//   game/effects.js   reactions: the flag, the draw dialog, pausing the
//                     clock, the computer's missing reply, loading help
//   game/input.js     clicks, drag and drop, keys, typed moves, promotion (G3, G4)
//   game/controls.js  undo, draw, resign, More, review, rematch, pass screen
//   two devices (G24–G26):
//   game/remote.js    a view: the invite, names, status by seat, watchers,
//                     the takeback question, the claim button
//   game/remotectl.js the takeback answers, the claim, copying the links

import { initPage } from "./game/page.js";
import { setState } from "./game/state.js";
import { load, follow } from "./game/net.js";
import { initBoard } from "./game/drawboard.js";
import { initPaint } from "./game/paint.js";
import { initClocks } from "./game/clock.js";
import { initMaterial } from "./game/material.js";
import { initDialogs } from "./game/dialogs.js";
import { initHelp } from "./game/help.js";
import { initSound, soundSwitchOn } from "./game/sound.js";
import { initSpeech } from "./game/speech.js";
import { initEffects } from "./game/effects.js";
import { initInput } from "./game/input.js";
import { initControls } from "./game/controls.js";
import { initRemote } from "./game/remote.js";
import { initRemoteControls } from "./game/remotectl.js";

// fitToScreen tells the CSS where the game starts on the page, so the board
// is sized to leave room for both names and clocks below it (G18).
function fitToScreen(root) {
  const top = root.getBoundingClientRect().top + window.scrollY;
  root.style.setProperty("--game-top", `${Math.round(top)}px`);
}

const root = document.querySelector("[data-game]");
if (root) {
  initPage(root);
  fitToScreen(root);
  window.addEventListener("resize", () => fitToScreen(root));
  setState({ sound: soundSwitchOn(), pageHidden: document.hidden });
  // Views first, in drawing order (speech reads the status line paint
  // wrote), then the effects, which react to what they all show.
  initBoard();
  initPaint();
  initRemote();
  initClocks();
  initMaterial();
  initDialogs();
  initHelp();
  initSound();
  initSpeech();
  initEffects();
  initInput();
  initControls();
  initRemoteControls();
  load().then(follow);
}
