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
}

// levelParams make a level weaker in a human way (C2): it looks fewer moves
// ahead, thinks for less time, and picks among the good moves it found
// rather than always the best one. Margin is how much worse (in
// centipawns) a move may be and still be considered; Temperature spreads
// the choice (a larger value picks worse moves more often); TopN caps the
// number of candidates.
type levelParams struct {
	Level
	Depth       int
	Time        time.Duration
	Margin      int
	Temperature float64
	TopN        int
}

var levels = []levelParams{
	{Level{1, "Just learned the moves", "Looks only at the next move. Sometimes leaves a piece hanging and never sees a mate in two coming."}, 1, 300 * time.Millisecond, 350, 140, 8},
	{Level{2, "Beginner", "Sees simple captures and threats, but often misses what you are planning."}, 2, 300 * time.Millisecond, 260, 90, 6},
	{Level{3, "Casual player", "Plays sensible moves and spots easy tactics. Still makes a slip now and then."}, 3, 400 * time.Millisecond, 180, 60, 5},
	{Level{4, "Improving player", "Thinks two moves ahead for both sides. You will need a real plan to win."}, 4, 500 * time.Millisecond, 110, 40, 4},
	{Level{5, "Club beginner", "Finds most short tactics and rarely gives anything away."}, 5, 600 * time.Millisecond, 70, 25, 3},
	{Level{6, "Club player", "Solid and careful. Punishes loose pieces and weak kings."}, 7, 800 * time.Millisecond, 40, 14, 3},
	{Level{7, "Experienced club player", "Calculates deeply and almost never blunders."}, 10, 1100 * time.Millisecond, 15, 6, 2},
	{Level{8, "Strong club player", "Plays its best move every time. A tough fight even for strong players."}, 0, 1500 * time.Millisecond, 0, 0, 1},
}

// Levels returns the playing levels 1–8, weakest first.
func Levels() []Level {
	out := make([]Level, len(levels))
	for i, l := range levels {
		out[i] = l.Level
	}
	return out
}

// MinLevel and MaxLevel are the weakest and the strongest level: the one
// statement of the range the game service, the new-game form and the
// UCI program check against.
const (
	MinLevel = 1
	MaxLevel = 8
)

func levelFor(n int) (levelParams, error) {
	if n < 1 || n > len(levels) {
		return levelParams{}, fmt.Errorf("engine: level %d does not exist; choose a level from 1 to %d", n, len(levels))
	}
	return levels[n-1], nil
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
// worker), and limit.Soft is passed on (see Limits). history holds the
// hashes of the positions before pos, as for Search.
func (s *Searcher) PlayLevel(ctx context.Context, pos *chess.Position, history []uint64, n int, limit Limits) (chess.Move, Result, error) {
	p, err := levelFor(n)
	if err != nil {
		return chess.NoMove, Result{}, err
	}
	lim := Limits{Depth: p.Depth, Time: p.Time, Margin: p.Margin, Soft: limit.Soft}
	if limit.Time > 0 && limit.Time < lim.Time {
		lim.Time = limit.Time
	}
	res := s.Search(ctx, pos, history, lim)
	if res.Move == chess.NoMove {
		return chess.NoMove, res, fmt.Errorf("engine: there is no legal move in this position")
	}
	return choose(res, p), res, nil
}

// choose picks the move a level plays from the scored root moves: among
// the few best moves within the level's margin, by a softmax of their
// scores, so a slightly worse move is likely and a much worse one rare.
func choose(res Result, p levelParams) chess.Move {
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
	x := rand.Float64() * total
	for _, c := range cands {
		if x < c.w {
			return c.m
		}
		x -= c.w
	}
	return cands[len(cands)-1].m
}
