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

// spread measures how far apart the levels play, without a match: over
// positions from play it compares each level's chosen move with a
// reference search of depth refDepth, and prints the average loss per
// move in centipawns and the share of moves that lose two pawns or more.
// The positions come from the openings, continued by level 4 (which
// varies its moves) and sampled every few half-moves.
func spread(count, refDepth int) error {
	ctx := context.Background()
	positions, err := spreadPositions(count)
	if err != nil {
		return err
	}
	ref := search.NewSearcher(64)
	players := make([]*search.Searcher, search.MaxLevel+1)
	for l := 1; l <= search.MaxLevel; l++ {
		players[l] = search.NewSearcher(16)
	}
	var loss, blunders [search.MaxLevel + 1]int
	var spent [search.MaxLevel + 1]time.Duration
	for i, pos := range positions {
		ref.Clear()
		best := ref.Search(ctx, pos, nil, search.Limits{Depth: refDepth})
		for l := 1; l <= search.MaxLevel; l++ {
			players[l].Clear()
			start := time.Now()
			m, _, err := players[l].PlayLevel(ctx, pos, nil, l, search.Limits{})
			spent[l] += time.Since(start)
			if err != nil {
				return fmt.Errorf("position %d (%s), level %d: %w", i+1, pos.FEN(), l, err)
			}
			if m == best.Move {
				continue
			}
			after := ref.Search(ctx, pos.Play(m), nil, search.Limits{Depth: refDepth - 1})
			d := max(best.Score+after.Score, 0)
			loss[l] += d
			if d >= 200 {
				blunders[l]++
			}
		}
		fmt.Fprintf(os.Stderr, "position %d/%d done\n", i+1, len(positions))
	}
	n := len(positions)
	fmt.Printf("Spread of the levels over %d positions, against a depth-%d reference search:\n", n, refDepth)
	for l := 1; l <= search.MaxLevel; l++ {
		fmt.Printf("level %d: average loss %3d cp a move, %2d%% of moves lose 2 pawns or more, %v a move\n",
			l, loss[l]/n, 100*blunders[l]/n, (spent[l] / time.Duration(n)).Round(time.Millisecond))
	}
	return nil
}

// spreadPositions plays each opening on with level 4 and keeps a position
// every six half-moves until count positions are collected.
func spreadPositions(count int) ([]*chess.Position, error) {
	ctx := context.Background()
	s := search.NewSearcher(16)
	var out []*chess.Position
	for round := 0; len(out) < count; round++ {
		op := openings[round%len(openings)]
		start, _ := chess.ParseFEN(chess.StartFEN)
		g, err := chess.NewGame(start)
		if err != nil {
			return nil, err
		}
		for _, u := range strings.Fields(op.moves) {
			m, err := g.Position().ParseUCI(u)
			if err != nil {
				return nil, fmt.Errorf("opening %s: %w", op.name, err)
			}
			if err := g.Play(m); err != nil {
				return nil, err
			}
		}
		for ply := 0; ply < 36 && !g.Outcome().Over() && len(out) < count; ply++ {
			if ply%6 == round/len(openings)%6 {
				out = append(out, g.Position())
			}
			m, _, err := s.PlayLevel(ctx, g.Position(), nil, 4, search.Limits{})
			if err != nil {
				return nil, err
			}
			if err := g.Play(m); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
