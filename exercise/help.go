package exercise

import (
	"chesstutor/chess"
	"chesstutor/words"
)

// Help is what a "play the move" exercise offers a learner who is stuck
// (X12): a hint names the piece that makes a right move, the answer names
// the move. Both are computed from the position, like the verdicts.
type Help struct {
	// Move is a right move from the position the learner faces (after
	// line, in a mate in two); Hint says which piece plays it, Answer what
	// it is and what it does.
	Move         chess.Move
	SAN          string
	Hint, Answer words.Message
}

// Help returns the hint and the answer for the position after line (see
// ParseLine): the first right move the generator gives, its piece as the
// hint. A task always has a right move (Validate), and a right first move
// of a mate in two always leaves a mate; a line whose first move is not a
// right one gets no help (Move is NoMove), as JudgeLine refuses it.
func (t Task) Help(line []chess.Move) Help {
	task := t
	if len(line) == 2 {
		if !t.isRight(line[0]) {
			return Help{}
		}
		task = Task{Pos: t.Pos.Play(line[0]).Play(line[1]), Goal: GoalMate, Square: chess.NoSquare}
	}
	right := task.RightMoves()
	if len(right) == 0 {
		return Help{}
	}
	m := right[0]
	san := task.Pos.SAN(m)
	after := task.Pos.Play(m)
	return Help{
		Move:   m,
		SAN:    san,
		Hint:   words.M("exercise.help_hint", "Piece", pieceOn(m.Piece().Type(), m.From())),
		Answer: words.M("exercise.help_answer", "Move", words.SAN(san), "Why", task.praise(m, after, san)),
	}
}
