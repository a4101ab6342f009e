package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"

	"chesstutor/store"
)

// reviewLifecycle: a review is stored pending, takes its positions one by
// one in order, is finished with its classed moves, survives a reopen, and
// is replaced whole by a new request; a stale or out-of-order write is a
// conflict and changes nothing (G23).
func (c *contract) reviewLifecycle(t *testing.T) {
	ctx := context.Background()
	open := c.newDB(t)
	s := c.open(t, open)
	if err := s.EnsureVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	g := newGame(gameID(1), alice)
	g.Moves = []string{"e2e4", "e7e5"}
	g.Snapshots = append(g.Snapshots, g.Snapshots[1])
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Review(ctx, g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("review before any: %v, want ErrNotFound", err)
	}
	r := &store.Review{GameID: g.ID, Visitor: alice, Token: "one", Status: store.ReviewPending, StartFEN: g.StartFEN, Moves: g.Moves}
	if err := s.StartReview(ctx, r); err != nil {
		t.Fatal(err)
	}
	pos := func(i int) store.ReviewPosition {
		return store.ReviewPosition{Index: i, CP: 20*i - 15, Best: "g1f3", PV: []string{"g1f3", "b8c6"}, Depth: 12}
	}
	if err := s.AddReviewPosition(ctx, g.ID, "one", pos(1)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("position 1 before 0: %v, want ErrConflict", err)
	}
	if err := s.AddReviewPosition(ctx, g.ID, "one", pos(0)); err != nil {
		t.Fatal(err)
	}
	if err := s.AddReviewPosition(ctx, g.ID, "stale", pos(1)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a position from a replaced review: %v, want ErrConflict", err)
	}
	if err := s.AddReviewPosition(ctx, gameID(2), "one", pos(0)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a position of a review nobody asked for: %v, want ErrConflict", err)
	}
	pending, err := s.PendingReviews(ctx)
	if err != nil || len(pending) != 1 || pending[0].GameID != g.ID || pending[0].Token != "one" {
		t.Fatalf("pending %v, %v; want the one review", pending, err)
	}
	if err := s.FinishReview(ctx, g.ID, "one", "Stockfish 15.1", []store.ReviewMove{{Ply: 1, Class: "best"}, {Ply: 2, Class: "good"}}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("finishing with positions missing: %v, want ErrConflict", err)
	}
	for i := 1; i <= 2; i++ {
		if err := s.AddReviewPosition(ctx, g.ID, "one", pos(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddReviewPosition(ctx, g.ID, "one", pos(3)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a position past the end: %v, want ErrConflict", err)
	}
	moves := []store.ReviewMove{{Ply: 1, Class: "best"}, {Ply: 2, Class: "blunder", Loss: 43.5, Best: "b8c6", Reason: []byte(`{"code":"better","move":"Nc6"}`)}}
	if err := s.FinishReview(ctx, g.ID, "stale", "Stockfish 15.1", moves); !errors.Is(err, store.ErrConflict) {
		t.Errorf("finishing a replaced review: %v, want ErrConflict", err)
	}
	if got, err := s.Review(ctx, g.ID); err != nil || got.Engine != "" {
		t.Fatalf("a pending review's engine: %q, %v; want none yet", got.Engine, err)
	}
	if err := s.FinishReview(ctx, g.ID, "one", "Stockfish 15.1", moves); err != nil {
		t.Fatal(err)
	}

	// Everything survives a reopen.
	s.Close()
	s = c.open(t, open)
	got, err := s.Review(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.ReviewDone || got.Visitor != alice || got.StartFEN != g.StartFEN || !slices.Equal(got.Moves, g.Moves) ||
		len(got.Positions) != 3 || len(got.Classed) != 2 || got.RequestedAt.IsZero() || got.Engine != "Stockfish 15.1" {
		t.Fatalf("review %+v", got)
	}
	if p := got.Positions[2]; p.Index != 2 || p.CP != 25 || p.Best != "g1f3" || !slices.Equal(p.PV, []string{"g1f3", "b8c6"}) || p.Depth != 12 {
		t.Errorf("position 2 %+v", p)
	}
	if m := got.Classed[1]; m.Ply != 2 || m.Class != "blunder" || m.Loss != 43.5 || m.Best != "b8c6" || string(m.Reason) != `{"code":"better","move":"Nc6"}` {
		t.Errorf("move 2 %+v", m)
	}
	if m := got.Classed[0]; m.Best != "" || len(m.Reason) != 0 {
		t.Errorf("move 1 %+v, want no better move and no reason", m)
	}
	if pending, _ := s.PendingReviews(ctx); len(pending) != 0 {
		t.Errorf("%d pending after finishing, want 0", len(pending))
	}
	if err := s.AddReviewPosition(ctx, g.ID, "one", pos(3)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a position after finishing: %v, want ErrConflict", err)
	}

	// Asking again replaces everything.
	r2 := &store.Review{GameID: g.ID, Visitor: alice, Token: "two", Status: store.ReviewPending, StartFEN: g.StartFEN, Moves: g.Moves[:1]}
	if err := s.StartReview(ctx, r2); err != nil {
		t.Fatal(err)
	}
	got, err = s.Review(ctx, g.ID)
	if err != nil || got.Token != "two" || got.Status != store.ReviewPending || len(got.Positions) != 0 || len(got.Classed) != 0 || len(got.Moves) != 1 {
		t.Fatalf("replaced review %+v, %v", got, err)
	}
	if err := s.AddReviewPosition(ctx, g.ID, "one", pos(0)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a position for the replaced review: %v, want ErrConflict", err)
	}
}

// hintsRecorded: hints are kept once each, listed by ply with the piece
// before the move, survive a reopen, and need an existing game.
func (c *contract) hintsRecorded(t *testing.T) {
	ctx := context.Background()
	open := c.newDB(t)
	s := c.open(t, open)
	if err := s.EnsureVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	g := newGame(gameID(1), alice)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if hs, err := s.GameHints(ctx, g.ID); err != nil || len(hs) != 0 {
		t.Fatalf("hints of a new game: %v, %v", hs, err)
	}
	for _, h := range []store.Hint{{Ply: 4, Step: store.HintMove}, {Ply: 4, Step: store.HintPiece}, {Ply: 0, Step: store.HintPiece}, {Ply: 4, Step: store.HintPiece}} {
		if err := s.AddHint(ctx, g.ID, h); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddHint(ctx, gameID(9), store.Hint{Ply: 0, Step: store.HintPiece}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a hint for no game: %v, want ErrNotFound", err)
	}
	s.Close()
	s = c.open(t, open)
	hs, err := s.GameHints(ctx, g.ID)
	want := []store.Hint{{Ply: 0, Step: store.HintPiece}, {Ply: 4, Step: store.HintPiece}, {Ply: 4, Step: store.HintMove}}
	if err != nil || !slices.Equal(hs, want) {
		t.Errorf("hints %v, %v; want %v", hs, err, want)
	}
}
