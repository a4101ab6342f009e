package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenStoreChoosesByDB: a path opens SQLite; a postgres:// DSN is
// recognised and refused with a clear sentence until the PostgreSQL store
// exists; another scheme is refused.
func TestOpenStoreChoosesByDB(t *testing.T) {
	ctx := context.Background()
	st, err := openStore(ctx, filepath.Join(t.TempDir(), "chess.db"))
	if err != nil {
		t.Fatalf("SQLite path: %v", err)
	}
	if err := st.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	st.Close()
	for dsn, says := range map[string]string{
		"postgres://chess@localhost/chess":   "PostgreSQL is not supported yet",
		"postgresql://chess@localhost/chess": "PostgreSQL is not supported yet",
		"mysql://chess@localhost/chess":      `unknown database kind "mysql"`,
	} {
		if _, err := openStore(ctx, dsn); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("openStore(%q) = %v, want an error saying %q", dsn, err, says)
		}
	}
}
