package engine

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"chesstutor/chess"
)

// Pool runs computer moves for many games at once without starving the
// site (C3): at most `workers` searches run at the same time, each with its
// own searcher and transposition table; further callers wait their turn or
// give up when their context ends.
type Pool struct {
	idle chan *Searcher
	// active counts running searches and peak their maximum, for tests
	// and for the site's health figures.
	active, peak atomic.Int32
	// yield, when set, learns of every computer move in flight, so that
	// background work (reviews) gives way to it.
	yield *Yield
}

// SetYield makes every computer move of the pool a game search of y: the
// background searches under y give way to it. Call it before the pool is
// used.
func (p *Pool) SetYield(y *Yield) { p.yield = y }

// NewPool returns a pool of workers searchers sharing a memory budget of
// about hashMB megabytes for their transposition tables.
func NewPool(workers, hashMB int) *Pool {
	workers = max(workers, 1)
	per := max(hashMB/workers, 1)
	p := &Pool{idle: make(chan *Searcher, workers)}
	for range workers {
		p.idle <- NewSearcher(per)
	}
	return p
}

type budgetKey struct{}

// WithTimeBudget returns a context that asks Pool.Move to answer within d
// of the call when that is shorter than the level's own budget: the share
// of a game clock the computer may spend on this move. Unlike a deadline,
// the budget never makes Move fail: a call that waited for a worker past
// it still gets a short search and a move.
func WithTimeBudget(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, budgetKey{}, d)
}

// TimeBudget returns the budget set by WithTimeBudget, if any.
func TimeBudget(ctx context.Context) (time.Duration, bool) {
	d, ok := ctx.Value(budgetKey{}).(time.Duration)
	return d, ok
}

// minSearch is the least thinking time a search gets after waiting for a
// worker: enough for a shallow search, so the reply is never absurd.
const minSearch = 20 * time.Millisecond

// Move returns the computer's reply at the given level (0–8) in the game
// that began at start and continued with moves.
//
// The level's time budget counts from the call, so time spent waiting for
// a free worker is taken from the thinking time (down to a short minimum):
// with a free pool the reply comes within the budget and a small margin.
// WithTimeBudget shortens the budget (a game clock). A deadline on ctx
// shortens the search too; it then finishes a little before the deadline
// and its move is returned.
// When ctx is cancelled, or its deadline passes while the call still
// waits for a worker, Move returns ctx.Err() and drops any half-finished
// result.
func (p *Pool) Move(ctx context.Context, start *chess.Position, moves []chess.Move, level int) (chess.Move, error) {
	called := time.Now()
	if start == nil {
		return chess.NoMove, errors.New("engine: no start position")
	}
	if _, err := levelFor(level); err != nil {
		return chess.NoMove, err
	}
	pos := start
	hashes := make([]uint64, 0, len(moves)+1)
	for i, m := range moves {
		if !pos.IsLegal(m) {
			return chess.NoMove, fmt.Errorf("engine: move %d (%s) is not legal in its position", i+1, m.UCI())
		}
		hashes = append(hashes, pos.Hash())
		pos = pos.Play(m)
	}
	if len(pos.LegalMoves()) == 0 {
		return chess.NoMove, errors.New("engine: the game is over; there is no move to play")
	}

	defer p.yield.Game()()
	s, release, err := p.acquire(ctx)
	if err != nil {
		return chess.NoMove, err
	}
	defer release()

	budget := LevelBudget(level)
	if d, ok := TimeBudget(ctx); ok && d < budget {
		budget = d
	}
	left := max(budget-time.Since(called), minSearch)
	m, _, err := s.PlayLevel(ctx, pos, hashes, level, Limits{Time: left})
	if err != nil {
		return chess.NoMove, err
	}
	// A context cancelled during the search means the game moved on
	// (undo, resign, the visitor left): the answer is no longer wanted.
	// A deadline that passed as the search wound down is not a reason to
	// drop a finished move.
	if errors.Is(ctx.Err(), context.Canceled) {
		return chess.NoMove, ctx.Err()
	}
	return m, nil
}

// acquire waits for an idle searcher (or the end of ctx) and counts it as
// active; release gives it back. Move and Analyse share it, so games and
// reviews keep one bound on searches at once (C3).
func (p *Pool) acquire(ctx context.Context) (s *Searcher, release func(), err error) {
	select {
	case s = <-p.idle:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		p.idle <- s
		return nil, nil, err
	}
	n := p.active.Add(1)
	for {
		old := p.peak.Load()
		if n <= old || p.peak.CompareAndSwap(old, n) {
			break
		}
	}
	return s, func() { p.active.Add(-1); p.idle <- s }, nil
}
