// Command tune fits the evaluation's weights to the results of self-play
// games (Texel's method), for level 8 and the UCI binary; levels 1–7 and
// the analysis keep the hand-set weights (issue 16).
//
// First it plays games at a few thousand nodes a move and writes every
// quiet position with the game's result:
//
//	go run ./cmd/tune -play 20m -o /tmp/samples.txt
//
// Then it adjusts the weights, one number at a time, until the evaluation
// foretells the results as well as it can, and writes chess/engine/tuned.go:
//
//	go run ./cmd/tune -samples /tmp/samples.txt -out chess/engine/tuned.go
//
// Check a new set of weights with a match against the old build
// (cmd/match -opponent-engine) before keeping it.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"chesstutor/chess"
	search "chesstutor/chess/engine"
	"chesstutor/internal/adjudicate"
	"chesstutor/internal/fenfile"
)

func main() {
	playFor := flag.Duration("play", 0, "play self-play games for this long and write their quiet positions to -o")
	nodes := flag.Uint64("nodes", 8000, "with -play: nodes searched a move")
	out := flag.String("o", "", "with -play: the samples file to write")
	starts := flag.String("openings", "cmd/match/testdata/middlegames.fen", "with -play: positions to start from besides the initial one")
	samplesPath := flag.String("samples", "", "tune the weights on the samples in this file")
	goPath := flag.String("out", "chess/engine/tuned.go", "with -samples: the Go file to write the tuned weights to")
	steps := flag.String("steps", "8,4,2,1", "with -samples: the sizes of the adjustments, largest first, each tried until a pass changes nothing (at most -passes times)")
	passes := flag.Int("passes", 6, "with -samples: the most passes at each step")
	fromHand := flag.Bool("from-hand", false, "with -samples: start from the hand-set weights instead of the tuned ones in chess/engine/tuned.go")
	workers := flag.Int("workers", runtime.NumCPU(), "goroutines playing or evaluating")
	flag.Parse()
	var err error
	switch {
	case *playFor > 0 && *out != "":
		err = playGames(*out, *starts, *playFor, *nodes, *workers)
	case *samplesPath != "":
		var sizes []int
		if sizes, err = parseSteps(*steps); err == nil {
			err = tune(*samplesPath, *goPath, *workers, *fromHand, sizes, *passes)
		}
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tune:", err)
		os.Exit(1)
	}
}

