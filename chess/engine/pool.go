package engine

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

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
}

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

// Move returns the computer's reply at the given level (1–8) in the game
// that began at start and continued with moves. It returns ctx.Err() when
// ctx ends before the search finishes; the half-finished result is
// dropped. The search also stops at ctx's deadline if that comes before
// the level's own time budget.
func (p *Pool) Move(ctx context.Context, start *chess.Position, moves []chess.Move, level int) (chess.Move, error) {
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

	var s *Searcher
	select {
	case s = <-p.idle:
	case <-ctx.Done():
		return chess.NoMove, ctx.Err()
	}
	defer func() { p.idle <- s }()
	if err := ctx.Err(); err != nil {
		return chess.NoMove, err
	}
	n := p.active.Add(1)
	defer p.active.Add(-1)
	for {
		old := p.peak.Load()
		if n <= old || p.peak.CompareAndSwap(old, n) {
			break
		}
	}

	m, _, err := s.PlayLevel(ctx, pos, hashes, level, Limits{})
	if err != nil {
		return chess.NoMove, err
	}
	// A context that ended during the search means the game moved on
	// (undo, resign, the visitor left): the answer is no longer wanted.
	if err := ctx.Err(); err != nil {
		return chess.NoMove, err
	}
	return m, nil
}
