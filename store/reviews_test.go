package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// reviewFixture opens a store with one visitor and one game of two moves.
func reviewFixture(t *testing.T) (*SQLite, *Game) {
	t.Helper()
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "reviews.db"))
	t.Cleanup(func() { s.Close() })
	visitor := "0123456789abcdef0123456789abcdef"
	if err := s.EnsureVisitor(ctx, visitor); err != nil {
		t.Fatal(err)
	}
	g := &Game{ID: "fedcba9876543210fedcba9876543210", Visitor: visitor, Mode: "friend", HumanColor: "white",
		ClockName: "none", StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		Moves: []string{"e2e4", "e7e5"}, Snapshots: []ClockPair{}, Status: "active", Result: "*"}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	return s, g
}

func TestReviewLifecycle(t *testing.T) {
	ctx := context.Background()
	s, g := reviewFixture(t)
	if _, err := s.Review(ctx, g.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("review before any: %v, want ErrNotFound", err)
	}
	r := &Review{GameID: g.ID, Visitor: g.Visitor, Token: "one", Status: ReviewPending, StartFEN: g.StartFEN, Moves: g.Moves}
	if err := s.StartReview(ctx, r); err != nil {
		t.Fatal(err)
	}
	pos := func(i int) ReviewPosition {
		return ReviewPosition{Index: i, CP: 20 * i, Best: "g1f3", PV: []string{"g1f3", "b8c6"}, Depth: 12}
	}
	if err := s.AddReviewPosition(ctx, g.ID, "one", pos(1)); !errors.Is(err, ErrConflict) {
		t.Errorf("position 1 before 0: %v, want ErrConflict", err)
	}
	if err := s.AddReviewPosition(ctx, g.ID, "one", pos(0)); err != nil {
		t.Fatal(err)
	}
	if err := s.AddReviewPosition(ctx, g.ID, "stale", pos(1)); !errors.Is(err, ErrConflict) {
		t.Errorf("a position from a replaced review: %v, want ErrConflict", err)
	}
	pending, err := s.PendingReviews(ctx)
	if err != nil || len(pending) != 1 || pending[0].GameID != g.ID {
		t.Fatalf("pending %v, %v; want the one review", pending, err)
	}
	if err := s.FinishReview(ctx, g.ID, "one", []ReviewMove{{Ply: 1, Class: "best"}, {Ply: 2, Class: "good"}}); !errors.Is(err, ErrConflict) {
		t.Errorf("finishing with positions missing: %v, want ErrConflict", err)
	}
	for i := 1; i <= 2; i++ {
		if err := s.AddReviewPosition(ctx, g.ID, "one", pos(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddReviewPosition(ctx, g.ID, "one", pos(3)); !errors.Is(err, ErrConflict) {
		t.Errorf("a position past the end: %v, want ErrConflict", err)
	}
	moves := []ReviewMove{{Ply: 1, Class: "best", Best: ""}, {Ply: 2, Class: "blunder", Loss: 43.5, Best: "b8c6", Reason: []byte(`{"code":"better","move":"Nc6"}`)}}
	if err := s.FinishReview(ctx, g.ID, "one", moves); err != nil {
		t.Fatal(err)
	}
	got, err := s.Review(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != ReviewDone || !slices.Equal(got.Moves, g.Moves) || len(got.Positions) != 3 || len(got.Classed) != 2 {
		t.Fatalf("review %+v", got)
	}
	if p := got.Positions[2]; p.CP != 40 || p.Best != "g1f3" || !slices.Equal(p.PV, []string{"g1f3", "b8c6"}) || p.Depth != 12 {
		t.Errorf("position 2 %+v", p)
	}
	if m := got.Classed[1]; m.Class != "blunder" || m.Loss != 43.5 || m.Best != "b8c6" || string(m.Reason) != `{"code":"better","move":"Nc6"}` {
		t.Errorf("move 2 %+v", m)
	}
	if pending, _ := s.PendingReviews(ctx); len(pending) != 0 {
		t.Errorf("%d pending after finishing, want 0", len(pending))
	}
	if err := s.AddReviewPosition(ctx, g.ID, "one", pos(3)); !errors.Is(err, ErrConflict) {
		t.Errorf("a position after finishing: %v, want ErrConflict", err)
	}

	// Asking again replaces everything.
	r2 := &Review{GameID: g.ID, Visitor: g.Visitor, Token: "two", Status: ReviewPending, StartFEN: g.StartFEN, Moves: g.Moves[:1]}
	if err := s.StartReview(ctx, r2); err != nil {
		t.Fatal(err)
	}
	got, err = s.Review(ctx, g.ID)
	if err != nil || got.Token != "two" || len(got.Positions) != 0 || len(got.Classed) != 0 || len(got.Moves) != 1 {
		t.Fatalf("replaced review %+v, %v", got, err)
	}
}

// TestReviewsMigrateFromOldDatabase opens a database made before reviews
// existed (migrations 1–4, with a game in it) and reviews that game.
func TestReviewsMigrateFromOldDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.version >= 5 {
			break
		}
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.version, m.name); err != nil {
			t.Fatal(err)
		}
	}
	visitor := "0123456789abcdef0123456789abcdef"
	g := &Game{ID: "fedcba9876543210fedcba9876543210", StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1"}
	if _, err := db.ExecContext(ctx, `INSERT INTO visitors (id) VALUES (?)`, visitor); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO games (id, visitor_id, mode, human_color, start_fen, moves, ply,
		created_at_ms, updated_at_ms) VALUES (?, ?, 'friend', 'white', ?, 'a1b1', 1, 0, 0)`, g.ID, visitor, g.StartFEN); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s := openTemp(t, path)
	defer s.Close()
	if _, err := s.Game(ctx, g.ID); err != nil {
		t.Fatalf("the old game after the migration: %v", err)
	}
	if err := s.StartReview(ctx, &Review{GameID: g.ID, Visitor: visitor, Token: "t", Status: ReviewPending, StartFEN: g.StartFEN, Moves: []string{"a1b1"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddReviewPosition(ctx, g.ID, "t", ReviewPosition{Index: 0}); err != nil {
		t.Fatal(err)
	}
}
