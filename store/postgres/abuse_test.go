package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"chesstutor/store"
	"chesstutor/store/internal/schema"
)

// TestEveryTableBelongsToAVisitor reads the catalogue: every table but the
// visitors, the migration record and the site's secrets references
// visitors, directly or through another such table, with ON DELETE
// CASCADE, so forget-me and retention delete everything (N8), as in
// store/sqlite.
func TestEveryTableBelongsToAVisitor(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, migratedDSN(t), Options{})
	defer s.Close()
	owned, err := ownedTables(ctx, s.db)
	if err != nil {
		t.Fatal(err)
	}
	isOwned := map[string]bool{}
	for _, o := range owned {
		isOwned[o.Name] = true
	}
	rows, err := s.db.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		n++
		if !isOwned[name] && !schema.NotOwned(name) {
			t.Errorf("table %s holds no visitor's data by the schema: give it a foreign key to visitors(id) "+
				"(or to a table that has one) with ON DELETE CASCADE", name)
		}
	}
	if n < 8 || !isOwned["games"] || !isOwned["quiz_answers"] || !isOwned["trainer_best"] {
		t.Errorf("%d tables, owned %v: the catalogue query finds too little", n, isOwned)
	}
}

// TestAbandonedIsACode: the migrated schema takes the abandoned code and
// still refuses words.
func TestAbandonedIsACode(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, migratedDSN(t), Options{})
	defer s.Close()
	const v = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	if err := s.EnsureVisitor(ctx, v); err != nil {
		t.Fatal(err)
	}
	g := &store.Game{ID: strings.Repeat("3", 32), Visitor: v, Mode: "friend", HumanColor: "white",
		ClockName: "none", StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Status: "active", Result: "*"}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if n, err := s.AbandonIdleGames(ctx, time.Now().Add(time.Hour), 10); err != nil || n != 1 {
		t.Fatalf("AbandonIdleGames = %d, %v", n, err)
	}
	if _, err := s.db.Exec(ctx, `UPDATE games SET status = 'abandoned game'`); err == nil {
		t.Error("a status in words was stored")
	}
}
