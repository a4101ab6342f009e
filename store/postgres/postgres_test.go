package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"chesstutor/internal/pgtest"
	"chesstutor/store"
	"chesstutor/store/internal/record"
	"chesstutor/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestContract runs the store contract suite against a real PostgreSQL
// (N6), one new database per subtest: an empty one for the subtest that
// migrates, a copy of one migrated once for the others.
func TestContract(t *testing.T) {
	opener := func(dsn string) storetest.Opener {
		return func(t *testing.T) store.Store { return openTest(t, dsn, Options{}) }
	}
	storetest.RunWith(t,
		func(t *testing.T) storetest.Opener { return opener(pgtest.DSN(t)) },
		func(t *testing.T) storetest.Opener { return opener(migratedDSN(t)) })
}

// migratedDSN returns a new database at the newest schema, a copy of one
// migrated once by Open.
func migratedDSN(t *testing.T) string {
	return pgtest.CopyDSN(t, "migrated", func(ctx context.Context, dsn string) error {
		s, err := Open(ctx, dsn, Options{})
		if err != nil {
			return err
		}
		return s.Close()
	})
}

func openTest(t *testing.T, dsn string, opt Options) *Postgres {
	t.Helper()
	s, err := Open(context.Background(), dsn, opt)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

// TestConcurrentOpenMigratesOnce starts several stores on one empty
// database at once, as instances booting together do: the advisory lock
// lets one migrate and the others find the work done.
func TestConcurrentOpenMigratesOnce(t *testing.T) {
	dsn := pgtest.DSN(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(context.Background(), dsn, Options{PoolSize: 2})
			if err != nil {
				errs <- err
				return
			}
			s.Close()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("Open beside others: %v", err)
	}
	s := openTest(t, dsn, Options{})
	defer s.Close()
	var n, max int
	if err := s.db.QueryRow(context.Background(), "SELECT COUNT(*), MAX(version) FROM schema_migrations").Scan(&n, &max); err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if n != len(ms) || max != ms[len(ms)-1].Version {
		t.Errorf("schema_migrations has %d rows up to %d; want %d up to %d", n, max, len(ms), ms[len(ms)-1].Version)
	}
}

// TestPoolSize: Options.PoolSize wins, the DSN's pool_max_conns is kept
// without it, and the default applies otherwise.
func TestPoolSize(t *testing.T) {
	dsn := pgtest.DSN(t)
	for _, c := range []struct {
		dsn  string
		opt  Options
		want int
	}{
		{dsn, Options{}, DefaultPoolSize},
		{dsn, Options{PoolSize: 3}, 3},
		{dsn + "&pool_max_conns=7", Options{}, 7},
		{dsn + "&pool_max_conns=7", Options{PoolSize: 2}, 2},
	} {
		s := openTest(t, c.dsn, c.opt)
		if got := s.PoolSize(); got != c.want {
			t.Errorf("Open(%s, %+v): pool size %d, want %d", c.dsn, c.opt, got, c.want)
		}
		s.Close()
	}
	if _, err := Open(context.Background(), dsn, Options{PoolSize: -1}); err == nil {
		t.Error("a negative pool size was accepted")
	}
}

// TestStatusIsACode: the CHECK constraints refuse words where codes belong
// (N7), as SQLite's triggers do.
func TestStatusIsACode(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, migratedDSN(t), Options{})
	defer s.Close()
	const v = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	if err := s.EnsureVisitor(ctx, v); err != nil {
		t.Fatal(err)
	}
	g := &store.Game{ID: strings.Repeat("1", 32), Visitor: v, Mode: "friend", HumanColor: "white",
		ClockName: "none", StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Status: "threefold repetition", Result: "1/2-1/2"}
	if err := s.CreateGame(ctx, g); err == nil {
		t.Fatal("a status in words was stored")
	}
	g.Status, g.Reason = "active", ""
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Status, g.Reason = "stalemate", "Draw by stalemate"
	if err := s.UpdateGame(ctx, g); err == nil {
		t.Fatal("a reason in words was stored")
	}
	g.Reason = "stalemate"
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
}

