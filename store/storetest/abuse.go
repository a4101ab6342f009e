package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"chesstutor/store"
)

// owned is what fill stores for one visitor, to look for afterwards.
type owned struct {
	game, round, lesson, exercise string
}

// fill stores one of everything for visitor: a lesson read, an exercise
// solved, a quiz round with an answer, a game and a trainer score.
func fill(t *testing.T, s store.Store, visitor string, n int) owned {
	t.Helper()
	ctx := context.Background()
	o := owned{game: gameID(n), lesson: "lesson-" + visitor[:4], exercise: "exercise-" + visitor[:4]}
	if err := s.MarkLessonRead(ctx, visitor, o.lesson); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkExerciseSolved(ctx, visitor, o.exercise, o.lesson); err != nil {
		t.Fatal(err)
	}
	r, err := s.StartQuizRound(ctx, visitor, []string{"q-" + visitor[:4], "q2"})
	if err != nil {
		t.Fatal(err)
	}
	o.round = r.ID
	if _, _, err := s.AnswerQuiz(ctx, visitor, r.ID, 0, "answer-"+visitor[:4], true); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, newGame(o.game, visitor)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveTrainerScore(ctx, visitor, "white", "find", 5); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordPuzzleAttempt(ctx, firstAttempt(visitor, "fill"+visitor[:4], true, store.PuzzlePlayer{}, 850, 1)); err != nil {
		t.Fatal(err)
	}
	return o
}

// gone checks that nothing fill stored for a visitor can be read.
func gone(t *testing.T, s store.Store, visitor string, o owned) {
	t.Helper()
	ctx := context.Background()
	if ok, err := s.VisitorExists(ctx, visitor); err != nil || ok {
		t.Errorf("VisitorExists after forgetting = %v, %v; want false", ok, err)
	}
	if r, err := s.VisitorProgress(ctx, visitor); err != nil || len(r.LessonsRead)+len(r.Solved) != 0 {
		t.Errorf("VisitorProgress after forgetting = %+v, %v; want empty", r, err)
	}
	if _, err := s.Game(ctx, o.game); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game after forgetting: %v, want ErrNotFound", err)
	}
	if _, err := s.QuizRound(ctx, visitor, o.round); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("QuizRound after forgetting: %v, want ErrNotFound", err)
	}
	if seen, err := s.SeenQuizQuestions(ctx, visitor); err != nil || len(seen) != 0 {
		t.Errorf("SeenQuizQuestions after forgetting = %v, %v; want none", seen, err)
	}
	if _, err := s.ExportVisitor(ctx, visitor); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ExportVisitor after forgetting: %v, want ErrNotFound", err)
	}
	if best, err := s.TrainerBest(ctx, visitor); err != nil || len(best) != 0 {
		t.Errorf("TrainerBest after forgetting = %v, %v; want none", best, err)
	}
	if p, err := s.PuzzlePlayer(ctx, visitor); err != nil || p.Version != 0 {
		t.Errorf("PuzzlePlayer after forgetting = %+v, %v; want none", p, err)
	}
	if tried, err := s.PuzzlesTried(ctx, visitor); err != nil || len(tried) != 0 {
		t.Errorf("PuzzlesTried after forgetting = %v, %v; want none", tried, err)
	}
}

// kept checks that everything fill stored for a visitor is still there.
func kept(t *testing.T, s store.Store, visitor string, o owned) {
	t.Helper()
	ctx := context.Background()
	if r, err := s.VisitorProgress(ctx, visitor); err != nil || len(r.LessonsRead) != 1 || len(r.Solved) != 1 {
		t.Errorf("VisitorProgress of the other visitor = %+v, %v; want one of each", r, err)
	}
	if _, err := s.Game(ctx, o.game); err != nil {
		t.Errorf("Game of the other visitor: %v", err)
	}
	if _, err := s.QuizRound(ctx, visitor, o.round); err != nil {
		t.Errorf("QuizRound of the other visitor: %v", err)
	}
}

func (c *contract) forgetVisitor(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	a, b := fill(t, s, alice, 1), fill(t, s, bob, 2)
	if err := s.ForgetVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	gone(t, s, alice, a)
	kept(t, s, bob, b)
	if err := s.ForgetVisitor(ctx, alice); err != nil {
		t.Errorf("forgetting a visitor twice: %v", err)
	}
	if err := s.ForgetVisitor(ctx, carol); err != nil {
		t.Errorf("forgetting a visitor never stored: %v", err)
	}
	// The id may come back as a new, empty visitor.
	if err := s.EnsureVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if r, err := s.VisitorProgress(ctx, alice); err != nil || len(r.LessonsRead)+len(r.Solved) != 0 {
		t.Errorf("progress of a forgotten id stored again = %+v, %v; want empty", r, err)
	}
}

