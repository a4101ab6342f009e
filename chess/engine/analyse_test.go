package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"chesstutor/chess"
)

func TestAnalyseFindsMate(t *testing.T) {
	t.Parallel()
	p := NewPool(1, 1)
	res, err := p.Analyse(context.Background(), mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), nil, Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Move.UCI() != "a1a8" || MateIn(res.Score) != 1 {
		t.Errorf("got %s with mate in %d, want a1a8 and mate in 1", res.Move.UCI(), MateIn(res.Score))
	}
}

// TestAnalyseForcedMove checks that a position with one legal move gets
// the score of a real search, not of the one-ply look a timed game search
// stops at: the same as searching the position after the forced move.
func TestAnalyseForcedMove(t *testing.T) {
	t.Parallel()
	// White is in check from the rook on a1 and must play Kh2.
	pos := mustFEN(t, "6k1/5ppp/8/8/8/8/5PP1/r5K1 w - - 0 1")
	if n := len(pos.LegalMoves()); n != 1 {
		t.Fatalf("%d legal moves, want 1", n)
	}
	p := NewPool(1, 1)
	res, err := p.Analyse(context.Background(), pos, nil, Limits{Depth: 6, Time: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	child := pos.Play(pos.LegalMoves()[0])
	want := NewSearcher(1).Search(context.Background(), child, []uint64{pos.Hash()}, Limits{Depth: 5})
	if res.Score != -want.Score || res.Depth != 6 || len(res.PV) < 2 || res.PV[0] != pos.LegalMoves()[0] {
		t.Errorf("score %d depth %d pv %v, want score %d at depth 6 with the forced move first", res.Score, res.Depth, res.PV, -want.Score)
	}
}

func TestAnalyseLimitsAndCancel(t *testing.T) {
	p := NewPool(1, 1)
	pos := mustFEN(t, chess.StartFEN)
	if _, err := p.Analyse(context.Background(), pos, nil, Limits{}); err == nil {
		t.Error("an unbounded analysis was accepted")
	}
	if _, err := p.Analyse(context.Background(), nil, nil, Limits{Depth: 1}); err == nil {
		t.Error("a missing position was accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Analyse(ctx, pos, nil, Limits{Depth: 30}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled analysis: error %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := p.Analyse(ctx, pos, nil, Limits{Depth: 60})
		done <- err
	}()
	for p.active.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("analysis cancelled while searching: error %v, want context.Canceled", err)
	}
}

// TestAnalyseSearchMoves restricts the root to two moves: the best of them
// is chosen even when another move is better, and both get exact scores,
// which is how a review compares the played move with the engine's choice.
func TestAnalyseSearchMoves(t *testing.T) {
	t.Parallel()
	pos := mustFEN(t, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
	h3, _ := pos.ParseUCI("h2h3")
	a2, _ := pos.ParseUCI("a1a2")
	p := NewPool(1, 1)
	res, err := p.Analyse(context.Background(), pos, nil, Limits{Depth: 5, Moves: []chess.Move{h3, a2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Move != h3 && res.Move != a2 {
		t.Fatalf("chose %s, which is not among the moves searched", res.Move.UCI())
	}
	if MateIn(res.Score) != 0 {
		t.Errorf("score %d announces a mate, but a1a8 was left out", res.Score)
	}
	if len(res.Root) != 2 || !res.Root[0].Scored || !res.Root[1].Scored {
		t.Fatalf("root %+v: want both moves scored exactly", res.Root)
	}
}

// TestYieldPausesBackground: background searches run on the cores the
// games leave; a game's search pauses them (the search waits where it
// is, it is not thrown away) and they go on when the game is done.
func TestYieldPausesBackground(t *testing.T) {
	t.Parallel()
	y := NewYield(2)
	ctx := context.Background()
	c1, release1, err := y.Background(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2, release2, err := y.Background(ctx)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := y.Background(short); err == nil {
		t.Error("a third background search started on two cores")
	}
	done := y.Game()
	if g, r, p := y.Busy(); g != 1 || r != 0 || p != 2 {
		t.Errorf("with a game: %d games, %d running, %d paused; want 1, 0, 2", g, r, p)
	}
	// A search under a paused context waits at its first check.
	finished := make(chan Result, 1)
	go func() {
		finished <- NewSearcher(4).Search(c1, mustFEN(t, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"), nil, Limits{Depth: 12})
	}()
	select {
	case <-finished:
		t.Fatal("a paused search finished")
	case <-time.After(50 * time.Millisecond):
	}
	done()
	if res := <-finished; res.Depth != 12 {
		t.Errorf("the resumed search reached depth %d, want 12", res.Depth)
	}
	if PausedFrom(c2).IsPaused() {
		t.Error("still paused after the game")
	}
	release1()
	release2()
	if g, r, p := y.Busy(); g != 0 || r != 0 || p != 0 {
		t.Errorf("at the end: %d, %d, %d", g, r, p)
	}
}
