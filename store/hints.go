package store

import "context"

// Hints records the help a player asked for while playing against the
// computer (G23): at which ply, and how much of the hint (which piece, or
// the move). The PGN notes them, so a game won with help says so.
type Hints interface {
	// AddHint records a hint; asking for the same one again records
	// nothing new. The game must exist.
	AddHint(ctx context.Context, gameID string, h Hint) error
	// GameHints lists a game's hints by ply, the piece before the move.
	GameHints(ctx context.Context, gameID string) ([]Hint, error)
}

// Hint steps: first which piece to move, then the move itself.
const (
	HintPiece = "piece"
	HintMove  = "move"
)

// Hint is one hint given: the ply of the position it was asked in (the
// number of half-moves played) and its step, HintPiece or HintMove.
type Hint struct {
	Ply  int
	Step string
}
