package review

import (
	"context"

	"chesstutor/chess"
	"chesstutor/chess/engine"
)

// The two engines' centipawns are not the same size. Stockfish (15 and
// later) scales its scores so that +100 cp means a 50 % chance of winning
// at move 32 in its own games, which is the scale lichess's winning-chances
// curve and the class thresholds were fitted to. The built-in engine counts
// a pawn as 100 and a queen as 950, and its scores, searched less deeply,
// run differently. Normalise maps a built-in score onto Stockfish's scale,
// so that "a mistake" means the same loss whichever engine reviewed; it
// was fitted (cmd/reviewcheck -fit) to the scores of both engines on the
// same positions from games between the computer levels, minimising the
// difference in winning chances.
//
//	s(x) = normScale · x / (1 + |x| / normKnee)
//
// A small edge counts a little more on Stockfish's scale, a large one less
// (Stockfish sees the defence the shallower search misses).
const (
	normScale = 1.7
	normKnee  = 1000.0
)

// Normalise returns the built-in engine's score cp (centipawns, any side's
// view) on Stockfish's scale. Mate scores are left as they are.
func Normalise(cp int) int {
	if engine.MateIn(cp) != 0 {
		return cp
	}
	x := float64(cp)
	a := x
	if a < 0 {
		a = -a
	}
	return int(normScale * x / (1 + a/normKnee))
}

// StockfishScaled is implemented by an analysis engine whose scores are
// already on Stockfish's scale (a UCI engine): its scores are used as
// they are. Every other engine is taken for the built-in one.
type StockfishScaled interface {
	StockfishScale() bool
}

// onStockfishScale returns eng with its scores put on Stockfish's scale.
func onStockfishScale(eng Engine) Engine {
	if s, ok := eng.(StockfishScaled); ok && s.StockfishScale() {
		return eng
	}
	if _, ok := eng.(normalised); ok {
		return eng
	}
	return normalised{eng}
}

// normalised is the built-in engine with its scores normalised.
type normalised struct{ eng Engine }

func (n normalised) StockfishScale() bool { return true }

func (n normalised) Analyse(ctx context.Context, pos *chess.Position, history []uint64, lim engine.Limits) (engine.Result, error) {
	res, err := n.eng.Analyse(ctx, pos, history, lim)
	if err != nil {
		return res, err
	}
	res.Score = Normalise(res.Score)
	if len(res.Root) > 0 {
		root := make([]engine.RootMove, len(res.Root))
		for i, r := range res.Root {
			r.Score = Normalise(r.Score)
			root[i] = r
		}
		res.Root = root
	}
	return res, nil
}
