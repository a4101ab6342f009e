package games

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"chesstutor/chess"
	"chesstutor/words"
)

// This file holds the player's actions on a game (G5–G12): each is one
// update under the ply check (Service.action) with the rule it applies.

// answer drops the loaded game that update hands back along with the state.
func answer(_ *loaded, st *State, err error) (*State, error) { return st, err }

// Get returns the game's state; a game whose running clock has run out is
// ended first (R9) and saved.
func (s *Service) Get(ctx context.Context, visitor, id string) (*State, error) {
	return answer(s.update(ctx, visitor, id, nil, func(*loaded, time.Time) error { return errNoChange }))
}

// uciPattern is the "move" field's form; typed moves ("san") are read by
// chess.ParseSAN alone, the one grammar for them (G22).
var uciPattern = regexp.MustCompile(`^[a-h][1-8][a-h][1-8][qrbn]?$`)

// Move plays the human's move (UCI in uci, or SAN in san) on the position
// the client saw at ply. Against the computer, the reply follows before
// returning unless ctx ends first; then the page asks for it with Reply.
func (s *Service) Move(ctx context.Context, visitor, id string, ply *int, uci, san string) (*State, error) {
	uci, san = strings.TrimSpace(uci), strings.TrimSpace(san)
	switch {
	case uci == "" && san == "":
		return nil, fail(Invalid, "refuse_move_missing")
	case uci != "" && san != "":
		return nil, fail(Invalid, "refuse_move_both")
	case uci != "" && !uciPattern.MatchString(uci):
		return nil, fail(Invalid, "refuse_uci", "Text", clip(uci))
	case ply == nil:
		return nil, fail(Invalid, "refuse_move_ply")
	}
	l, st, err := s.activeAction(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if l.rec.Mode == "computer" && l.turn() != l.human() {
			return fail(Conflict, "refuse_computer_turn")
		}
		if err := l.requireMover(); err != nil {
			return err
		}
		pos := l.game.Position()
		var m chess.Move
		var err error
		if uci != "" {
			m, err = pos.ParseUCI(uci)
		} else {
			m, err = pos.ParseSAN(san)
		}
		var syntax *chess.SyntaxError
		if errors.As(err, &syntax) {
			return failChess(Invalid, err, "refuse_move_unreadable", "Text", clip(san))
		}
		if err != nil {
			return failChess(Illegal, err, "refuse_move_illegal", "Text", clip(san+uci))
		}
		if err := l.play(m, now); err != nil {
			return err
		}
		if l.rec.Mode == "friend" && l.rec.PassScreen && l.active() {
			l.pause(now) // the pass screen shows; its tap resumes (G11, G12)
		}
		return nil
	})
	if err != nil || !l.computerToMove() || ctx.Value(noReplyKey{}) != nil {
		return st, err
	}
	return s.computerReply(ctx, visitor, l)
}

type noReplyKey struct{}

// WithoutReply marks a Move whose caller asks for the computer's reply
// separately with Reply, so the page can show the move, and the computer's
// clock running, before the search ends (G17).
func WithoutReply(ctx context.Context) context.Context {
	return context.WithValue(ctx, noReplyKey{}, true)
}

// Undo takes back the last move in a friend game, or returns to the
// position before the human's last move against the computer (G10). Both
// clocks go back to what they showed when that position first appeared.
func (s *Service) Undo(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return answer(s.action(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if !l.rec.Undo {
			return fail(Conflict, "refuse_undo_off")
		}
		if err := l.requireActive(); err != nil {
			return err
		}
		if l.remote() {
			return l.askTakeback() // the other player answers (G26)
		}
		n := 1
		if l.rec.Mode == "computer" && l.turn() == l.human() {
			n = 2
		}
		if l.game.Ply() < n {
			return fail(Conflict, "refuse_undo_nothing")
		}
		s.cancelSearch(id)
		return l.takeBack(n, now, !(l.rec.Mode == "friend" && l.rec.PassScreen))
	}))
}

