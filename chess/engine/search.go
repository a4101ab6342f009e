// Package engine is the computer opponent: an alpha-beta searcher over the
// chess package's move generator, its evaluation, the playing levels, and a
// bounded pool that runs searches for the web site (C1–C3).
package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"chesstutor/chess"
)

const (
	maxPly    = 96
	maxDepth  = 64
	infinity  = 32000
	mateScore = 31000
	// Scores beyond mateBound (in either sign) announce a forced mate.
	mateBound = mateScore - 2*maxPly
	maxMoves  = 256
)

// Limits bound one search. Zero fields mean "no limit"; a search with no
// limit at all runs until its context is cancelled or Stop is called.
type Limits struct {
	Depth int           // deepest iteration to run
	Time  time.Duration // hard budget; the search returns within it
	// Soft, when positive, stops the search from starting a new iteration
	// once Soft has passed (a clock game saving time for later moves).
	// Without it a timed search keeps deepening until Time runs out, and
	// an unfinished iteration still contributes the moves it proved
	// better: a fixed thinking time is best spent in full.
	Soft  time.Duration
	Nodes uint64 // node budget
	// Margin, when positive, makes the root search score every move that
	// is within Margin centipawns of the best exactly, so that a level can
	// choose among good moves (see RootMove).
	Margin int
	// Moves, when not empty, restricts the root to these moves (UCI's
	// searchmoves) and scores every one of them exactly, so that a review
	// compares a played move with the engine's choice in one search.
	// Illegal moves in it are ignored.
	Moves []chess.Move
}

// Info reports a finished iteration, for the UCI "info" line.
type Info struct {
	Depth   int
	Score   int // centipawns from the side to move's view; see MateIn
	Nodes   uint64
	Elapsed time.Duration
	PV      []chess.Move
}

// MateIn returns the number of moves to mate when the score announces one
// (negative when the side to move is mated), and 0 otherwise.
func MateIn(score int) int {
	switch {
	case score > mateBound:
		return (mateScore - score + 1) / 2
	case score < -mateBound:
		return -(mateScore + score + 1) / 2
	}
	return 0
}

// RootMove is one legal move at the root with its score from the last
// iteration that scored it; Scored is false when the move was refuted
// below the margin and only a bound is known.
type RootMove struct {
	Move   chess.Move
	Score  int
	Scored bool
}

// Result is the outcome of a search.
type Result struct {
	Move  chess.Move // NoMove only when the position has no legal move
	Score int
	Depth int // last completed iteration
	Nodes uint64
	PV    []chess.Move
	// Root lists the root moves of the last completed iteration, best first.
	Root []RootMove
}

// Searcher holds everything one search needs. It is not safe for concurrent
// use; the Pool keeps one per worker. Its transposition table persists
// between searches.
type Searcher struct {
	tt      *table
	stack   [maxPly + 2]chess.Position
	moves   [maxPly + 2][maxMoves]chess.Move
	scores  [maxPly + 2][maxMoves]int32
	killers [maxPly + 2][2]chess.Move
	// excluded is the move a singular-extension search at that ply
	// leaves out, or NoMove.
	excluded [maxPly + 2]chess.Move
	history  [16][64]int32
	pv       [maxPly + 2][maxPly + 2]chess.Move
	pvLen    [maxPly + 2]int

	hashes  []uint64 // game positions before the root, then the search path
	rootIdx int

	ctx      context.Context
	paused   *Paused // a background search's pause (see Yield), or nil
	deadline time.Time
	timed    bool
	maxNodes uint64
	nodes    uint64
	aborted  bool
	stopFlag atomic.Bool
	depth    int // iteration being searched
	// open is set when the search deepens until it is stopped, with no
	// depth limit of its own. Only such a search uses singular extensions
	// and internal iterative reduction, which spend depth where it pays in
	// time; a search to a fixed depth (levels 1–6, the exercises' defence)
	// plays exactly as it was calibrated.
	open    bool
	nullPly int // ply just after the latest null move on the path, or 0

	weak    weakness   // how a level plays worse than its best; zero at full strength
	weights *weights   // the evaluation's numbers; see weights
	rng     *rand.Rand // a level's choices; see SetSeed

	// Info, when set, is called after every completed iteration.
	Info func(Info)
}

var lmr [maxDepth + 1][maxMoves]int8

