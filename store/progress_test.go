package store

import (
	"context"
	"path/filepath"
	"testing"
)

func TestProgressIsIdempotentAndSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "progress.db")
	const alice = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	const bob = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

	s := openTemp(t, path)
	for _, v := range []string{alice, bob} {
		if err := s.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
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
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openTemp(t, path)
	defer s.Close()
	got, err := s.VisitorProgress(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.LessonsRead) != 1 || !got.LessonsRead["rook"].Equal(first.LessonsRead["rook"]) {
		t.Errorf("lessons read after restart = %v, want rook at %v", got.LessonsRead, first.LessonsRead["rook"])
	}
	if len(got.Solved) != 1 || got.Solved["rook-corner"].IsZero() {
		t.Errorf("solved after restart = %v, want rook-corner", got.Solved)
	}
	if n := got.SolvedIn([]string{"rook-corner", "rook-open-board"}); n != 1 {
		t.Errorf("SolvedIn = %d, want 1", n)
	}
	other, err := s.VisitorProgress(ctx, bob)
	if err != nil || len(other.LessonsRead)+len(other.Solved) != 0 {
		t.Errorf("another visitor sees %+v, %v; want nothing", other, err)
	}
	if err := s.MarkLessonRead(ctx, "cccccccccccccccccccccccccccccccc", "rook"); err == nil {
		t.Error("progress for an unknown visitor was stored")
	}
}
