// Command puzzlecheck re-verifies the shipped puzzles against Stockfish
// (P1, P7): at every step of the solver's line Stockfish must choose the
// solution's move (or, where the move mates, any mate counts), and in the
// first position the second-best move must be at least 1.5 pawns worse
// than the best unless both mate. It uses its own node budget, larger than
// the generator's, so it is a second opinion rather than a replay.
//
//	nice -n 15 go run ./cmd/puzzlecheck                 # every shipped puzzle
//	nice -n 15 go run ./cmd/puzzlecheck -f file.tsv -o kept.tsv
//
// It prints one line per puzzle that fails and a summary; it exits 1 when
// any fails.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"chesstutor/internal/stockfish"
	"chesstutor/puzzles"
)

func main() {
	var (
		file  = flag.String("f", "", "a data file (default: the shipped puzzles)")
		out   = flag.String("o", "", "write the puzzles that pass here")
		nodes = flag.Int("nodes", 150000, "Stockfish's nodes per position")
		sf    = flag.String("stockfish", stockfish.DefaultPath, "the Stockfish binary")
		limit = flag.Int("n", 0, "check only the first n puzzles (0: all)")
		shard = flag.String("shard", "", "i/n: check only every n-th puzzle from the i-th (0-based), to share the work between processes")
	)
	flag.Parse()
	set := puzzles.Shipped()
	if *file != "" {
		f, err := os.Open(*file)
		if err != nil {
			log.Fatal(err)
		}
		set, err = puzzles.Read(f)
		f.Close()
		if err != nil {
			log.Fatal(err)
		}
	}
	eng, err := stockfish.Start(*sf, 16)
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close()
	var keep io.Writer = io.Discard
	// done writes out the puzzles kept; os.Exit skips deferred calls, so
	// it is called before every exit (a failure used to lose the file's
	// last buffered lines).
	done := func() {}
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			log.Fatal(err)
		}
		bw := bufio.NewWriter(f)
		keep = bw
		done = func() {
			if err := bw.Flush(); err != nil {
				log.Fatal(err)
			}
			if err := f.Close(); err != nil {
				log.Fatal(err)
			}
		}
	}
	start := time.Now()
	all := set.All()
	if *limit > 0 && *limit < len(all) {
		all = all[:*limit]
	}
	if *shard != "" {
		var i, n int
		if _, err := fmt.Sscanf(*shard, "%d/%d", &i, &n); err != nil || n < 1 || i < 0 || i >= n {
			log.Fatalf("-shard %q: want i/n with 0 <= i < n", *shard)
		}
		var mine []*puzzles.Puzzle
		for k := i; k < len(all); k += n {
			mine = append(mine, all[k])
		}
		all = mine
	}
	failed, gaps := 0, 0
	for i, p := range all {
		res, err := Verify(eng, p, *nodes)
		if err != nil {
			log.Fatal(err)
		}
		if res.Problem != "" {
			failed++
			fmt.Printf("FAIL %s: %s\n", p.ID, res.Problem)
			continue
		}
		if res.Gap >= 0 {
			gaps += res.Gap
		}
		fmt.Fprintln(keep, p.Line())
		if (i+1)%100 == 0 {
			log.Printf("%d checked, %d failed, %.1f s each", i+1, failed, time.Since(start).Seconds()/float64(i+1))
		}
	}
	fmt.Printf("%d puzzles checked with %d nodes a position: %d pass, %d fail (%.1f min)\n",
		len(all), *nodes, len(all)-failed, failed, time.Since(start).Minutes())
	done()
	if failed > 0 {
		os.Exit(1)
	}
}

// Check is what Verify found about one puzzle.
type Check struct {
	// Problem is empty when the puzzle passes, else why it does not.
	Problem string
	// Gap is how much worse the second-best first move is, in centipawns
	// (-1 when both mate or there is only one legal move).
	Gap int
}

// Verify checks puzzle p with Stockfish at nodes nodes a position.
func Verify(eng *stockfish.Engine, p *puzzles.Puzzle, nodes int) (Check, error) {
	if err := eng.NewGame(); err != nil {
		return Check{}, err
	}
	res := Check{Gap: -1}
	for ply := 0; ply < p.Plies(); ply += 2 {
		pos := p.Position(ply)
		want := p.Solution[ply]
		ls, err := eng.Analyse(pos.FEN(), nil, 2, nodes)
		if err != nil {
			return res, err
		}
		if len(ls) == 0 {
			return Check{Problem: fmt.Sprintf("ply %d: no move", ply)}, nil
		}
		best := ls[0]
		mates := pos.Play(want).IsCheckmate()
		switch {
		case mates:
		case best.Move == want.UCI():
		case len(ls) > 1 && ls[1].Move == want.UCI() && ls[1].Mate > 0 && ls[1].Mate == best.Mate:
			return Check{Problem: fmt.Sprintf("ply %d: %s mates as fast as %s", ply, best.Move, want.UCI())}, nil
		default:
			return Check{Problem: fmt.Sprintf("ply %d: Stockfish plays %s (%s), the solution %s", ply, best.Move, score(best), want.UCI())}, nil
		}
		if ply == 0 && len(ls) > 1 {
			second := ls[1]
			bothMate := best.Mate > 0 && second.Mate > 0
			if !bothMate {
				res.Gap = best.Score() - second.Score()
				if res.Gap > stockfish.MateScore/2 {
					res.Gap = stockfish.MateScore / 2
				}
				if best.Score()-second.Score() < 150 {
					return Check{Problem: fmt.Sprintf("the second-best first move %s (%s) is within 1.5 pawns of %s (%s)",
						second.Move, score(second), best.Move, score(best))}, nil
				}
			}
		}
	}
	return res, nil
}

func score(l stockfish.Line) string {
	if l.Mate != 0 {
		return fmt.Sprintf("mate %d", l.Mate)
	}
	return fmt.Sprintf("%+d cp", l.CP)
}
