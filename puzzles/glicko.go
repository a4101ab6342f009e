package puzzles

import "math"

// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012): a
// rating, its deviation (how sure we are of it) and its volatility (how
// much it is expected to swing). Every first attempt at a puzzle is one
// rating period with one game between the visitor and the puzzle, and
// both ratings move (P4).

// Rating is a Glicko-2 rating on the familiar scale (1500 average).
type Rating struct {
	R     float64 // rating
	RD    float64 // rating deviation
	Sigma float64 // volatility
}

const (
	// glickoScale converts between the Glicko scale and Glicko-2's.
	glickoScale = 173.7178
	// Tau constrains the change in volatility over time (0.3 to 1.2 in
	// the paper); 0.5 is its example's value.
	Tau = 0.5
	// convergence is the paper's ε for the volatility iteration.
	convergence = 0.000001
	// MinRD keeps a deviation from shrinking to nothing, so a rating keeps
	// following a learner who improves.
	MinRD = 45
	// MaxRD is a new rating's deviation.
	MaxRD = 350
)

// NewVisitorRating is a learner's rating before the first puzzle: below
// the puzzles' middle, as a child who has just finished the course is.
// Its deviation lets the first results move it fast, but not so far that
// one miss of an easy puzzle costs a child hundreds of points (with 350 a
// first miss at 450 took 385 points; with 200 it takes about 160).
var NewVisitorRating = Rating{R: 800, RD: 200, Sigma: 0.06}

// PuzzleStart is a shipped puzzle's rating before anyone has tried it:
// its rating from the levels, less uncertain than a new visitor's.
func PuzzleStart(r int) Rating { return Rating{R: float64(r), RD: 150, Sigma: 0.06} }

// Result is one game of a rating period: the opponent and the score (1
// for a win, 0 for a loss, 0.5 for a draw).
type Result struct {
	Opponent Rating
	Score    float64
}

func gFactor(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expected(mu, muJ, phiJ float64) float64 { return 1 / (1 + math.Exp(-gFactor(phiJ)*(mu-muJ))) }

// Expected returns the chance that a player rated r beats opponent o.
func Expected(r, o Rating) float64 {
	return expected((r.R-1500)/glickoScale, (o.R-1500)/glickoScale, o.RD/glickoScale)
}

// Update returns r after one rating period with the results, by the
// paper's steps 2–8 with volatility constraint tau. With no results only
// the deviation grows.
func Update(r Rating, results []Result, tau float64) Rating {
	mu, phi, sigma := (r.R-1500)/glickoScale, r.RD/glickoScale, r.Sigma
	if len(results) == 0 {
		return Rating{R: r.R, RD: math.Min(math.Sqrt(phi*phi+sigma*sigma)*glickoScale, MaxRD), Sigma: sigma}
	}
	// Step 3 and 4: the estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, res := range results {
		muJ, phiJ := (res.Opponent.R-1500)/glickoScale, res.Opponent.RD/glickoScale
		g, e := gFactor(phiJ), expected(mu, muJ, phiJ)
		vInv += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > convergence && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	newSigma := math.Exp(A / 2)
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + newSigma*newSigma)
	newPhi := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	newMu := mu + newPhi*newPhi*sum
	// Step 8: back to the Glicko scale.
	return Rating{R: newMu*glickoScale + 1500, RD: newPhi * glickoScale, Sigma: newSigma}
}

// Play returns the visitor's and the puzzle's ratings after the visitor
// solved (or failed) the puzzle at the first attempt: one game each, the
// deviations kept between MinRD and MaxRD.
func Play(visitor, puzzle Rating, solved bool) (Rating, Rating) {
	s := 0.0
	if solved {
		s = 1
	}
	v := clampRD(Update(visitor, []Result{{Opponent: puzzle, Score: s}}, Tau))
	p := clampRD(Update(puzzle, []Result{{Opponent: visitor, Score: 1 - s}}, Tau))
	return v, p
}

func clampRD(r Rating) Rating {
	r.RD = math.Max(MinRD, math.Min(MaxRD, r.RD))
	return r
}
