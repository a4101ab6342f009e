// time.js: the clocks' arithmetic. The server runs the clocks (G6);
// between answers the running one counts down on the page from the
// server's time, and when the visitor moves they switch at once (G17).

/** "4:59", "1:02:03", or "0:09.4" under ten seconds. */
export function clockText(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** The clocks of a state the server sent, as shown from time `at` on. */
export function fromServer(s, at) {
  return {
    base: { white: s.clocks ? s.clocks.white : 0, black: s.clocks ? s.clocks.black : 0 },
    running: s.running || "",
    since: at,
  };
}

/** The time colour c has left at `now`; the clocks run only while `ticking` (an active game). */
export function timeLeft(clock, c, now, ticking) {
  let ms = clock.base[c];
  if (ticking && clock.running === c) ms -= now - clock.since;
  return Math.max(0, ms);
}

/**
 * The clocks from the moment the mover's move is sent: the mover's stopped
 * with the increment added, as the server will, and the other side's
 * running (on the server a move always starts the other clock).
 */
export function switched(clock, mover, incrementMS, now) {
  const other = mover === "white" ? "black" : "white";
  return {
    base: { ...clock.base, [mover]: timeLeft(clock, mover, now, true) + incrementMS },
    running: other,
    since: now,
  };
}
