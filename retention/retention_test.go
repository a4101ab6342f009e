package retention

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"chesstutor/chess"
	"chesstutor/internal/sqlitetest"
	"chesstutor/store"
)

// clock is a fake clock the test moves forward.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestSweepWithAFakeClock(t *testing.T) {
	ctx := context.Background()
	s := sqlitetest.New(t)
	const (
		alice = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" // a game left unfinished
		bob   = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" // stored nothing
		carol = "cccccccccccccccccccccccccccccccc" // read a lesson
	)
	for _, v := range []string{alice, bob, carol} {
		if err := s.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 3; i++ {
		g := &store.Game{ID: fmt.Sprintf("%032x", i+1), Visitor: alice, Mode: "friend", HumanColor: "white",
			ClockName: "none", StartFEN: chess.StartFEN, Status: "active", Result: "*"}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.MarkLessonRead(ctx, carol, "pawn"); err != nil {
		t.Fatal(err)
	}

	clk := &clock{t: time.Now()}
	j := New(Config{Store: s, Now: clk.now, Batch: 1, Pause: time.Millisecond})
	sweep := func(when string, want Report) {
		t.Helper()
		got, err := j.Sweep(ctx)
		if err != nil || got != want {
			t.Fatalf("%s: Sweep = %+v, %v; want %+v", when, got, err, want)
		}
	}
	exists := func(v string) bool {
		ok, err := s.VisitorExists(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}

	sweep("at once", Report{})
	clk.t = clk.t.Add(25 * time.Hour)
	sweep("a day later", Report{VisitorsDeleted: 1})
	if exists(bob) || !exists(alice) || !exists(carol) {
		t.Fatalf("after a day: alice %v bob %v carol %v; want only Bob, who stored nothing, gone",
			exists(alice), exists(bob), exists(carol))
	}
	clk.t = clk.t.Add(30 * 24 * time.Hour)
	sweep("a month later", Report{GamesClosed: 3}) // one per transaction
	g, err := s.Game(ctx, fmt.Sprintf("%032x", 1))
	if err != nil || g.Status != store.StatusAbandoned || g.Reason != store.StatusAbandoned || g.Result != "*" {
		t.Fatalf("Alice's idle game = %+v, %v; want closed as abandoned", g, err)
	}
	sweep("again", Report{})
	clk.t = clk.t.Add(340 * 24 * time.Hour)
	sweep("a year later", Report{VisitorsDeleted: 2})
	if exists(alice) || exists(carol) {
		t.Fatal("visitors untouched for a year are still stored")
	}
	if _, err := s.Game(ctx, fmt.Sprintf("%032x", 1)); err == nil {
		t.Fatal("a deleted visitor's game is still stored")
	}
}

func TestRunStopsWithItsContext(t *testing.T) {
	ctx := context.Background()
	s := sqlitetest.New(t)
	const v = "dddddddddddddddddddddddddddddddd"
	if err := s.EnsureVisitor(ctx, v); err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: time.Now().Add(48 * time.Hour)}
	j := New(Config{Store: s, Now: clk.now})
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { j.Run(runCtx, time.Hour); close(done) }()
	// The first sweep runs at start: wait for it to delete the empty visitor.
	for deadline := time.Now().Add(10 * time.Second); ; {
		ok, err := s.VisitorExists(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first sweep did not run")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
}

// TestSweepDeletesExpiredTransferCodes: a code to continue on another
// device outlives its ten minutes only until the next sweep, and a
// visitor who stored nothing else then goes like any empty visitor.
func TestSweepDeletesExpiredTransferCodes(t *testing.T) {
	ctx := context.Background()
	s := sqlitetest.New(t)
	const (
		dave = "dddddddddddddddddddddddddddddddd" // made a code, stored nothing else
		erin = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee" // made a code and read a lesson
	)
	clk := &clock{t: time.Now()}
	for i, v := range []string{dave, erin} {
		if err := s.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateTransfer(ctx, v, fmt.Sprintf("%064x", i+1), clk.t.Add(10*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.MarkLessonRead(ctx, erin, "pawn"); err != nil {
		t.Fatal(err)
	}
	j := New(Config{Store: s, Now: clk.now, Batch: 1, Pause: time.Millisecond})
	if r, err := j.Sweep(ctx); err != nil || r != (Report{}) {
		t.Fatalf("at once: %+v, %v; want nothing done", r, err)
	}
	clk.t = clk.t.Add(11 * time.Minute)
	if r, err := j.Sweep(ctx); err != nil || r != (Report{TransfersDeleted: 2}) {
		t.Fatalf("11 minutes later: %+v, %v; want both codes deleted", r, err)
	}
	if _, err := s.RedeemTransfer(ctx, fmt.Sprintf("%064x", 1), clk.t.Add(-time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Dave's code after the sweep: %v, want it gone", err)
	}
	clk.t = clk.t.Add(25 * time.Hour)
	if r, err := j.Sweep(ctx); err != nil || r != (Report{VisitorsDeleted: 1}) {
		t.Fatalf("a day later: %+v, %v; want Dave, who kept nothing else, deleted", r, err)
	}
}

// TestSweepDeletesUntouchedClasses: a class nobody opened or joined for a
// year goes, with its memberships; its pupils stay, with their progress
// (T5). A class touched within the year stays.
func TestSweepDeletesUntouchedClasses(t *testing.T) {
	ctx := context.Background()
	s := sqlitetest.New(t)
	const pupil = "ffffffffffffffffffffffffffffffff"
	clk := &clock{t: time.Now()}
	if err := s.EnsureVisitor(ctx, pupil); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkLessonRead(ctx, pupil, "pawn"); err != nil {
		t.Fatal(err)
	}
	for i, code := range []string{"ABCDEF", "GHJKMN"} {
		c := &store.Class{ID: fmt.Sprintf("%032x", i+1), Name: "Club", JoinCode: code, SecretHash: fmt.Sprintf("%064x", i+1), CreatedAt: clk.t}
		if err := s.CreateClass(ctx, c, "", ""); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.JoinClass(ctx, &store.Member{ID: fmt.Sprintf("%032x", i+10), ClassID: c.ID, Visitor: pupil,
			Nickname: "Kid", NicknameKey: "kid", JoinedAt: clk.t}, 100); err != nil {
			t.Fatal(err)
		}
	}
	j := New(Config{Store: s, Now: clk.now, Batch: 1, Pause: time.Millisecond, Periods: Periods{Visitors: 2 * 365 * 24 * time.Hour}})
	clk.t = clk.t.Add(200 * 24 * time.Hour)
	if err := s.TouchClass(ctx, fmt.Sprintf("%032x", 2), clk.t); err != nil {
		t.Fatal(err)
	}
	clk.t = clk.t.Add(200 * 24 * time.Hour)
	if r, err := j.Sweep(ctx); err != nil || r.ClassesDeleted != 1 || r.VisitorsDeleted != 0 {
		t.Fatalf("400 days on: %+v, %v; want the untouched class deleted and nobody else", r, err)
	}
	list, err := s.VisitorClasses(ctx, pupil)
	if err != nil || len(list) != 1 || list[0].Class.JoinCode != "GHJKMN" {
		t.Errorf("the pupil's classes = %+v, %v; want the one touched", list, err)
	}
	if w, err := s.PupilWork(ctx, pupil); err != nil || len(w.LessonsRead) != 1 {
		t.Errorf("the pupil's progress after the class went: %+v, %v", w, err)
	}
}

// TestSweepKeepsAFriendsSeat: a guest whose only row is their seat in a
// game from two devices stays while the game goes on (the empty-visitor
// day passes, and the game is closed as abandoned after its own period),
// and for the visitors' period after it was last played; then both
// players go with the game.
func TestSweepKeepsAFriendsSeat(t *testing.T) {
	ctx := context.Background()
	s := sqlitetest.New(t)
	const host, guest = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	for _, v := range []string{host, guest} {
		if err := s.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	id := fmt.Sprintf("%032x", 7)
	g := &store.Game{ID: id, Visitor: host, Mode: store.ModeRemote, HumanColor: "white", ClockName: "none",
		StartFEN: chess.StartFEN, Status: "active", Result: "*", CreatedAt: start,
		Remote: &store.Remote{WatchID: fmt.Sprintf("%032x", 8)}}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.JoinGame(ctx, id, guest, start); err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: start}
	j := New(Config{Store: s, Now: clk.now, Pause: time.Millisecond})
	seated := func(when string, want bool) {
		t.Helper()
		if _, err := j.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		rec, err := s.Game(ctx, id)
		if got := err == nil && rec.Remote.Guest == guest; got != want {
			t.Fatalf("%s: the guest seated %v (%v), want %v", when, got, err, want)
		}
	}
	clk.t = start.Add(2 * 24 * time.Hour) // past the empty-visitor day
	seated("two days on, the game going on", true)
	clk.t = start.Add(200 * 24 * time.Hour) // the game was closed as abandoned at 30 days
	seated("200 days on, the game closed", true)
	clk.t = start.Add(400 * 24 * time.Hour)
	seated("400 days on, a year after the last move", false)
	for _, v := range []string{host, guest} {
		if ok, _ := s.VisitorExists(ctx, v); ok {
			t.Errorf("visitor %s kept after a year", v)
		}
	}
}
