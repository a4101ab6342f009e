package games

import (
	"context"
	"errors"
	"fmt"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/store"
	"chesstutor/words"
)

// This file holds the computer's side of a game: its replies (C3) and its
// answer to a draw offer (G9).

// Reply asks the computer for its move when the page finds it missing
// (the move request ended before the search did).
func (s *Service) Reply(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	l, st, err := s.action(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if l.rec.Mode != "computer" {
			return fail(Conflict, "refuse_no_computer")
		}
		return errNoChange
	})
	if err != nil || !l.computerToMove() {
		return st, err
	}
	return s.computerReply(ctx, visitor, l)
}

// computerReply finds and plays the computer's move in l, a game just
// loaded (or created) and saved with the computer to move. It searches
// without holding the game's lock, so undo or resign can cancel it, then
// plays the move on l itself: the store's version check refuses the save
// if the game changed meanwhile, and only then is the game read again, to
// answer with it as it now stands.
func (s *Service) computerReply(ctx context.Context, visitor string, l *loaded) (*State, error) {
	id := l.rec.ID
	var budget time.Duration
	if l.timed() {
		budget = clockBudget(pick(l.remaining(s.now()), l.turn()), l.rec.IncrementMS)
	}
	sctx, cancel := context.WithCancel(ctx)
	if budget > 0 {
		// On a clock the computer thinks for a share of what it has left,
		// so it never loses on time needlessly; the engine counts the wait
		// for a free worker in it too.
		sctx = engine.WithTimeBudget(sctx, budget)
	}
	s.mu.Lock()
	if old, ok := s.searches[id]; ok {
		old()
	}
	s.searches[id] = cancel
	s.mu.Unlock()
	m, searchErr := s.engine.Move(sctx, l.game.Positions()[0], l.game.Moves(), l.rec.Level)
	s.mu.Lock()
	cancel()
	delete(s.searches, id)
	s.mu.Unlock()

	ctx = context.WithoutCancel(ctx)
	unlock := s.lock(id)
	defer unlock()
	if searchErr == nil {
		now := s.now()
		if !l.expire(now) {
			if !l.game.Position().IsLegal(m) {
				return nil, fmt.Errorf("games: engine offered illegal move %s in %s", m.UCI(), l.game.Position().FEN())
			}
			if err := l.play(m, now); err != nil {
				return nil, err
			}
		}
		err := s.store.UpdateGame(ctx, l.rec)
		if err == nil {
			return l.state(now), nil
		}
		if !errors.Is(err, store.ErrConflict) {
			return nil, err
		}
	}
	// Cancelled, or the game moved on (undo, resign, a pause): the move is
	// dropped, and the answer is the game as it stands now.
	l, err := s.load(ctx, visitor, id)
	if err != nil {
		return nil, err
	}
	now := s.now()
	if l.expire(now) {
		if err := s.save(ctx, l); err != nil {
			return nil, err
		}
	}
	return l.state(now), nil
}

// cancelSearch stops a search still running for the game (C3).
func (s *Service) cancelSearch(id string) {
	s.mu.Lock()
	if c, ok := s.searches[id]; ok {
		c()
		delete(s.searches, id)
	}
	s.mu.Unlock()
}

// pieceValues are the usual values of G9 (the king is not counted).
var pieceValues = map[chess.PieceType]int{
	chess.Pawn: 1, chess.Knight: 3, chess.Bishop: 3, chess.Rook: 5, chess.Queen: 9,
}

func material(pos *chess.Position, c chess.Color) int {
	sum := 0
	for t, v := range pieceValues {
		sum += v * pos.Pieces(c, t).Count()
	}
	return sum
}

// PieceValue is the usual value of a piece in pawns (G9, G21); the king
// has none.
func PieceValue(t chess.PieceType) int { return pieceValues[t] }

// computerAcceptsDraw is the rule of G9: the computer accepts a draw when
// it is behind on material, or when material is level and the game has
// reached move 30; otherwise it declines. The second value says why, in
// pawns (a knight is worth three).
func computerAcceptsDraw(pos *chess.Position, computer chess.Color) (bool, words.Message) {
	mine, yours := material(pos, computer), material(pos, computer.Other())
	switch {
	case mine < yours:
		return true, words.M("game.draw_why_behind", "Count", yours-mine)
	case mine == yours && pos.FullmoveNumber() >= 30:
		return true, words.M("game.draw_why_level_late", "Move", pos.FullmoveNumber())
	case mine == yours:
		return false, words.M("game.draw_why_level_early", "Move", pos.FullmoveNumber())
	default:
		return false, words.M("game.draw_why_ahead", "Count", mine-yours)
	}
}
