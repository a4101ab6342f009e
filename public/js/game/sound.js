// sound.js: the game's sounds (G20): move, capture, check, game end and
// low time, small WAV files made by cmd/gensounds. Nothing loads until the
// visitor first taps, clicks or presses a key (browsers only play sound
// after a gesture anyway), so they cost nothing on the page weight. The
// switch in More (data-action="toggle-sound") is remembered in a cookie the
// server reads to render the switch.

import { g } from "./ctx.js";
import { t } from "../words.js";

const audio = {}; // name -> HTMLAudioElement, once loaded
let on = true;
let unlocked = false;

/** Reads the switch as the server rendered it and waits for a gesture. */
export function initSound() {
  const sw = g.root.querySelector('[data-action="toggle-sound"]');
  on = !sw || sw.getAttribute("aria-pressed") !== "false";
  const unlock = () => {
    unlocked = true;
    if (on) load();
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
  };
  window.addEventListener("pointerdown", unlock, true);
  window.addEventListener("keydown", unlock, true);
}

// load fetches the files once (the URLs, content-hashed, come from the
// server with the page's facts).
function load() {
  for (const [name, url] of Object.entries(g.facts.sounds || {})) {
    if (audio[name]) continue;
    const a = new Audio(url);
    a.preload = "auto";
    audio[name] = a;
  }
}

/** Plays the sound of a move the visitor just made, before the server answers. */
export function soundOwnMove(capture, ply) {
  g.sounded = ply;
  playSound(capture ? "capture" : "move");
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

/** Turns sound on or off, remembers it for the visitor, updates the switch. */
export function toggleSound(sw) {
  on = !on;
  document.cookie = `sound=${on ? "on" : "off"}; Path=/; Max-Age=31536000; SameSite=Lax`;
  sw.setAttribute("aria-pressed", String(on));
  sw.textContent = t(on ? "sound_on" : "sound_off");
  if (on && unlocked) load();
}

/**
 * Plays the sound for what changed between two states: the game's end,
 * a check, a capture or a move (castling and promotion sound like a move).
 */
export function soundFor(prev, next) {
  if (!prev || next.ply <= prev.ply && next.status === prev.status) return;
  if (next.status !== "active" && prev.status === "active") { playSound("end"); return; }
  // An undo makes no sound; the visitor's own move sounded when it was shown.
  if (next.ply <= prev.ply || next.ply === g.sounded) return;
  const san = next.moves[next.moves.length - 1] || "";
  if (/[+#]$/.test(san)) playSound("check");
  else if (san.includes("x")) playSound("capture");
  else playSound("move");
}
