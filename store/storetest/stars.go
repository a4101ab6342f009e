package storetest

import (
	"context"
	"testing"

	"chesstutor/store"
)

// The stars part of the contract (X11, issue 36).

func (c *contract) starsTries(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	if got, err := s.VisitorTries(ctx, alice); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("new visitor's tries = %v, %v; want an empty map", got, err)
	}
	try := func(visitor, id string, k store.Try) store.TryRecord {
		t.Helper()
		r, err := s.RecordTry(ctx, visitor, id, "rook", k)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Solved at once: nothing wrong, no help.
	if r := try(alice, "first", store.TrySolved); !r.Solved || r.SolvedWrong != 0 || r.SolvedHelped || r.Wrong != 0 {
		t.Errorf("solved at once = %+v", r)
	}
	// Two wrong tries, then the solve: frozen at two.
	try(alice, "second", store.TryWrong)
	try(alice, "second", store.TryWrong)
	if r := try(alice, "second", store.TrySolved); !r.Solved || r.SolvedWrong != 2 || r.SolvedHelped {
		t.Errorf("two wrong then solved = %+v", r)
	}
	// Later tries change nothing the stars read.
	try(alice, "second", store.TryWrong)
	try(alice, "second", store.TryHelped)
	if r := try(alice, "second", store.TrySolved); r.SolvedWrong != 2 || r.SolvedHelped || r.Wrong != 2 || r.Helped {
		t.Errorf("after the first solve = %+v, want it frozen at two wrong, no help", r)
	}
	// Help before the solve is kept.
	try(alice, "third", store.TryHelped)
	if r := try(alice, "third", store.TrySolved); !r.SolvedHelped || r.SolvedWrong != 0 {
		t.Errorf("helped then solved = %+v", r)
	}
	// Not solved yet.
	if r := try(alice, "fourth", store.TryWrong); r.Solved || r.Wrong != 1 {
		t.Errorf("one wrong try = %+v", r)
	}
	got, err := s.VisitorTries(ctx, alice)
	if err != nil || len(got) != 4 || got["second"].SolvedWrong != 2 || !got["third"].SolvedHelped || got["fourth"].Solved {
		t.Errorf("VisitorTries = %+v, %v", got, err)
	}
	if other, err := s.VisitorTries(ctx, bob); err != nil || len(other) != 0 {
		t.Errorf("another visitor sees %v, %v; want nothing", other, err)
	}
	if _, err := s.RecordTry(ctx, alice, "x", "rook", store.Try(99)); err == nil {
		t.Error("an unknown kind of try was accepted")
	}
}
