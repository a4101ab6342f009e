// sound.js: the game's sounds (G20), a view of the state: move, capture,
// check, game end and low time, small WAV files made by cmd/gensounds.
// Nothing loads until the visitor first taps, clicks or presses a key
// (browsers only play sound after a gesture anyway), so they cost nothing
// on the page weight. The switch in More (data-action="toggle-sound",
// state.sound) is remembered in a cookie the server reads to render it.

import { parseFEN } from "../board.js";
import { t } from "../words.js";
import { page } from "./page.js";
import { subscribe } from "./state.js";

const audio = {}; // name -> HTMLAudioElement, once loaded
let on = true;
let unlocked = false;
let sounded = -1; // the ply of the visitor's move that sounded as it was shown

/** Whether the server rendered the switch on (state.sound starts from it). */
export function soundSwitchOn() {
  const sw = page.root.querySelector('[data-action="toggle-sound"]');
  return !sw || sw.getAttribute("aria-pressed") !== "false";
}

// load fetches the files once (the URLs, content-hashed, come from the
// server with the page's facts).
function load() {
  for (const [name, url] of Object.entries(page.facts.sounds || {})) {
    if (audio[name]) continue;
    const a = new Audio(url);
    a.preload = "auto";
    audio[name] = a;
  }
}

/** Plays one sound when sound is on and the visitor has interacted. */
export function playSound(name) {
  if (!on || !unlocked) return;
  load();
  const a = audio[name];
  if (!a) return;
  try {
    a.currentTime = 0;
    const p = a.play();
    if (p && p.catch) p.catch(() => { /* the browser said no: stay quiet */ });
  } catch { /* no audio output: stay quiet */ }
}

// showSwitch draws the switch and remembers it for the visitor.
function showSwitch(value) {
  on = value;
  const sw = page.root.querySelector('[data-action="toggle-sound"]');
  document.cookie = `sound=${on ? "on" : "off"}; Path=/; Max-Age=31536000; SameSite=Lax`;
  if (sw) {
    sw.setAttribute("aria-pressed", String(on));
    sw.textContent = t(on ? "sound_on" : "sound_off");
  }
  if (on && unlocked) load();
}

// ownMove sounds the visitor's move as it is shown, before the server
// answers: a capture (en passant too) or a move.
function ownMove(game, move) {
  const pieces = parseFEN(game.fen);
  const from = move.slice(0, 2), to = move.slice(2, 4);
  const capture = Boolean(pieces[to]) || (from[0] !== to[0] && (pieces[from] || "").endsWith("P"));
  sounded = game.ply + 1;
  playSound(capture ? "capture" : "move");
}

/**
 * Plays the sound for what changed between two states: the game's end,
 * a check, a capture or a move (castling and promotion sound like a move).
 */
function soundFor(prev, next) {
  if (!prev || next.ply <= prev.ply && next.status === prev.status) return;
  if (next.status !== "active" && prev.status === "active") { playSound("end"); return; }
  // An undo makes no sound; the visitor's own move sounded when it was shown.
  if (next.ply <= prev.ply || next.ply === sounded) return;
  const san = next.moves[next.moves.length - 1] || "";
  if (/[+#]$/.test(san)) playSound("check");
  else if (san.includes("x")) playSound("capture");
  else playSound("move");
}

/** Waits for the visitor's first gesture, then plays what the state's changes sound like. */
export function initSound() {
  on = soundSwitchOn();
  const unlock = () => {
    unlocked = true;
    if (on) load();
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
  };
  window.addEventListener("pointerdown", unlock, true);
  window.addEventListener("keydown", unlock, true);
  subscribe((s, prev) => {
    if (s.sound !== prev.sound) showSwitch(s.sound);
    if (s.preview && s.preview !== prev.preview && s.game) ownMove(s.game, s.preview.move);
    if (s.game !== prev.game && s.game) soundFor(prev.game, s.game);
  });
}
