package store

import (
	"context"
	"path/filepath"
	"testing"
)

func openTemp(t *testing.T, path string) *SQLite {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return s
}

func TestMigrationsApplyOnceAndAreIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "chess.db")
	ctx := context.Background()

	s := openTemp(t, path)
	want, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	count := func(s *SQLite) int {
		var n int
		if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := count(s); got != len(want) {
		t.Fatalf("first open recorded %d migrations, want %d", got, len(want))
	}
	if err := s.EnsureVisitor(ctx, "0123456789abcdef0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// A restart opens the same file: nothing is applied twice, data stays.
	s = openTemp(t, path)
	defer s.Close()
	if got := count(s); got != len(want) {
		t.Fatalf("second open recorded %d migrations, want %d", got, len(want))
	}
	ok, err := s.VisitorExists(ctx, "0123456789abcdef0123456789abcdef")
	if err != nil || !ok {
		t.Fatalf("VisitorExists after restart = %v, %v; want true, nil", ok, err)
	}
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := s.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign_keys = %d, %v; want 1", fk, err)
	}
}

func TestMigrationsAreNumberedInOrder(t *testing.T) {
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].version != 1 {
		t.Fatalf("first migration = %+v, want version 1", ms)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i].version <= ms[i-1].version {
			t.Errorf("migration %s after %s is out of order", ms[i].name, ms[i-1].name)
		}
	}
}

func TestVisitors(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "v.db"))
	defer s.Close()
	id := "ffeeddccbbaa99887766554433221100"
	if ok, err := s.VisitorExists(ctx, id); err != nil || ok {
		t.Fatalf("VisitorExists(new) = %v, %v; want false, nil", ok, err)
	}
	for i := 0; i < 2; i++ { // the second call must not fail
		if err := s.EnsureVisitor(ctx, id); err != nil {
			t.Fatalf("EnsureVisitor #%d: %v", i+1, err)
		}
	}
	if ok, err := s.VisitorExists(ctx, id); err != nil || !ok {
		t.Fatalf("VisitorExists = %v, %v; want true, nil", ok, err)
	}
	if err := s.EnsureVisitor(ctx, "short"); err == nil {
		t.Fatal("EnsureVisitor accepted an id that is not 32 characters")
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}
