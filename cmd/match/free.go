package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"chesstutor/chess"
	search "chesstutor/chess/engine"
	"chesstutor/internal/fenfile"
)

// Free pieces (issue 38, C6): how often a level takes material that is
// simply there to take. Level 0 should take a free piece about half the
// time and a hanging queen at most 60 % of the time; level 1 grabs a
// hanging queen about nine times in ten.

// Kinds of free-piece position, as tagged in the file's comments.
const (
	freeQueen = "queen" // the opponent's queen can be taken, winning at least a rook's worth
	freePiece = "piece" // a knight, bishop or rook can be taken, winning at least a minor piece's worth
)

// Thresholds of the exchange (engine.ExchangeGain, pawn = 100) that make
// material free: a queen taken for at most a minor piece, anything else
// taken for less than it is worth by a minor piece.
const (
	freeQueenGain = 600
	freePieceGain = 300
)

// freeKind says whether pos offers a free queen or a free piece to the
// side to move, and which captures take it: a queen taken with a gain of
// at least freeQueenGain (a queen position), otherwise a capture of
// anything but a pawn gaining at least freePieceGain.
func freeKind(pos *chess.Position) (string, []chess.Move) {
	var queen, piece []chess.Move
	for _, m := range pos.LegalMoves() {
		if !m.IsCapture() || m.IsPromotion() {
			continue
		}
		gain := search.ExchangeGain(pos, m)
		switch t := m.Captured().Type(); {
		case t == chess.Queen && gain >= freeQueenGain:
			queen = append(queen, m)
		case t != chess.Pawn && gain >= freePieceGain:
			piece = append(piece, m)
		}
	}
	if len(queen) > 0 {
		return freeQueen, queen
	}
	if len(piece) > 0 {
		return freePiece, piece
	}
	return "", nil
}

// makeFree writes count positions from games between levels 0 and 1 in
// which the side to move can take material for free (freeKind) and a
// full-strength search to depth 6 agrees that taking it is best (so no
// mate or bigger threat makes taking it wrong). Each game contributes at
// most two positions, so the set spans many games; the seed makes it
// repeatable.
func makeFree(w io.Writer, count int, seed uint64) error {
	ctx := context.Background()
	players := map[int]*search.Searcher{0: search.NewSearcher(16), 1: search.NewSearcher(16)}
	ref := search.NewSearcher(32)
	fmt.Fprintf(w, "# %d positions with a free piece or queen to take, written by: go run ./cmd/match -make-free %d -seed %d\n", count, count, seed)
	found, queens := 0, 0
	for game := 0; found < count; game++ {
		op := openings[game%len(openings)]
		whiteLevel, blackLevel := game%2, (game/2)%2
		start, _ := chess.ParseFEN(chess.StartFEN)
		g, err := chess.NewGame(start)
		if err != nil {
			return err
		}
		for _, u := range strings.Fields(op.moves) {
			m, err := g.Position().ParseUCI(u)
			if err != nil {
				return fmt.Errorf("opening %s: %w", op.name, err)
			}
			if err := g.Play(m); err != nil {
				return err
			}
		}
		for _, p := range players {
			p.Clear()
		}
		kept := 0
		for g.Ply() < 80 && !g.Outcome().Over() && found < count && kept < 2 {
			pos := g.Position()
			if kind, takes := freeKind(pos); kind != "" && !pos.InCheck() {
				// Queens are rarer: keep every one, and a piece only while
				// the pieces outnumber the queens less than three to one.
				if kind == freeQueen || found-queens < 3*(queens+1) {
					ref.Clear()
					r := ref.Search(ctx, pos, nil, search.Limits{Depth: 6})
					if contains(takes, r.Move) {
						fmt.Fprintf(w, "%s ; %s, %s, level %d vs level %d, game %d, ply %d\n",
							pos.FEN(), kind, op.name, whiteLevel, blackLevel, game+1, g.Ply())
						found++
						kept++
						if kind == freeQueen {
							queens++
						}
					}
				}
			}
			level := whiteLevel
			if pos.Turn() == chess.Black {
				level = blackLevel
			}
			s := players[level]
			s.SetSeed(seed ^ uint64(game)<<16 ^ uint64(g.Ply()))
			m, _, err := s.PlayLevel(ctx, pos, nil, level, search.Limits{})
			if err != nil {
				return err
			}
			if err := g.Play(m); err != nil {
				return err
			}
		}
	}
	return nil
}

