package storetest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"chesstutor/store"
)

// The puzzles part of the contract (P4, P5).

func firstAttempt(visitor, puzzle string, solved bool, player store.PuzzlePlayer, rating float64, puzzleAttempts int) store.PuzzleAttempt {
	next := player
	next.Rating = rating
	if next.RD == 0 {
		next.RD, next.Volatility = 300, 0.06
	}
	if solved {
		next.Solved++
	} else {
		next.Failed++
	}
	return store.PuzzleAttempt{Visitor: visitor, PuzzleID: puzzle, Solved: solved, RatingBefore: player.Rating,
		Player: next, Puzzle: store.PuzzleRating{Rating: 1000 - rating/10, RD: 140, Volatility: 0.06, Attempts: puzzleAttempts}}
}

// puzzleAttempts: a first attempt is stored with both ratings; a second
// attempt at the same puzzle, or one written from a stale version,
// conflicts and changes nothing.
func (c *contract) puzzleAttempts(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	p, err := s.PuzzlePlayer(ctx, alice)
	if err != nil || p.Version != 0 {
		t.Fatalf("a new visitor's puzzle record = %+v, %v; want Version 0", p, err)
	}
	if tried, err := s.PuzzlesTried(ctx, alice); err != nil || len(tried) != 0 {
		t.Fatalf("PuzzlesTried of a new visitor = %v, %v; want none", tried, err)
	}
	if res, err := s.PuzzleResults(ctx, alice); err != nil || len(res) != 0 {
		t.Fatalf("PuzzleResults of a new visitor = %v, %v; want none", res, err)
	}
	if err := s.RecordPuzzleAttempt(ctx, firstAttempt(alice, "p1", true, p, 850, 1)); err != nil {
		t.Fatalf("first attempt: %v", err)
	}
	p, err = s.PuzzlePlayer(ctx, alice)
	if err != nil || p.Version != 1 || p.Rating != 850 || p.Solved != 1 || p.Failed != 0 {
		t.Fatalf("after one solve: %+v, %v; want version 1, rating 850, 1 solved", p, err)
	}
	// The same puzzle again: a replay does not count.
	if err := s.RecordPuzzleAttempt(ctx, firstAttempt(alice, "p1", false, p, 700, 2)); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second attempt at p1: %v, want ErrConflict", err)
	}
	// A stale version of the visitor's record.
	stale := p
	stale.Version = 0
	if err := s.RecordPuzzleAttempt(ctx, firstAttempt(alice, "p2", false, stale, 700, 1)); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("an attempt from a stale record: %v, want ErrConflict", err)
	}
	// A stale version of the puzzle's rating (bob's attempt at p1 read it
	// before alice's moved it).
	if err := s.RecordPuzzleAttempt(ctx, firstAttempt(bob, "p1", false, store.PuzzlePlayer{}, 780, 1)); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("an attempt over a stale puzzle rating: %v, want ErrConflict", err)
	}
	if err := s.RecordPuzzleAttempt(ctx, firstAttempt(bob, "p1", false, store.PuzzlePlayer{}, 780, 2)); err != nil {
		t.Fatalf("bob's attempt at p1: %v", err)
	}
	if err := s.RecordPuzzleAttempt(ctx, firstAttempt(alice, "p2", false, p, 820, 1)); err != nil {
		t.Fatalf("alice's attempt at p2: %v", err)
	}
	p, _ = s.PuzzlePlayer(ctx, alice)
	if p.Rating != 820 || p.Solved != 1 || p.Failed != 1 || p.Version != 2 {
		t.Errorf("alice after a solve and a failure: %+v", p)
	}
	tried, err := s.PuzzlesTried(ctx, alice)
	if err != nil || len(tried) != 2 || !tried["p1"] || !tried["p2"] {
		t.Errorf("PuzzlesTried(alice) = %v, %v; want p1 and p2", tried, err)
	}
	if res, err := s.PuzzleResults(ctx, alice); err != nil || !slices.Equal(res, []bool{true, false}) {
		t.Errorf("PuzzleResults(alice) = %v, %v; want [true false] (p1 solved, then p2 failed)", res, err)
	}
	if res, err := s.PuzzleResults(ctx, bob); err != nil || !slices.Equal(res, []bool{false}) {
		t.Errorf("PuzzleResults(bob) = %v, %v; want [false]", res, err)
	}
	rs, err := s.PuzzleRatings(ctx)
	if err != nil || len(rs) != 2 || rs["p1"].Attempts != 2 || rs["p2"].Attempts != 1 || rs["p1"].Rating != 1000-78 {
		t.Errorf("PuzzleRatings = %+v, %v; want p1 tried twice (rating 922 from bob's), p2 once", rs, err)
	}
	// An attempt by a visitor who is not stored is refused.
	if err := s.RecordPuzzleAttempt(ctx, firstAttempt("cccccccccccccccccccccccccccccccc", "p3", true, store.PuzzlePlayer{}, 900, 1)); err == nil {
		t.Error("an attempt of a visitor who is not stored was accepted")
	}
}

// puzzleStreaks: the record is saved under its version, so two requests
// that both read version n cannot both win.
func (c *contract) puzzleStreaks(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	p := store.PuzzlePlayer{Rating: 800, RD: 350, Volatility: 0.06, StreakCurrent: 1, StreakBest: 1, StreakSeed: 42}
	if err := s.SavePuzzlePlayer(ctx, alice, p); err != nil {
		t.Fatalf("first save: %v", err)
	}
	if err := s.SavePuzzlePlayer(ctx, alice, p); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second first save: %v, want ErrConflict", err)
	}
	got, _ := s.PuzzlePlayer(ctx, alice)
	if got.StreakCurrent != 1 || got.StreakSeed != 42 || got.Version != 1 {
		t.Fatalf("after the first save: %+v", got)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			next := got
			next.StreakCurrent, next.StreakBest = 2, 2
			errs[i] = s.SavePuzzlePlayer(ctx, alice, next)
		}(i)
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("a concurrent save: %v, want nil or ErrConflict", err)
		}
	}
	if wins != 1 {
		t.Errorf("%d of 8 saves from one version won, want exactly 1", wins)
	}
	got, _ = s.PuzzlePlayer(ctx, alice)
	if got.Version != 2 || got.StreakBest != 2 {
		t.Errorf("after the race: %+v, want version 2 and best 2", got)
	}
}
