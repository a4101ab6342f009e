package review

import (
	"context"
	"testing"

	"chesstutor/chess"
	"chesstutor/chess/engine"
)

// The built-in engine's scores go onto Stockfish's scale: odd, rising, a
// small edge a little larger and a large one smaller, mates untouched.
func TestNormalise(t *testing.T) {
	for _, c := range []struct{ in, want int }{
		{0, 0}, {100, 154}, {-100, -154}, {300, 392}, {950, 828}, {3000, 1275},
	} {
		if got := Normalise(c.in); got != c.want {
			t.Errorf("Normalise(%d) = %d, want %d", c.in, got, c.want)
		}
	}
	prev := Normalise(-5000)
	for cp := -4999; cp <= 5000; cp++ {
		n := Normalise(cp)
		if n < prev {
			t.Fatalf("Normalise falls at %d: %d after %d", cp, n, prev)
		}
		prev = n
	}
	for _, n := range []int{1, 3, -2} {
		s := mateScoreFor(n)
		if Normalise(s) != s {
			t.Errorf("a mate in %d is normalised", n)
		}
	}
}

func mateScoreFor(n int) int {
	for s := 29000; s < 32000; s++ {
		if engine.MateIn(s) == n {
			return s
		}
		if engine.MateIn(-s) == n {
			return -s
		}
	}
	return 0
}

// fixed is an engine that always answers the same score.
type fixed struct {
	score int
	sf    bool
}

func (f fixed) Analyse(ctx context.Context, pos *chess.Position, history []uint64, lim engine.Limits) (engine.Result, error) {
	m := pos.LegalMoves()[0]
	return engine.Result{Move: m, Score: f.score, Root: []engine.RootMove{{Move: m, Score: f.score, Scored: true}}}, nil
}

func (f fixed) StockfishScale() bool { return f.sf }

// An engine on Stockfish's scale (a UCI engine) is used as it is; any
// other, and the service's yielding wrapper around it, is normalised once.
func TestOnStockfishScale(t *testing.T) {
	pos := mustPos(t, chess.StartFEN)
	for _, c := range []struct {
		eng  Engine
		want int
	}{
		{fixed{score: 100, sf: true}, 100},
		{fixed{score: 100}, 154},
		{onStockfishScale(fixed{score: 100}), 154},
	} {
		res, err := onStockfishScale(c.eng).Analyse(context.Background(), pos, nil, engine.Limits{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != c.want || res.Root[0].Score != c.want {
			t.Errorf("%T: score %d, root %d; want %d", c.eng, res.Score, res.Root[0].Score, c.want)
		}
	}
	if !(yielding{eng: fixed{sf: true}}).StockfishScale() || (yielding{eng: fixed{}}).StockfishScale() {
		t.Error("the yielding wrapper does not tell its engine's scale")
	}
}
