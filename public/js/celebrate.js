// celebrate.js: the quiet celebration when something is finished (an
// exercise solved, a quiz answer right). The tick itself is CSS (.tick in
// site.css, still with prefers-reduced-motion); this module builds it and
// plays the success sound when the site has one and the visitor has
// sounds on.
//
// Sound: the layout names the success sound with
//   <meta name="sound-success" content="/assets/…/sounds/success.wav">
// only when public/sounds/success.wav exists, and the visitor's switch is
// the game page's cookie "sound" (on unless it says "off"). Without the
// sound, nothing is fetched or played.

/** A round tick that pops in (aria-hidden; the words say the rest). */
export function tick() {
  const el = document.createElement("span");
  el.className = "tick";
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** Plays the success sound if there is one and sounds are on. */
export function playSuccess() {
  const meta = document.querySelector('meta[name="sound-success"]');
  if (!meta || !meta.content || /(?:^|;\s*)sound=off(?:;|$)/.test(document.cookie)) return;
  try {
    const audio = new Audio(meta.content);
    audio.volume = 0.5;
    audio.play().catch(() => {}); // a blocked autoplay is no error for the visitor
  } catch {
    // No audio support: the tick is enough.
  }
}

// A solved exercise ticks its line in the lesson's exercise list beside
// the board (views/partials/practice-list.html), without a reload.
document.addEventListener("exercise-solved", (ev) => {
  const id = ev.detail && ev.detail.id;
  if (!id) return;
  for (const li of document.querySelectorAll("[data-list-exercise]")) {
    if (li.dataset.listExercise !== id) continue;
    const mark = li.querySelector("[data-solved-tick]");
    if (mark) mark.hidden = false;
  }
});