func (c *contract) exportVisitor(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	a, b := fill(t, s, alice, 1), fill(t, s, bob, 2)
	e, err := s.ExportVisitor(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if e.Visitor != alice {
		t.Errorf("export of %s names visitor %q", alice, e.Visitor)
	}
	raw, err := json.Marshal(e)
	if err != nil {
		t.Fatalf("the export does not encode as JSON: %v", err)
	}
	// Everything stored about Alice is in her file, by value; nothing of Bob's.
	for _, want := range []string{alice, a.game, a.round, a.lesson, a.exercise, "q-aaaa", "answer-aaaa", "e2e4", "3+2"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("export lacks %q: %s", want, raw)
		}
	}
	for _, not := range []string{bob, b.game, b.round, b.lesson, b.exercise, "q-bbbb", "answer-bbbb"} {
		if bytes.Contains(raw, []byte(not)) {
			t.Errorf("Alice's export holds Bob's %q", not)
		}
	}
	// One visitor row, one lesson, one exercise, one round, one answer, one
	// history line, one game and one trainer score at least.
	if e.Rows() < 8 {
		t.Errorf("export has %d rows, want at least 8: %s", e.Rows(), raw)
	}
	if _, err := s.ExportVisitor(ctx, carol); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ExportVisitor(never stored): %v, want ErrNotFound", err)
	}
}

func (c *contract) expireVisitors(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob, carol)
	a, b := fill(t, s, alice, 1), fill(t, s, bob, 2)
	past, future := time.Now().Add(-time.Hour), time.Now().Add(time.Minute)
	// Carol has nothing stored: she goes once her grace time is over;
	// Alice and Bob, seen a moment ago, stay.
	if n, err := s.ExpireVisitors(ctx, past, past, 10); err != nil || n != 0 {
		t.Fatalf("ExpireVisitors(nobody old) = %d, %v; want 0", n, err)
	}
	if n, err := s.ExpireVisitors(ctx, past, future, 10); err != nil || n != 1 {
		t.Fatalf("ExpireVisitors(empty ones) = %d, %v; want 1 (Carol)", n, err)
	}
	if ok, _ := s.VisitorExists(ctx, carol); ok {
		t.Error("Carol, who stored nothing, is still there")
	}
	kept(t, s, alice, a)
	kept(t, s, bob, b)
	// Idle visitors go with all their data, limit at a time.
	if n, err := s.ExpireVisitors(ctx, future, past, 1); err != nil || n != 1 {
		t.Fatalf("ExpireVisitors(idle, limit 1) = %d, %v; want 1", n, err)
	}
	if n, err := s.ExpireVisitors(ctx, future, past, 5); err != nil || n != 1 {
		t.Fatalf("ExpireVisitors(idle, rest) = %d, %v; want 1", n, err)
	}
	gone(t, s, alice, a)
	gone(t, s, bob, b)
	if n, err := s.ExpireVisitors(ctx, future, future, 5); err != nil || n != 0 {
		t.Fatalf("ExpireVisitors(nobody left) = %d, %v; want 0", n, err)
	}
}

// playedAt is a game last played at t (a new game's update time is its
// creation time).
func playedAt(id, visitor string, t time.Time) *store.Game {
	g := newGame(id, visitor)
	g.CreatedAt = t
	return g
}

