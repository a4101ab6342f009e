package exercise

import (
	"fmt"
	"math/rand/v2"
	"time"

	"chesstutor/chess"
)

// The square-name trainer (X7): a round lasts TrainerRound; each right
// answer scores a point and brings the next square; a wrong answer counts
// as a miss and the square stays until it is found.

// TrainerRound is the length of one round.
const TrainerRound = 30 * time.Second

// MaxTrainerScore is more than anyone can score in a round (five squares a
// second); a higher score is refused as not a real round.
const MaxTrainerScore = 150

// Trainer modes: find the named square on the board, or name the marked one.
const (
	TrainerFind = "find"
	TrainerName = "name"
)

// TrainerState is one round in progress. It is small enough to travel in
// a form (the trainer without JavaScript) and is checked on every answer.
type TrainerState struct {
	View    string // "white" or "black": the side at the bottom
	Mode    string // TrainerFind or TrainerName
	Seed    uint64 // chooses the squares
	Started time.Time
	N       int // squares asked so far, found or missed; the target is square number N
	Score   int
	Misses  int
}

// TrainerTarget is square number n of the round with this seed. Two squares
// in a row are never the same.
func TrainerTarget(seed uint64, n int) chess.Square {
	pick := func(i int) chess.Square {
		r := rand.New(rand.NewPCG(seed, uint64(i)))
		return chess.Square(r.IntN(64))
	}
	sq := pick(n)
	if n > 0 {
		if prev := TrainerTarget(seed, n-1); sq == prev {
			sq = (sq + 1 + chess.Square(seed%63)) % 64
		}
	}
	return sq
}

// Target is the square asked for now.
func (s TrainerState) Target() chess.Square { return TrainerTarget(s.Seed, s.N) }

// Left is the time left in the round at now (zero when it is over).
func (s TrainerState) Left(now time.Time) time.Duration {
	return max(0, TrainerRound-now.Sub(s.Started))
}

// Validate refuses a state no real round can have.
func (s TrainerState) Validate(now time.Time) error {
	switch {
	case s.View != "white" && s.View != "black":
		return fmt.Errorf("exercise: the view is white or black, not %q", s.View)
	case s.Mode != TrainerFind && s.Mode != TrainerName:
		return fmt.Errorf("exercise: the mode is find or name, not %q", s.Mode)
	case s.Started.After(now.Add(time.Second)):
		return fmt.Errorf("exercise: the round starts in the future")
	case s.Score < 0 || s.Misses < 0 || s.N != s.Score+s.Misses || s.Score > MaxTrainerScore || s.Misses > 10*MaxTrainerScore:
		return fmt.Errorf("exercise: the score of this round is not possible")
	}
	return nil
}

// Answer grades one answer at now and moves on to the next square, right
// or wrong (a miss is marked and explained, and the round goes on, as
// lichess's coordinates trainer does). Once the round is over the answer
// does not count and over is true.
func (s *TrainerState) Answer(sq chess.Square, now time.Time) (res SquareResult, over bool) {
	if s.Left(now) <= 0 {
		return SquareResult{}, true
	}
	res = FindSquare(s.Target(), sq)
	if res.Correct {
		s.Score++
	} else {
		s.Misses++
	}
	s.N++
	return res, false
}
