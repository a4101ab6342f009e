package puzzles

import (
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"time"

	"chesstutor/chess"
)

// SuccessTarget is the share of puzzles a learner should solve (P4): hard
// enough to learn from, easy enough to enjoy.
const SuccessTarget = 0.7

// TargetRating is the rating of a puzzle that a visitor rated v solves
// with chance SuccessTarget, by Glicko-2's expected score against a
// puzzle whose deviation is puzzleRD.
func TargetRating(v Rating, puzzleRD float64) float64 {
	g := gFactor(puzzleRD / glickoScale)
	return v.R - glickoScale*math.Log(SuccessTarget/(1-SuccessTarget))/g
}

// The aim corrects the target by the visitor's own results (P4): a
// visitor's rating says how strong they are against puzzles in general,
// but the puzzles near one rating may be easier or harder than rated (a
// puzzle that only the weakest fail is spread over a wide range by the
// rating fit), and a strong visitor may run short of puzzles at their
// target. So every first attempt moves the aim: a solve raises it by
// AimStep·(1-SuccessTarget), a failure lowers it by AimStep·SuccessTarget.
// Over many puzzles the raises and lowerings cancel only when the visitor
// solves SuccessTarget of them, whatever the ratings say.
const (
	AimStep = 60.0
	// MinAim and MaxAim bound the aim, so a run of luck cannot send a
	// visitor far from their rating.
	MinAim, MaxAim = -250.0, 500.0
)

// Aim returns the correction of the target rating after a visitor's first
// attempts, oldest first (true: solved).
func Aim(results []bool) float64 {
	aim := 0.0
	for _, ok := range results {
		if ok {
			aim += AimStep * (1 - SuccessTarget)
		} else {
			aim -= AimStep * SuccessTarget
		}
		aim = min(MaxAim, max(MinAim, aim))
	}
	return aim
}

// near is how many of the puzzles closest to a target the choice is
// drawn from, so two visitors of one rating do not get the same series.
const near = 8

// Ratings gives a puzzle's current rating: the shipped one until someone
// has tried it.
type Ratings func(p *Puzzle) Rating

// Next chooses the next puzzle for a visitor rated v whose results give
// aim (see Aim): one with theme (any theme when empty) that the visitor
// has not tried, rated near TargetRating+aim; when every such puzzle has
// been tried, a tried one. It returns nil when no puzzle has the theme.
func (s *Set) Next(v Rating, aim float64, theme Theme, tried map[string]bool, rating Ratings, rng *rand.Rand) *Puzzle {
	var fresh, old []*Puzzle
	for _, p := range s.all {
		if theme != "" && !p.Has(theme) {
			continue
		}
		if tried[p.ID] {
			old = append(old, p)
		} else {
			fresh = append(fresh, p)
		}
	}
	pool := fresh
	if len(pool) == 0 {
		pool = old
	}
	if len(pool) == 0 {
		return nil
	}
	target := func(p *Puzzle) float64 {
		r := rating(p)
		return math.Abs(r.R - TargetRating(v, r.RD) - aim)
	}
	sorted := append([]*Puzzle(nil), pool...)
	sort.SliceStable(sorted, func(i, j int) bool { return target(sorted[i]) < target(sorted[j]) })
	return sorted[rng.IntN(min(near, len(sorted)))]
}

// StreakRating is the rating of the streak's puzzle number k (0 first):
// the ladder starts easy and climbs a little with every puzzle solved.
func StreakRating(k int) int { return 450 + 50*k }

// Streak returns the puzzle number k of the streak started with seed: the
// same seed gives the same ladder, and no puzzle comes twice in one.
func (s *Set) Streak(seed int64, k int) *Puzzle {
	used := map[string]bool{}
	var p *Puzzle
	for i := 0; i <= k; i++ {
		p = s.pick(float64(StreakRating(i)), used, mixSeed(strconv.FormatInt(seed, 10), i))
		if p == nil {
			return nil
		}
		used[p.ID] = true
	}
	return p
}

// DailyRating is the daily puzzle's rating by weekday: easiest on Monday,
// hardest on Sunday (P5).
func DailyRating(day time.Weekday) int {
	// time.Sunday is 0; Monday is the start of the climb.
	return 500 + 150*((int(day)+6)%7)
}

// Daily returns the puzzle of the day (by its UTC date): the same for
// everybody, near DailyRating of its weekday.
func (s *Set) Daily(t time.Time) *Puzzle {
	d := t.UTC()
	return s.pick(float64(DailyRating(d.Weekday())), nil, mixSeed(d.Format("2006-01-02"), 0))
}

// pick chooses among the near puzzles closest to rating (by their shipped
// rating), leaving out used ones, by seed.
func (s *Set) pick(rating float64, used map[string]bool, seed uint64) *Puzzle {
	var pool []*Puzzle
	for _, p := range s.all {
		if !used[p.ID] {
			pool = append(pool, p)
		}
	}
	if len(pool) == 0 {
		return nil
	}
	sort.SliceStable(pool, func(i, j int) bool {
		return math.Abs(float64(pool[i].Rating)-rating) < math.Abs(float64(pool[j].Rating)-rating)
	})
	return pool[seed%uint64(min(near, len(pool)))]
}

func mixSeed(s string, i int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	h.Write([]byte{byte(i), byte(i >> 8), byte(i >> 16)})
	return h.Sum64()
}

// Refusals of a move in a puzzle.
var (
	// ErrStalePly: the move is not for the position the puzzle is in at
	// that ply (an odd ply is the opponent's, beyond the end is over).
	ErrStalePly = errors.New("puzzles: no move of the solver's at that ply")
	// ErrIllegal: the move is not legal in the position.
	ErrIllegal = errors.New("puzzles: the move is not legal there")
)

// Verdict judges one move of the solver's.
type Verdict struct {
	Correct bool
	// Done: the puzzle is solved (the move mated or was the last).
	Done bool
	// Move is the move tried; Reply the opponent's answer from the
	// solution after a correct move that does not finish the puzzle.
	Move, Reply chess.Move
}

// Try judges the solver's move m at ply (an even number: the half-moves
// already played in the puzzle). A move is correct when it is the
// solution's, or when it mates (any mate counts).
func (p *Puzzle) Try(ply int, m chess.Move) (Verdict, error) {
	if ply < 0 || ply%2 != 0 || ply >= len(p.Solution) {
		return Verdict{}, ErrStalePly
	}
	pos := p.Position(ply)
	if !pos.IsLegal(m) {
		return Verdict{}, ErrIllegal
	}
	v := Verdict{Move: m}
	after := pos.Play(m)
	switch {
	case after.IsCheckmate():
		v.Correct, v.Done = true, true
	case m == p.Solution[ply]:
		v.Correct = true
		v.Done = ply+1 >= len(p.Solution)
		if !v.Done {
			v.Reply = p.Solution[ply+1]
		}
	}
	return v, nil
}
