package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"chesstutor/chess"
	search "chesstutor/chess/engine"
	"chesstutor/internal/fenfile"
)

// makePositions writes count middlegame positions from play to w, one FEN
// a line followed by a comment saying where it came from. Each game starts
// from one of the openings and is played on by levels 4 and 5 (which vary
// their moves, so every game differs); from move 10 to move 25 a position
// is kept every seven half-moves when it is a real middlegame (queens or
// at least three pieces each besides pawns, nobody in check) and a depth-8
// search finds it within 2.5 pawns of level, so that the loss per move is
// measured where a good move matters. The seed makes the set repeatable on
// an idle machine.
func makePositions(w io.Writer, count int, seed uint64) error {
	ctx := context.Background()
	players := map[int]*search.Searcher{4: search.NewSearcher(16), 5: search.NewSearcher(16)}
	ref := search.NewSearcher(32)
	fmt.Fprintf(w, "# %d middlegame positions from play, written by: go run ./cmd/match -make-positions %d -seed %d\n", count, count, seed)
	found := 0
	for game := 0; found < count; game++ {
		op := openings[game%len(openings)]
		whiteLevel, blackLevel := 4+game%2, 4+(game/2)%2
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
		offset := game % 7
		for g.Ply() < 50 && !g.Outcome().Over() && found < count {
			pos := g.Position()
			if g.Ply() >= 20+offset && (g.Ply()-20-offset)%7 == 0 && middlegame(pos) {
				ref.Clear()
				if r := ref.Search(ctx, pos, nil, search.Limits{Depth: 8}); abs(r.Score) <= 250 {
					fmt.Fprintf(w, "%s ; %s, level %d vs level %d, game %d, ply %d\n",
						pos.FEN(), op.name, whiteLevel, blackLevel, game+1, g.Ply())
					found++
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

// middlegame reports a position with enough pieces left and nobody in check.
func middlegame(pos *chess.Position) bool {
	if pos.InCheck() {
		return false
	}
	for c := chess.White; c <= chess.Black; c++ {
		pieces := pos.Occupancy(c) &^ pos.Pieces(c, chess.Pawn) &^ pos.Pieces(c, chess.King)
		if pos.Pieces(c, chess.Queen) == 0 && pieces.Count() < 3 {
			return false
		}
	}
	return true
}

// readPositions reads a file written by makePositions.
func readPositions(path string) ([]*chess.Position, error) {
	entries, err := fenfile.Read(path)
	out := make([]*chess.Position, len(entries))
	for i, e := range entries {
		out[i] = e.Pos
	}
	return out, err
}

// readOpenings reads a file written by makePositions as match openings,
// each named by its line's comment.
func readOpenings(path string) ([]opening, error) {
	entries, err := fenfile.Read(path)
	if err == nil && len(entries) == 0 {
		err = fmt.Errorf("%s holds no position", path)
	}
	out := make([]opening, len(entries))
	for i, e := range entries {
		out[i] = opening{name: cmp.Or(e.Comment, "position"), fen: e.Pos.FEN()}
	}
	return out, err
}