func init() {
	for d := 1; d <= maxDepth; d++ {
		for n := 1; n < maxMoves; n++ {
			lmr[d][n] = int8(0.75 + math.Log(float64(d))*math.Log(float64(n))/2.25)
		}
	}
}

// NewSearcher returns a searcher with a transposition table of about hashMB
// megabytes.
func NewSearcher(hashMB int) *Searcher {
	s := &Searcher{tt: newTable(hashMB), weights: &handWeights}
	s.SetSeed(rand.Uint64())
	return s
}

// SetTuned makes Search judge positions with the weights tuned for
// playing strength (level 8's) instead of the hand-set ones, whose scores
// are in the pawns a person counts and which analysis uses.
func (s *Searcher) SetTuned(tuned bool) {
	s.weights = &handWeights
	if tuned {
		s.weights = &tunedWeights
	}
}

// Stop asks a running search to return as soon as possible. It is safe to
// call from another goroutine.
func (s *Searcher) Stop() { s.stopFlag.Store(true) }

// Clear forgets everything learnt in earlier searches (a new game).
func (s *Searcher) Clear() {
	s.tt.clear()
	s.history = [16][64]int32{}
	s.killers = [maxPly + 2][2]chess.Move{}
}

// Search looks for the best move in root. history holds the hashes of the
// positions that occurred before root in the game (oldest first), so that
// repetitions count as draws (R8). It always returns a legal move when one
// exists, even if stopped early.
func (s *Searcher) Search(ctx context.Context, root *chess.Position, history []uint64, lim Limits) Result {
	start := time.Now()
	s.ctx = ctx
	s.paused = PausedFrom(ctx)
	s.stopFlag.Store(false)
	s.aborted = false
	s.nodes = 0
	s.nullPly = 0
	s.maxNodes = lim.Nodes
	s.timed = lim.Time > 0
	if s.timed {
		s.deadline = start.Add(lim.Time)
	}
	if dl, ok := ctx.Deadline(); ok {
		// Finish a little before the caller's deadline so that the answer
		// arrives while it is still wanted.
		dl = dl.Add(-min(50*time.Millisecond, time.Until(dl)/10))
		if !s.timed || dl.Before(s.deadline) {
			s.deadline, s.timed = dl, true
		}
	}
	s.tt.newSearch()
	for i := range s.killers {
		s.killers[i] = [2]chess.Move{}
	}
	for i := range s.history {
		for j := range s.history[i] {
			s.history[i][j] /= 8
		}
	}
	s.hashes = append(s.hashes[:0], history...)
	s.rootIdx = len(s.hashes)
	s.hashes = append(s.hashes, make([]uint64, maxPly+2)...)
	s.stack[0] = *root

	depthLimit := lim.Depth
	if depthLimit <= 0 || depthLimit > maxDepth {
		depthLimit = maxDepth
	}
	s.open = depthLimit == maxDepth

	// Root moves, ordered once by a quick look and then by each iteration.
	legal := root.AppendLegalMoves(make([]chess.Move, 0, maxMoves))
	if len(lim.Moves) > 0 {
		legal = slices.DeleteFunc(legal, func(m chess.Move) bool { return !slices.Contains(lim.Moves, m) })
		if len(legal) > 0 {
			lim.Margin = 2 * infinity // every listed move gets its exact score
		}
	}
	res := Result{}
	if len(legal) == 0 {
		if root.InCheck() {
			res.Score = -mateScore
		}
		return res
	}
	rm := make([]RootMove, len(legal))
	ttMove := chess.NoMove
	if e, ok := s.tt.probe(s.ttKey(root.Hash())); ok {
		ttMove = e.move
	}
	s.scoreMoves(root, legal, s.scores[0][:len(legal)], ttMove, 0)
	for i, m := range legal {
		rm[i] = RootMove{Move: m, Score: int(s.scores[0][i])}
	}
	rm = s.overlookRoot(root, rm)
	sortRoot(rm)
	res.Move = rm[0].Move
	res.Root = cloneRoot(rm, false)

	prevScore := 0
	for d := 1; d <= depthLimit; d++ {
		s.depth = d
		var score int
		var best chess.Move
		if lim.Margin > 0 || d < 4 {
			score, best = s.searchRoot(rm, d, -infinity, infinity, lim.Margin)
		} else {
			// Aspiration window around the last score, widened on failure.
			delta := 30
			alpha, beta := max(prevScore-delta, -infinity), min(prevScore+delta, infinity)
			for {
				score, best = s.searchRoot(rm, d, alpha, beta, 0)
				if s.aborted {
					break
				}
				if score <= alpha {
					alpha = max(score-delta, -infinity)
				} else if score >= beta {
					beta = min(score+delta, infinity)
				} else {
					break
				}
				delta *= 2
				if delta > 600 {
					alpha, beta = -infinity, infinity
				}
			}
		}
		if s.aborted {
			// A move that raised alpha in the unfinished iteration was
			// searched fully and is better than the previous choice.
			if best != chess.NoMove && lim.Margin <= 0 {
				res.Move = best
			}
			break
		}
		prevScore = score
		res.Move, res.Score, res.Depth = best, score, d
		res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
		res.Root = cloneRoot(rm, lim.Margin > 0)
		if s.Info != nil {
			s.Info(Info{Depth: d, Score: score, Nodes: s.nodes, Elapsed: time.Since(start), PV: res.PV})
		}
		if len(rm) == 1 && s.timed {
			break // the only move; no need to think
		}
		if lim.Soft > 0 && time.Since(start) > lim.Soft {
			break
		}
		if MateIn(score) != 0 && d >= 2*abs(MateIn(score))+2 && lim.Margin <= 0 {
			break
		}
	}
	res.Nodes = s.nodes
	if len(res.PV) == 0 || res.PV[0] != res.Move {
		res.PV = []chess.Move{res.Move}
	}
	return res
}

