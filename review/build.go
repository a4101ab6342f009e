package review

import (
	"fmt"
	"slices"

	"chesstutor/chess"
)

// wonPosition is the winning chance (in percent) from which stalemating
// the opponent counts as throwing a win away: about three pawns up.
const wonPosition = 75.0

// Build classes every move of the game from the engine's analyses (one per
// position, the start first, as Analyse returns them), works out the
// reasons for the moves that cost something and sums each side up. With
// fewer analyses than positions (a review still running) it reviews the
// moves whose two positions are analysed. It is pure and quick.
func Build(start *chess.Position, moves []chess.Move, an []Analysis) (*Review, error) {
	g, err := replay(start, moves)
	if err != nil {
		return nil, err
	}
	if len(an) > len(moves)+1 {
		return nil, fmt.Errorf("review: %d analyses for %d positions", len(an), len(moves)+1)
	}
	n := max(len(an)-1, 0)
	r := &Review{Moves: make([]Move, n)}
	for i, m := range moves[:n] {
		r.Moves[i] = buildMove(g, an, i+1, m)
	}
	r.White = summarise(r.Moves, chess.White)
	r.Black = summarise(r.Moves, chess.Black)
	return r, nil
}

// buildMove reviews the move that led to position ply.
func buildMove(g *game, an []Analysis, ply int, m chess.Move) Move {
	before, after := g.positions[ply-1], g.positions[ply]
	ab, aa := an[ply-1], an[ply]
	c := before.Turn()
	mv := Move{Ply: ply, Color: c, Move: m, SAN: g.sans[ply-1], Eval: aa.Eval}
	if chk := ab.Check; chk != nil {
		// The verification searched the played move and the engine's
		// choice in one search, deeper than the first pass: its values
		// are the ones to compare.
		ab.Eval, ab.Best, ab.PV = chk.BestEval, chk.Best, chk.PV
		aa.Eval = chk.PlayedEval
	}
	if book(g, ply) {
		mv.Class, mv.Book = Best, true
		return mv
	}

	pb := ab.Eval.For(c, c)
	pa := aa.Eval.For(c, after.Turn())
	mv.Loss = max(0, pb-pa)
	// A move that lets the opponent mate, where it could not before, is
	// never "best", even when it was the engine's own choice.
	allowsMate := aa.Eval.MateFor(c.Other()) > 0 && ab.Eval.MateFor(c.Other()) == 0
	engineMove := ab.Best == m && !allowsMate
	mv.Class = Classify(mv.Loss, engineMove)
	if n := ab.Eval.MateFor(c); n >= 1 && n <= 2 && aa.Eval.MateFor(c) == 0 && !after.IsCheckmate() {
		mv.Class = max(mv.Class, Mistake)
	}
	if after.IsStalemate() && pb >= wonPosition {
		mv.Class = Blunder
	}
	if ab.Best != m && ab.Best != chess.NoMove {
		mv.Best = ab.Best
		mv.BestSAN = before.SAN(ab.Best)
	}
	prev := chess.NoMove
	if ply >= 2 {
		prev = g.moves[ply-2]
	}
	switch {
	case mv.Class >= Inaccuracy:
		mv.Reason = explain(before, after, prev, m, ab, aa, pb)
	case !engineMove && (pb <= decidedChances || pb >= 100-decidedChances):
		// The game was decided, so giving a piece away or walking into
		// a mate costs few winning chances; it is still called what it
		// is (below), and otherwise the move is let be.
		if r := explain(before, after, prev, m, ab, aa, pb); shortMate(r) || (givesPiece(r) && !lostAnyway(before, ab.Best, r)) {
			mv.Reason = r
		}
	}
	if r := mv.Reason; shortMate(r) && mateUnavoidable(before, r.Mate) {
		// Every move allowed that mate: the move is not to blame for it
		// (the search had not seen the mate before the move), and
		// nothing was lost by it.
		mv.Reason, mv.Loss, mv.Class = Reason{}, 0, Best
	}
	if r := mv.Reason; shortMate(r) || (givesPiece(r) && !lostAnyway(before, ab.Best, r)) {
		// The label never says less than the words: a piece given away
		// or a mate in one or two walked into is a blunder, in a decided
		// game too
		// (where the chances hardly move), said with the game's state.
		mv.Class = Blunder
		switch {
		case pb <= decidedChances:
			mv.Reason.Decided = AlreadyLost
		case pb >= 100-decidedChances && pa >= 100-decidedChances:
			mv.Reason.Decided = AlreadyWon
		}
	}
	return mv
}

// decidedChances: a side with at most this share of the winning chances
// (in percent) has a lost game, one with at least 100 less it a won one.
const decidedChances = 10.0

// shortMate reports whether r says the move lets the opponent mate in one
// or two: a blunder whatever the score. A longer mate in a game already
// lost is a line a beginner cannot be expected to see, and a search as
// short as the review's may find it where there is none.
func shortMate(r Reason) bool {
	return r.Code == AllowsMate && r.Mate >= 1 && r.Mate <= 2
}

// lostAnyway reports whether the piece r says was given away could be
// taken as well after the engine's better move: then the move did not give
// it, the position before had lost it already (a rook attacked by a bishop
// in a lost game, where no move saves it), and the label follows the loss.
func lostAnyway(before *chess.Position, best chess.Move, r Reason) bool {
	if best == chess.NoMove {
		return false
	}
	p := before.Play(best)
	for _, mv := range p.AppendCaptures(nil) {
		if mv.To() == r.Square && mv.Captured().Type() == r.Piece && capturedGain(p, mv) >= lostAnywayGain {
			return true
		}
	}
	return false
}

// lostAnywayGain is the least gain (ExchangeGain centipawns) of a capture
// after the better move that counts as the same piece lost: a rook for a
// bishop is 170.
const lostAnywayGain = 150

// givesPiece reports whether r says a piece (a knight or more) is left to
// be taken for free, or for a cheaper piece: a blunder whatever the score.
func givesPiece(r Reason) bool {
	return (r.Code == Hangs || r.Code == BadTrade) && value[r.Piece] >= value[chess.Knight] && value[r.Piece] < value[chess.King] &&
		(r.Free || r.Code == BadTrade || value[r.By] < value[r.Piece])
}

// summarise counts side c's classes and picks its three costliest moves.
func summarise(moves []Move, c chess.Color) Summary {
	var s Summary
	var costly []Move
	for _, m := range moves {
		if m.Color != c {
			continue
		}
		s.Counts[m.Class]++
		if m.Class >= Inaccuracy {
			costly = append(costly, m)
		}
	}
	slices.SortStableFunc(costly, func(a, b Move) int {
		if a.Class != b.Class {
			return int(b.Class) - int(a.Class)
		}
		switch {
		case a.Loss > b.Loss:
			return -1
		case a.Loss < b.Loss:
			return 1
		}
		return 0
	})
	for _, m := range costly[:min(3, len(costly))] {
		s.Key = append(s.Key, m.Ply)
	}
	slices.Sort(s.Key)
	return s
}
