package puzzles

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"chesstutor/chess"
	"chesstutor/review"
	"chesstutor/store"
)

// Service plays puzzles for visitors: it chooses the next one, judges
// moves, answers a wrong move with the opponent's punishing reply and the
// review's reason, rates first attempts and keeps streaks. The data and
// the rules above are pure; the Service adds the store and, for the
// punishing reply only, the site's own engine (never Stockfish).
type Service struct {
	set    *Set
	store  store.Puzzles
	engine review.Engine
	depth  int
	now    func() time.Time
}

// ServiceConfig is what a Service needs.
type ServiceConfig struct {
	Set   *Set          // default: the shipped puzzles
	Store store.Puzzles // required
	// Engine finds the punishing reply to a wrong move; nil leaves the
	// reply out (the move is still refused).
	Engine review.Engine
	// Depth bounds the engine's look at a wrong move (default 6).
	Depth int
	Now   func() time.Time
}

// NewService returns a service.
func NewService(cfg ServiceConfig) *Service {
	s := &Service{set: cfg.Set, store: cfg.Store, engine: cfg.Engine, depth: cfg.Depth, now: cfg.Now}
	if s.set == nil {
		s.set = Shipped()
	}
	if s.depth <= 0 {
		s.depth = 6
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// Set returns the puzzles the service plays.
func (s *Service) Set() *Set { return s.set }

// Player is a visitor's puzzle standing.
type Player struct {
	Rating                    Rating
	Solved, Failed            int
	StreakCurrent, StreakBest int
	record                    store.PuzzlePlayer
}

func playerOf(r store.PuzzlePlayer) Player {
	p := Player{Rating: NewVisitorRating, record: r}
	if r.Version > 0 {
		p.Rating = Rating{R: r.Rating, RD: r.RD, Sigma: r.Volatility}
		p.Solved, p.Failed, p.StreakCurrent, p.StreakBest = r.Solved, r.Failed, r.StreakCurrent, r.StreakBest
	}
	return p
}

// Player returns the visitor's standing (a new visitor's when none).
func (s *Service) Player(ctx context.Context, visitor string) (Player, error) {
	r, err := s.store.PuzzlePlayer(ctx, visitor)
	if err != nil {
		return Player{}, err
	}
	return playerOf(r), nil
}

// ratings returns the current rating of every puzzle.
func (s *Service) ratings(ctx context.Context) (Ratings, map[string]store.PuzzleRating, error) {
	stored, err := s.store.PuzzleRatings(ctx)
	if err != nil {
		return nil, nil, err
	}
	return func(p *Puzzle) Rating {
		if r, ok := stored[p.ID]; ok {
			return Rating{R: r.Rating, RD: r.RD, Sigma: r.Volatility}
		}
		return PuzzleStart(p.Rating)
	}, stored, nil
}

// Rating returns the puzzle's current rating.
func (s *Service) Rating(ctx context.Context, p *Puzzle) (Rating, error) {
	rate, _, err := s.ratings(ctx)
	if err != nil {
		return Rating{}, err
	}
	return rate(p), nil
}

// ErrNoTheme: no puzzle has the theme asked for.
var ErrNoTheme = errors.New("puzzles: no puzzle has that theme")

// Next chooses the visitor's next puzzle (P4), with theme when not empty:
// near the visitor's rating, corrected by the Aim of their first attempts.
func (s *Service) Next(ctx context.Context, visitor string, theme Theme) (*Puzzle, error) {
	pl, err := s.Player(ctx, visitor)
	if err != nil {
		return nil, err
	}
	tried, err := s.store.PuzzlesTried(ctx, visitor)
	if err != nil {
		return nil, err
	}
	results, err := s.store.PuzzleResults(ctx, visitor)
	if err != nil {
		return nil, err
	}
	rate, _, err := s.ratings(ctx)
	if err != nil {
		return nil, err
	}
	p := s.set.Next(pl.Rating, Aim(results), theme, tried, rate, rand.New(rand.NewPCG(uint64(s.now().UnixNano()), uint64(len(tried)))))
	if p == nil {
		return nil, ErrNoTheme
	}
	return p, nil
}

// Mode says how a puzzle is played: on its own, or as a step of a streak.
type Mode uint8

const (
	Single Mode = iota
	StreakMode
)

// ErrNotInStreak: the puzzle is not the visitor's streak's current one.
var ErrNotInStreak = errors.New("puzzles: that puzzle is not the streak's current one")

// Outcome is what a move in a puzzle led to.
type Outcome struct {
	Verdict
	// Ply is the number of half-moves played in the puzzle after the
	// move and the reply: after a wrong move, the ply the position stays at.
	Ply int
	// Wrong move: the opponent's punishing reply (NoMove when there is
	// none or no engine) and the review's look at the move (its Reason
	// and the better move).
	Punish chess.Move
	Review *review.Move
	// Rated: this was the visitor's first attempt, decided now; Before
	// and After are the visitor's ratings around it.
	Rated         bool
	Before, After Rating
	// Streak after the move (StreakMode): its length, and whether it ended.
	Streak      int
	StreakEnded bool
	StreakBest  int
}

// Move plays the solver's move m at ply in puzzle p for the visitor.
// A wrong move changes no position: the opponent's punishing reply is
// found and explained, and the attempt counts as failed.
func (s *Service) Move(ctx context.Context, visitor string, p *Puzzle, ply int, m chess.Move, mode Mode) (Outcome, error) {
	v, err := p.Try(ply, m)
	if err != nil {
		return Outcome{}, err
	}
	if mode == StreakMode {
		pl, err := s.store.PuzzlePlayer(ctx, visitor)
		if err != nil {
			return Outcome{}, err
		}
		if pl.StreakCurrent == 0 && pl.StreakSeed == 0 || s.set.Streak(pl.StreakSeed, pl.StreakCurrent) != p {
			return Outcome{}, ErrNotInStreak
		}
	}
	out := Outcome{Verdict: v, Ply: ply}
	if v.Correct {
		out.Ply = ply + 1
		if v.Reply != chess.NoMove {
			out.Ply = ply + 2
		}
	} else {
		pos := p.Position(ply)
		out.Punish, out.Review, err = s.punish(ctx, pos, m)
		if err != nil {
			return Outcome{}, err
		}
	}
	if !v.Correct || v.Done {
		if err := s.rate(ctx, visitor, p, v.Correct, &out); err != nil {
			return Outcome{}, err
		}
	}
	if mode == StreakMode && (!v.Correct || v.Done) {
		if err := s.advanceStreak(ctx, visitor, v.Correct, &out); err != nil {
			return Outcome{}, err
		}
	}
	return out, nil
}

// GiveUp records that the visitor asked for a hint or the solution: the
// first attempt counts as failed (and a streak ends).
func (s *Service) GiveUp(ctx context.Context, visitor string, p *Puzzle, mode Mode) (Outcome, error) {
	var out Outcome
	if err := s.rate(ctx, visitor, p, false, &out); err != nil {
		return out, err
	}
	if mode == StreakMode {
		pl, err := s.store.PuzzlePlayer(ctx, visitor)
		if err != nil {
			return out, err
		}
		if pl.StreakCurrent > 0 && s.set.Streak(pl.StreakSeed, pl.StreakCurrent) == p {
			if err := s.advanceStreak(ctx, visitor, false, &out); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// punish finds the opponent's best answer to the wrong move m and the
// review's reason for it.
func (s *Service) punish(ctx context.Context, pos *chess.Position, m chess.Move) (chess.Move, *review.Move, error) {
	if s.engine == nil {
		return chess.NoMove, nil, nil
	}
	an, err := review.Analyse(ctx, s.engine, pos, []chess.Move{m}, nil, review.Options{Depth: s.depth})
	if err != nil {
		return chess.NoMove, nil, fmt.Errorf("puzzles: the reply to a wrong move: %w", err)
	}
	rv, err := review.Build(pos, []chess.Move{m}, an)
	if err != nil || len(rv.Moves) == 0 {
		return chess.NoMove, nil, err
	}
	rm := rv.Moves[0]
	return an[1].Best, &rm, nil
}

// rate records the visitor's first attempt at p (solved or not) with
// both new ratings; a replay changes nothing. Two requests at once are
// settled by the store's versions: the loser reads again and retries.
func (s *Service) rate(ctx context.Context, visitor string, p *Puzzle, solved bool, out *Outcome) error {
	for try := 0; try < 4; try++ {
		rec, err := s.store.PuzzlePlayer(ctx, visitor)
		if err != nil {
			return err
		}
		pl := playerOf(rec)
		out.Before, out.After = pl.Rating, pl.Rating
		tried, err := s.store.PuzzlesTried(ctx, visitor)
		if err != nil {
			return err
		}
		if tried[p.ID] {
			return nil
		}
		rate, stored, err := s.ratings(ctx)
		if err != nil {
			return err
		}
		newV, newP := Play(pl.Rating, rate(p), solved)
		next := rec
		next.Rating, next.RD, next.Volatility = newV.R, newV.RD, newV.Sigma
		if solved {
			next.Solved++
		} else {
			next.Failed++
		}
		err = s.store.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{Visitor: visitor, PuzzleID: p.ID, Solved: solved,
			RatingBefore: pl.Rating.R, Player: next,
			Puzzle: store.PuzzleRating{Rating: newP.R, RD: newP.RD, Volatility: newP.Sigma, Attempts: stored[p.ID].Attempts + 1}})
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		out.Rated, out.After = true, newV
		return nil
	}
	return store.ErrConflict
}

// StartStreak begins a new streak for the visitor and returns its first
// puzzle.
func (s *Service) StartStreak(ctx context.Context, visitor string) (*Puzzle, error) {
	for try := 0; try < 4; try++ {
		rec, err := s.store.PuzzlePlayer(ctx, visitor)
		if err != nil {
			return nil, err
		}
		if rec.Version == 0 {
			rec.Rating, rec.RD, rec.Volatility = NewVisitorRating.R, NewVisitorRating.RD, NewVisitorRating.Sigma
		}
		rec.StreakCurrent = 0
		rec.StreakSeed = s.now().UnixNano()&0x7fffffffffff | 1
		err = s.store.SavePuzzlePlayer(ctx, visitor, rec)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return s.set.Streak(rec.StreakSeed, 0), nil
	}
	return nil, store.ErrConflict
}

// StreakPuzzle returns the visitor's current streak puzzle and the number
// solved so far in this streak, or nil when no streak is under way.
func (s *Service) StreakPuzzle(ctx context.Context, visitor string) (*Puzzle, int, error) {
	rec, err := s.store.PuzzlePlayer(ctx, visitor)
	if err != nil || rec.StreakSeed == 0 {
		return nil, 0, err
	}
	return s.set.Streak(rec.StreakSeed, rec.StreakCurrent), rec.StreakCurrent, nil
}

// advanceStreak adds a solved puzzle to the streak, or ends it.
func (s *Service) advanceStreak(ctx context.Context, visitor string, solved bool, out *Outcome) error {
	for try := 0; try < 4; try++ {
		rec, err := s.store.PuzzlePlayer(ctx, visitor)
		if err != nil {
			return err
		}
		if solved {
			rec.StreakCurrent++
			rec.StreakBest = max(rec.StreakBest, rec.StreakCurrent)
		} else {
			out.StreakEnded = true
			out.Streak = rec.StreakCurrent
			rec.StreakCurrent, rec.StreakSeed = 0, 0
		}
		err = s.store.SavePuzzlePlayer(ctx, visitor, rec)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		if solved {
			out.Streak = rec.StreakCurrent
		}
		out.StreakBest = rec.StreakBest
		return nil
	}
	return store.ErrConflict
}

// Daily returns today's puzzle.
func (s *Service) Daily() *Puzzle { return s.set.Daily(s.now()) }

// Explain finds the punishing reply to the wrong move m in pos and the
// review's look at it, without recording anything (the page without
// JavaScript shows it after the move was recorded).
func (s *Service) Explain(ctx context.Context, pos *chess.Position, m chess.Move) (chess.Move, *review.Move, error) {
	return s.punish(ctx, pos, m)
}