func cloneRoot(rm []RootMove, scored bool) []RootMove {
	out := make([]RootMove, len(rm))
	copy(out, rm)
	if !scored {
		for i := range out {
			out[i].Scored = i == 0
		}
	}
	return out
}

// sortRoot orders root moves by score, best first, keeping the order of ties.
func sortRoot(rm []RootMove) {
	for i := 1; i < len(rm); i++ {
		for j := i; j > 0 && rm[j].Score > rm[j-1].Score; j-- {
			rm[j], rm[j-1] = rm[j-1], rm[j]
		}
	}
}

// searchRoot runs one iteration over the root moves and re-sorts them. With
// a margin, every move within margin of the best gets an exact score.
func (s *Searcher) searchRoot(rm []RootMove, depth, alpha, beta, margin int) (int, chess.Move) {
	root := &s.stack[0]
	s.hashes[s.rootIdx] = root.Hash()
	s.pvLen[0] = 0
	best := -infinity
	bestMove, raised := chess.NoMove, chess.NoMove
	origAlpha := alpha
	for i := range rm {
		m := rm[i].Move
		child := &s.stack[1]
		root.PlayInto(m, child)
		var score int
		lo := alpha
		if margin > 0 && best > -infinity {
			lo = max(origAlpha, best-margin)
		}
		if i == 0 || margin > 0 {
			score = -s.negamax(1, depth-1, -beta, -lo, true)
		} else {
			score = -s.negamax(1, depth-1, -alpha-1, -alpha, true)
			if score > alpha && score < beta && !s.aborted {
				score = -s.negamax(1, depth-1, -beta, -alpha, true)
			}
		}
		if s.aborted {
			break
		}
		rm[i].Score = score
		rm[i].Scored = score > lo || i == 0
		if !rm[i].Scored {
			rm[i].Score = -infinity + i // keep the old order below the margin
		}
		if score > best {
			best = score
			bestMove = m
			s.pv[0][0] = m
			copy(s.pv[0][1:], s.pv[1][1:s.pvLen[1]])
			s.pvLen[0] = max(s.pvLen[1], 1)
		}
		if margin <= 0 && score > alpha {
			alpha = score
			raised = m
			if score >= beta {
				break
			}
		}
	}
	if s.aborted {
		// Only a move that raised alpha was searched fully and is known to
		// be better than the previous iteration's choice.
		return best, raised
	}
	if bestMove == chess.NoMove {
		bestMove = rm[0].Move
	}
	// Stable sort keeps the best move first among equals.
	for i := range rm {
		if rm[i].Move == bestMove {
			rm[0], rm[i] = rm[i], rm[0]
			rm[0].Score = best
			break
		}
	}
	sortRoot(rm[1:])
	s.tt.store(s.ttKey(root.Hash()), bestMove, best, depth, boundExact, 0)
	return best, bestMove
}

