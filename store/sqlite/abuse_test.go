package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"chesstutor/chess"
	"chesstutor/store"
	"chesstutor/store/internal/schema"
)

// tableNames lists every table of the schema.
func tableNames(t *testing.T, s *SQLite) []string {
	t.Helper()
	rows, err := s.db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	return names
}

// TestEveryTableBelongsToAVisitor reads the schema: every table but the
// visitors themselves, the migration record and the site's secrets
// references visitors, directly or through another such table, with ON
// DELETE CASCADE. So "forget me" and retention, which delete the visitor's
// row, delete everything about them — also in tables added later (a new
// table without such a key fails here).
func TestEveryTableBelongsToAVisitor(t *testing.T) {
	s := openTemp(t, filepath.Join(t.TempDir(), "schema.db"))
	defer s.Close()
	owned, err := ownedTables(context.Background(), s.db)
	if err != nil {
		t.Fatal(err)
	}
	isOwned := map[string]bool{}
	for _, o := range owned {
		isOwned[o.Name] = true
	}
	for _, name := range tableNames(t, s) {
		if !isOwned[name] && !schema.NotOwned(name) {
			t.Errorf("table %s holds no visitor's data by the schema: give it a foreign key to visitors(id) "+
				"(or to a table that has one) with ON DELETE CASCADE", name)
		}
	}
	for _, want := range []string{"lessons_read", "exercises_solved", "quiz_rounds", "quiz_answers", "quiz_history", "games"} {
		if !isOwned[want] {
			t.Errorf("table %s is not found as a visitor's", want)
		}
	}
}

