package store

import "context"

// Trainer keeps each visitor's best score in the square-name trainer (X7),
// one per board view ("white", "black") and mode ("find", "name").
type Trainer interface {
	// SaveTrainerScore records a finished round and returns the best score
	// for that view and mode afterwards; a lower score changes nothing.
	SaveTrainerScore(ctx context.Context, visitor, view, mode string, score int) (best int, err error)
	// TrainerBest returns the visitor's best scores keyed "white/find",
	// "black/name" and so on; views and modes never played are absent.
	TrainerBest(ctx context.Context, visitor string) (map[string]int, error)
}
