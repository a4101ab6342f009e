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
const slowLevel = 6

// levelLoss sums one level's moves as judged by Stockfish.
type levelLoss struct {
	moves, loss, over100, over300 int
	spent                         time.Duration
}

// measureLoss lets each level choose a move in every position, samples
// times with different seeds (slowSamples times for levels 6-8), and asks the judge (Stockfish at depth) how
// much worse each move is than the best: the judge scores the position,
// then each chosen move by searching from the same position restricted to
// that move ("go depth N searchmoves m"). It prints a Markdown table.
func measureLoss(judge *engine, positions []*chess.Position, levels []int, samples, slowSamples, depth int) error {
	ctx := context.Background()
	players := map[int]*search.Searcher{}
	for _, l := range levels {
		players[l] = search.NewSearcher(16)
	}
	sums := map[int]*levelLoss{}
	for _, l := range levels {
		sums[l] = &levelLoss{}
	}
	for i, pos := range positions {
		type pick struct {
			level int
			move  chess.Move
		}
		var picks []pick
		for _, l := range levels {
			n := samples
			if l >= slowLevel {
				n = slowSamples
			}
			for k := 0; k < n; k++ {
				s := players[l]
				s.Clear()
				s.SetSeed(uint64(i+1)<<20 ^ uint64(l)<<8 ^ uint64(k))
				start := time.Now()
				m, _, err := s.PlayLevel(ctx, pos, nil, l, search.Limits{})
				sums[l].spent += time.Since(start)
				if err != nil {
					return fmt.Errorf("position %d (%s), level %d: %w", i+1, pos.FEN(), l, err)
				}
				picks = append(picks, pick{l, m})
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
			s := sums[p.level]
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
	fmt.Printf("Loss per move over %d positions (%d moves each by levels 1-%d, %d by the others), judged by %s at depth %d (capped at %d cp):\n\n",
		len(positions), samples, slowLevel-1, slowSamples, judge.name, depth, lossCap)
	fmt.Println("| Level | Mean loss (cp) | Moves losing ≥ 100 cp | Moves losing ≥ 300 cp | Time a move |")
	fmt.Println("|------:|---------------:|----------------------:|----------------------:|------------:|")
	for _, l := range levels {
		s := sums[l]
		n := max(s.moves, 1)
		fmt.Printf("| %d | %d | %.0f %% | %.0f %% | %v |\n", l, s.loss/n,
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

// parseLevels reads "1-8" or "1,3,5".
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
			if l < 1 || l > search.MaxLevel {
				return nil, fmt.Errorf("level %d does not exist (1-%d)", l, search.MaxLevel)
			}
			out = append(out, l)
		}
	}
	return out, nil
}
