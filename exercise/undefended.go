package exercise

import (
	"fmt"

	"chesstutor/chess"
	"chesstutor/words"
)

// "Which of your pieces are undefended?" (issue 36): the learner marks
// every piece of the side to move, the king left out, that no other piece
// of that side guards. The answer is what the rules package computes
// (chess.Position.Undefended); every wrong or missed mark gets a reason
// that names the guards, or says there are none.

// UndefendedAnswer is the squares of the side to move's undefended
// pieces, sorted.
func UndefendedAnswer(pos *chess.Position) []chess.Square {
	if pos == nil {
		return nil
	}
	out := pos.Undefended(pos.Turn()).Squares()
	sortSquares(out)
	return out
}

// ValidateUndefended checks an undefended exercise's position: the side to
// move has its king, at least one undefended piece and at least one
// guarded one, so marking everything or nothing is never the answer.
func ValidateUndefended(pos *chess.Position) error {
	us := pos.Turn()
	if pos.KingSquare(us) == chess.NoSquare {
		return fmt.Errorf("exercise: the side to move needs its king")
	}
	loose := pos.Undefended(us)
	others := pos.Occupancy(us) &^ pos.Pieces(us, chess.King)
	if loose == 0 {
		return fmt.Errorf("exercise: every piece of the side to move is guarded, so there is nothing to find")
	}
	if others&^loose == 0 {
		return fmt.Errorf("exercise: no piece of the side to move is guarded, so marking them all would be the answer")
	}
	return nil
}

// CheckUndefended grades the marked squares of an undefended exercise:
// Answer is every undefended piece of the side to move; each missed and
// each wrong square gets a reason. Duplicates count once; NoSquare is
// ignored.
func CheckUndefended(pos *chess.Position, marked []chess.Square) Result {
	res := Result{Reasons: map[chess.Square]words.Message{}}
	if pos == nil {
		return res
	}
	res.Answer = UndefendedAnswer(pos)
	loose := pos.Undefended(pos.Turn())
	seen := map[chess.Square]bool{}
	for _, sq := range marked {
		if sq == chess.NoSquare || seen[sq] {
			continue
		}
		seen[sq] = true
		if loose.Has(sq) {
			res.Hits = append(res.Hits, sq)
		} else {
			res.Wrong = append(res.Wrong, sq)
			res.Reasons[sq] = UndefendedReason(pos, sq)
		}
	}
	for _, sq := range res.Answer {
		if !seen[sq] {
			res.Missed = append(res.Missed, sq)
			res.Reasons[sq] = UndefendedReason(pos, sq)
		}
	}
	sortSquares(res.Hits)
	sortSquares(res.Wrong)
	res.Correct = len(res.Missed) == 0 && len(res.Wrong) == 0
	return res
}

// UndefendedReason says why the piece on sq is, or is not, one of the
// side to move's undefended pieces.
func UndefendedReason(pos *chess.Position, sq chess.Square) words.Message {
	us := pos.Turn()
	p := pos.PieceAt(sq)
	switch {
	case p == chess.NoPiece:
		return why("loose_empty", "Square", sq)
	case p.Color() != us:
		return why("loose_enemy", "Piece", piecePhrase("enemy", p.Type()), "Square", sq)
	case p.Type() == chess.King:
		return why("loose_king")
	}
	guards := pos.Attackers(sq, us)
	if guards == 0 {
		return why("loose_unguarded", "Piece", piecePhrase("your", p.Type()), "Square", sq)
	}
	ex := explainer{pos: pos, piece: p}
	return why("loose_guarded", "Piece", piecePhrase("your", p.Type()), "Square", sq, "Guards", ex.pieceList(guards))
}