// playGames plays games between two full-strength searches with the tuned
// weights, at a fixed node count, from varied starts (a position of the
// openings file or the initial position, then a few random moves, kept
// when a short search finds it within 2.5 pawns of level), and writes
// "FEN|result" lines.
func playGames(path, openingsPath string, budget time.Duration, nodes uint64, workers int) error {
	initial, err := chess.ParseFEN(chess.StartFEN)
	if err != nil {
		return err
	}
	starts := []start{}
	for range 100 {
		starts = append(starts, start{pos: initial, initial: true})
	}
	if openingsPath != "" {
		entries, err := fenfile.Read(openingsPath)
		if err != nil {
			return err
		}
		for _, e := range entries {
			starts = append(starts, start{pos: e.Pos})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	var mu sync.Mutex
	var wg sync.WaitGroup
	deadline := time.Now().Add(budget)
	games, positions := 0, 0
	var firstErr error
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(k)+1, uint64(time.Now().UnixNano())))
			s := search.NewSearcher(16)
			s.SetTuned(true) // the strongest play gives the truest results
			for time.Now().Before(deadline) {
				lines, err := playGame(s, rng, starts, nodes)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				for _, l := range lines {
					w.WriteString(l)
				}
				if lines != nil {
					games++
					positions += len(lines)
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(firstErr, w.Flush(), f.Close()); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d games, %d positions\n", games, positions)
	return nil
}

// start is a position the games begin from.
type start struct {
	pos *chess.Position
	// initial marks the initial position, whose games need more random
	// moves before they differ than an opening's.
	initial bool
}

// tuneRules adjudicate the tuning games like the match program, with
// thresholds of their own (one searcher plays both sides here, so its
// score stands for both engines'): a side more than nine pawns down for
// six plies has lost; after move 80 a game within 0.15 pawn of level for
// 16 plies is drawn.
var tuneRules = adjudicate.Rules{LostBy: 900, LostPlies: 6, LevelAfter: 160, LevelWithin: 14, LevelPlies: 16}

// labels are the results as the samples write them: White's score.
var labels = map[string]string{"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}

// playGame plays one game and returns its quiet positions (nobody in
// check, and the move chosen is neither a capture nor a promotion), each
// with the result, or nil when the random start was unbalanced.
func playGame(s *search.Searcher, rng *rand.Rand, starts []start, nodes uint64) ([]string, error) {
	ctx := context.Background()
	from := starts[rng.IntN(len(starts))]
	g, err := chess.NewGame(from.pos)
	if err != nil {
		return nil, err
	}
	s.Clear()
	random := 2 + rng.IntN(3)
	if from.initial {
		random = 6 + rng.IntN(4)
	}
	for range random {
		moves := g.Position().AppendLegalMoves(nil)
		if len(moves) == 0 {
			return nil, nil
		}
		if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
			return nil, err
		}
	}
	if g.Outcome().Over() {
		return nil, nil
	}
	if r := s.Search(ctx, g.Position(), nil, search.Limits{Depth: 6}); abs(r.Score) > 250 {
		return nil, nil
	}
	var fens []string
	result := ""
	referee := adjudicate.Referee{Rules: tuneRules}
	var history []uint64
	for !g.Outcome().Over() {
		pos := g.Position()
		r := s.Search(ctx, pos, history, search.Limits{Nodes: nodes})
		if !pos.InCheck() && !r.Move.IsCapture() && !r.Move.IsPromotion() && abs(r.Score) < 1500 {
			fens = append(fens, pos.FEN())
		}
		white := r.Score
		if pos.Turn() == chess.Black {
			white = -white
		}
		if v := referee.Observe(g.Ply(), white); v != adjudicate.Play {
			result = labels[v.Result()]
			break
		}
		if g.Ply() > 400 {
			result = "0.5"
			break
		}
		history = append(history, pos.Hash())
		if err := g.Play(r.Move); err != nil {
			return nil, err
		}
	}
	if result == "" {
		result = labels[g.Outcome().Result]
	}
	out := make([]string, len(fens))
	for i, f := range fens {
		out[i] = f + "|" + result + "\n"
	}
	return out, nil
}

// tune fits the weights to the samples in path and writes them to goPath.
func tune(path, goPath string, workers int, fromHand bool, steps []int, passes int) error {
	samples, err := readSamples(path)
	if err != nil {
		return err
	}
	t := search.NewTuning(samples, workers, fromHand)
	k := t.FitK()
	before := t.Error()
	fmt.Fprintf(os.Stderr, "%d samples, %d numbers to tune, K %.3f, error %.6f\n", len(samples), t.Params(), k, before)
	for _, step := range steps {
		for pass := 1; ; pass++ {
			e, changed := t.Pass(step)
			fmt.Fprintf(os.Stderr, "step %d pass %d: error %.6f, %d changed\n", step, pass, e, changed)
			if changed == 0 || pass >= passes {
				break
			}
		}
	}
	fmt.Fprintf(os.Stderr, "error %.6f → %.6f\n%s\n", before, t.Error(), strings.Join(t.Changes(), "\n"))
	from := "tuned"
	if fromHand {
		from = "hand-set"
	}
	header := fmt.Sprintf("// Code generated by go run ./cmd/tune -samples … from %d samples; DO NOT EDIT.\n// Error %.6f with the %s weights it started from, %.6f tuned (K %.3f).\n\n", len(samples), before, from, t.Error(), k)
	src, err := t.Source(header)
	if err != nil {
		return err
	}
	return os.WriteFile(goPath, []byte(src), 0o644)
}

// parseSteps reads a list such as "8,4,2,1".
func parseSteps(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-steps: %q is not a list of positive numbers such as 8,4,2,1", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// readSamples reads "FEN|result" lines.
func readSamples(path string) ([]search.Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseSamples(f, path)
}

func parseSamples(r io.Reader, name string) ([]search.Sample, error) {
	var out []search.Sample
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		fen, res, ok := strings.Cut(sc.Text(), "|")
		if !ok {
			return nil, fmt.Errorf("%s line %d: want FEN|result", name, n)
		}
		pos, err := chess.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, n, err)
		}
		v, err := strconv.ParseFloat(res, 64)
		if err != nil || (v != 0 && v != 0.5 && v != 1) {
			return nil, fmt.Errorf("%s line %d: the result %q is not 1, 0.5 or 0", name, n, res)
		}
		out = append(out, search.Sample{Pos: pos, Result: v})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no sample", name)
	}
	return out, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