func (c *contract) capActiveGames(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	base := time.Now().Add(-time.Hour)
	var loaded []*store.Game
	for i := 0; i < 5; i++ {
		if err := s.CreateGame(ctx, playedAt(gameID(i), alice, base.Add(time.Duration(i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
		g, err := s.Game(ctx, gameID(i))
		if err != nil {
			t.Fatal(err)
		}
		loaded = append(loaded, g)
	}
	// A finished game does not count against the cap.
	done := playedAt(gameID(10), alice, base.Add(time.Hour))
	done.Status, done.Result, done.Reason = "resignation", "0-1", "resignation"
	if err := s.CreateGame(ctx, done); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, playedAt(gameID(20), bob, base)); err != nil {
		t.Fatal(err)
	}
	if n, err := s.CapActiveGames(ctx, alice, 3); err != nil || n != 2 {
		t.Fatalf("CapActiveGames(keep 3 of 5) = %d, %v; want 2", n, err)
	}
	for i, old := range loaded {
		g, err := s.Game(ctx, old.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantClosed := i < 2 // the two least recently played
		if closed := g.Status == store.StatusAbandoned; closed != wantClosed {
			t.Errorf("game %d: status %q, want abandoned = %v", i, g.Status, wantClosed)
		}
		if wantClosed {
			if g.Reason != store.StatusAbandoned || g.Result != "*" || !g.RunningSince.IsZero() || g.Version != old.Version+1 {
				t.Errorf("abandoned game %d = reason %q result %q running %v version %d; want abandoned, *, zero, %d",
					i, g.Reason, g.Result, g.RunningSince, g.Version, old.Version+1)
			}
			// A move racing the close loses.
			if err := s.UpdateGame(ctx, old); !errors.Is(err, store.ErrConflict) {
				t.Errorf("UpdateGame of a game closed meanwhile: %v, want ErrConflict", err)
			}
		}
	}
	if g, _ := s.Game(ctx, gameID(10)); g == nil || g.Status != "resignation" {
		t.Errorf("the finished game changed: %+v", g)
	}
	if g, _ := s.Game(ctx, gameID(20)); g == nil || g.Status != "active" {
		t.Errorf("Bob's game changed: %+v", g)
	}
	if n, err := s.CapActiveGames(ctx, alice, 3); err != nil || n != 0 {
		t.Errorf("CapActiveGames again = %d, %v; want 0", n, err)
	}
}

func (c *contract) abandonIdleGames(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	now := time.Now()
	old, recent := now.Add(-40*24*time.Hour), now.Add(-time.Hour)
	for i, g := range []*store.Game{
		playedAt(gameID(0), alice, old), playedAt(gameID(1), bob, old), playedAt(gameID(2), alice, old),
		playedAt(gameID(3), alice, recent),
	} {
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
	}
	cut := now.Add(-30 * 24 * time.Hour)
	if n, err := s.AbandonIdleGames(ctx, cut, 2); err != nil || n != 2 {
		t.Fatalf("AbandonIdleGames(limit 2) = %d, %v; want 2", n, err)
	}
	if n, err := s.AbandonIdleGames(ctx, cut, 2); err != nil || n != 1 {
		t.Fatalf("AbandonIdleGames(rest) = %d, %v; want 1", n, err)
	}
	for i, want := range []string{store.StatusAbandoned, store.StatusAbandoned, store.StatusAbandoned, "active"} {
		g, err := s.Game(ctx, gameID(i))
		if err != nil || g.Status != want {
			t.Errorf("game %d: %v, %v; want status %q", i, g, err, want)
		}
	}
	// Closing is not playing: the list keeps its order by last play.
	gs, err := s.VisitorGames(ctx, alice, 10)
	if err != nil || len(gs) != 3 || gs[0].ID != gameID(3) {
		t.Errorf("VisitorGames after closing = %v, %v; want the recent game first", ids(gs), err)
	}
}

func (c *contract) secrets(t *testing.T) {
	ctx := context.Background()
	open := c.newDB(t)
	s := c.open(t, open)
	first, err := s.Secret(ctx, "cookie", []byte("first key, 32 bytes long........"))
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != "first key, 32 bytes long........" {
		t.Fatalf("Secret on a new database = %q, want the fresh value", first)
	}
	again, err := s.Secret(ctx, "cookie", []byte("second"))
	if err != nil || !bytes.Equal(again, first) {
		t.Fatalf("Secret again = %q, %v; want the first value", again, err)
	}
	other, err := s.Secret(ctx, "other", []byte("another"))
	if err != nil || string(other) != "another" {
		t.Fatalf("Secret(other name) = %q, %v", other, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = c.open(t, open)
	if got, err := s.Secret(ctx, "cookie", []byte("third")); err != nil || !bytes.Equal(got, first) {
		t.Fatalf("Secret after reopening = %q, %v; want the first value", got, err)
	}
	// A secret is not a visitor's data.
	if err := s.EnsureVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	e, err := s.ExportVisitor(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(e)
	if strings.Contains(string(raw), "first key") {
		t.Errorf("a visitor's export holds the site's secret: %s", raw)
	}
}
