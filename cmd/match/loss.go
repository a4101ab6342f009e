package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"chesstutor/chess"
	search "chesstutor/chess/engine"
)

// lossCap is the most one move can lose in the loss-per-move figures: a
// hung queen and a missed mate count the same, so one move cannot swamp
// the mean.
const lossCap = 1000

// slowLevel is the first level whose thinking ends by time rather than
// by depth.
const slowLevel = 7

// subjectLoss sums one player's moves as judged by Stockfish.
type subjectLoss struct {
	name                          string
	moves, loss, over100, over300 int
	spent                         time.Duration
}

// subject is one player measured by measureLoss: a level of the site's
// engine, or Stockfish limited to a UCI_Elo, which puts the levels' loss
// per move on the scale the matches use.
type subject struct {
	name    string
	samples int
	// pick chooses the move in position i for sample k.
	pick func(pos *chess.Position, i, k int) (chess.Move, error)
	sum  subjectLoss
}

// levelSubjects are the site's levels: levels 0-6 choose samples times per
// position with different seeds, the slower levels slowSamples times.
func levelSubjects(levels []int, samples, slowSamples int) []*subject {
	var out []*subject
	for _, l := range levels {
		s := search.NewSearcher(16)
		n := samples
		if l >= slowLevel {
			n = slowSamples
		}
		out = append(out, &subject{name: fmt.Sprintf("Level %d", l), samples: n,
			pick: func(pos *chess.Position, i, k int) (chess.Move, error) {
				s.Clear()
				s.SetSeed(uint64(i+1)<<20 ^ uint64(l)<<8 ^ uint64(k))
				m, _, err := s.PlayLevel(context.Background(), pos, nil, l, search.Limits{})
				return m, err
			}})
	}
	return out
}

// stockfishSubject is Stockfish with UCI_LimitStrength at elo, moving in
// movetime. Its weakening is random, so each sample may differ.
func stockfishSubject(path string, elo, samples int, movetime time.Duration) (*subject, *engine, error) {
	e, err := startStockfish(path, elo)
	if err != nil {
		return nil, nil, err
	}
	e.movetime = movetime
	return &subject{name: e.name, samples: samples,
		pick: func(pos *chess.Position, i, k int) (chess.Move, error) {
			if err := e.newGame(); err != nil {
				return chess.NoMove, err
			}
			u, _, err := e.think("position fen " + pos.FEN())
			if err != nil {
				return chess.NoMove, err
			}
			return pos.ParseUCI(u)
		}}, e, nil
}

// measureLoss lets each subject choose a move in every position, its
// samples times, and asks the judge (Stockfish at depth) how much worse
// each move is than the best: the judge scores the position, then each
// chosen move by searching from the same position restricted to that move
// ("go depth N searchmoves m"). It prints a Markdown table.
func measureLoss(judge *engine, positions []*chess.Position, subjects []*subject, depth int) error {
	for i, pos := range positions {
		type pick struct {
			who  *subject
			move chess.Move
		}
		var picks []pick
		for _, sub := range subjects {
			for k := 0; k < sub.samples; k++ {
				start := time.Now()
				m, err := sub.pick(pos, i, k)
				sub.sum.spent += time.Since(start)
				if err != nil {
					return fmt.Errorf("position %d (%s), %s: %w", i+1, pos.FEN(), sub.name, err)
				}
				picks = append(picks, pick{sub, m})
			}
		}
		if err := judge.newGame(); err != nil {
			return err
		}
		fen := pos.FEN()
		bestMove, best, err := judge.judge(fen, depth, "")
		if err != nil {
			return fmt.Errorf("position %d: %w", i+1, err)
		}
		scores := map[chess.Move]int{}
		for _, p := range picks {
			if _, ok := scores[p.move]; ok {
				continue
			}
			if p.move.UCI() == bestMove {
				scores[p.move] = best
				continue
			}
			_, sc, err := judge.judge(fen, depth, p.move.UCI())
			if err != nil {
				return fmt.Errorf("position %d, move %s: %w", i+1, p.move.UCI(), err)
			}
			scores[p.move] = sc
			best = max(best, sc) // the restricted search can see further than the full one
		}
		for _, p := range picks {
			d := min(max(best-scores[p.move], 0), lossCap)
			s := &p.who.sum
			s.moves++
			s.loss += d
			if d >= 100 {
				s.over100++
			}
			if d >= 300 {
				s.over300++
			}
		}
		fmt.Fprintf(os.Stderr, "position %d/%d judged (%d moves)\n", i+1, len(positions), len(scores))
	}
	fmt.Printf("Loss per move over %d positions, judged by %s at depth %d (capped at %d cp):\n\n",
		len(positions), judge.name, depth, lossCap)
	fmt.Println("| Player | Moves | Mean loss (cp) | Moves losing ≥ 100 cp | Moves losing ≥ 300 cp | Time a move |")
	fmt.Println("|:-------|------:|---------------:|----------------------:|----------------------:|------------:|")
	for _, sub := range subjects {
		s := sub.sum
		n := max(s.moves, 1)
		fmt.Printf("| %s | %d | %d | %.0f %% | %.0f %% | %v |\n", sub.name, s.moves, s.loss/n,
			100*float64(s.over100)/float64(n), 100*float64(s.over300)/float64(n),
			(s.spent / time.Duration(n)).Round(time.Millisecond/10))
	}
	return nil
}

// judge searches fen to depth, restricted to one move when only is set,
// and returns the best move with its score in centipawns for the side to
// move (a mate counts as 30000 less its length).
func (e *engine) judge(fen string, depth int, only string) (string, int, error) {
	e.send("position fen " + fen)
	cmd := fmt.Sprintf("go depth %d", depth)
	if only != "" {
		cmd += " searchmoves " + only
	}
	e.send(cmd)
	return e.awaitBestMove(2 * time.Minute)
}

// parseLevels reads "0-8" or "1,3,5".
func parseLevels(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		var a, b int
		if _, err := fmt.Sscan(lo, &a); err != nil {
			return nil, fmt.Errorf("bad level list %q", s)
		}
		b = a
		if isRange {
			if _, err := fmt.Sscan(hi, &b); err != nil {
				return nil, fmt.Errorf("bad level list %q", s)
			}
		}
		for l := a; l <= b; l++ {
			if l < search.MinLevel || l > search.MaxLevel {
				return nil, fmt.Errorf("level %d does not exist (%d-%d)", l, search.MinLevel, search.MaxLevel)
			}
			out = append(out, l)
		}
	}
	return out, nil
}

// parseElos reads "1350,1800"; an empty list is none.
func parseElos(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		var elo int
		if _, err := fmt.Sscan(part, &elo); err != nil || elo < 1350 || elo > 2850 {
			return nil, fmt.Errorf("bad UCI_Elo %q in %q (Stockfish 15.1 takes 1350-2850)", part, s)
		}
		out = append(out, elo)
	}
	return out, nil
}