// checkStop is called every few thousand nodes.
func (s *Searcher) checkStop() bool {
	if s.stopFlag.Load() {
		return true
	}
	if s.paused.IsPaused() {
		// A game needs the core: wait, and think as long as before.
		d := s.paused.Wait(s.ctx)
		s.deadline = s.deadline.Add(d)
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		return true
	}
	if s.maxNodes > 0 && s.nodes >= s.maxNodes && s.depth > 1 {
		return true
	}
	// The first iteration always finishes: it is tiny and guarantees a
	// sensible move.
	return s.timed && s.depth > 1 && !time.Now().Before(s.deadline)
}

// isDraw reports a draw by R8 at a node inside the search: repetition of
// an earlier position, or insufficient material (the chess package's own
// test). The fifty-move rule is handled by the caller, which must see
// whether the hundredth half-move gave checkmate.
func (s *Searcher) isDraw(pos *chess.Position, ply int) bool {
	hc := pos.HalfmoveClock()
	idx := s.rootIdx + ply
	key := s.hashes[idx]
	count := 0
	low := idx - hc
	if s.nullPly > 0 {
		// Positions before a null move in the path are not really
		// reachable again; do not count them.
		low = max(low, s.rootIdx+s.nullPly)
	}
	for i := idx - 4; i >= 0 && i >= low; i -= 2 {
		if s.hashes[i] == key {
			if i >= s.rootIdx {
				return true // a repetition inside the search can be repeated again
			}
			count++
			if count >= 2 {
				return true
			}
		}
	}
	return pos.InsufficientMaterial()
}

// enter starts a node at ply: it resets the node's principal variation,
// polls the stop condition every 2048 nodes and counts the node. It reports
// false once the search has been stopped.
func (s *Searcher) enter(ply int) bool {
	s.pvLen[ply] = ply
	if s.nodes&2047 == 0 && s.checkStop() {
		s.aborted = true
	}
	if s.aborted {
		return false
	}
	s.nodes++
	return true
}

