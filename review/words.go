package review

import (
	"math"

	"chesstutor/chess"
	"chesstutor/words"
)

// littleLoss is the most an inaccuracy may cost (in points of winning
// chances) to be called "a little" worse: the lower half of the class.
const littleLoss = (goodLoss + inaccuracyLoss) / 2

// Explain says why the move cost something, in messages of the catalogue
// (review.reason.*, speaking to the side that played it) to be shown one
// after the other: the reason, the better move where the reason does not
// name it, and whether the game was already decided. It is empty for the
// moves that cost nothing.
func (m Move) Explain() []words.Message {
	r := m.Reason
	var out []words.Message
	say := func(m words.Message) { out = append(out, m) }
	played := words.SAN(m.SAN)
	better := func() {
		if m.BestSAN != "" {
			say(words.M("review.reason.better", "Move", words.SAN(m.BestSAN)))
		}
	}
	switch r.Code {
	case Hangs:
		switch {
		case r.Free:
			say(words.M("review.reason.hangs_free", "Move", played, "By", theirPiece(r.By), "Piece", yourPieceAcc(r.Piece), "Square", r.Square.String()))
		case value[r.By] < value[r.Piece]:
			say(words.M("review.reason.hangs_cheaper", "Move", played, "By", theirPiece(r.By), "Piece", yourPieceAcc(r.Piece), "Square", r.Square.String(),
				"Name", worthPiece(r.Piece), "ByName", worthPiece(r.By)))
		default:
			say(words.M("review.reason.hangs_outnumbered", "Move", played, "Piece", yourPieceAcc(r.Piece), "Square", r.Square.String()))
		}
		better()
	case BadTrade:
		say(words.M("review.reason.bad_trade", "Move", played, "Target", aPiece(r.Target), "By", theirPiece(r.By), "Piece", yourPieceAcc(r.Piece),
			"Given", aPiece(r.Piece)))
		better()
	case MissedCapture:
		switch {
		case r.Recapture:
			say(words.M("review.reason.recapture", "Move", words.SAN(r.Move), "Square", r.Square.String(), "Piece", thePieceAcc(r.Piece)))
		case r.Free:
			say(words.M("review.reason.missed_capture_free", "Move", words.SAN(r.Move), "Piece", aPiece(r.Piece), "Square", r.Square.String()))
		default:
			say(words.M("review.reason.missed_capture_cheaper", "Move", words.SAN(r.Move), "Name", worthPiece(r.Piece), "Square", r.Square.String(), "ByName", worthPiece(r.By)))
		}
	case MissedMate:
		switch r.Mate {
		case 1:
			say(words.M("review.reason.missed_mate_1", "Move", words.SAN(r.Move)))
		case 2:
			say(words.M("review.reason.missed_mate_2", "Move", words.SAN(r.Move)))
		default:
			// A longer mate's length is the engine's first count, not
			// always the shortest: it is not said.
			say(words.M("review.reason.missed_mate_n", "Move", words.SAN(r.Move)))
		}
	case AllowsMate:
		if r.Mate == 1 && r.Move != "" {
			say(words.M("review.reason.allows_mate_1", "Reply", words.SAN(r.Move)))
		} else if r.Mate == 2 {
			say(words.M("review.reason.allows_mate_2"))
		} else {
			say(words.M("review.reason.allows_mate_n"))
		}
		better()
	case Stalemate:
		if r.Mate == 1 {
			say(words.M("review.reason.stalemate_mate", "Move", words.SAN(r.Move)))
		} else {
			say(words.M("review.reason.stalemate", "Move", words.SAN(r.Move)))
		}
	case MissedFork:
		say(words.M("review.reason.missed_fork", "Move", words.SAN(r.Move), "By", yourPiece(r.By), "Targets", targets(r.Targets, false)))
	case AllowsFork:
		say(words.M("review.reason.allows_fork", "Move", played, "Reply", words.SAN(r.Move), "By", theirPiece(r.By), "Targets", targets(r.Targets, true)))
		better()
	case IntoPin:
		if r.Target == chess.King {
			say(words.M("review.reason.into_pin_king", "Move", played, "Piece", yourPieceAcc(r.Piece), "Square", r.Square.String(), "By", theirPiece(r.By), "From", r.From.String()))
		} else {
			say(words.M("review.reason.into_pin", "Move", played, "Piece", yourPieceAcc(r.Piece), "Square", r.Square.String(), "By", theirPiece(r.By), "From", r.From.String(),
				"Target", yourPiece(r.Target)))
		}
		better()
	case BetterMove:
		if r.Move == "" {
			return nil
		}
		switch {
		case r.Lost > 0 && r.Piece != chess.NoPieceType && r.Lost >= value[r.Piece]-1 && r.Lost <= value[r.Piece]:
			say(words.M("review.reason.line_loses_piece", "Move", played, "Reply", words.SAN(r.Reply), "Piece", yourPieceAcc(r.Piece)))
			better()
		case r.Lost > 0:
			say(words.M("review.reason.line_loses_points", "Move", played, "Reply", words.SAN(r.Reply), "Count", r.Lost))
			better()
		case r.Won > 0 && r.Target != chess.NoPieceType && r.Won >= value[r.Target]-1 && r.Won <= value[r.Target]:
			say(words.M("review.reason.line_wins_piece", "Move", words.SAN(r.Move), "Piece", aPiece(r.Target)))
		case r.Won > 0:
			say(words.M("review.reason.line_wins_points", "Move", words.SAN(r.Move), "Count", r.Won))
		case m.Class == Inaccuracy && m.Loss < littleLoss:
			say(words.M("review.reason.little_better", "Move", words.SAN(r.Move)))
		default:
			after := m.Eval.For(m.Color, m.Color.Other())
			before := after + m.Loss
			args := []any{"Move", played, "Before", int(math.Round(before)), "After", int(math.Round(after))}
			if r.Reply != "" {
				say(words.M("review.reason.chances_reply", append(args, "Reply", words.SAN(r.Reply))...))
			} else {
				say(words.M("review.reason.chances", args...))
			}
			better()
		}
	default:
		return nil
	}
	switch r.Decided {
	case AlreadyLost:
		say(words.M("review.reason.decided_lost"))
	case AlreadyWon:
		say(words.M("review.reason.decided_won"))
	}
	return out
}

