package store

import "context"

// Stars keeps how each exercise went for a visitor, so the site can give
// it one to three stars (X11): the wrong tries and whether a hint or the
// answer was shown, frozen at the first solve. The rule that turns them
// into stars is exercise.Stars; the store keeps only the facts.
type Stars interface {
	// RecordTry counts one graded try of exerciseID (of lesson): a wrong
	// one, help (a hint or the answer shown), or the solve. Before the
	// first solve wrong tries and help add up; the first solve freezes
	// them; later tries change nothing. It returns the record after the try.
	RecordTry(ctx context.Context, visitor, exerciseID, lesson string, try Try) (TryRecord, error)
	// VisitorTries returns the records of every exercise visitor has
	// tried, by exercise id (empty, not nil, when there are none).
	VisitorTries(ctx context.Context, visitor string) (map[string]TryRecord, error)
}

// Try is one graded try of an exercise.
type Try uint8

// The kinds of try.
const (
	TryWrong  Try = iota + 1 // a wrong answer
	TryHelped                // a hint or the answer was shown
	TrySolved                // a right answer that solves the exercise
)

// TryRecord is what is kept of one visitor's tries at one exercise.
type TryRecord struct {
	Wrong  int  // wrong tries so far (until the first solve)
	Helped bool // a hint or the answer shown before the first solve
	Solved bool // solved at least once
	// SolvedWrong and SolvedHelped are Wrong and Helped as they stood at
	// the first solve (zero until then).
	SolvedWrong  int
	SolvedHelped bool
}
