package games

import (
	"fmt"
	"time"

	"chesstutor/chess"
	"chesstutor/store"
	"chesstutor/words"
)

// loaded is a stored game with its moves replayed.
type loaded struct {
	rec  *store.Game
	game *chess.Game

	justExpired bool          // this request found the flag fallen and ended the game
	message     words.Message // a note for this answer only (the computer's draw answer)

	seat     string // the viewer's colour in a remote game, "" for a watcher (remote.go)
	watchers int    // watch streams open on a remote game
	// awayClaim is how long the player to move must be gone before the
	// other may claim a remote game (Config.AwayClaim).
	awayClaim time.Duration
}

func (l *loaded) turn() chess.Color  { return l.game.Position().Turn() }
func (l *loaded) human() chess.Color { return parseColor(l.rec.HumanColor) }
func (l *loaded) active() bool       { return l.game.Outcome().Result == "*" && !l.abandoned() }

func (l *loaded) computerToMove() bool {
	return l.rec.Mode == "computer" && l.active() && l.turn() != l.human()
}

func (l *loaded) requireActive() error {
	if l.abandoned() {
		return fail(Conflict, "abandoned")
	}
	if !l.active() {
		return fail(Conflict, "refuse_over", "Ending", EndingMessage(l.game.Outcome()))
	}
	return nil
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
		return failChess(Illegal, err, "refuse_move_illegal", "Text", m.UCI())
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
	if l.remote() {
		l.rec.Remote.Takeback = "" // a move answers a takeback request by playing on
	}
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
		white, black = "White player", "Black player"
		if l.rec.WhiteName != "" {
			white = l.rec.WhiteName
		}
		if l.rec.BlackName != "" {
			black = l.rec.BlackName
		}
		return white, black
	}
	comp := fmt.Sprintf("Computer (level %d)", l.rec.Level)
	if l.rec.HumanColor == "black" {
		return comp, "You"
	}
	return "You", comp
}
