package review

import (
	"context"
	"errors"
	"fmt"

	"chesstutor/chess"
	"chesstutor/chess/engine"
)

// Engine searches one position; *engine.Pool is the engine of the site, so
// a review shares the pool's bound on searches at once with the games.
type Engine interface {
	Analyse(ctx context.Context, pos *chess.Position, history []uint64, lim engine.Limits) (engine.Result, error)
}

// Analysis is what the engine found in one position of the game.
type Analysis struct {
	Eval Eval // from White's side
	// Best is the engine's move, NoMove when the game was over in this
	// position; PV is the line it expects, Best first (a few moves).
	Best  chess.Move
	PV    []chess.Move
	Depth int // the deepest finished iteration; 0 for a game-over position
	// Check is the verification of the move played from this position
	// (see Verify), nil when the first pass was trusted. It is not stored
	// with the position: a review that resumes verifies again.
	Check *Check
}

// Check is what a verification search found about the move played in a
// position: the played move and the engine's choice scored in one search,
// deeper than the first pass, until the move's class stood still.
type Check struct {
	// Best is the engine's choice (the played move when it is the best);
	// BestEval the position's value with it, PlayedEval the value after
	// the played move, both from White's side.
	Best       chess.Move
	BestEval   Eval
	PlayedEval Eval
	// PV is the line the engine expects after Best, Best first.
	PV    []chess.Move
	Depth int // the depth of the last verification search
}

// The review's budget, in nodes (positions the engine looks at) rather
// than time, so that a review says the same on a busy machine as on an
// idle one and a class never depends on the load (issue 32). The first
// pass gives every position DefaultNodes; the verification that follows
// may spend DefaultVerifyNodes per move of the game in all, on the suspect
// moves, the most suspect first, each move's first search twice the first
// pass's nodes and no search over MaxSearchNodes. A game of sixty moves
// (120 plies) costs at most 121 × 60,000 + 120 × 120,000 = 21.7 million
// nodes: the built-in engine searches 1.2 to 1.5 million a second on one
// core in such games (cmd/reviewload measures the time).
const (
	DefaultNodes       = 60_000
	DefaultVerifyNodes = 120_000
	MaxSearchNodes     = 600_000
	// verifyFloor is the least verification budget of a game.
	verifyFloor = 4 * MaxSearchNodes
	// MaxDepth stops the search in an easy position before its nodes
	// are spent.
	MaxDepth = 24
	// pvKeep is the number of moves of the expected line kept per position:
	// enough for the reasons (a reply, then the move that wins the piece).
	pvKeep = 6
)

// Options tune Analyse. The zero value is the default budget.
type Options struct {
	// Nodes is the first pass's budget per position (DefaultNodes when
	// zero); VerifyNodes the verification's budget per move of the game
	// (DefaultVerifyNodes when zero), shared among the suspect moves.
	Nodes       uint64
	VerifyNodes uint64
	// Depth, when set, bounds every search by depth instead of by nodes
	// (tests that want a quick answer; every suspect move is verified).
	Depth int
	// Progress, when set, is called after every position with the number
	// of moves whose first pass is complete and the number of moves in all.
	Progress func(done, total int)
	// NoVerify trusts the first pass.
	NoVerify bool
	// Verified, when set, is called after every move verified with the
	// number verified and the number to verify.
	Verified func(done, total int)
	// Each, when set, is given every new analysis as soon as it is done
	// (to store it); an error from it stops Analyse, which returns it.
	Each func(index int, a Analysis) error
}

