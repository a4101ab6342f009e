package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// TestTrainerMigrationFromOldDatabase opens a database written before the
// trainer existed (schema version 4): migration 0006 adds its table, the
// old visitors keep everything and can save a trainer score (X7).
func TestTrainerMigrationFromOldDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	restoreDump(t, filepath.Join("testdata", "v4-games.sql"), path)
	s := openTemp(t, path)
	defer s.Close()

	var visitor string
	if err := s.db.QueryRowContext(ctx, `SELECT id FROM visitors ORDER BY id LIMIT 1`).Scan(&visitor); err != nil {
		t.Fatalf("the old database has no visitor: %v", err)
	}
	if best, err := s.TrainerBest(ctx, visitor); err != nil || len(best) != 0 {
		t.Fatalf("TrainerBest of an old visitor = %v, %v; want empty", best, err)
	}
	if best, err := s.SaveTrainerScore(ctx, visitor, "black", "name", 7); err != nil || best != 7 {
		t.Fatalf("SaveTrainerScore = %d, %v; want 7", best, err)
	}
	var version int
	if err := s.db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&version); err != nil || version < 6 {
		t.Errorf("schema version = %d, %v; want at least 6", version, err)
	}
}