// TestUnreachable: a server that is not there is store.Unreachable, and the
// password never appears in the message.
func TestUnreachable(t *testing.T) {
	ctx := context.Background()
	_, err := Open(ctx, "postgres://chess:s3cret@127.0.0.1:1/chess?sslmode=disable&connect_timeout=5", Options{})
	var u *store.UnavailableError
	if !errors.As(err, &u) || u.Fault != store.Unreachable {
		t.Fatalf("Open on a closed port: %v; want store.Unreachable", err)
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("the error shows the password: %v", err)
	}
	if _, err := Open(ctx, "postgres://chess:s3cret@host:notaport/db", Options{}); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a malformed DSN: %v; want an error without the password", err)
	}
}

// TestTranslate maps SQLSTATE codes to the store's faults.
func TestTranslate(t *testing.T) {
	for code, want := range map[string]store.Fault{
		"40001": store.Busy, "40P01": store.Busy, "55P03": store.Busy, "53300": store.Busy,
		"53100": store.Full, "25006": store.ReadOnly, "57P01": store.Unreachable,
		"08006": store.Unreachable, "3D000": store.Unreachable,
	} {
		err := translate(&pgconn.PgError{Code: code})
		var u *store.UnavailableError
		if !errors.As(err, &u) || u.Fault != want {
			t.Errorf("SQLSTATE %s: %v; want %v", code, err, want)
		}
		if !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("SQLSTATE %s does not match store.ErrUnavailable", code)
		}
	}
	for _, code := range []string{"23505", "23503", "23514", "42601"} {
		if err := translate(&pgconn.PgError{Code: code}); errors.Is(err, store.ErrUnavailable) {
			t.Errorf("SQLSTATE %s (the request's fault) became %v", code, err)
		}
	}
	if err := translate(context.Canceled); err != context.Canceled {
		t.Errorf("a cancelled request became %v", err)
	}
}

