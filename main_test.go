package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"chesstutor/chess/engine/uci"
	"chesstutor/handlers"
	"chesstutor/internal/sqlitetest"
	"chesstutor/review"
)

// TestOpenStoreChoosesByDB: a path opens SQLite; a postgres:// DSN goes to
// the PostgreSQL store (here to a port nobody listens on, so it is
// unreachable — the contract suite and faults/ run it against a real
// server); another scheme is refused.
func TestOpenStoreChoosesByDB(t *testing.T) {
	ctx := context.Background()
	st, err := openStore(ctx, filepath.Join(t.TempDir(), "chess.db"), 0, "normal")
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
		if _, err := openStore(ctx, dsn, 0, "normal"); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("openStore(%q) = %v, want an error saying %q", dsn, err, says)
		}
	}
}

func TestAbuseFlags(t *testing.T) {
	cfg, err := parseConfig([]string{"-trusted-proxy", "10.0.0.0/8, 192.0.2.4", "-visitor-burst", "90", "-keep-visitors", "8760h"})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.limits.TrustedProxies; len(got) != 2 || got[1] != "192.0.2.4" || cfg.limits.VisitorBurst != 90 {
		t.Errorf("limits = %+v", cfg.limits)
	}
	for _, bad := range [][]string{
		{"-trusted-proxy", "proxy.example"},
		{"-keep-empty-visitors", "30m"},
		{"-game-burst", "0"},
		{"-close-games-after", "0s"},
		{"-sqlite-sync", "sometimes"},
	} {
		if _, err := parseConfig(bad); err == nil {
			t.Errorf("parseConfig(%q) accepted", bad)
		}
	}
}

func TestCookieKeys(t *testing.T) {
	ctx := context.Background()
	st := sqlitetest.New(t)
	t.Setenv("CHESS_COOKIE_KEY", "")
	first, err := cookieKeys(ctx, st)
	if err != nil || len(first) != 1 || len(first[0]) != handlers.CookieKeyBytes {
		t.Fatalf("keys on first start = %d keys, %v", len(first), err)
	}
	again, err := cookieKeys(ctx, st)
	if err != nil || !bytes.Equal(again[0], first[0]) {
		t.Fatal("a restart made a new cookie key: every visitor would lose their cookie")
	}
	newKey := strings.Repeat("n", 32)
	t.Setenv("CHESS_COOKIE_KEY", newKey)
	rotated, err := cookieKeys(ctx, st)
	if err != nil || len(rotated) != 2 || string(rotated[0]) != newKey || !bytes.Equal(rotated[1], first[0]) {
		t.Fatalf("with CHESS_COOKIE_KEY: %d keys, %v; want the new key signing and the stored one verifying", len(rotated), err)
	}
	t.Setenv("CHESS_COOKIE_KEY", "short")
	if _, err := cookieKeys(ctx, st); err == nil {
		t.Error("a short CHESS_COOKIE_KEY was accepted")
	}
}

// TestAnalysisEngine: builtin is the built-in engine; a path that is no
// UCI engine is refused; auto is Stockfish when the machine has it, else
// the built-in engine (the levels never change: they are not passed here).
func TestAnalysisEngine(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	_, name, stop, err := analysisEngine("builtin", log)
	if err != nil || name != review.BuiltinEngine {
		t.Fatalf("builtin: %q, %v", name, err)
	}
	stop()
	if _, _, _, err := analysisEngine(filepath.Join(t.TempDir(), "no-such-engine"), log); err == nil {
		t.Error("a path with no engine was accepted")
	}
	if testing.Short() {
		return // auto may start Stockfish
	}
	_, name, stop, err = analysisEngine("auto", log)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if found := uci.Find(); (found != "") != strings.HasPrefix(name, "Stockfish") {
		t.Errorf("auto with Stockfish at %q chose %q", found, name)
	}
}