// The piece phrases of the reasons (review.piece.*), each a whole noun
// phrase in the case its sentences need, so that a language can decline
// it: the opponent's piece as a subject ("your opponent's knight"), the
// mover's as a subject or an object, "a knight" won, "the
// king" attacked, and two of a kind ("both your rooks").
func theirPiece(t chess.PieceType) words.Message   { return piece("their_", t) }
func yourPiece(t chess.PieceType) words.Message    { return piece("your_", t) }
func yourPieceAcc(t chess.PieceType) words.Message { return piece("your_acc_", t) }
func aPiece(t chess.PieceType) words.Message       { return piece("a_", t) }
func worthPiece(t chess.PieceType) words.Message   { return piece("worth_", t) }
func thePieceAcc(t chess.PieceType) words.Message  { return piece("the_acc_", t) }

func piece(kind string, t chess.PieceType) words.Message {
	return words.M("review.piece." + kind + t.String())
}

// targets names the two pieces a fork attacks, the mover's own (yours)
// or the opponent's, as objects: "the king and the rook", "both your
// rooks".
func targets(ts []chess.PieceType, yours bool) words.Message {
	if len(ts) >= 2 && ts[0] == ts[1] {
		if yours {
			return piece("both_your_", ts[0])
		}
		return piece("both_", ts[0])
	}
	one := thePieceAcc
	if yours {
		one = yourPieceAcc
	}
	var list []words.Message
	for _, t := range ts[:min(2, len(ts))] {
		list = append(list, one(t))
	}
	if len(list) == 1 {
		return list[0]
	}
	return words.M("review.piece.and", "First", list[0], "Second", list[1])
}
