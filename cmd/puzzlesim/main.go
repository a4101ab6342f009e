// Command puzzlesim measures the puzzle selector (P4, P7): solvers of
// known strength — the computer's levels 1–6, each a new visitor rated
// like a learner who has just finished the course — take puzzles one
// after another as the site chooses them (puzzles.Set.Next near their
// Glicko-2 rating, corrected by puzzles.Aim of their own results), and both ratings move after every first attempt, as on
// the site. It prints each level's success rate, which should land near
// 70 % once its rating has settled.
//
//	nice -n 15 go run ./cmd/puzzlesim -n 120 -warmup 30
//
// With -probe it says instead how many of the shipped puzzles a level
// finds hard: each level tries every puzzle rated -from or more a few
// times, and its success is printed by rating band.
//
//	nice -n 15 go run ./cmd/puzzlesim -probe 4 -from 1000 -levels 6
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"chesstutor/chess/engine"
	"chesstutor/puzzles"
)

func main() {
	var (
		n      = flag.Int("n", 120, "puzzles each level takes after the warm-up")
		warmup = flag.Int("warmup", 30, "puzzles each level takes first, while its rating settles (not counted)")
		levels = flag.String("levels", "1,2,3,4,5,6", "the levels that solve")
		seed   = flag.Uint64("seed", 1, "seed of the choices and the levels' moves")
		probe  = flag.Int("probe", 0, "instead of the selector, let each level try every shipped puzzle rated -from or more this many times, and print its success by rating band: how many puzzles the file holds that a level finds hard")
		from   = flag.Int("from", 1000, "with -probe: the lowest puzzle rating tried")
	)
	flag.Parse()
	set := puzzles.Shipped()
	if *probe > 0 {
		for _, f := range strings.Split(*levels, ",") {
			l, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				log.Fatal(err)
			}
			probeLevel(set, l, *from, *probe, *seed)
		}
		return
	}
	fmt.Printf("%d puzzles; each level takes %d puzzles to settle, then %d counted\n", set.Len(), *warmup, *n)
	fmt.Printf("%-6s %-7s %-9s %-9s %-8s %s\n", "level", "rating", "success", "start→end", "RD", "mean puzzle rating")
	start := time.Now()
	bad := false
	for _, f := range strings.Split(*levels, ",") {
		l, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			log.Fatal(err)
		}
		res := simulate(set, l, *warmup, *n, *seed)
		fmt.Printf("%-6d %-7d %5.1f %%  %4.0f→%4.0f %-8.0f %.0f\n", l, engine.Levels()[l].Rating, 100*res.rate, res.first, res.last.R, res.last.RD, res.meanPuzzle)
		if res.rate < 0.65 || res.rate > 0.75 {
			bad = true
		}
	}
	fmt.Printf("(%.1f min)\n", time.Since(start).Minutes())
	if bad {
		os.Exit(1)
	}
}

type result struct {
	rate, first, meanPuzzle float64
	last                    puzzles.Rating
}

// simulate lets level l take warmup+n puzzles through the selector and
// returns its success rate over the last n.
func simulate(set *puzzles.Set, l, warmup, n int, seed uint64) result {
	rng := rand.New(rand.NewPCG(seed, uint64(l)))
	s := engine.NewSearcher(8)
	s.SetSeed(seed ^ uint64(l)<<32)
	me := puzzles.NewVisitorRating
	ratings := map[string]puzzles.Rating{}
	rate := func(p *puzzles.Puzzle) puzzles.Rating {
		if r, ok := ratings[p.ID]; ok {
			return r
		}
		return puzzles.PuzzleStart(p.Rating)
	}
	tried := map[string]bool{}
	var results []bool
	solved, sum := 0, 0.0
	for i := 0; i < warmup+n; i++ {
		p := set.Next(me, puzzles.Aim(results), "", tried, rate, rng)
		tried[p.ID] = true
		ok := solves(s, l, p)
		newMe, newP := puzzles.Play(me, rate(p), ok)
		me, ratings[p.ID] = newMe, newP
		results = append(results, ok)
		if i >= warmup {
			sum += float64(p.Rating)
			if ok {
				solved++
			}
		}
	}
	return result{rate: float64(solved) / float64(n), first: puzzles.NewVisitorRating.R, last: me, meanPuzzle: sum / float64(n)}
}

// solves reports whether level l plays the whole solution (any mate counts).
func solves(s *engine.Searcher, l int, p *puzzles.Puzzle) bool {
	s.Clear()
	for ply := 0; ply < p.Plies(); ply += 2 {
		pos := p.Position(ply)
		m, _, err := s.PlayLevel(context.Background(), pos, nil, l, engine.Limits{Nodes: 4_000_000})
		if err != nil {
			return false
		}
		v, err := p.Try(ply, m)
		if err != nil || !v.Correct {
			return false
		}
		if v.Done {
			return true
		}
	}
	return true
}

// probeLevel lets level l try every puzzle rated from or more tries times
// (new seeds each try, puzzle ratings fixed) and prints, by band of 100
// rating points, how many puzzles there are, how often the level solved
// them, and how many it failed at least once.
func probeLevel(set *puzzles.Set, l, from, tries int, seed uint64) {
	s := engine.NewSearcher(8)
	type band struct{ n, solved, tries, hard int }
	bands := map[int]*band{}
	for i, p := range set.All() {
		if p.Rating < from {
			continue
		}
		b := bands[p.Rating/100*100]
		if b == nil {
			b = &band{}
			bands[p.Rating/100*100] = b
		}
		b.n++
		ok := 0
		for t := 0; t < tries; t++ {
			s.SetSeed(seed ^ uint64(l)<<32 ^ uint64(i)<<8 ^ uint64(t))
			if solves(s, l, p) {
				ok++
			}
		}
		b.solved += ok
		b.tries += tries
		if ok < tries {
			b.hard++
		}
	}
	fmt.Printf("level %d, %d tries a puzzle\n%-6s %-8s %-8s %s\n", l, tries, "band", "puzzles", "solved", "failed at least once")
	for r := from / 100 * 100; r <= 2000; r += 100 {
		if b := bands[r]; b != nil {
			fmt.Printf("%-6d %-8d %5.1f %%  %d\n", r, b.n, 100*float64(b.solved)/float64(b.tries), b.hard)
		}
	}
}
