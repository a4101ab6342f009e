package store

import (
	"context"
	"time"
)

// Reviews keeps game reviews (G23): the request, the engine's analysis of
// every position as soon as it is done — so a review stopped by a restart
// resumes where it was — and the classed moves once it is complete. Only
// codes and numbers are stored; the sentences are built when shown (N7).
type Reviews interface {
	// StartReview stores a pending review of r.GameID with no positions,
	// replacing any earlier review of that game with everything it held.
	StartReview(ctx context.Context, r *Review) error
	// Review loads the review of a game with its positions and moves, or
	// ErrNotFound.
	Review(ctx context.Context, gameID string) (*Review, error)
	// AddReviewPosition stores the analysis of the next position of the
	// pending review with the given token. It returns ErrConflict and
	// stores nothing when that review has been replaced or finished, or
	// when p.Index is not the next position.
	AddReviewPosition(ctx context.Context, gameID, token string, p ReviewPosition) error
	// FinishReview stores the classed moves of the pending review with the
	// given token and the name of the engine that reviewed it, and marks
	// it done; ErrConflict as for AddReviewPosition.
	FinishReview(ctx context.Context, gameID, token, engine string, moves []ReviewMove) error
	// PendingReviews lists the reviews not finished yet, oldest request
	// first, without their positions.
	PendingReviews(ctx context.Context) ([]*Review, error)
}

// Review statuses.
const (
	ReviewPending = "pending"
	ReviewDone    = "done"
)

// Review is one stored review: the game as it was when the review was
// asked for (its start and moves), and what has been found so far.
type Review struct {
	GameID  string
	Visitor string
	// Token tells this request from a later one for the same game, so a
	// worker still busy with a replaced review cannot write into the new.
	Token     string
	Status    string   // ReviewPending or ReviewDone
	StartFEN  string   // the game's start
	Moves     []string // UCI, the moves reviewed
	Positions []ReviewPosition
	Classed   []ReviewMove // once done, one per move
	// Engine names the analysis engine that reviewed the game, once done
	// ("" for a review finished before engines were named: the built-in).
	Engine      string
	RequestedAt time.Time
	UpdatedAt   time.Time
}

// ReviewPosition is the engine's analysis of one position of a reviewed
// game (Index 0 is the start): the value from White's side, in
// centipawns or as a forced mate (Mate > 0 White mates in Mate, < 0 Black
// does; IsMate with Mate 0 is a checkmate on the board), the best move and
// the expected line in UCI, and the depth reached.
type ReviewPosition struct {
	Index  int
	CP     int
	Mate   int
	IsMate bool
	Best   string
	PV     []string
	Depth  int
}

// ReviewMove is one classed move (Ply 1 is the first): its class code, the
// winning chances it lost (percentage points), the better move in UCI ("")
// when it was the engine's own) and the reason as JSON codes.
type ReviewMove struct {
	Ply    int
	Class  string
	Loss   float64
	Best   string
	Reason []byte
}
