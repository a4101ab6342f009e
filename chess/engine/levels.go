package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"chesstutor/chess"
)

// Level is one playing strength offered on the new-game form.
type Level struct {
	Number      int
	Name        string
	Description string
	// Rating is the level's approximate playing rating, from matches
	// against Stockfish and the levels' loss per move judged by it (see
	// the calibration table in docs/levels.md).
	Rating int
}

// levelParams make a level weaker in the ways people are weaker (C2):
//
//   - Depth and Time: it looks fewer moves ahead and thinks for less time.
//   - Noise: its judgement of a position is hazy, off by up to Noise
//     centipawns either way.
//   - Blind: it does not consider some of the opponent's captures and
//     checks, with this chance for each, in the opponent's replies up to
//     BlindPly half-moves deep. This is how it leaves pieces hanging and
//     walks into mates. From level 3 up the capture of its queen is always
//     seen, so it never gives the queen away for nothing.
//   - Overlook: some of its own moves do not occur to it, with this
//     chance each, so it sometimes misses a capture or a mate in one.
//   - Unseen: some of the opponent's pieces are not noticed as things to
//     take, with this chance each, so a free piece stays on the board
//     however many of its pieces attack it (level 0).
//   - Margin, Temperature, TopN: it picks among the good moves it found
//     rather than always the best one. Margin is how much worse (in
//     centipawns) a move may be and still be considered; Temperature
//     spreads the choice (a larger value picks worse moves more often);
//     TopN caps the number of candidates.
//   - Levels 1–7 judge positions with the hand-set weights they were
//     calibrated with; level 8 with the weights tuned on self-play.
type levelParams struct {
	Level
	Depth       int
	Time        time.Duration
	Noise       int
	Blind       float64
	BlindPly    int
	Overlook    float64
	Unseen      float64
	Margin      int
	Temperature float64
	TopN        int
}

var levels = []levelParams{
	{Level: Level{0, "First game", "Knows how all the pieces move, but has no plan yet. It often leaves pieces where you can take them, and takes a piece you leave unguarded only about half the time.", 450},
		Depth: 1, Time: 300 * time.Millisecond, Noise: 170, Blind: 0.85, BlindPly: 1, Overlook: 0.1, Unseen: 0.45, Margin: 250, Temperature: 30, TopN: 10},
	{Level: Level{1, "Just learned the moves", "Often leaves a piece where it can be taken and sometimes misses a mate in one. Usually grabs a queen you leave hanging.", 800},
		Depth: 2, Time: 300 * time.Millisecond, Noise: 60, Blind: 0.18, BlindPly: 1, Overlook: 0.15, Margin: 260, Temperature: 130, TopN: 8},
	{Level: Level{2, "Beginner", "Sees simple captures and threats, but still loses pieces to your attacks.", 1050},
		Depth: 2, Time: 300 * time.Millisecond, Noise: 25, Blind: 0.09, BlindPly: 1, Overlook: 0.09, Margin: 70, Temperature: 25, TopN: 6},
	{Level: Level{3, "Casual player", "Plays sensible moves and guards its queen, but misses some of your tactics.", 1200},
		Depth: 2, Time: 400 * time.Millisecond, Noise: 15, Blind: 0.05, BlindPly: 1, Overlook: 0.04, Margin: 50, Temperature: 18, TopN: 5},
	{Level: Level{4, "Improving player", "Looks a little further ahead, but now and then misses your threat. You will need a plan to win.", 1400},
		Depth: 4, Time: 500 * time.Millisecond, Noise: 18, Blind: 0.08, BlindPly: 3, Overlook: 0.035, Margin: 45, Temperature: 18, TopN: 4},
	{Level: Level{5, "Club beginner", "Finds most short tactics and rarely gives anything away.", 1650},
		Depth: 5, Time: 600 * time.Millisecond, Noise: 11, Blind: 0.05, BlindPly: 3, Margin: 28, Temperature: 11, TopN: 3},
	{Level: Level{6, "Club player", "Solid and careful. Punishes loose pieces and weak kings.", 1800},
		Depth: 7, Time: 800 * time.Millisecond, Noise: 5, Blind: 0.03, BlindPly: 3, Margin: 15, Temperature: 6, TopN: 2},
	{Level: Level{7, "Experienced club player", "Thinks deeply and rarely misses a tactic, but once in a while overlooks your reply. Expect a long fight.", 2000},
		Time: 400 * time.Millisecond, Blind: 0.01, BlindPly: 3, Margin: 8, Temperature: 3, TopN: 2},
	{Level: Level{8, "Strong club player", "Plays its best move every time. A tough fight even for strong players.", 2200},
		Time: 1500 * time.Millisecond},
}