// takeBack removes the last n plies; both clocks go back to what they
// showed when that position first appeared, and a clock that ran goes on
// running when run allows it.
func (l *loaded) takeBack(n int, now time.Time, run bool) error {
	running := !l.rec.RunningSince.IsZero()
	for range n {
		if err := l.game.Undo(); err != nil {
			return fmt.Errorf("games: undo: %w", err)
		}
	}
	p := l.game.Ply()
	l.rec.Moves = l.rec.Moves[:p]
	l.rec.Snapshots = l.rec.Snapshots[:p+1]
	l.rec.Clocks = l.rec.Snapshots[p]
	l.rec.RunningSince = time.Time{}
	if running && l.timed() && run {
		l.rec.RunningSince = now
	}
	l.rec.DrawOffer = ""
	l.sync()
	return nil
}

// Resign gives up for the player to move, or for the human against the
// computer (G8).
func (s *Service) Resign(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return answer(s.activeAction(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		c := l.actor()
		if l.rec.Mode == "computer" {
			c = l.human()
		}
		s.cancelSearch(id)
		l.settle(now)
		l.game.Resign(c)
		l.rec.EndColor = c.String()
		l.sync()
		return nil
	}))
}

// OfferDraw offers a draw for the player to move. In a friend game the
// offer waits for AcceptDraw or DeclineDraw; the computer answers at once
// by the rule of G9.
func (s *Service) OfferDraw(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return answer(s.activeAction(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if l.rec.Mode == "computer" {
			accept, why := computerAcceptsDraw(l.game.Position(), l.human().Other())
			if !accept {
				l.message = words.M("game.computer_declines", "Why", why)
				return errNoChange
			}
			s.cancelSearch(id)
			l.settle(now)
			l.game.AgreeDraw()
			l.sync()
			l.message = words.M("game.computer_accepts", "Why", why)
			return nil
		}
		if l.rec.DrawOffer != "" {
			return fail(Conflict, "refuse_draw_waiting")
		}
		l.rec.DrawOffer = l.actor().String()
		return nil
	}))
}

// AcceptDraw ends a friend game by agreement when a draw offer is waiting.
func (s *Service) AcceptDraw(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.answerDraw(ctx, visitor, id, ply, true)
}

// DeclineDraw turns down the waiting draw offer; play goes on.
func (s *Service) DeclineDraw(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.answerDraw(ctx, visitor, id, ply, false)
}

func (s *Service) answerDraw(ctx context.Context, visitor, id string, ply *int, accept bool) (*State, error) {
	return answer(s.activeAction(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if l.rec.DrawOffer == "" {
			return fail(Conflict, "refuse_no_draw_offer")
		}
		if l.remote() && l.rec.DrawOffer == l.seat {
			return failRemote(Forbidden, "refuse_own_draw")
		}
		l.rec.DrawOffer = ""
		if accept {
			l.settle(now)
			l.game.AgreeDraw()
			l.sync()
		}
		return nil
	}))
}

// Flag reports that the clock of the side to move shows zero. The server
// checks its own clock; a flag that has not fallen is refused with 409.
func (s *Service) Flag(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return answer(s.action(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if l.justExpired {
			return errNoChange
		}
		if err := l.requireActive(); err != nil {
			return err
		}
		if !l.timed() {
			return fail(Conflict, "refuse_no_clock")
		}
		left := l.remaining(now)
		return fail(Conflict, "refuse_flag_"+l.turn().String(), "Left", formatMS(pick(left, l.turn())))
	}))
}

// Pause stops the running clock (pass screen, a dialog, a hidden page: G11).
func (s *Service) Pause(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.pauseResume(ctx, visitor, id, ply, false)
}

// Resume starts the clock of the side to move again.
func (s *Service) Resume(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.pauseResume(ctx, visitor, id, ply, true)
}

func (s *Service) pauseResume(ctx context.Context, visitor, id string, ply *int, run bool) (*State, error) {
	return answer(s.activeAction(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if !l.timed() || l.remote() { // two devices: the server's clocks never pause (G26)
			return errNoChange
		}
		if run {
			if !l.rec.RunningSince.IsZero() {
				return errNoChange
			}
			l.rec.RunningSince = now
			return nil
		}
		if l.rec.RunningSince.IsZero() {
			return errNoChange
		}
		l.pause(now)
		return nil
	}))
}
