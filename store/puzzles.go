package store

import "context"

// PuzzlePlayer is a visitor's puzzle record (P4, P5): their Glicko-2
// rating, how many puzzles they solved and failed at the first attempt,
// and their streaks.
type PuzzlePlayer struct {
	Rating, RD, Volatility float64
	Solved, Failed         int
	// StreakCurrent is the length of the streak under way (0: none);
	// StreakSeed chooses its ladder of puzzles; StreakBest is never less
	// than StreakCurrent.
	StreakCurrent, StreakBest int
	StreakSeed                int64
	// Version counts the record's writes: 0 when the visitor has none.
	Version int64
}

// PuzzleRating is a puzzle's Glicko-2 rating once somebody has tried it.
type PuzzleRating struct {
	Rating, RD, Volatility float64
	// Attempts counts the first attempts that rated it; it is also the
	// row's version.
	Attempts int
}

// PuzzleAttempt is a visitor's first attempt at a puzzle with both
// ratings after it.
type PuzzleAttempt struct {
	Visitor, PuzzleID string
	Solved            bool
	// RatingBefore is the visitor's rating before the attempt.
	RatingBefore float64
	// Player is the visitor's record after the attempt, with the Version
	// that was read; Puzzle is the puzzle's rating after it, so
	// Puzzle.Attempts-1 is the version that was read.
	Player PuzzlePlayer
	Puzzle PuzzleRating
}

// Puzzles keeps visitors' puzzle ratings, attempts and streaks, and the
// puzzles' own ratings (which are nobody's data: they stay when a visitor
// is forgotten).
type Puzzles interface {
	// PuzzlePlayer returns the visitor's record, Version 0 when none.
	PuzzlePlayer(ctx context.Context, visitor string) (PuzzlePlayer, error)
	// PuzzleRatings returns the rating of every puzzle tried, by id.
	PuzzleRatings(ctx context.Context) (map[string]PuzzleRating, error)
	// PuzzlesTried returns the ids of the puzzles the visitor has tried.
	PuzzlesTried(ctx context.Context, visitor string) (map[string]bool, error)
	// PuzzleResults returns whether the visitor solved each puzzle tried
	// at the first attempt, oldest attempt first.
	PuzzleResults(ctx context.Context, visitor string) ([]bool, error)
	// RecordPuzzleAttempt stores a first attempt with both new ratings at
	// once. It returns ErrConflict, writing nothing, when the visitor has
	// tried the puzzle before or either record's version has moved on.
	RecordPuzzleAttempt(ctx context.Context, a PuzzleAttempt) error
	// SavePuzzlePlayer writes the visitor's record (a streak's progress)
	// when its version is still p.Version, else returns ErrConflict.
	SavePuzzlePlayer(ctx context.Context, visitor string, p PuzzlePlayer) error
}
