package exercise

import (
	"fmt"

	"chesstutor/chess"
)

// SquareResult grades one click in a "click the named square" exercise or
// the square-name trainer (X7).
type SquareResult struct {
	Correct bool
	// Reason says where the click landed compared with the target, in
	// files and ranks, so a wrong click teaches the names.
	Reason string
}

// FindSquare grades a click on clicked when target was asked for.
func FindSquare(target, clicked chess.Square) SquareResult {
	if clicked == target {
		return SquareResult{Correct: true, Reason: fmt.Sprintf("Yes, that is %s: file %c, rank %d.", target, 'a'+target.File(), target.Rank()+1)}
	}
	df := target.File() - clicked.File()
	dr := target.Rank() - clicked.Rank()
	var steps []string
	switch {
	case df > 0:
		steps = append(steps, fmt.Sprintf("%d %s towards the h-file", df, plural(df, "file")))
	case df < 0:
		steps = append(steps, fmt.Sprintf("%d %s towards the a-file", -df, plural(-df, "file")))
	}
	switch {
	case dr > 0:
		steps = append(steps, fmt.Sprintf("%d %s towards rank 8", dr, plural(dr, "rank")))
	case dr < 0:
		steps = append(steps, fmt.Sprintf("%d %s towards rank 1", -dr, plural(-dr, "rank")))
	}
	// The letter names the file and the number the rank: say which part
	// was right, then how far the target is, in words that hold from
	// either side of the board.
	why := fmt.Sprintf("That is %s, not %s.", clicked, target)
	switch {
	case df == 0:
		why += fmt.Sprintf(" The file (%c) is right; %s is %s.", 'a'+target.File(), target, steps[0])
	case dr == 0:
		why += fmt.Sprintf(" The rank (%d) is right; %s is %s.", target.Rank()+1, target, steps[0])
	default:
		why += fmt.Sprintf(" %s is %s and %s.", target, steps[0], steps[1])
	}
	return SquareResult{Reason: why}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
