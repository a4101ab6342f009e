package storetest

import (
	"context"
	"testing"
)

// The visitors, progress and trainer parts of the contract.

func (c *contract) visitors(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t)
	if ok, err := s.VisitorExists(ctx, alice); err != nil || ok {
		t.Fatalf("VisitorExists(new) = %v, %v; want false, nil", ok, err)
	}
	for i := 0; i < 2; i++ { // the second call must not fail
		if err := s.EnsureVisitor(ctx, alice); err != nil {
			t.Fatalf("EnsureVisitor #%d: %v", i+1, err)
		}
	}
	if ok, err := s.VisitorExists(ctx, alice); err != nil || !ok {
		t.Fatalf("VisitorExists = %v, %v; want true, nil", ok, err)
	}
	if ok, err := s.VisitorExists(ctx, bob); err != nil || ok {
		t.Fatalf("VisitorExists(other) = %v, %v; want false, nil", ok, err)
	}
	if err := s.EnsureVisitor(ctx, "short"); err == nil {
		t.Fatal("EnsureVisitor accepted an id that is not 32 characters")
	}
}

func (c *contract) progress(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	empty, err := s.VisitorProgress(ctx, alice)
	if err != nil || empty.LessonsRead == nil || empty.Solved == nil || len(empty.LessonsRead)+len(empty.Solved) != 0 {
		t.Fatalf("new visitor progress = %+v, %v; want empty maps", empty, err)
	}
	for i := 0; i < 2; i++ { // the second round must change nothing
		if err := s.MarkLessonRead(ctx, alice, "rook"); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkExerciseSolved(ctx, alice, "rook-corner", "rook"); err != nil {
			t.Fatal(err)
		}
	}
	first, err := s.VisitorProgress(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.LessonsRead) != 1 || first.LessonsRead["rook"].IsZero() {
		t.Errorf("lessons read = %v, want rook", first.LessonsRead)
	}
	if len(first.Solved) != 1 || first.Solved["rook-corner"].IsZero() {
		t.Errorf("solved = %v, want rook-corner", first.Solved)
	}
	if n := first.SolvedIn([]string{"rook-corner", "rook-open-board"}); n != 1 {
		t.Errorf("SolvedIn = %d, want 1", n)
	}
	// Marking again keeps the first time.
	if err := s.MarkLessonRead(ctx, alice, "rook"); err != nil {
		t.Fatal(err)
	}
	again, err := s.VisitorProgress(ctx, alice)
	if err != nil || !again.LessonsRead["rook"].Equal(first.LessonsRead["rook"]) {
		t.Errorf("read time after a second mark = %v, %v; want %v", again.LessonsRead["rook"], err, first.LessonsRead["rook"])
	}
	other, err := s.VisitorProgress(ctx, bob)
	if err != nil || len(other.LessonsRead)+len(other.Solved) != 0 {
		t.Errorf("another visitor sees %+v, %v; want nothing", other, err)
	}
}

func (c *contract) trainerBest(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	if got, err := s.TrainerBest(ctx, alice); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("new visitor's trainer best = %v, %v; want an empty map", got, err)
	}
	for _, tc := range []struct {
		view, mode  string
		score, best int
	}{
		{"white", "find", 12, 12},
		{"white", "find", 9, 12}, // lower: the best stays
		{"white", "find", 15, 15},
		{"black", "find", 4, 4},
		{"white", "name", 0, 0},
	} {
		best, err := s.SaveTrainerScore(ctx, alice, tc.view, tc.mode, tc.score)
		if err != nil || best != tc.best {
			t.Errorf("SaveTrainerScore(%s, %s, %d) = %d, %v; want %d", tc.view, tc.mode, tc.score, best, err, tc.best)
		}
	}
	got, err := s.TrainerBest(ctx, alice)
	if err != nil || len(got) != 3 || got["white/find"] != 15 || got["black/find"] != 4 || got["white/name"] != 0 {
		t.Errorf("TrainerBest = %v, %v", got, err)
	}
	if other, err := s.TrainerBest(ctx, bob); err != nil || len(other) != 0 {
		t.Errorf("another visitor sees %v, %v", other, err)
	}
	if _, err := s.SaveTrainerScore(ctx, carol, "white", "find", 3); err == nil {
		t.Error("a trainer score for an unknown visitor was stored")
	}
	if _, err := s.SaveTrainerScore(ctx, alice, "sideways", "find", 3); err == nil {
		t.Error("a trainer score for an unknown view was stored")
	}
}

func (c *contract) progressOfUnknownVisitor(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	if err := s.MarkLessonRead(ctx, carol, "rook"); err == nil {
		t.Error("progress for an unknown visitor was stored")
	}
	if err := s.MarkExerciseSolved(ctx, carol, "rook-corner", "rook"); err == nil {
		t.Error("a solved exercise for an unknown visitor was stored")
	}
}
