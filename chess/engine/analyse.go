package engine

import (
	"context"
	"errors"

	"chesstutor/chess"
)

// Analyse searches pos within lim on one of the pool's workers and returns
// the search result: the best move, its line and the score from the side
// to move's view (see MateIn). It is what a game review runs on every
// position, so it shares the pool's bound on searches at once (C3) with
// the games being played: a review waits its turn like a computer move.
// history holds the hashes of the positions before pos, as for Search.
//
// Unlike Move it has no level: the search is the engine's full strength
// within lim, which must bound it (a depth, a time or a node budget).
// When ctx ends before or during the search Analyse returns ctx.Err().
func (p *Pool) Analyse(ctx context.Context, pos *chess.Position, history []uint64, lim Limits) (Result, error) {
	if pos == nil {
		return Result{}, errors.New("engine: no position to analyse")
	}
	if lim.Depth <= 0 && lim.Time <= 0 && lim.Nodes == 0 {
		return Result{}, errors.New("engine: an analysis needs a depth, time or node limit")
	}
	lim.Margin = 0
	s, release, err := p.acquire(ctx)
	if err != nil {
		return Result{}, err
	}
	defer release()
	res := analyse(ctx, s, pos, history, lim)
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return res, nil
}

// analyse is Search for a score rather than a move. A timed search stops
// after its first iteration when only one move is legal — right in a game,
// where the move is all that matters, but a one-ply score is a poor
// evaluation — so a forced move is played and the position after it
// searched instead.
func analyse(ctx context.Context, s *Searcher, pos *chess.Position, history []uint64, lim Limits) Result {
	legal := pos.LegalMoves()
	if len(legal) != 1 {
		return s.Search(ctx, pos, history, lim)
	}
	only := legal[0]
	child := pos.Play(only)
	if len(child.LegalMoves()) == 0 {
		return s.Search(ctx, pos, history, lim) // the forced move ends the game
	}
	h := append(append(make([]uint64, 0, len(history)+1), history...), pos.Hash())
	if lim.Depth > 1 {
		lim.Depth--
	}
	res := s.Search(ctx, child, h, lim)
	// The child's score is from the other side's view and one ply later.
	score := -res.Score
	switch {
	case score > mateBound:
		score--
	case score < -mateBound:
		score++
	}
	pv := append([]chess.Move{only}, res.PV...)
	return Result{Move: only, Score: score, Depth: res.Depth + 1, Nodes: res.Nodes, PV: pv,
		Root: []RootMove{{Move: only, Score: score, Scored: true}}}
}

// ExchangeGain is the static exchange evaluation of the capture m in pos:
// the material, in centipawns on the 100/320/330/500/950 scale of
// PieceValue, that the side to move wins (or, when negative, loses) when
// both sides go on recapturing on m's target square with their cheapest
// piece and either may stop when going on would lose. Pins are ignored.
// The review uses it to tell a piece lost for free from a fair trade.
func ExchangeGain(pos *chess.Position, m chess.Move) int {
	return see(pos, m)
}

// PieceValue is the value of a piece type on the simple scale ExchangeGain
// uses (a pawn is 100); the king's is larger than any material.
func PieceValue(t chess.PieceType) int {
	if int(t) >= len(seeValue) {
		return 0
	}
	return seeValue[t]
}
