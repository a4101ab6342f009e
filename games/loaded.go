package games

import (
	"fmt"
	"time"

	"chesstutor/chess"
	"chesstutor/store"
)

// loaded is a stored game with its moves replayed.
type loaded struct {
	rec  *store.Game
	game *chess.Game

	justExpired bool   // this request found the flag fallen and ended the game
	message     string // a note for this answer only (the computer's draw answer)
}

func (l *loaded) turn() chess.Color  { return l.game.Position().Turn() }
func (l *loaded) human() chess.Color { return parseColor(l.rec.HumanColor) }
func (l *loaded) active() bool       { return l.game.Outcome().Result == "*" && !l.abandoned() }
func (l *loaded) timed() bool        { return l.rec.BaseMS > 0 }

func (l *loaded) computerToMove() bool {
	return l.rec.Mode == "computer" && l.active() && l.turn() != l.human()
}

func (l *loaded) requireActive() error {
	if l.abandoned() {
		return fail(Conflict, "%s.", abandonedSentence)
	}
	if !l.active() {
		return fail(Conflict, "This game is over: %s.", l.game.Outcome().Reason())
	}
	return nil
}

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

// play makes m, adds the increment to the mover's clock and records the
// clock snapshot for the new position (G2, G10).
func (l *loaded) play(m chess.Move, now time.Time) error {
	if err := l.requireActive(); err != nil {
		return err
	}
	mover := l.turn()
	l.settle(now) // books the mover's thinking time before the turn changes
	if err := l.game.Play(m); err != nil {
		return fail(Illegal, "%s is not a legal move here: %v.", m.UCI(), trimChess(err))
	}
	l.rec.Moves = append(l.rec.Moves, m.UCI())
	if l.timed() {
		if mover == chess.White {
			l.rec.Clocks.White += l.rec.IncrementMS
		} else {
			l.rec.Clocks.Black += l.rec.IncrementMS
		}
		// The other side's clock starts now, even after a move made while
		// paused: a move means the game is being played.
		l.rec.RunningSince = now
	}
	l.rec.Snapshots = append(l.rec.Snapshots, l.rec.Clocks)
	l.rec.DrawOffer = ""
	l.sync()
	return nil
}

// sync copies the game's outcome into the record.
func (l *loaded) sync() {
	o := l.game.Outcome()
	if o.Result == "*" {
		l.rec.Status, l.rec.Result, l.rec.Reason = statusActive, "*", ""
		l.rec.EndColor = ""
		return
	}
	// Codes, never sentences, are stored (N7): Status is the method's code,
	// Reason the outcome's code (which tells a drawn timeout apart).
	l.rec.Status, l.rec.Result, l.rec.Reason = o.Method.Code(), o.Result, o.Code()
	l.rec.DrawOffer = ""
	if !l.rec.RunningSince.IsZero() {
		l.rec.RunningSince = time.Time{}
	}
}

func (l *loaded) playerNames() (white, black string) {
	if l.rec.Mode != "computer" {
		return "White player", "Black player"
	}
	comp := fmt.Sprintf("Computer (level %d)", l.rec.Level)
	if l.rec.HumanColor == "black" {
		return comp, "You"
	}
	return "You", comp
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