func (s *Searcher) negamax(ply, depth, alpha, beta int, allowNull bool) int {
	if !s.enter(ply) {
		return 0
	}
	pos := &s.stack[ply]
	key := pos.Hash()
	s.hashes[s.rootIdx+ply] = key
	inCheck := pos.InCheck()

	if s.isDraw(pos, ply) {
		return 0
	}
	if pos.HalfmoveClock() >= 100 {
		if inCheck && len(pos.AppendLegalMoves(s.moves[ply][:0])) == 0 {
			return -mateScore + ply
		}
		return 0
	}
	// Mate distance pruning.
	alpha = max(alpha, -mateScore+ply)
	beta = min(beta, mateScore-ply-1)
	if alpha >= beta {
		return alpha
	}
	if inCheck {
		depth++
	}
	if depth <= 0 {
		return s.quiesce(ply, alpha, beta)
	}
	if ply >= maxPly {
		return s.evaluate(pos)
	}
	pvNode := beta-alpha > 1
	excluded := s.excluded[ply]
	ttMove := chess.NoMove
	e, ttHit := s.tt.probe(s.ttKey(key))
	if excluded != chess.NoMove {
		ttHit = false // the entry is about the search with every move
	}
	if ttHit {
		ttMove = e.move
		if !pvNode && int(e.depth) >= depth {
			sc := ttScore(int(e.score), ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && sc >= beta,
				e.bound == boundUpper && sc <= alpha:
				return sc
			}
		}
	}

	// Internal iterative reduction: a node the table knows nothing about
	// is probably not worth a full-depth search; searching it a ply
	// shallower also fills the table for the next visit.
	if s.open && !pvNode && ttMove == chess.NoMove && depth >= 5 && excluded == chess.NoMove {
		depth--
	}

	staticEval := 0
	if !inCheck {
		staticEval = s.evaluate(pos)
	}
	if !inCheck && excluded == chess.NoMove {
		// Reverse futility: far above beta near the leaves.
		if !pvNode && depth <= 6 && staticEval-85*depth >= beta && beta > -mateBound && beta < mateBound {
			return staticEval
		}
		// Null move: if passing still beats beta, a real move will too.
		us := pos.Turn()
		bigPieces := pos.Occupancy(us) &^ pos.Pieces(us, chess.Pawn) &^ pos.Pieces(us, chess.King)
		if !pvNode && allowNull && depth >= 3 && staticEval >= beta && bigPieces != 0 && beta < mateBound {
			r := 3 + depth/4 + min((staticEval-beta)/200, 2)
			pos.PlayNull(&s.stack[ply+1])
			saved := s.nullPly
			s.nullPly = ply + 1
			score := -s.negamax(ply+1, depth-1-r, -beta, -beta+1, false)
			s.nullPly = saved
			if s.aborted {
				return 0
			}
			if score >= beta {
				if score > mateBound {
					score = beta
				}
				return score
			}
		}
	}
	// Without a hash move at a PV node, a shallower search finds one.
	if pvNode && ttMove == chess.NoMove && depth >= 6 {
		s.negamax(ply, depth-2, alpha, beta, true)
		if s.aborted {
			return 0
		}
		if e, ok := s.tt.probe(s.ttKey(key)); ok {
			ttMove = e.move
		}
	}

	// Singular extension: when the hash move is far better than every
	// other move, as a shallower search without it shows, it is searched
	// one ply deeper. When even the other moves beat beta, the node is
	// cut at once.
	singular := false
	if s.open && ttHit && ttMove != chess.NoMove && ply > 0 && depth >= 8 && int(e.depth) >= depth-3 &&
		e.bound != boundUpper && abs(int(e.score)) < mateBound {
		sBeta := ttScore(int(e.score), ply) - 2*depth
		s.excluded[ply] = ttMove
		score := s.negamax(ply, (depth-1)/2, sBeta-1, sBeta, false)
		s.excluded[ply] = chess.NoMove
		if s.aborted {
			return 0
		}
		if score < sBeta {
			singular = true
		} else if sBeta >= beta {
			return sBeta
		}
	}

	moves := pos.AppendLegalMoves(s.moves[ply][:0])
	if len(moves) == 0 {
		if inCheck {
			return -mateScore + ply
		}
		return 0
	}
	scores := s.scores[ply][:len(moves)]
	s.scoreMoves(pos, moves, scores, ttMove, ply)

	best := -infinity
	bestMove := chess.NoMove
	origAlpha := alpha
	child := &s.stack[ply+1]
	quietsTried := 0
	for i := range moves {
		m := pickNext(moves, scores, i)
		if m == excluded {
			continue
		}
		quiet := !m.IsCapture() && !m.IsPromotion()
		pos.PlayInto(m, child)
		givesCheck := child.InCheck()
		if s.overlooks(ply, key, m, givesCheck, inCheck) {
			continue
		}

		if quiet && !pvNode && !inCheck && !givesCheck && best > -mateBound && i > 0 {
			// Late move pruning and futility pruning near the leaves.
			if depth <= 4 && quietsTried >= 3+depth*depth*2 {
				continue
			}
			if depth <= 3 && staticEval+100+90*depth <= alpha {
				continue
			}
		}
		if quiet {
			quietsTried++
		} else if !pvNode && !inCheck && !givesCheck && depth <= 4 && best > -mateBound && i > 0 &&
			!m.IsPromotion() && seeValue[m.Piece().Type()] > seeValue[m.Captured().Type()] && see(pos, m) < -90*depth {
			continue // a capture that loses clearly more than a pawn, near the leaves
		}

		newDepth := depth - 1
		if singular && m == ttMove {
			newDepth++
		}
		var score int
		if i == 0 {
			score = -s.negamax(ply+1, newDepth, -beta, -alpha, true)
		} else {
			r := 0
			if depth >= 3 && i >= 3 && quiet && !inCheck && !givesCheck &&
				m != s.killers[ply][0] && m != s.killers[ply][1] {
				r = int(lmr[min(depth, maxDepth)][min(i, maxMoves-1)])
				if pvNode {
					r--
				}
				if s.history[m.Piece()][m.To()] > 4000 {
					r--
				}
				r = max(0, min(r, newDepth-1))
			}
			score = -s.negamax(ply+1, newDepth-r, -alpha-1, -alpha, true)
			if score > alpha && r > 0 && !s.aborted {
				score = -s.negamax(ply+1, newDepth, -alpha-1, -alpha, true)
			}
			if score > alpha && score < beta && !s.aborted {
				score = -s.negamax(ply+1, newDepth, -beta, -alpha, true)
			}
		}
		if s.aborted {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				bestMove = m
				s.pv[ply][ply] = m
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = max(s.pvLen[ply+1], ply+1)
				if score >= beta {
					if quiet {
						s.rewardQuiet(m, ply, depth, moves[:i])
					}
					break
				}
			}
		}
	}
	if best == -infinity {
		// Every move was pruned or excluded; fall back to a fail-low bound.
		best = alpha
	}
	if excluded != chess.NoMove {
		return best // a search without one of the moves is not stored
	}
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case best > origAlpha:
		bound = boundExact
	}
	s.tt.store(s.ttKey(key), bestMove, best, depth, bound, ply)
	return best
}