func contains(ms []chess.Move, m chess.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// freePosition is one position of a free-pieces file.
type freePosition struct {
	pos   *chess.Position
	kind  string
	takes []chess.Move
}

// readFree reads a file written by makeFree; each position's kind is
// worked out again from the position (the comment only documents it).
func readFree(path string) ([]freePosition, error) {
	entries, err := fenfile.Read(path)
	if err != nil {
		return nil, err
	}
	var out []freePosition
	for i, e := range entries {
		kind, takes := freeKind(e.Pos)
		if kind == "" {
			return nil, fmt.Errorf("%s: position %d (%s) has nothing free to take", path, i+1, e.Pos.FEN())
		}
		out = append(out, freePosition{e.Pos, kind, takes})
	}
	return out, nil
}

// freeTally counts how often one level took what was free.
type freeTally struct {
	tries, took [2]int // [0] pieces, [1] queens
	spent, most time.Duration
}

// measureFree lets each level choose a move samples times (different
// seeds) in every position and prints how often it took the free
// material, with the time its choices took.
func measureFree(w io.Writer, positions []freePosition, levels []int, samples int) error {
	ctx := context.Background()
	nQueens := 0
	for _, p := range positions {
		if p.kind == freeQueen {
			nQueens++
		}
	}
	fmt.Fprintf(w, "Free material taken over %d positions (%d with a free piece, %d with a hanging queen), %d choices a level and position:\n\n",
		len(positions), len(positions)-nQueens, nQueens, samples)
	fmt.Fprintln(w, "| Level | Takes a free piece | Takes a hanging queen | Time a move (mean) | Longest |")
	fmt.Fprintln(w, "|------:|-------------------:|----------------------:|-------------------:|--------:|")
	for _, l := range levels {
		s := search.NewSearcher(16)
		var t freeTally
		for i, p := range positions {
			k := 0
			if p.kind == freeQueen {
				k = 1
			}
			for n := range samples {
				s.Clear()
				s.SetSeed(uint64(i+1)<<20 ^ uint64(l)<<8 ^ uint64(n))
				start := time.Now()
				m, _, err := s.PlayLevel(ctx, p.pos, nil, l, search.Limits{})
				d := time.Since(start)
				if err != nil {
					return fmt.Errorf("position %d, level %d: %w", i+1, l, err)
				}
				t.spent += d
				t.most = max(t.most, d)
				t.tries[k]++
				if contains(p.takes, m) {
					t.took[k]++
				}
			}
		}
		pct := func(k int) string {
			if t.tries[k] == 0 {
				return "–"
			}
			return fmt.Sprintf("%.0f %% (%d of %d)", 100*float64(t.took[k])/float64(t.tries[k]), t.took[k], t.tries[k])
		}
		n := max(t.tries[0]+t.tries[1], 1)
		fmt.Fprintf(w, "| %d | %s | %s | %v | %v |\n", l, pct(0), pct(1),
			(t.spent / time.Duration(n)).Round(time.Millisecond/10), t.most.Round(time.Millisecond/10))
	}
	return nil
}

// runFree is the -free mode of main.
func runFree(path, levelList string, samples int) {
	positions, err := readFree(path)
	if err != nil {
		fail(err)
	}
	levels, err := parseLevels(levelList)
	if err != nil {
		fail(err)
	}
	if err := measureFree(os.Stdout, positions, levels, max(samples, 1)); err != nil {
		fail(err)
	}
}
