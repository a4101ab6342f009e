package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chesstutor/chess"
	"chesstutor/store"
	"chesstutor/store/internal/record"
	"chesstutor/store/storetest"
)

// TestContract runs the store contract suite against SQLite (N6).
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		path := filepath.Join(t.TempDir(), "contract.db")
		return func(t *testing.T) store.Store { return openTemp(t, path) }
	})
}

// openTemp opens a test database, unsynced (see Options).
func openTemp(t *testing.T, path string) *SQLite {
	t.Helper()
	s, err := OpenWith(context.Background(), path, Options{Unsynced: true})
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
	if len(ms) == 0 || ms[0].Version != 1 {
		t.Fatalf("first migration = %+v, want version 1", ms)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i].Version <= ms[i-1].Version {
			t.Errorf("migration %s after %s is out of order", ms[i].Name, ms[i-1].Name)
		}
	}
}

// restoreDump writes the SQL dump at dump into a new database file at
// path, as the old code left it.
func restoreDump(t *testing.T, dump, path string) {
	t.Helper()
	text, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=synchronous(OFF)") // a throwaway file: no disk syncs
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(text)); err != nil {
		t.Fatalf("restore %s: %v", dump, err)
	}
}

// TestEndingCodesMigration opens a database written before issue 17 (its
// games' endings and reasons in words) and checks migration 0005 turned
// every one into codes, which the chess package reads back (N7).
func TestEndingCodesMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	restoreDump(t, filepath.Join("testdata", "v4-games.sql"), path)
	s := openTemp(t, path)
	defer s.Close()

	// The old rows held status and reason in words ("threefold repetition",
	// "Draw: White's time ran out, but Black could never checkmate"); each
	// ending must now be these codes.
	want := map[[3]string]bool{ // status, reason, result
		{"checkmate", "checkmate", "0-1"}:                             false,
		{"stalemate", "stalemate", "1/2-1/2"}:                         false,
		{"threefold-repetition", "threefold-repetition", "1/2-1/2"}:   false,
		{"fifty-move-rule", "fifty-move-rule", "1/2-1/2"}:             false,
		{"insufficient-material", "insufficient-material", "1/2-1/2"}: false,
		{"timeout", "timeout", "0-1"}:                                 false,
		{"timeout", chess.TimeoutNoMate, "1/2-1/2"}:                   false,
		{"resignation", "resignation", "1-0"}:                         false,
		{"agreement", "agreement", "1/2-1/2"}:                         false,
		{"active", "", "*"}:                                           false,
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, status, result, reason, end_color FROM games`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id, status, result, reason, endColor string
		if err := rows.Scan(&id, &status, &result, &reason, &endColor); err != nil {
			t.Fatal(err)
		}
		n++
		key := [3]string{status, reason, result}
		if _, ok := want[key]; !ok {
			t.Errorf("game %s: status %q reason %q result %q is not a migrated ending", id, status, reason, result)
			continue
		}
		want[key] = true
		if status == "active" {
			continue
		}
		flagged := chess.White
		if endColor == "black" {
			flagged = chess.Black
		}
		o, err := chess.ParseOutcome(reason, result, flagged)
		if err != nil || o.Method.Code() != status {
			t.Errorf("game %s: ParseOutcome(%q, %q) = %+v, %v", id, reason, result, o, err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for key, seen := range want {
		if !seen {
			t.Errorf("no migrated game ends %v", key)
		}
	}
	if n != 13 {
		t.Errorf("%d games after the migration, want the 13 of the old database", n)
	}
	var version int
	if err := s.db.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&version); err != nil || version < 5 {
		t.Errorf("schema version %d, %v; want 5 or later", version, err)
	}
}

// TestEndingCodesOnly: the database refuses an ending in words, and takes
// every code the chess package has.
func TestEndingCodesOnly(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "codes.db"))
	defer s.Close()
	const v = "0123456789abcdef0123456789abcdef"
	if err := s.EnsureVisitor(ctx, v); err != nil {
		t.Fatal(err)
	}
	g := &store.Game{ID: fmt.Sprintf("%032x", 1), Visitor: v, Mode: "friend", HumanColor: "white",
		ClockName: "none", StartFEN: chess.StartFEN, Status: "active", Result: "*"}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	codes := []string{chess.TimeoutNoMate}
	for m := chess.Checkmate; m <= chess.Agreement; m++ {
		codes = append(codes, m.Code())
	}
	for _, code := range codes {
		status := code
		if code == chess.TimeoutNoMate {
			status = chess.Timeout.Code()
		}
		g.Status, g.Reason = status, code
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Errorf("status %q reason %q refused: %v", status, code, err)
		}
	}
	for _, bad := range [][2]string{{"threefold repetition", "threefold-repetition"}, {"resignation", "White wins by resignation"}} {
		g.Status, g.Reason = bad[0], bad[1]
		if err := s.UpdateGame(ctx, g); err == nil {
			t.Errorf("status %q reason %q stored", bad[0], bad[1])
		}
		bad2 := *g
		bad2.ID = fmt.Sprintf("%032x", 2)
		if err := s.CreateGame(ctx, &bad2); err == nil {
			t.Errorf("a new game with status %q reason %q stored", bad[0], bad[1])
		}
	}
}

// codedError looks like the driver's error: a message and a result code.
type codedError struct{ code int }

func (e *codedError) Error() string { return fmt.Sprintf("database says no (%d)", e.code) }
func (e *codedError) Code() int     { return e.code }

// TestTranslate: SQLite result codes that mean the storage is at fault
// become store.ErrUnavailable with the right fault; other errors pass
// unchanged.
func TestTranslate(t *testing.T) {
	cases := []struct {
		err   error
		fault store.Fault // 0: not unavailable
	}{
		{&codedError{13}, store.Full},
		{&codedError{8}, store.ReadOnly},
		{&codedError{8 | 3<<8}, store.ReadOnly}, // SQLITE_READONLY_ROLLBACK
		{&codedError{778}, store.ReadOnly},      // SQLITE_IOERR_WRITE
		{&codedError{14}, store.Unreachable},
		{&codedError{5}, store.Busy},
		{&codedError{262}, store.Busy}, // SQLITE_LOCKED_SHAREDCACHE
		{fmt.Errorf("wrapped: %w", &codedError{13}), store.Full},
		{&codedError{19}, 0}, // SQLITE_CONSTRAINT: the request's fault
		{errors.New("boom"), 0},
		{sql.ErrNoRows, 0},
	}
	for _, tc := range cases {
		got := translate(tc.err)
		var ue *store.UnavailableError
		isUE := errors.As(got, &ue)
		if tc.fault == 0 {
			if isUE || errors.Is(got, store.ErrUnavailable) || got != tc.err {
				t.Errorf("translate(%v) = %v, want it unchanged", tc.err, got)
			}
			continue
		}
		if !isUE || ue.Fault != tc.fault || !errors.Is(got, store.ErrUnavailable) || !errors.Is(got, tc.err) {
			t.Errorf("translate(%v) = %v, want %s unavailable wrapping the driver error", tc.err, got, tc.fault)
		}
	}
	if translate(nil) != nil {
		t.Error("translate(nil) is not nil")
	}
}

// TestReadOnlyDatabaseIsUnavailable: a real read-only refusal from SQLite
// reaches the caller as store.ErrUnavailable (ReadOnly), for every kind of
// write.
func TestReadOnlyDatabaseIsUnavailable(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "ro.db"))
	defer s.Close()
	const v = "0123456789abcdef0123456789abcdef"
	if err := s.EnsureVisitor(ctx, v); err != nil {
		t.Fatal(err)
	}
	// One connection, switched to query-only: every write is refused with
	// SQLITE_READONLY, as on a read-only file system.
	s.db.SetMaxOpenConns(1)
	if _, err := s.db.ExecContext(ctx, "PRAGMA query_only = ON"); err != nil {
		t.Fatal(err)
	}
	writes := map[string]func() error{
		"EnsureVisitor":  func() error { return s.EnsureVisitor(ctx, "fedcba9876543210fedcba9876543210") },
		"MarkLessonRead": func() error { return s.MarkLessonRead(ctx, v, "rook") },
		"StartQuizRound": func() error { _, err := s.StartQuizRound(ctx, v, []string{"q1"}); return err },
		"CreateGame": func() error {
			return s.CreateGame(ctx, &store.Game{ID: fmt.Sprintf("%032x", 1), Visitor: v, Mode: "friend",
				HumanColor: "white", ClockName: "none", StartFEN: chess.StartFEN, Status: "active", Result: "*"})
		},
	}
	for name, write := range writes {
		err := write()
		var ue *store.UnavailableError
		if !errors.As(err, &ue) || ue.Fault != store.ReadOnly {
			t.Errorf("%s on a read-only database: %v, want store.ErrUnavailable (read-only)", name, err)
		}
	}
	// Reading still works.
	if ok, err := s.VisitorExists(ctx, v); err != nil || !ok {
		t.Errorf("VisitorExists on a read-only database = %v, %v", ok, err)
	}
}

// TestMigrateFromEachOlderSchema makes a database as each older version of
// the site left it (migrations up to k), stores a visitor, a game and a
// trainer score once their tables exist, and opens it with every
// migration: the rest apply, the data stays, and the newest tables work
// (0010's transfer codes among them, and 0011's engine of a review), as store/postgres tests the same.
func TestMigrateFromEachOlderSchema(t *testing.T) {
	ctx := context.Background()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	const v = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	for _, upTo := range ms[:len(ms)-1] {
		t.Run(upTo.Name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.db")
			// Unsynced, as openTemp is: each migration's commit would wait
			// on the disk (the rollback journal syncs every commit).
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)&_pragma=synchronous(OFF)")
			if err != nil {
				t.Fatal(err)
			}
			old := &SQLite{db: db}
			if err := old.migrateUpTo(ctx, upTo.Version); err != nil {
				t.Fatal(err)
			}
			if err := old.EnsureVisitor(ctx, v); err != nil {
				t.Fatal(err)
			}
			withGame := upTo.Version >= 4 // 0004 made the games table
			g := &store.Game{ID: strings.Repeat("2", 32), Visitor: v, Mode: "friend", HumanColor: "white",
				ClockName: "none", StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Moves: []string{"a1a2"},
				Snapshots: []store.ClockPair{{}, {}}, Status: "active", Result: "*"}
			if withGame {
				if err := createOldGame(ctx, old, g); err != nil {
					t.Fatal(err)
				}
			}
			withTrainer := upTo.Version >= 6
			if withTrainer {
				if _, err := old.SaveTrainerScore(ctx, v, "white", "find", 7); err != nil {
					t.Fatal(err)
				}
			}
			withReview := upTo.Version >= 7 // 0007 made the reviews table
			if withReview {
				if err := old.StartReview(ctx, &store.Review{GameID: g.ID, Visitor: v, Token: "t", Status: store.ReviewPending,
					StartFEN: g.StartFEN, Moves: g.Moves}); err != nil {
					t.Fatal(err)
				}
			}
			old.Close()

			s := openTemp(t, path)
			defer s.Close()
			if ok, err := s.VisitorExists(ctx, v); err != nil || !ok {
				t.Fatalf("the visitor after migrating: %v, %v", ok, err)
			}
			if withGame {
				got, err := s.Game(ctx, g.ID)
				if err != nil || strings.Join(got.Moves, " ") != "a1a2" {
					t.Fatalf("the game after migrating: %+v, %v", got, err)
				}
			}
			if best, err := s.SaveTrainerScore(ctx, v, "white", "find", 5); err != nil || (withTrainer && best != 7) || (!withTrainer && best != 5) {
				t.Fatalf("a trainer score after migrating: %d, %v", best, err)
			}
			h := strings.Repeat("ab", 32)
			now := time.Now()
			if err := s.CreateTransfer(ctx, v, h, now.Add(time.Minute)); err != nil {
				t.Fatalf("a transfer code after migrating: %v", err)
			}
			if got, err := s.RedeemTransfer(ctx, h, now); err != nil || got != v {
				t.Fatalf("redeeming it: %q, %v", got, err)
			}
			// A review asked for before 0011 named no engine: it reads as
			// none and finishes with the engine that reviews it now.
			rv, err := s.Review(ctx, g.ID)
			if withReview && (err != nil || rv.Engine != "" || rv.Status != store.ReviewPending) {
				t.Fatalf("the review after migrating: %+v, %v", rv, err)
			}
			if !withReview && withGame {
				if err := s.StartReview(ctx, &store.Review{GameID: g.ID, Visitor: v, Token: "t", Status: store.ReviewPending,
					StartFEN: g.StartFEN, Moves: g.Moves}); err != nil {
					t.Fatal(err)
				}
			}
			if withGame {
				for i := range 2 {
					if err := s.AddReviewPosition(ctx, g.ID, "t", store.ReviewPosition{Index: i}); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.FinishReview(ctx, g.ID, "t", "built-in", []store.ReviewMove{{Ply: 1, Class: "book"}}); err != nil {
					t.Fatal(err)
				}
				if rv, err := s.Review(ctx, g.ID); err != nil || rv.Engine != "built-in" || rv.Classed[0].Class != "book" {
					t.Fatalf("the engine of a review finished after migrating: %+v, %v", rv, err)
				}
			}
			cl := &store.Class{ID: strings.Repeat("c", 32), Name: "Club", JoinCode: "ABCDEF", SecretHash: h, CreatedAt: now}
			if err := s.CreateClass(ctx, cl, v, "secret"); err != nil {
				t.Fatalf("a class after migrating: %v", err)
			}
			m := &store.Member{ID: strings.Repeat("d", 32), ClassID: cl.ID, Visitor: v, Nickname: "Kid", NicknameKey: "kid", JoinedAt: now}
			if _, created, err := s.JoinClass(ctx, m, 100); err != nil || !created {
				t.Fatalf("joining it: %v, %v", created, err)
			}
			if r, err := s.ClassReport(ctx, cl.ID); err != nil || len(r) != 1 || (withTrainer && r[0].TrainerBest != 7) {
				t.Fatalf("its report: %+v, %v", r, err)
			}
			if err := s.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{Visitor: v, PuzzleID: "p1", Solved: true, RatingBefore: 800,
				Player: store.PuzzlePlayer{Rating: 850, RD: 300, Volatility: 0.06, Solved: 1},
				Puzzle: store.PuzzleRating{Rating: 900, RD: 140, Volatility: 0.06, Attempts: 1}}); err != nil {
				t.Fatalf("a puzzle attempt after migrating: %v", err)
			}
			// 0016: a game from two devices, its seat and a watcher.
			rg := &store.Game{ID: strings.Repeat("3", 32), Visitor: v, Mode: store.ModeRemote, HumanColor: "black",
				ClockName: "none", StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Snapshots: []store.ClockPair{{}},
				Status: "active", Result: "*", Remote: &store.Remote{WatchID: strings.Repeat("4", 32)}}
			if err := s.CreateGame(ctx, rg); err != nil {
				t.Fatalf("a remote game after migrating: %v", err)
			}
			if err := s.WatchGame(ctx, rg.ID, strings.Repeat("5", 32), now); err != nil {
				t.Fatalf("watching it: %v", err)
			}
			if got, err := s.Game(ctx, rg.ID); err != nil || got.Mode != store.ModeRemote || got.Remote == nil {
				t.Fatalf("the remote game read back: %+v, %v", got, err)
			}
			// 0014's tries work on a migrated database.
			if r, err := s.RecordTry(ctx, v, "rook-corner", "rook", store.TrySolved); err != nil || !r.Solved {
				t.Fatalf("a try after migrating: %+v, %v", r, err)
			}
			// 0018's exam passes work on a migrated database.
			if err := s.RecordExamPass(ctx, v, 1, 10, 11); err != nil {
				t.Fatalf("an exam pass after migrating: %v", err)
			}
			if got, err := s.ExamPasses(ctx, v); err != nil || got[1].Score != 10 {
				t.Fatalf("the pass read back: %+v, %v", got, err)
			}
			// 0019: a friend game keeps its players' names; the remote game,
			// made without, reads back with none.
			ng := &store.Game{ID: strings.Repeat("6", 32), Visitor: v, Mode: "friend", HumanColor: "white",
				ClockName: "none", StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Snapshots: []store.ClockPair{{}},
				Status: "active", Result: "*", WhiteName: "Анна", BlackName: "Ben"}
			if err := s.CreateGame(ctx, ng); err != nil {
				t.Fatalf("a named game after migrating: %v", err)
			}
			if got, err := s.Game(ctx, ng.ID); err != nil || got.WhiteName != "Анна" || got.BlackName != "Ben" {
				t.Fatalf("the named game read back: %+v, %v", got, err)
			}
			if got, err := s.Game(ctx, rg.ID); err != nil || got.WhiteName != "" || got.BlackName != "" {
				t.Fatalf("a game without names read back: %+v, %v", got, err)
			}
		})
	}
}

// TestSyncModes: the site's default syncs the write-ahead log at
// checkpoints (synchronous NORMAL = 1), which keeps every committed move
// through SIGKILL; PowerSafe syncs on every commit (FULL = 2); tests run
// unsynced (OFF = 0). Each mode opens a database migrated unsynced
// beforehand: migrating in a synced mode waits on the disk for every
// migration's commit.
func TestSyncModes(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		want int
	}{{Options{}, 1}, {Options{PowerSafe: true}, 2}, {Options{Unsynced: true}, 0}} {
		path := filepath.Join(t.TempDir(), "sync.db")
		openTemp(t, path).Close()
		s, err := OpenWith(context.Background(), path, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		var got int
		if err := s.db.QueryRow("PRAGMA synchronous").Scan(&got); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if got != c.want {
			t.Errorf("%+v: PRAGMA synchronous = %d, want %d", c.opt, got, c.want)
		}
	}
}

// createOldGame stores g in a games table from before 0019 (no players'
// names), with the columns every schema since 0004 has.
func createOldGame(ctx context.Context, s *SQLite, g *store.Game) error {
	cols := strings.TrimSuffix(record.GameColumns, ", white_name, black_name")
	if cols == record.GameColumns {
		return fmt.Errorf("record.GameColumns no longer ends with the names: update createOldGame")
	}
	snaps, err := json.Marshal(g.Snapshots)
	if err != nil {
		return err
	}
	now := time.Now().UnixMilli()
	_, err = s.db.ExecContext(ctx, `INSERT INTO games (`+cols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
		g.ID, g.Visitor, g.Mode, g.HumanColor, g.Level, g.ClockName, g.BaseMS,
		g.IncrementMS, g.Undo, g.PassScreen, g.TurnBoard, g.StartFEN,
		strings.Join(g.Moves, " "), len(g.Moves), g.Clocks.White, g.Clocks.Black,
		record.UnixMS(g.RunningSince), string(snaps), g.DrawOffer, g.Status, g.Result,
		g.Reason, g.EndColor, now, now)
	return err
}
