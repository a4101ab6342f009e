package review

import "chesstutor/chess"

// The review's mates are exact (issue 32): a mate in one or two is looked
// for in every position by trying every move and every reply, with none of
// the search's pruning, so a missed mate in one or two is never "good" and
// a move that allows one is never "best", however the search's time fell.

// exactMateMoves is the longest mate looked for move by move.
const exactMateMoves = 2

// exactMate returns the shortest forced mate of at most n moves (1 or 2)
// for the side to move in pos, with its first move, or 0 and NoMove when
// there is none.
func exactMate(pos *chess.Position, n int) (int, chess.Move) {
	var buf [256]chess.Move
	moves := pos.AppendLegalMoves(buf[:0])
	var child chess.Position
	for _, m := range moves {
		pos.PlayInto(m, &child)
		if child.InCheck() && child.IsCheckmate() {
			return 1, m
		}
	}
	if n < 2 {
		return 0, chess.NoMove
	}
	// Checks and captures first: a mate in two usually starts with one.
	for pass := range 2 {
		for _, m := range moves {
			pos.PlayInto(m, &child)
			forcing := child.InCheck() || m.Captured() != chess.NoPiece
			if forcing != (pass == 0) {
				continue
			}
			if matedInOne(&child) {
				return 2, m
			}
		}
	}
	return 0, chess.NoMove
}

// matedInOne reports whether every move of the side to move in pos (and
// it has one) is answered by a mate.
func matedInOne(pos *chess.Position) bool {
	var buf [256]chess.Move
	replies := pos.AppendLegalMoves(buf[:0])
	if len(replies) == 0 {
		return false // mate or stalemate already: not a mate in two
	}
	var after chess.Position
	for _, r := range replies {
		pos.PlayInto(r, &after)
		if n, _ := exactMate(&after, 1); n != 1 {
			return false
		}
	}
	return true
}

// exactMates corrects a first-pass analysis of pos with the exact mates:
// a mate in one or two for the side to move that the search did not see
// (or saw as longer) becomes the position's value and best move.
func exactMates(pos *chess.Position, a Analysis) Analysis {
	c := pos.Turn()
	n, m := exactMate(pos, exactMateMoves)
	if n == 0 {
		return a
	}
	if have := a.Eval.MateFor(c); have > 0 && have <= n {
		return a
	}
	sign := 1
	if c == chess.Black {
		sign = -1
	}
	a.Eval = Eval{Mate: sign * n, IsMate: true}
	a.Best = m
	a.PV = []chess.Move{m}
	return a
}

// mateUnavoidable reports whether every move of the side to move in pos
// lets the opponent mate in at most n moves: then the move played did not
// walk into the mate, the position before it was lost to it already.
func mateUnavoidable(pos *chess.Position, n int) bool {
	var buf [256]chess.Move
	moves := pos.AppendLegalMoves(buf[:0])
	if len(moves) == 0 {
		return false
	}
	var child chess.Position
	for _, m := range moves {
		pos.PlayInto(m, &child)
		if k, _ := exactMate(&child, n); k == 0 {
			return false
		}
	}
	return true
}
