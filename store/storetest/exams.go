package storetest

import (
	"context"
	"errors"
	"testing"

	"chesstutor/store"
)

// The step exams part of the contract (L9, issue 36).

func (c *contract) examPasses(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	if got, err := s.ExamPasses(ctx, alice); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("new visitor's passes = %v, %v; want an empty map", got, err)
	}
	if err := s.RecordExamPass(ctx, alice, 2, 9, 11); err != nil {
		t.Fatal(err)
	}
	first, err := s.ExamPasses(ctx, alice)
	if err != nil || len(first) != 1 || first[2].Score != 9 || first[2].Total != 11 || first[2].Step != 2 || first[2].PassedAt.IsZero() {
		t.Fatalf("after one pass = %+v, %v", first, err)
	}
	// A better pass keeps the first date and raises the score; a worse
	// one changes nothing.
	if err := s.RecordExamPass(ctx, alice, 2, 12, 12); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordExamPass(ctx, alice, 2, 8, 10); err != nil {
		t.Fatal(err)
	}
	got, err := s.ExamPasses(ctx, alice)
	if err != nil || got[2].Score != 12 || got[2].Total != 12 || !got[2].PassedAt.Equal(first[2].PassedAt) {
		t.Errorf("after a better and a worse pass = %+v, %v; want 12/12 from %v", got[2], err, first[2].PassedAt)
	}
	if other, err := s.ExamPasses(ctx, bob); err != nil || len(other) != 0 {
		t.Errorf("another visitor sees %v, %v; want nothing", other, err)
	}
	// The database refuses what cannot be a pass.
	if err := s.RecordExamPass(ctx, alice, 3, 11, 10); err == nil {
		t.Error("a score above the total was stored")
	}
	// Forget me removes the passes.
	if err := s.ForgetVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ExamPasses(ctx, alice); err != nil || len(got) != 0 {
		t.Errorf("passes after forget me = %v, %v; want none", got, err)
	}
	if err := s.RecordExamPass(ctx, alice, 1, 10, 10); !errors.Is(err, store.ErrGone) {
		t.Errorf("a pass for a forgotten visitor: %v, want store.ErrGone", err)
	}
}
