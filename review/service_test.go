package review

import (
	"context"
	"errors"
	"testing"
	"time"

	"chesstutor/chess/engine"
	"chesstutor/games"
	"chesstutor/internal/sqlitetest"
	"chesstutor/store"
	"chesstutor/store/sqlite"
)

const testVisitor = "0123456789abcdef0123456789abcdef"

// serviceFixture opens a store with a visitor and a friend game of the
// given SAN moves, and returns the games service and the game's id.
func serviceFixture(t *testing.T, sans ...string) (*sqlite.SQLite, *games.Service, string) {
	t.Helper()
	ctx := context.Background()
	st := sqlitetest.New(t)
	if err := st.EnsureVisitor(ctx, testVisitor); err != nil {
		t.Fatal(err)
	}
	gs := games.New(games.Config{Store: st})
	g, err := gs.Create(ctx, testVisitor, games.NewGame{Mode: "friend", Clock: "none"})
	if err != nil {
		t.Fatal(err)
	}
	for i, san := range sans {
		ply := i
		if _, err := gs.Move(ctx, testVisitor, g.ID, &ply, "", san); err != nil {
			t.Fatalf("%s: %v", san, err)
		}
	}
	return st, gs, g.ID
}

// waitFor polls cond until it holds; the test's own timeout bounds it.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if t.Context().Err() != nil {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServiceStopsAndResumes runs a review, stops it half-way as a server
// stop does, and starts a new service on the same database: the review
// goes on from the positions already stored and finishes.
func TestServiceStopsAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("reviews at depth 10, seconds of CPU: runs without -short")
	}
	t.Parallel()
	st, gs, id := serviceFixture(t, "e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Nxf7", "Qxg2", "Rf1", "Qxe4+", "Be2", "Nf3#")
	pool := engine.NewPool(1, 16)
	newService := func() *Service {
		// At depth 10, verified deeper, 5. Nxf7 is a blunder however the
		// stop falls (the pool's table then holds other entries); at depth
		// 8, with scores on Stockfish's scale, it came out a mistake.
		return NewService(ServiceConfig{Store: st, Games: gs, Engine: pool, Depth: 10})
	}
	ctx := context.Background()

	s1 := newService()
	runCtx, stop := context.WithCancel(ctx)
	stopped := make(chan error)
	go func() { stopped <- s1.Run(runCtx) }()
	status, err := s1.Request(ctx, testVisitor, id)
	if err != nil {
		t.Fatal(err)
	}
	if !status.Pending || status.Total != 14 || status.Done != 0 {
		t.Fatalf("new review: pending %v, %d of %d; want pending, 0 of 14", status.Pending, status.Done, status.Total)
	}
	stored := func() int {
		r, err := st.Review(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return len(r.Positions)
	}
	waitFor(t, "four positions", func() bool { return stored() >= 4 })
	stop()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	before, err := st.Review(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if before.Status != store.ReviewPending || len(before.Positions) >= 15 {
		t.Fatalf("after the stop: %s with %d positions; want pending and unfinished", before.Status, len(before.Positions))
	}
	// Nothing is written after Run returned.
	time.Sleep(150 * time.Millisecond)
	if n := stored(); n != len(before.Positions) {
		t.Fatalf("%d positions stored after the stop, %d when it returned", n, len(before.Positions))
	}

	s2 := newService()
	runCtx, stop = context.WithCancel(ctx)
	defer stop()
	go func() { stopped <- s2.Run(runCtx) }()
	var done *Status
	waitFor(t, "the review to finish", func() bool {
		done, err = s2.Get(ctx, testVisitor, id)
		return err == nil && !done.Pending
	})
	after, err := st.Review(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range before.Positions {
		if q := after.Positions[i]; q.CP != p.CP || q.Best != p.Best || q.Depth != p.Depth {
			t.Errorf("position %d was analysed again: %+v, then %+v", i, p, q)
		}
	}
	if done.Done != 14 || len(done.Review.Moves) != 14 || len(done.Evals) != 15 {
		t.Fatalf("finished review: %d of %d, %d moves, %d evals", done.Done, done.Total, len(done.Review.Moves), len(done.Evals))
	}
	if m := done.Review.Moves[8]; m.SAN != "Nxf7" || m.Class != Blunder || sentence(m) == "" {
		t.Errorf("5. Nxf7: %s %q (%+v, loss %.1f, %s), want a blunder with a reason", m.Class, m.Reason.Code, m.Eval, m.Loss, sentence(m))
	}
	if m := done.Review.Moves[13]; !m.Eval.IsMate || m.Eval.Mate != 0 {
		t.Errorf("the mating move's eval %+v, want checkmate", m.Eval)
	}
	stop()
	<-stopped
}

func TestServiceRequests(t *testing.T) {
	t.Parallel()
	st, gs, id := serviceFixture(t, "f3", "e5", "g4", "Qh4#")
	s := NewService(ServiceConfig{Store: st, Games: gs, Engine: engine.NewPool(1, 16), Depth: testDepth})
	ctx := context.Background()
	if _, err := s.Get(ctx, testVisitor, id); !errors.Is(err, ErrNotRequested) {
		t.Errorf("Get before a request: %v, want ErrNotRequested", err)
	}
	other := "ffffffffffffffffffffffffffffffff"
	if _, err := s.Request(ctx, other, id); err == nil {
		t.Error("another visitor could ask for a review of this game")
	}
	first, err := s.Request(ctx, testVisitor, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, other, id); !errors.Is(err, ErrNotRequested) {
		t.Errorf("another visitor's Get: %v, want ErrNotRequested", err)
	}
	r1, _ := st.Review(ctx, id)
	if _, err := s.Request(ctx, testVisitor, id); err != nil {
		t.Fatal(err)
	}
	r2, _ := st.Review(ctx, id)
	if r1.Token != r2.Token || !first.Pending {
		t.Errorf("asking twice for the same moves started a new review (tokens %s, %s)", r1.Token, r2.Token)
	}

	runCtx, stop := context.WithCancel(ctx)
	stopped := make(chan error)
	go func() { stopped <- s.Run(runCtx) }()
	defer func() { stop(); <-stopped }()
	var got *Status
	waitFor(t, "the review", func() bool {
		got, err = s.Get(ctx, testVisitor, id)
		return err == nil && !got.Pending
	})
	if m := got.Review.Moves[2]; m.SAN != "g4" || m.Class != Blunder || m.Reason.Code != AllowsMate {
		t.Errorf("2. g4: %s %q, want a blunder allowing mate", m.Class, m.Reason.Code)
	} else if s := sentence(m); s != "This lets your opponent checkmate at once: Qh4#. Better was "+m.BestSAN+"." {
		t.Errorf("2. g4: %q", s)
	}

	_, _, empty := serviceFixture(t)
	if _, err := s.Request(ctx, testVisitor, empty); err == nil {
		t.Error("a game from another database was found")
	}
}
