package puzzles

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"chesstutor/store"
)

func TestAimMovesWithResults(t *testing.T) {
	if a := Aim(nil); a != 0 {
		t.Errorf("Aim of no attempts = %v, want 0", a)
	}
	if up, down := Aim([]bool{true}), Aim([]bool{false}); up <= 0 || down >= 0 {
		t.Errorf("one solve aims %v, one failure %v: want up and down", up, down)
	}
	wins, losses := make([]bool, 100), make([]bool, 100)
	for i := range wins {
		wins[i] = true
	}
	if a := Aim(wins); a != MaxAim {
		t.Errorf("100 solves aim %v, want the bound %v", a, MaxAim)
	}
	if a := Aim(losses); a != MinAim {
		t.Errorf("100 failures aim %v, want the bound %v", a, MinAim)
	}
	// Solving exactly SuccessTarget of them leaves the aim where it was.
	var seventy []bool
	for range 5 {
		seventy = append(seventy, true, true, false, true, true, false, true, true, false, true)
	}
	if a := Aim(seventy); math.Abs(a) > 1e-9 {
		t.Errorf("7 solves in every 10 aim %v, want 0", a)
	}
	// After the bound, the way back starts at once.
	if a := Aim(append(wins, false)); a != MaxAim-AimStep*SuccessTarget {
		t.Errorf("a failure after 100 solves aims %v, want %v", a, MaxAim-AimStep*SuccessTarget)
	}
}

// A solver who solves every puzzle rated under 1,000 and none above, with a
// rating of 800 that does not move (as when the puzzles near a rating are
// easier than rated), gets harder puzzles until they solve about 70 %.
func TestAimBringsSuccessToTheTarget(t *testing.T) {
	s := set(t, 1400) // rated 400, 401, … 1,799
	shipped := func(p *Puzzle) Rating { return PuzzleStart(p.Rating) }
	v := Rating{R: 800, RD: 60, Sigma: 0.06}
	run := func(aimed bool) (rate, firstTen, secondTen float64) {
		rng := rand.New(rand.NewPCG(3, 4))
		tried := map[string]bool{}
		var results []bool
		solved := 0
		for i := 0; i < 300; i++ {
			aim := 0.0
			if aimed {
				aim = Aim(results)
			}
			p := s.Next(v, aim, "", tried, shipped, rng)
			tried[p.ID] = true
			ok := p.Rating < 1000
			results = append(results, ok)
			switch {
			case i < 10:
				firstTen += float64(p.Rating) / 10
			case i < 20:
				secondTen += float64(p.Rating) / 10
			}
			if i >= 100 && ok {
				solved++
			}
		}
		return float64(solved) / 200, firstTen, secondTen
	}
	if rate, first, second := run(true); rate < 0.65 || rate > 0.75 || second <= first+50 {
		t.Errorf("aimed: solved %.2f of the last 200 (want 0.65–0.75); puzzles 1–10 averaged %.0f, 11–20 %.0f (want a climb)", rate, first, second)
	}
	if rate, _, _ := run(false); rate != 1 {
		t.Errorf("by the rating alone the solver solved %.2f, want all (the case the aim corrects)", rate)
	}
}

// resultsStore is a store.Puzzles that knows only a visitor's results.
type resultsStore struct {
	store.Puzzles
	results []bool
}

func (f resultsStore) PuzzlePlayer(context.Context, string) (store.PuzzlePlayer, error) {
	return store.PuzzlePlayer{}, nil
}
func (f resultsStore) PuzzleRatings(context.Context) (map[string]store.PuzzleRating, error) {
	return nil, nil
}
func (f resultsStore) PuzzlesTried(context.Context, string) (map[string]bool, error) {
	return map[string]bool{}, nil
}
func (f resultsStore) PuzzleResults(context.Context, string) ([]bool, error) { return f.results, nil }

// The service aims by the visitor's stored results: of two new visitors
// at one rating, the one who solved 30 in a row is given a harder puzzle.
func TestServiceAimsByStoredResults(t *testing.T) {
	s := set(t, 1400)
	streak := make([]bool, 30)
	for i := range streak {
		streak[i] = true
	}
	next := func(results []bool) int {
		svc := NewService(ServiceConfig{Set: s, Store: resultsStore{results: results}})
		p, err := svc.Next(context.Background(), "v", "")
		if err != nil {
			t.Fatal(err)
		}
		return p.Rating
	}
	target := TargetRating(NewVisitorRating, 150)
	if r := next(nil); math.Abs(float64(r)-target) > 10 {
		t.Errorf("with no results the puzzle is rated %d, want near %.0f", r, target)
	}
	if r := next(streak); math.Abs(float64(r)-target-Aim(streak)) > 10 || Aim(streak) < 300 {
		t.Errorf("after 30 solves the puzzle is rated %d, want near %.0f", r, target+Aim(streak))
	}
}
