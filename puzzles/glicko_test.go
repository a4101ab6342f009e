package puzzles

import (
	"math"
	"testing"
)

// TestGlickmansExample is the worked example of Glickman's "Example of
// the Glicko-2 system": a player rated 1500 (RD 200, σ 0.06) beats a 1400
// (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD 300), τ = 0.5; the
// paper's results are r' = 1464.06, RD' = 151.52, σ' = 0.05999.
func TestGlickmansExample(t *testing.T) {
	got := Update(Rating{R: 1500, RD: 200, Sigma: 0.06}, []Result{
		{Opponent: Rating{R: 1400, RD: 30}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300}, Score: 0},
	}, 0.5)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", got.R, 1464.06, 0.01},
		{"deviation", got.RD, 151.52, 0.01},
		{"volatility", got.Sigma, 0.05999, 0.00001}, // the paper prints 0.05999 for 0.059996,
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.7f, want %.5f (Glickman's example)", c.name, c.got, c.want)
		}
	}
}

func TestNoGamesOnlyWidensTheDeviation(t *testing.T) {
	r := Rating{R: 1500, RD: 200, Sigma: 0.06}
	got := Update(r, nil, Tau)
	if got.R != r.R || got.RD <= r.RD || got.Sigma != r.Sigma {
		t.Errorf("a period without games: %+v, want the rating kept and the deviation wider than %v", got, r.RD)
	}
}

func TestPlayMovesBothRatings(t *testing.T) {
	v, p := NewVisitorRating, PuzzleStart(900)
	v2, p2 := Play(v, p, true)
	if v2.R <= v.R || p2.R >= p.R {
		t.Errorf("after a solve: visitor %v→%v, puzzle %v→%v; want the visitor up and the puzzle down", v.R, v2.R, p.R, p2.R)
	}
	v3, p3 := Play(v, p, false)
	if v3.R >= v.R || p3.R <= p.R {
		t.Errorf("after a failure: visitor %v→%v, puzzle %v→%v; want the visitor down and the puzzle up", v.R, v3.R, p.R, p3.R)
	}
	// The puzzle, surer of its rating, moves less than the new visitor.
	if math.Abs(p2.R-p.R) >= math.Abs(v2.R-v.R) {
		t.Errorf("puzzle moved %v, visitor %v; want the uncertain visitor to move more", p2.R-p.R, v2.R-v.R)
	}
	for i := 0; i < 200; i++ {
		v, _ = Play(v, p, i%2 == 0)
	}
	if v.RD < MinRD || v.RD > MaxRD {
		t.Errorf("deviation %v after 200 games, want within [%v, %v]", v.RD, MinRD, MaxRD)
	}
}

func TestExpectedIsSymmetric(t *testing.T) {
	a, b := Rating{R: 1200, RD: 60}, Rating{R: 1000, RD: 60}
	if e := Expected(a, b) + Expected(b, a); math.Abs(e-1) > 1e-9 {
		t.Errorf("E(a,b)+E(b,a) = %v, want 1", e)
	}
	if Expected(a, b) <= 0.5 {
		t.Errorf("the stronger player's chance %v, want above one half", Expected(a, b))
	}
}