// Analyse runs the engine over every position of the game that began at
// start and continued with moves, and returns one Analysis per position
// (len(moves)+1, the start first). done holds the analyses of an earlier,
// interrupted run, which are kept (a review resumes where it stopped).
//
// The built-in engine's scores are put on Stockfish's scale first (see
// Normalise), so that the classes mean the same whichever engine reviews.
//
// It stops when ctx ends and returns the analyses finished so far with
// ctx.Err(), so the caller can store them and resume later. An illegal
// move is an error and nothing is analysed.
func Analyse(ctx context.Context, eng Engine, start *chess.Position, moves []chess.Move, done []Analysis, opt Options) ([]Analysis, error) {
	if eng == nil {
		return nil, errors.New("review: no engine")
	}
	eng = onStockfishScale(eng)
	g, err := replay(start, moves)
	if err != nil {
		return nil, err
	}
	if len(done) > len(moves)+1 {
		return nil, fmt.Errorf("review: %d analyses for a game of %d moves", len(done), len(moves))
	}
	out := make([]Analysis, len(moves)+1)
	copy(out, done)
	nodes := opt.Nodes
	if nodes == 0 {
		nodes = DefaultNodes
	}
	lim := engine.Limits{Depth: MaxDepth, Nodes: min(nodes, MaxSearchNodes)}
	if opt.Depth > 0 {
		lim = engine.Limits{Depth: opt.Depth}
	}
	report := func(positions int) {
		if opt.Progress != nil {
			opt.Progress(max(positions-1, 0), len(moves))
		}
	}
	report(len(done))
	for i := len(done); i < len(out); i++ {
		a, err := analysePosition(ctx, eng, g, i, lim)
		if err != nil {
			return out[:i], err
		}
		if opt.Each != nil {
			if err := opt.Each(i, a); err != nil {
				return out[:i], err
			}
		}
		out[i] = a
		report(i + 1)
	}
	if opt.NoVerify {
		return out, nil
	}
	// The verification, deeper than the first pass.
	b := verifyBudget{depth: 0}
	if opt.Depth > 0 {
		b.depth = opt.Depth + 1
	} else {
		per := opt.VerifyNodes
		if per == 0 {
			per = DefaultVerifyNodes
		}
		// A short game still gets its few suspect moves verified.
		b.total = max(per*uint64(len(moves)), verifyFloor)
		b.first = min(max(2*lim.Nodes, per), MaxSearchNodes)
		b.most = MaxSearchNodes
	}
	if _, err := verify(ctx, eng, g, out, b, opt.Verified); err != nil {
		return out, err
	}
	return out, nil
}

// game is a replayed game: every position, the hashes before it, and the
// automatic ending (if any) reached at each ply.
type game struct {
	positions []*chess.Position
	hashes    []uint64
	over      []chess.Outcome
	sans      []string
	moves     []chess.Move
}

func replay(start *chess.Position, moves []chess.Move) (*game, error) {
	if start == nil {
		return nil, errors.New("review: no start position")
	}
	cg, err := chess.NewGame(start)
	if err != nil {
		return nil, fmt.Errorf("review: %w", err)
	}
	g := &game{moves: moves}
	g.positions = append(g.positions, start)
	g.hashes = append(g.hashes, start.Hash())
	g.over = append(g.over, cg.Outcome())
	for i, m := range moves {
		if cg.Outcome().Over() {
			return nil, fmt.Errorf("review: move %d (%s) comes after the end of the game", i+1, m.UCI())
		}
		if err := cg.Play(m); err != nil {
			return nil, fmt.Errorf("review: move %d: %w", i+1, err)
		}
		pos := cg.Position()
		g.positions = append(g.positions, pos)
		g.hashes = append(g.hashes, pos.Hash())
		g.over = append(g.over, cg.Outcome())
	}
	g.sans = cg.SANs()
	return g, nil
}

func analysePosition(ctx context.Context, eng Engine, g *game, i int, lim engine.Limits) (Analysis, error) {
	pos := g.positions[i]
	switch {
	case pos.IsCheckmate():
		return Analysis{Eval: Eval{IsMate: true}}, nil
	case g.over[i].Over():
		// Stalemate, repetition, fifty moves, insufficient material: the
		// rules (R7, R8) made it a draw whatever the engine thinks.
		return Analysis{}, nil
	}
	res, err := eng.Analyse(ctx, pos, g.hashes[:i], lim)
	if err != nil {
		return Analysis{}, err
	}
	if res.Move == chess.NoMove {
		return Analysis{}, fmt.Errorf("review: the engine found no move in %s", pos.FEN())
	}
	a := Analysis{Best: res.Move, Depth: res.Depth, Eval: fromSearch(res.Score, pos.Turn())}
	a.PV = append([]chess.Move(nil), res.PV[:min(len(res.PV), pvKeep)]...)
	return exactMates(pos, a), nil
}

// fromSearch turns a search score (side to move's view) into an Eval from
// White's side.
func fromSearch(score int, toMove chess.Color) Eval {
	sign := 1
	if toMove == chess.Black {
		sign = -1
	}
	if n := engine.MateIn(score); n != 0 {
		return Eval{Mate: sign * n, IsMate: true}
	}
	return Eval{CP: sign * score}
}
