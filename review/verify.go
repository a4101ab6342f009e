package review

import (
	"cmp"
	"context"
	"slices"

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
	// depthSteps bounds the searches of one move's verification in a
	// review by depth (Options.Depth: tests), each a ply deeper, starting
	// a ply deeper than the first pass.
	depthSteps = 2
	// swingLoss is the swing, in percentage points of winning chances,
	// that makes a "best" or "good" move suspect: the opponent's reply
	// gained that much, so the position after the move was misjudged.
	swingLoss = goodLoss
	// swingCP is the swing of the evaluation, in centipawns on
	// Stockfish's scale, that makes a move suspect whatever the chances
	// say: a pawn won or lost in one move is worth a second look.
	swingCP = 100
	// doubtLoss is the loss, in points, from which a "good" move is
	// verified too: the shallower search sees less of what a move gives
	// away (in 24 level games, verifying these moves too brought
	// Stockfish's blunders called best or good from 5 to 3, two of them
	// the judge's own noise, for 13 % more verification time).
	doubtLoss = 2.0
)

// candidate is a move to verify and how suspect it is.
type candidate struct {
	ply     int
	class   Class
	suspect float64 // in points of winning chances; the largest first
}

// candidates lists the moves to verify, the most suspect first: every
// move the first pass calls an inaccuracy or worse, every engine's choice
// after which the position is worth less than promised, every move beside
// which the other side's reply gains, and every move over which the
// evaluation moves by a pawn or more.
func candidates(g *game, an []Analysis) []candidate {
	var out []candidate
	n := len(an) - 1
	for ply := 1; ply <= n; ply++ {
		if book(g, ply) {
			continue
		}
		loss, cl := firstClass(g, an, ply)
		suspect := loss
		if ply < n {
			suspect = max(suspect, opponentGain(g, an, ply+1))
		}
		if ply >= 2 {
			suspect = max(suspect, opponentGain(g, an, ply-1))
		}
		swing := evalSwing(g, an, ply)
		if ply < n {
			swing = max(swing, evalSwing(g, an, ply+1))
		}
		if cl < Inaccuracy && loss < doubtLoss && suspect < swingLoss && swing < swingCP {
			continue
		}
		out = append(out, candidate{ply: ply, class: cl, suspect: max(suspect, float64(swing)/100)})
	}
	slices.SortStableFunc(out, func(a, b candidate) int {
		return cmp.Compare(b.suspect, a.suspect)
	})
	return out
}

// evalSwing is how far the evaluation moved over the move to ply, in
// centipawns (a mate counted as MateCP).
func evalSwing(g *game, an []Analysis, ply int) int {
	before, after := g.positions[ply-1], g.positions[ply]
	d := an[ply].Eval.Clamped(after.Turn()) - an[ply-1].Eval.Clamped(before.Turn())
	if d < 0 {
		d = -d
	}
	return d
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

// verifyBudget bounds the verification: by depth (tests), or by nodes.
type verifyBudget struct {
	depth int    // > 0: the first depth; every step goes one deeper
	total uint64 // the nodes all the verifications may take
	first uint64 // the nodes of a move's first search; each step doubles
	most  uint64 // the most nodes of one search
}

// verify checks the candidates in order until the budget is spent and
// puts each verdict on the analysis of the position before the move. It
// returns the number of moves verified; done is called after each.
func verify(ctx context.Context, eng Engine, g *game, an []Analysis, b verifyBudget, done func(n, total int)) (int, error) {
	cands := candidates(g, an)
	var spent uint64
	for k, c := range cands {
		if b.depth <= 0 && spent+b.first > b.total {
			return k, nil
		}
		chk, used, err := verifyMove(ctx, eng, g, an, c, b, b.total-spent)
		if err != nil {
			return k, err
		}
		spent += used
		an[c.ply-1].Check = chk
		if done != nil {
			done(k+1, len(cands))
		}
	}
	return len(cands), nil
}

// verifyMove searches the position before the move to ply again, the
// played move against the engine's choice in one search, deeper until
// two searches in a row agree on the class (the first pass counting as
// the first of them). left is the budget's nodes left; it returns the
// verdict and the nodes used.
func verifyMove(ctx context.Context, eng Engine, g *game, an []Analysis, cand candidate, b verifyBudget, left uint64) (*Check, uint64, error) {
	ply := cand.ply
	i := ply - 1
	pos, played := g.positions[i], g.moves[i]
	history := g.hashes[:i]
	c := pos.Turn()
	best := an[i].Best
	var chk *Check
	var used uint64
	// By nodes, the first pass counts as the first of the searches that
	// must agree; by depth (tests), two searches deeper than it do.
	prev := cand.class
	if b.depth > 0 {
		prev = Class(255)
	}
	nodes := b.first
	for step := 0; ; step++ {
		var lim engine.Limits
		if b.depth > 0 {
			if step >= depthSteps {
				break
			}
			lim = engine.Limits{Depth: b.depth + step}
		} else {
			if step > 0 && nodes < b.most {
				nodes = min(2*nodes, b.most)
			} else if step > 0 {
				break
			}
			if used+nodes > left {
				break
			}
			lim = engine.Limits{Depth: MaxDepth, Nodes: nodes}
		}
		var bestScore, playedScore int
		var pv []chess.Move
		reached := 0
		if best == played || best == chess.NoMove {
			// The first pass agreed with the move: does a deeper search?
			res, err := eng.Analyse(ctx, pos, history, lim)
			if err != nil {
				return nil, used, err
			}
			used += searched(res, lim)
			reached = res.Depth
			best, bestScore, playedScore, pv = res.Move, res.Score, res.Score, res.PV
		}
		if best != played {
			lim.Moves = []chess.Move{played, best}
			res, err := eng.Analyse(ctx, pos, history, lim)
			if err != nil {
				return nil, used, err
			}
			used += searched(res, lim)
			reached = res.Depth
			ps, okP := rootScore(res, played)
			bs, okB := rootScore(res, best)
			if !okP || !okB {
				// The engine gave only its choice's score: the played
				// move was not the better one, and its score is unknown.
				return chk, used, nil
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
		if b.depth > 0 && reached < lim.Depth {
			break // cut short: no deeper than asked
		}
		next := &Check{Best: best, BestEval: fromSearch(bestScore, c), PlayedEval: afterEval(playedScore, c), PV: pv, Depth: reached}
		loss := max(0, next.BestEval.For(c, c)-next.PlayedEval.For(c, c))
		class := Classify(loss, best == played)
		chk = next
		if class == prev {
			break // stable
		}
		prev = class
	}
	return chk, used, nil
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

// searched is the nodes a search used: as the engine reports them, else
// its budget.
func searched(res engine.Result, lim engine.Limits) uint64 {
	if res.Nodes > 0 {
		return res.Nodes
	}
	return max(lim.Nodes, 1)
}