// rewardQuiet records a quiet move that caused a cut-off, and lowers the
// history of the quiet moves tried before it.
func (s *Searcher) rewardQuiet(m chess.Move, ply, depth int, before []chess.Move) {
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	bonus := int32(min(depth*depth, 400))
	h := &s.history[m.Piece()][m.To()]
	*h += bonus - *h*bonus/16384
	for _, q := range before {
		if q.IsCapture() || q.IsPromotion() {
			continue
		}
		h := &s.history[q.Piece()][q.To()]
		*h -= bonus + *h*bonus/16384
	}
}

func (s *Searcher) quiesce(ply, alpha, beta int) int {
	if !s.enter(ply) {
		return 0
	}
	pos := &s.stack[ply]
	if ply >= maxPly {
		return s.evaluate(pos)
	}
	inCheck := pos.InCheck()
	best := -infinity
	var moves []chess.Move
	stand := 0
	if inCheck {
		moves = pos.AppendLegalMoves(s.moves[ply][:0])
		if len(moves) == 0 {
			return -mateScore + ply
		}
	} else {
		stand = s.evaluate(pos)
		if stand >= beta {
			return stand
		}
		if stand > alpha {
			alpha = stand
		}
		best = stand
		moves = pos.AppendCaptures(s.moves[ply][:0])
	}
	scores := s.scores[ply][:len(moves)]
	s.scoreMoves(pos, moves, scores, chess.NoMove, ply)
	child := &s.stack[ply+1]
	for i := range moves {
		m := pickNext(moves, scores, i)
		if s.overlooks(ply, pos.Hash(), m, false, inCheck) {
			continue
		}
		if !inCheck && !m.IsPromotion() {
			victim := seeValue[m.Captured().Type()]
			// Delta pruning: even winning the piece cannot reach alpha.
			if stand+victim+200 <= alpha {
				continue
			}
			// Skip captures that lose material in the exchange.
			if seeValue[m.Piece().Type()] > victim && see(pos, m) < 0 {
				continue
			}
		}
		pos.PlayInto(m, child)
		score := -s.quiesce(ply+1, -beta, -alpha)
		if s.aborted {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// Move ordering scores.
const (
	orderHash    = 1 << 30
	orderCapture = 1 << 24
	orderKiller  = 1 << 22
	orderBad     = 1 << 20
)

func (s *Searcher) scoreMoves(pos *chess.Position, moves []chess.Move, scores []int32, ttMove chess.Move, ply int) {
	for i, m := range moves {
		var sc int32
		switch {
		case m == ttMove:
			sc = orderHash
		case m.IsCapture() || m.IsPromotion():
			victim := int32(seeValue[m.Captured().Type()])
			attacker := int32(m.Piece().Type())
			sc = orderCapture + victim*16 - attacker
			if p := m.Promotion(); p != chess.NoPieceType {
				sc += int32(seeValue[p])
				if p != chess.Queen {
					sc = orderBad - 100 + victim // under-promotions last among the forcing moves
				}
			} else if seeValue[m.Piece().Type()] > int(victim) && see(pos, m) < 0 {
				sc = orderBad + victim*16 - attacker // loses material: after the quiet moves that look good
			}
		case m == s.killers[ply][0]:
			sc = orderKiller + 1
		case m == s.killers[ply][1]:
			sc = orderKiller
		default:
			sc = min(s.history[m.Piece()][m.To()], orderBad-1000)
			if sc < -orderBad {
				sc = -orderBad
			}
		}
		scores[i] = sc
	}
}

// pickNext moves the best-scored remaining move to index i and returns it.
func pickNext(moves []chess.Move, scores []int32, i int) chess.Move {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j] > scores[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	scores[i], scores[best] = scores[best], scores[i]
	return moves[i]
}
