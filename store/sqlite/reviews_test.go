package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"chesstutor/store"
)

// TestReviewsMigration opens a database written before reviews existed
// (migrations 0001-0004, with games in it) and reviews one of its games.
func TestReviewsMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	restoreDump(t, filepath.Join("testdata", "v4-games.sql"), path)
	s := openTemp(t, path)
	defer s.Close()
	var id, visitor, fen, moves string
	if err := s.db.QueryRowContext(ctx, `SELECT id, visitor_id, start_fen, moves FROM games WHERE ply > 0 ORDER BY id LIMIT 1`).Scan(&id, &visitor, &fen, &moves); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, id)
	if err != nil {
		t.Fatalf("an old game after the migrations: %v", err)
	}
	r := &store.Review{GameID: id, Visitor: visitor, Token: "t", Status: store.ReviewPending, StartFEN: fen, Moves: g.Moves}
	if err := s.StartReview(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := s.AddReviewPosition(ctx, id, "t", store.ReviewPosition{Index: 0, CP: 30, Best: g.Moves[0], Depth: 9}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Review(ctx, id)
	if err != nil || len(got.Positions) != 1 || got.Positions[0].CP != 30 {
		t.Fatalf("review of an old game: %+v, %v", got, err)
	}
	var version int
	if err := s.db.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&version); err != nil || version < 6 {
		t.Errorf("schema version %d, %v; want 6 or later", version, err)
	}
	// Deleting the game (its visitor gone) takes its review along.
	if _, err := s.db.ExecContext(ctx, `DELETE FROM visitors WHERE id = ?`, visitor); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM reviews) + (SELECT COUNT(*) FROM review_positions)`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d review rows left after the visitor went, %v", n, err)
	}
}
