package exercise

import (
	"chesstutor/chess"
	"chesstutor/words"
)

// SquareResult grades one click in a "click the named square" exercise or
// the square-name trainer (X7).
type SquareResult struct {
	Correct bool
	// Reason says where the click landed compared with the target, in
	// files and ranks, so a wrong click teaches the names: a message of
	// the catalogue (square.…). The trainer's script builds the same
	// sentences from the same keys.
	Reason words.Message
}

// FindSquare grades a click on clicked when target was asked for.
func FindSquare(target, clicked chess.Square) SquareResult {
	file := string(rune('a' + target.File()))
	rank := target.Rank() + 1
	if clicked == target {
		return SquareResult{Correct: true, Reason: words.M("square.right", "Square", target, "File", file, "Rank", rank)}
	}
	df := target.File() - clicked.File()
	dr := target.Rank() - clicked.Rank()
	var files, ranks words.Message
	switch {
	case df > 0:
		files = words.M("square.files_to_h", "Count", df)
	case df < 0:
		files = words.M("square.files_to_a", "Count", -df)
	}
	switch {
	case dr > 0:
		ranks = words.M("square.ranks_to_8", "Count", dr)
	case dr < 0:
		ranks = words.M("square.ranks_to_1", "Count", -dr)
	}
	// The letter names the file and the number the rank: say which part
	// was right, then how far the target is, in words that hold from
	// either side of the board.
	switch {
	case df == 0:
		return SquareResult{Reason: words.M("square.wrong_file_right",
			"Clicked", clicked, "Target", target, "File", file, "Steps", ranks)}
	case dr == 0:
		return SquareResult{Reason: words.M("square.wrong_rank_right",
			"Clicked", clicked, "Target", target, "Rank", rank, "Steps", files)}
	}
	return SquareResult{Reason: words.M("square.wrong_both",
		"Clicked", clicked, "Target", target, "Files", files, "Ranks", ranks)}
}
