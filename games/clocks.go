package games

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"chesstutor/chess"
	"chesstutor/store"
)

// This file holds the time controls (G2) and the running clock (R9, G11).

// ClockChoice is one time control a game may be played with (G2).
type ClockChoice struct {
	Name      string        // the code, stored and sent: "none", "3+2", …
	Base      time.Duration // each side's time at the start; 0 for no clock
	Increment time.Duration // added after each move
	Label     string        // the choice in words, for the new-game form
}

// clockChoices is the one list of time controls, in the order the form
// offers them: minutes each + seconds a move.
var clockChoices = []ClockChoice{
	{"none", 0, 0, "No clock: take all the time you like"},
	{"3+2", 3 * time.Minute, 2 * time.Second, "3 minutes each + 2 seconds a move (fast)"},
	{"5+0", 5 * time.Minute, 0, "5 minutes each, no bonus"},
	{"10+0", 10 * time.Minute, 0, "10 minutes each"},
	{"15+10", 15 * time.Minute, 10 * time.Second, "15 minutes each + 10 seconds a move (relaxed)"},
}

// ClockChoices lists the time controls in the order the form offers them.
func ClockChoices() []ClockChoice { return slices.Clone(clockChoices) }

func clockChoice(name string) (ClockChoice, bool) {
	for _, c := range clockChoices {
		if c.Name == name {
			return c, true
		}
	}
	return ClockChoice{}, false
}

// clockNamesText lists the codes for an error message, "none, 3+2, 15+10":
// codes, not words, so no language's "or" is needed between them.
func clockNamesText() string {
	var names []string
	for _, c := range clockChoices {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}

// clockBudget is the longest the computer may think with leftMS on its
// clock and incMS added after each move: a thirtieth of the clock plus half
// the increment, never more than half of what is left, and never below a
// short floor that still finds a sensible move.
func clockBudget(leftMS, incMS int64) time.Duration {
	const floor = 50 * time.Millisecond
	d := time.Duration(leftMS/30+incMS/2) * time.Millisecond
	d = min(d, time.Duration(leftMS/2)*time.Millisecond)
	return max(d, floor)
}

func (l *loaded) timed() bool { return l.rec.BaseMS > 0 }

// remaining is what the clocks show at now: the stored times minus what
// the running clock has used since it started.
func (l *loaded) remaining(now time.Time) store.ClockPair {
	c := l.rec.Clocks
	if !l.rec.RunningSince.IsZero() && l.active() {
		used := now.Sub(l.rec.RunningSince).Milliseconds()
		if used > 0 {
			if l.turn() == chess.White {
				c.White -= used
			} else {
				c.Black -= used
			}
		}
	}
	return c
}

// settle books the running clock's used time into the stored times.
func (l *loaded) settle(now time.Time) {
	if l.rec.RunningSince.IsZero() {
		return
	}
	l.rec.Clocks = l.remaining(now)
	if l.rec.Clocks.White < 0 {
		l.rec.Clocks.White = 0
	}
	if l.rec.Clocks.Black < 0 {
		l.rec.Clocks.Black = 0
	}
	l.rec.RunningSince = now
}

func (l *loaded) pause(now time.Time) {
	l.settle(now)
	l.rec.RunningSince = time.Time{}
}

// expire ends the game on time (R9) when the running clock shows zero.
func (l *loaded) expire(now time.Time) bool {
	if !l.timed() || !l.active() || l.rec.RunningSince.IsZero() {
		return false
	}
	c := l.turn()
	if pick(l.remaining(now), c) > 0 {
		return false
	}
	l.pause(now)
	l.game.Timeout(c)
	l.rec.EndColor = c.String()
	l.sync()
	l.justExpired = true
	return true
}

func pick(c store.ClockPair, col chess.Color) int64 {
	if col == chess.Black {
		return c.Black
	}
	return c.White
}

// formatMS writes a clock time as a person reads it: 4:05, or 7.3 s.
func formatMS(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	if ms < 10000 {
		return fmt.Sprintf("%d.%d seconds", ms/1000, ms%1000/100)
	}
	s := ms / 1000
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
