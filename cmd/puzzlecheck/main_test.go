package main

import (
	"os"
	"strings"
	"testing"

	"chesstutor/internal/stockfish"
	"chesstutor/puzzles"
)

func engineOrSkip(t *testing.T) *stockfish.Engine {
	t.Helper()
	if testing.Short() {
		t.Skip("Stockfish checks run in the full suite only")
	}
	if _, err := os.Stat(stockfish.DefaultPath); err != nil {
		t.Skipf("no Stockfish at %s (Debian's stockfish package): %v", stockfish.DefaultPath, err)
	}
	eng, err := stockfish.Start(stockfish.DefaultPath, 16)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	return eng
}

// TestShippedPuzzlesHold re-verifies a sample of the shipped puzzles (the
// whole set is cmd/puzzlecheck's run, too long for the suite) with the
// node budget the data file was checked with: a puzzle near the margin
// (two winning first moves 1.4–1.6 pawns apart) can tip either way at
// another budget.
// shippedCheckNodes is the budget of the check recorded in the data
// file's header (go run ./cmd/puzzlecheck -nodes 100000).
const shippedCheckNodes = 100000

func TestShippedPuzzlesHold(t *testing.T) {
	eng := engineOrSkip(t)
	all := puzzles.Shipped().All()
	step := max(1, len(all)/12)
	for i := 0; i < len(all); i += step {
		p := all[i]
		res, err := Verify(eng, p, shippedCheckNodes)
		if err != nil {
			t.Fatal(err)
		}
		if res.Problem != "" {
			t.Errorf("puzzle %s: %s", p.ID, res.Problem)
		}
	}
}

// TestVerifyRefusesAWrongSolution: a puzzle whose first move is not the
// winning one fails.
func TestVerifyRefusesAWrongSolution(t *testing.T) {
	eng := engineOrSkip(t)
	// White mates with Ra8; the "solution" plays Ra7 instead.
	for _, c := range []struct {
		line, want string
	}{
		{"wrongsol\t6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1\tg8h8 a1a7\tmaterial\t500", "Stockfish plays"},
		{"rightsol\t6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1\tg8h8 a1a8\tmate-in-1\t500", ""},
	} {
		p, err := puzzles.ParseLine(c.line)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Verify(eng, p, 20000)
		if err != nil {
			t.Fatal(err)
		}
		if c.want == "" && res.Problem != "" || c.want != "" && !strings.Contains(res.Problem, c.want) {
			t.Errorf("%s: problem %q, want %q", p.ID, res.Problem, c.want)
		}
	}
}
