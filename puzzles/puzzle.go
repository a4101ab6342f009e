// Package puzzles holds the site's tactics puzzles (P1–P7): the puzzles
// themselves, made and verified with Stockfish by cmd/puzzles and shipped
// in data/puzzles.tsv; their themes; judging a move in a puzzle; the
// Glicko-2 rating of visitors and puzzles; choosing the next puzzle near a
// visitor's rating, the streak's ladder and the daily puzzle.
//
// A puzzle starts one move before the position the solver sees: the
// opponent's last move (a mistake in a game between the computer's levels)
// is played first and shown. Its solution alternates the solver's moves
// (each the only one that keeps the win, or in a mate in one any mate) and
// the opponent's most stubborn replies, and always ends with the solver's
// move. Everything here is pure: no engine runs on the web site.
package puzzles

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"chesstutor/chess"
)

// Puzzle is one shipped puzzle.
type Puzzle struct {
	ID string
	// FEN is the position before the opponent's last move.
	FEN string
	// Last is the opponent's last move, played before the solver's turn.
	Last chess.Move
	// Solution alternates the solver's moves and the opponent's replies,
	// the solver's first; it has an odd length.
	Solution []chess.Move
	Themes   []Theme
	// Rating is the puzzle's starting rating, from which of the computer's
	// levels solve it (see cmd/puzzles).
	Rating int

	before *chess.Position
	start  *chess.Position
}

// Start is the position the solver sees: after the opponent's last move.
func (p *Puzzle) Start() *chess.Position { return p.start }

// Before is the position before the opponent's last move.
func (p *Puzzle) Before() *chess.Position { return p.before }

// Color is the solver's side.
func (p *Puzzle) Color() chess.Color { return p.start.Turn() }

// Plies is the number of half-moves in the solution.
func (p *Puzzle) Plies() int { return len(p.Solution) }

// SolverMoves is the number of the solver's moves in the solution.
func (p *Puzzle) SolverMoves() int { return (len(p.Solution) + 1) / 2 }

// Position returns the position after ply half-moves of the solution.
func (p *Puzzle) Position(ply int) *chess.Position {
	pos := p.start
	for _, m := range p.Solution[:min(max(ply, 0), len(p.Solution))] {
		pos = pos.Play(m)
	}
	return pos
}

// Has reports whether the puzzle is tagged with theme t.
func (p *Puzzle) Has(t Theme) bool { return slices.Contains(p.Themes, t) }

// Line writes the puzzle as one line of the data file:
// id, FEN before the last move, the moves (UCI, the last move first),
// themes (comma-separated) and rating, separated by tabs.
func (p *Puzzle) Line() string {
	moves := []string{p.Last.UCI()}
	for _, m := range p.Solution {
		moves = append(moves, m.UCI())
	}
	themes := make([]string, len(p.Themes))
	for i, t := range p.Themes {
		themes[i] = string(t)
	}
	return strings.Join([]string{p.ID, p.FEN, strings.Join(moves, " "), strings.Join(themes, ","), strconv.Itoa(p.Rating)}, "\t")
}

// ParseLine reads a line written by Line and checks that every move is
// legal and the solution has the solver's move last.
func ParseLine(line string) (*Puzzle, error) {
	f := strings.Split(line, "\t")
	if len(f) != 5 {
		return nil, fmt.Errorf("puzzles: %d fields, want 5", len(f))
	}
	p := &Puzzle{ID: f[0], FEN: f[1]}
	if !ValidID(p.ID) {
		return nil, fmt.Errorf("puzzles: bad id %q", p.ID)
	}
	var err error
	if p.before, err = chess.ParseFEN(f[1]); err != nil {
		return nil, fmt.Errorf("puzzles: %s: %w", p.ID, err)
	}
	uci := strings.Fields(f[2])
	if len(uci) < 2 || len(uci)%2 != 0 {
		return nil, fmt.Errorf("puzzles: %s: %d moves, want the last move and an odd number more", p.ID, len(uci))
	}
	pos := p.before
	for i, u := range uci {
		m, err := pos.ParseUCI(u)
		if err != nil {
			return nil, fmt.Errorf("puzzles: %s: move %d: %w", p.ID, i, err)
		}
		if i == 0 {
			p.Last = m
		} else {
			p.Solution = append(p.Solution, m)
		}
		pos = pos.Play(m)
		if i == 0 {
			p.start = pos
		}
	}
	for _, t := range strings.Split(f[3], ",") {
		if t == "" {
			continue
		}
		if !slices.Contains(AllThemes, Theme(t)) {
			return nil, fmt.Errorf("puzzles: %s: unknown theme %q", p.ID, t)
		}
		p.Themes = append(p.Themes, Theme(t))
	}
	if p.Rating, err = strconv.Atoi(f[4]); err != nil || p.Rating < 100 || p.Rating > 3000 {
		return nil, fmt.Errorf("puzzles: %s: bad rating %q", p.ID, f[4])
	}
	return p, nil
}

// New makes a puzzle from its parts (the generator's way in); it checks
// the moves as ParseLine does.
func New(id, fen string, last chess.Move, solution []chess.Move, themes []Theme, rating int) (*Puzzle, error) {
	p := &Puzzle{ID: id, FEN: fen, Last: last, Solution: solution, Themes: themes, Rating: rating}
	return ParseLine(p.Line())
}

// ValidID reports whether s looks like a puzzle id: 1 to 12 lower-case
// letters and digits.
func ValidID(s string) bool {
	if len(s) == 0 || len(s) > 12 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// ErrNotFound: no puzzle has that id.
var ErrNotFound = errors.New("puzzles: no such puzzle")