// weights returns the evaluation a level judges positions with.
func (p levelParams) weights() *weights {
	if p.Number < MaxLevel {
		return &handWeights
	}
	return &tunedWeights
}

// Levels returns the playing levels 0–8, weakest first.
func Levels() []Level {
	out := make([]Level, len(levels))
	for i, l := range levels {
		out[i] = l.Level
	}
	return out
}

// MinLevel and MaxLevel are the weakest and the strongest level: the one
// statement of the range the game service, the new-game form and the
// UCI program check against. DefaultLevel is the level of a game that
// names none (the API's default since before level 0 existed).
const (
	MinLevel     = 0
	MaxLevel     = 8
	DefaultLevel = 1
)

func levelFor(n int) (levelParams, error) {
	if n < MinLevel || n > MaxLevel {
		return levelParams{}, fmt.Errorf("engine: level %d does not exist; choose a level from %d to %d", n, MinLevel, MaxLevel)
	}
	return levels[n-MinLevel], nil
}

// LevelBudget returns the thinking time of a level, the longest the
// computer takes for one move at that level.
func LevelBudget(n int) time.Duration {
	p, err := levelFor(n)
	if err != nil {
		return 0
	}
	return p.Time
}

// PlayLevel searches pos the way level n plays and returns the chosen move
// with the search result. A positive limit.Time shortens the level's
// thinking time (a UCI "go" command, a low clock, time spent waiting for a
// worker), and limit.Soft is passed on (see Limits). A node budget
// (limit.Nodes: UCI "go nodes", tests) replaces the level's thinking time,
// so the search is bounded by work and its depth, never by the clock: the
// same move on a busy machine as on an idle one. history holds the hashes
// of the positions before pos, as for Search.
func (s *Searcher) PlayLevel(ctx context.Context, pos *chess.Position, history []uint64, n int, limit Limits) (chess.Move, Result, error) {
	p, err := levelFor(n)
	if err != nil {
		return chess.NoMove, Result{}, err
	}
	lim := Limits{Depth: p.Depth, Time: p.Time, Margin: p.Margin, Soft: limit.Soft, Nodes: limit.Nodes}
	if limit.Nodes > 0 {
		lim.Time = limit.Time
	} else if limit.Time > 0 && limit.Time < lim.Time {
		lim.Time = limit.Time
	}
	s.weak = weakness{noise: p.Noise, blind: p.Blind, blindPly: p.BlindPly, queenSafe: n >= 3, overlook: p.Overlook, unseen: p.Unseen}
	own := s.weights
	s.weights = p.weights()
	if s.weak.active() {
		s.weak.salt = s.rng.Uint64() | 1
	}
	res := s.Search(ctx, pos, history, lim)
	s.weak, s.weights = weakness{}, own
	if res.Move == chess.NoMove {
		return chess.NoMove, res, fmt.Errorf("engine: there is no legal move in this position")
	}
	return choose(res, p, s.rng), res, nil
}

// choose picks the move a level plays from the scored root moves: among
// the few best moves within the level's margin, by a softmax of their
// scores, so a slightly worse move is likely and a much worse one rare.
func choose(res Result, p levelParams, rng *rand.Rand) chess.Move {
	if p.Margin <= 0 || p.TopN <= 1 || len(res.Root) < 2 || res.Depth == 0 {
		return res.Move
	}
	best := res.Root[0].Score
	if best > mateBound {
		return res.Move // a found mate is always played
	}
	type cand struct {
		m chess.Move
		w float64
	}
	cands := make([]cand, 0, p.TopN)
	total := 0.0
	for _, r := range res.Root {
		if len(cands) == p.TopN {
			break
		}
		if !r.Scored || r.Score < best-p.Margin {
			continue
		}
		w := math.Exp(float64(r.Score-best) / p.Temperature)
		cands = append(cands, cand{r.Move, w})
		total += w
	}
	if len(cands) == 0 {
		return res.Move
	}
	x := rng.Float64() * total
	for _, c := range cands {
		if x < c.w {
			return c.m
		}
		x -= c.w
	}
	return cands[len(cands)-1].m
}