// TestForgetLeavesNoRow fills every table for two visitors, forgets one
// and counts, table by table (all tables of the schema), the rows left of
// each.
func TestForgetLeavesNoRow(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "forget.db"))
	defer s.Close()
	const alice, bob = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	for i, v := range []string{alice, bob} {
		if err := s.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkLessonRead(ctx, v, "pawn"); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkExerciseSolved(ctx, v, "pawn-1", "pawn"); err != nil {
			t.Fatal(err)
		}
		r, err := s.StartQuizRound(ctx, v, []string{"q1", "q2"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.AnswerQuiz(ctx, v, r.ID, 0, "a", true); err != nil {
			t.Fatal(err)
		}
		g := &store.Game{ID: fmt.Sprintf("%032x", i+1), Visitor: v, Mode: "friend", HumanColor: "white",
			ClockName: "none", StartFEN: chess.StartFEN, Status: "active", Result: "*"}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveTrainerScore(ctx, v, "white", "find", 7); err != nil {
			t.Fatal(err)
		}
		if err := s.AddHint(ctx, g.ID, store.Hint{Ply: 0, Step: store.HintPiece}); err != nil {
			t.Fatal(err)
		}
		rv := &store.Review{GameID: g.ID, Visitor: v, Token: "t", Status: store.ReviewPending, StartFEN: chess.StartFEN, Moves: []string{"e2e4"}}
		if err := s.StartReview(ctx, rv); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if err := s.AddReviewPosition(ctx, g.ID, "t", store.ReviewPosition{Index: i, CP: 20, Best: "e2e4", PV: []string{"e2e4"}, Depth: 8}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.FinishReview(ctx, g.ID, "t", "built-in", []store.ReviewMove{{Ply: 1, Class: "best", Reason: []byte("[]")}}); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateTransfer(ctx, v, fmt.Sprintf("%064x", i+1), time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		cl := &store.Class{ID: fmt.Sprintf("%032x", 0xc1a55+i), Name: "Club", JoinCode: fmt.Sprintf("ABCDE%d", i+2),
			SecretHash: fmt.Sprintf("%064x", 0xc1a55+i), CreatedAt: time.Now()}
		if err := s.CreateClass(ctx, cl, v, "secret"); err != nil {
			t.Fatal(err)
		}
		m := &store.Member{ID: fmt.Sprintf("%032x", 0xe1e+i), ClassID: cl.ID, Visitor: v, Nickname: "Kid", NicknameKey: "kid", JoinedAt: time.Now()}
		if _, _, err := s.JoinClass(ctx, m, 100); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordExerciseMiss(ctx, v, "pawn-2"); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{Visitor: v, PuzzleID: "p1", Solved: true, RatingBefore: 800,
			Player: store.PuzzlePlayer{Rating: 850, RD: 300, Volatility: 0.06, Solved: 1},
			Puzzle: store.PuzzleRating{Rating: 900, RD: 140, Volatility: 0.06, Attempts: 1 + i}}); err != nil {
			t.Fatal(err)
		}
		// A game from two devices (G24) and a watcher on it.
		rg := &store.Game{ID: fmt.Sprintf("%032x", i+11), Visitor: v, Mode: store.ModeRemote, HumanColor: "white",
			ClockName: "none", StartFEN: chess.StartFEN, Status: "active", Result: "*",
			Remote: &store.Remote{WatchID: fmt.Sprintf("%032x", i+21)}}
		if err := s.CreateGame(ctx, rg); err != nil {
			t.Fatal(err)
		}
		if err := s.WatchGame(ctx, rg.ID, fmt.Sprintf("%032x", i+31), time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordTry(ctx, v, "rook-corner", "rook", store.TryWrong); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordExamPass(ctx, v, 1, 10, 11); err != nil {
			t.Fatal(err)
		}
		// A new feature's table: store a row of it for both visitors here.
	}
	// Alice sits in Bob's remote game: forgetting her must empty her seat.
	if err := s.JoinGame(ctx, fmt.Sprintf("%032x", 12), alice, time.Now()); err != nil {
		t.Fatal(err)
	}
	owned, err := ownedTables(ctx, s.db)
	if err != nil {
		t.Fatal(err)
	}
	count := func(table, filter, visitor string) int {
		var n int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM "`+table+`" WHERE `+filter, visitor).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	tables := append([]schema.Owned{{Name: "visitors", Filter: schema.VisitorFilter("?")}}, owned...)
	before := map[string]int{}
	for _, o := range tables {
		if before[o.Name] = count(o.Name, o.Filter, alice); before[o.Name] == 0 {
			t.Errorf("the test stored nothing for Alice in %s: add a write of that feature to this test", o.Name)
		}
	}
	export, err := s.ExportVisitor(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	// The download holds exactly the rows stored.
	for _, o := range tables {
		if got := len(export.Tables[o.Name]); got != before[o.Name] {
			t.Errorf("export has %d rows of %s, the database %d", got, o.Name, before[o.Name])
		}
	}
	if err := s.ForgetVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	for _, o := range tables {
		if n := count(o.Name, o.Filter, alice); n != 0 {
			t.Errorf("%d rows of Alice left in %s", n, o.Name)
		}
		if n := count(o.Name, o.Filter, bob); n != before[o.Name] {
			t.Errorf("Bob has %d rows in %s, want %d as before", n, o.Name, before[o.Name])
		}
	}
	if g, err := s.Game(ctx, fmt.Sprintf("%032x", 12)); err != nil || g.Remote == nil || g.Remote.Guest != "" || g.Remote.Joined.IsZero() {
		t.Errorf("Bob's remote game after forgetting its guest Alice: %+v %v; want no guest, the seat still taken", g, err)
	}
	// And no table holds more rows than Bob's: nothing orphaned anywhere.
	for _, name := range tableNames(t, s) {
		if schema.NotOwned(name) {
			continue
		}
		var all int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM "` + name + `"`).Scan(&all); err != nil {
			t.Fatal(err)
		}
		if all != before[name] {
			t.Errorf("table %s has %d rows after forgetting Alice, want Bob's %d", name, all, before[name])
		}
	}
}

// TestAbandonedMigration: a database from before 0009 (the v4 dump, then
// 0005) takes the abandoned code and still refuses words.
func TestAbandonedMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	restoreDump(t, filepath.Join("testdata", "v4-games.sql"), path)
	s := openTemp(t, path)
	defer s.Close()
	var active int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM games WHERE status = 'active'`).Scan(&active); err != nil || active == 0 {
		t.Fatalf("the old database has %d active games (%v); the test needs one", active, err)
	}
	n, err := s.AbandonIdleGames(ctx, farFuture, 100)
	if err != nil || n != active {
		t.Fatalf("AbandonIdleGames on the migrated database = %d, %v; want %d", n, err, active)
	}
	if _, err := s.db.Exec(`UPDATE games SET status = 'abandoned game' WHERE status = 'abandoned'`); err == nil {
		t.Error("the migrated database stored a status in words")
	}
	var secrets int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM site_secrets`).Scan(&secrets); err != nil {
		t.Errorf("site_secrets after migrating: %v", err)
	}
}

var farFuture = mustTime("2999-01-01T00:00:00Z")

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}
