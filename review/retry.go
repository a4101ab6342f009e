package review

import (
	"context"
	"errors"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
)

// Try it again (G27): from a review, the learner goes back to the position
// before one of the game's mistakes or blunders and plays another move;
// Retry judges it against the engine's own choice there.

// Refusals of a retry.
var (
	ErrRetryPly     = errors.New("review: that move is not a mistake or blunder of the review")
	ErrRetryMove    = errors.New("review: the move cannot be played in that position")
	ErrRetryPending = errors.New("review: that move is not reviewed yet")
)

// retryLimits bound each of Retry's two searches: a sound answer while
// the learner waits.
var retryLimits = engine.Limits{Depth: 14, Time: 600 * time.Millisecond}

// Retried is the verdict on a move tried again in place of a mistake.
type Retried struct {
	Ply  int        // the mistake's ply
	Move chess.Move // the move tried
	SAN  string
	// Correct: the move keeps most of the winning chances that the
	// engine's move keeps (it loses less than a good move may, goodLoss
	// points, against it), or is the engine's move (Best), or mates.
	Correct, Best bool
	// Same: the move is the mistake itself.
	Same bool
	// Engine is the engine's move; Kept and Could are the mover's winning
	// chances in percent after the move tried and after the engine's.
	Engine      chess.Move
	EngineSAN   string
	Kept, Could float64
	After       *chess.Position // the position after the move tried
}

// Retry judges uci, played instead of the mistake at ply of the visitor's
// reviewed game. Both the move tried and the engine's move are searched
// afresh with the same limits, so the two are compared on one footing.
func (s *Service) Retry(ctx context.Context, visitor, id string, ply int, uci string) (*Retried, error) {
	st, err := s.Get(ctx, visitor, id)
	if err != nil {
		return nil, err
	}
	if ply < 1 || ply > len(st.SANs) {
		return nil, ErrRetryPly
	}
	if ply > len(st.Review.Moves) {
		return nil, ErrRetryPending
	}
	m := st.Review.Moves[ply-1]
	if m.Class < Mistake || m.Best == chess.NoMove {
		return nil, ErrRetryPly
	}
	before := st.Positions[ply-1]
	mv, err := before.ParseUCI(uci)
	if err != nil || !before.IsLegal(mv) {
		return nil, ErrRetryMove
	}
	c := before.Turn()
	out := &Retried{Ply: ply, Move: mv, SAN: before.SAN(mv), Engine: m.Best, EngineSAN: m.BestSAN, After: before.Play(mv)}
	switch {
	case mv == m.Move:
		out.Same = true
		return out, nil
	case mv == m.Best:
		out.Correct, out.Best = true, true
		return out, nil
	}
	history := make([]uint64, ply)
	for i, p := range st.Positions[:ply] {
		history[i] = p.Hash()
	}
	lim := retryLimits
	if s.depth > 0 {
		lim = engine.Limits{Depth: min(s.depth, retryLimits.Depth)}
	}
	chances := func(after *chess.Position) (float64, error) {
		switch {
		case after.IsCheckmate():
			return 100, nil
		case after.IsStalemate():
			return 50, nil
		}
		res, err := onStockfishScale(s.engine).Analyse(ctx, after, history, lim)
		if err != nil {
			return 0, err
		}
		return fromSearch(res.Score, after.Turn()).For(c, after.Turn()), nil
	}
	if out.Kept, err = chances(out.After); err != nil {
		return nil, err
	}
	if out.Could, err = chances(before.Play(m.Best)); err != nil {
		return nil, err
	}
	out.Correct = out.Kept == 100 || out.Could-out.Kept < goodLoss
	return out, nil
}
