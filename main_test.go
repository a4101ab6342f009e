package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenStoreChoosesByDB: a path opens SQLite; a postgres:// DSN goes to
// the PostgreSQL store (here to a port nobody listens on, so it is
// unreachable — the contract suite and faults/ run it against a real
// server); another scheme is refused.
func TestOpenStoreChoosesByDB(t *testing.T) {
	ctx := context.Background()
	st, err := openStore(ctx, filepath.Join(t.TempDir(), "chess.db"), 0)
	if err != nil {
		t.Fatalf("SQLite path: %v", err)
	}
	if err := st.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	st.Close()
	for dsn, says := range map[string]string{
		"postgres://chess:pw@127.0.0.1:1/chess?connect_timeout=5":   "unavailable (unreachable)",
		"postgresql://chess:pw@127.0.0.1:1/chess?connect_timeout=5": "unavailable (unreachable)",
		"mysql://chess@localhost/chess":                             `unknown database kind "mysql"`,
	} {
		if _, err := openStore(ctx, dsn, 0); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("openStore(%q) = %v, want an error saying %q", dsn, err, says)
		}
	}
}
