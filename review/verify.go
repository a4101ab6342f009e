package review

import (
	"cmp"
	"context"
	"slices"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
)

// Verification (issue 32). The first pass searches every position once,
// each for a short time, and a move's class is the difference of two such
// searches — a position misjudged by either makes a blunder "best" or a
// good move a "mistake". So every move the first pass calls an inaccuracy
// or worse, and every "best" or "good" move around which the evaluation
// swings, is searched again from the position before it: the played move
// and the engine's choice in one search (searchmoves), both scored
// exactly, a ply deeper each time until the class comes out the same twice.

const (
	// DefaultVerifyBudget is the time all the verifications of one game
	// may take; the most costly moves are verified first.
	DefaultVerifyBudget = 6 * time.Second
	// verifySteps bounds the searches of one move's verification, each a
	// ply deeper than the last; depthSteps is the bound of a review by
	// depth (Options.Depth: tests), whose verification starts a ply
	// deeper than the first pass.
	verifySteps = 4
	depthSteps  = 2
	// swingLoss is the swing, in percentage points of winning chances,
	// that makes a "best" or "good" move suspect: the opponent's reply
	// gained that much, so the position after the move was misjudged.
	swingLoss = goodLoss
)

// candidate is a move to verify and how urgent it is.
type candidate struct {
	ply   int
	class Class
	loss  float64
}

// candidates lists the moves to verify, the most costly first.
func candidates(g *game, an []Analysis) []candidate {
	var out []candidate
	n := len(an) - 1
	for ply := 1; ply <= n; ply++ {
		if book(g, ply) {
			continue
		}
		loss, cl := firstClass(g, an, ply)
		switch {
		case cl >= Inaccuracy:
		case loss >= swingLoss:
			// The engine's own choice, yet the position after it is worth
			// much less than the search promised.
		case ply < n && opponentGain(g, an, ply+1) >= swingLoss:
		case ply >= 2 && opponentGain(g, an, ply-1) >= swingLoss:
			// The position before this move was misjudged too.
		default:
			continue
		}
		out = append(out, candidate{ply: ply, class: cl, loss: loss})
	}
	slices.SortStableFunc(out, func(a, b candidate) int {
		if a.class != b.class {
			return cmp.Compare(b.class, a.class)
		}
		return cmp.Compare(b.loss, a.loss)
	})
	return out
}

// firstClass is the loss and class of the move to ply by the first pass.
func firstClass(g *game, an []Analysis, ply int) (float64, Class) {
	before, after := g.positions[ply-1], g.positions[ply]
	c := before.Turn()
	loss := max(0, an[ply-1].Eval.For(c, c)-an[ply].Eval.For(c, after.Turn()))
	return loss, Classify(loss, an[ply-1].Best == g.moves[ply-1])
}

// opponentGain is how many points of winning chances the move to ply
// gained its mover by the first pass: a large gain means the position
// before it was misjudged.
func opponentGain(g *game, an []Analysis, ply int) float64 {
	before, after := g.positions[ply-1], g.positions[ply]
	c := before.Turn()
	return an[ply].Eval.For(c, after.Turn()) - an[ply-1].Eval.For(c, c)
}

// verifyLimits are the bounds of one verification search: depth, and a
// time that keeps a deep search on a slow machine from eating the budget.
type verifyLimits struct {
	depth    int           // the first depth; every step goes one deeper
	steps    int           // the most searches
	maxTime  time.Duration // per search, 0 for none
	deadline time.Time     // no search starts after it, none runs past it
}

// verify checks the candidates in order until the deadline (zero: none)
// and puts each verdict on the analysis of the position before the move.
// It returns the number of moves verified; done is called after each.
func verify(ctx context.Context, eng Engine, g *game, an []Analysis, depth int, deadline time.Time, perSearch time.Duration, done func(n, total int)) (int, error) {
	cands := candidates(g, an)
	for k, c := range cands {
		if !deadline.IsZero() && time.Now().After(deadline) {
			return k, nil
		}
		i := c.ply - 1
		vl := verifyLimits{depth: depth, steps: depthSteps, maxTime: perSearch, deadline: deadline}
		if depth <= 0 {
			vl.depth, vl.steps = max(an[i].Depth, an[i+1].Depth+1)+1, verifySteps
		}
		chk, err := verifyMove(ctx, eng, g, an, c.ply, vl)
		if err != nil {
			return k, err
		}
		an[i].Check = chk
		if done != nil {
			done(k+1, len(cands))
		}
	}
	return len(cands), nil
}

// verifyMove searches the position before the move to ply again, the
// played move against the engine's choice, deeper until the class stands.
func verifyMove(ctx context.Context, eng Engine, g *game, an []Analysis, ply int, vl verifyLimits) (*Check, error) {
	i := ply - 1
	pos, played := g.positions[i], g.moves[i]
	history := g.hashes[:i]
	c := pos.Turn()
	best := an[i].Best
	var chk *Check
	prev := Class(255)
	for step := range vl.steps {
		depth := vl.depth + step
		lim := engine.Limits{Depth: depth, Time: vl.maxTime}
		if !vl.deadline.IsZero() {
			left := time.Until(vl.deadline)
			if left <= 0 {
				break
			}
			lim.Time = min(lim.Time, left)
		}
		var bestScore, playedScore int
		var pv []chess.Move
		reached := depth
		if best == played || best == chess.NoMove {
			// The first pass agreed with the move: does a deeper search?
			res, err := eng.Analyse(ctx, pos, history, lim)
			if err != nil {
				return nil, err
			}
			reached = res.Depth
			best, bestScore, playedScore, pv = res.Move, res.Score, res.Score, res.PV
		}
		if best != played {
			lim.Moves = []chess.Move{played, best}
			res, err := eng.Analyse(ctx, pos, history, lim)
			if err != nil {
				return nil, err
			}
			reached = res.Depth
			ps, okP := rootScore(res, played)
			bs, okB := rootScore(res, best)
			if !okP || !okB {
				// The engine gave only its choice's score: the played
				// move was not the better one, and its score is unknown.
				return chk, nil
			}
			bestScore, playedScore = bs, ps
			pv = res.PV
			if ps >= bs {
				best, bestScore = played, ps
			}
			if res.Move != best {
				pv = []chess.Move{best}
			}
		}
		if reached < vl.depth {
			break // cut short by the budget: no deeper than the first pass
		}
		next := &Check{Best: best, BestEval: fromSearch(bestScore, c), PlayedEval: afterEval(playedScore, c), PV: pv, Depth: reached}
		loss := max(0, next.BestEval.For(c, c)-next.PlayedEval.For(c, c))
		class := Classify(loss, best == played)
		chk = next
		if class == prev || reached < depth {
			break // stable, or out of time at this depth
		}
		prev = class
	}
	return chk, nil
}

// rootScore is the exact score of m among the result's root moves.
func rootScore(res engine.Result, m chess.Move) (int, bool) {
	for _, r := range res.Root {
		if r.Move == m && r.Scored {
			return r.Score, true
		}
	}
	return 0, false
}

// afterEval is the value of the position after a move whose root score
// (the mover's view) is score, from White's side: a mate the mover gives
// is one move nearer there.
func afterEval(score int, mover chess.Color) Eval {
	e := fromSearch(score, mover)
	if e.IsMate && e.MateFor(mover) > 1 {
		if e.Mate > 0 {
			e.Mate--
		} else {
			e.Mate++
		}
	}
	return e
}