// TestReadOnlyServer: a database that refuses writes (as a hot standby
// does) answers store.ReadOnly, and reads still work.
func TestReadOnlyServer(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	s := openTest(t, dsn, Options{})
	defer s.Close()
	name := dsn[strings.LastIndex(dsn, "/")+1 : strings.Index(dsn, "?")]
	if _, err := s.db.Exec(ctx, "ALTER DATABASE "+name+" SET default_transaction_read_only = on"); err != nil {
		t.Fatal(err)
	}
	ro := openTest(t, dsn, Options{})
	defer ro.Close()
	err := ro.EnsureVisitor(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
	var u *store.UnavailableError
	if !errors.As(err, &u) || u.Fault != store.ReadOnly {
		t.Fatalf("a write on a read-only database: %v; want store.ReadOnly", err)
	}
	if _, err := ro.VisitorExists(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"); err != nil {
		t.Errorf("a read on a read-only database: %v", err)
	}
}

// TestMigrateFromEachOlderSchema makes a database as each older version of
// the site left it (migrations up to k), stores a visitor and a game once
// their tables exist, and opens it with every migration: the rest apply,
// the data stays, and the newest tables work (a migration per schema
// change, tested from an old database).
func TestMigrateFromEachOlderSchema(t *testing.T) {
	ctx := context.Background()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	const v = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	for _, upTo := range ms[:len(ms)-1] {
		t.Run(upTo.Name, func(t *testing.T) {
			dsn := pgtest.DSN(t)
			pool, err := pgxpool.New(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			old := &Postgres{db: pool}
			if err := old.migrateUpTo(ctx, upTo.Version); err != nil {
				t.Fatal(err)
			}
			withGame := upTo.Version >= 4 // 0004 made the games table
			g := &store.Game{ID: strings.Repeat("2", 32), Visitor: v, Mode: "friend", HumanColor: "white",
				ClockName: "none", StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Moves: []string{"a1a2"},
				Snapshots: []store.ClockPair{{}, {}}, Status: "active", Result: "*"}
			if err := old.EnsureVisitor(ctx, v); err != nil {
				t.Fatal(err)
			}
			if withGame {
				if err := createOldGame(ctx, old, g); err != nil {
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

			s := openTest(t, dsn, Options{})
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
			if best, err := s.SaveTrainerScore(ctx, v, "white", "find", 12); err != nil || best != 12 {
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
			if r, err := s.ClassReport(ctx, cl.ID); err != nil || len(r) != 1 || r[0].TrainerBest != 12 {
				t.Fatalf("its report: %+v, %v", r, err)
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
			// 0017's puzzle attempts work on a migrated database.
			if err := s.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{Visitor: v, PuzzleID: "p1", Solved: true, RatingBefore: 800,
				Player: store.PuzzlePlayer{Rating: 850, RD: 300, Volatility: 0.06, Solved: 1},
				Puzzle: store.PuzzleRating{Rating: 900, RD: 140, Volatility: 0.06, Attempts: 1}}); err != nil {
				t.Fatalf("a puzzle attempt after migrating: %v", err)
			}
		})
	}
}

// TestConcurrentSweeps: every instance runs the retention job, so sweeps
// overlap. Four at once over the same expired visitors and idle games
// share the work without an error (no deadlock, no wait on each other's
// rows) and together delete and close each exactly once.
func TestConcurrentSweeps(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, migratedDSN(t), Options{PoolSize: 8})
	defer s.Close()
	const n = 120
	for i := range n {
		v := fmt.Sprintf("%032x", i+1)
		if err := s.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
		g := &store.Game{ID: fmt.Sprintf("%032x", 1000+i), Visitor: v, Mode: "friend", HumanColor: "white",
			ClockName: "none", StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Snapshots: []store.ClockPair{{}},
			Status: "active", Result: "*", CreatedAt: time.Now().Add(-time.Hour)}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	future := time.Now().Add(time.Minute)
	var closed, deleted atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, err := s.AbandonIdleGames(ctx, future, 7)
				if err != nil {
					t.Errorf("AbandonIdleGames: %v", err)
					return
				}
				closed.Add(int64(c))
				if c == 0 {
					break
				}
			}
			for {
				d, err := s.ExpireVisitors(ctx, future, future, 7)
				if err != nil {
					t.Errorf("ExpireVisitors: %v", err)
					return
				}
				deleted.Add(int64(d))
				if d == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	if closed.Load() != n || deleted.Load() != n {
		t.Errorf("the sweeps closed %d games and deleted %d visitors, want %d and %d", closed.Load(), deleted.Load(), n, n)
	}
}

// createOldGame stores g in a games table from before 0019 (no players'
// names), with the columns every schema since 0004 has.
func createOldGame(ctx context.Context, s *Postgres, g *store.Game) error {
	cols := strings.TrimSuffix(record.GameColumns, ", white_name, black_name")
	if cols == record.GameColumns {
		return fmt.Errorf("record.GameColumns no longer ends with the names: update createOldGame")
	}
	snaps, err := json.Marshal(g.Snapshots)
	if err != nil {
		return err
	}
	now := time.Now().UnixMilli()
	_, err = s.db.Exec(ctx, `INSERT INTO games (`+cols+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
		        $17, $18, $19, $20, $21, $22, $23, 1, $24, $25)`,
		g.ID, g.Visitor, g.Mode, g.HumanColor, g.Level, g.ClockName, g.BaseMS,
		g.IncrementMS, g.Undo, g.PassScreen, g.TurnBoard, g.StartFEN,
		strings.Join(g.Moves, " "), len(g.Moves), g.Clocks.White, g.Clocks.Black,
		record.UnixMS(g.RunningSince), string(snaps), g.DrawOffer, g.Status, g.Result,
		g.Reason, g.EndColor, now, now)
	return err
}
