package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"chesstutor/chess"
)

func TestParseLevels(t *testing.T) {
	for in, want := range map[string][]int{"0-8": {0, 1, 2, 3, 4, 5, 6, 7, 8}, "2,4": {2, 4}, "0-2,7": {0, 1, 2, 7}, "5": {5}, "0": {0}} {
		got, err := parseLevels(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("parseLevels(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-1", "9", "1-9", "a", "2,x"} {
		if _, err := parseLevels(bad); err == nil {
			t.Errorf("parseLevels(%q) accepted", bad)
		}
	}
}

func TestParseElos(t *testing.T) {
	got, err := parseElos("1350,1800,2200")
	if err != nil || !slices.Equal(got, []int{1350, 1800, 2200}) {
		t.Errorf("parseElos = %v, %v", got, err)
	}
	if got, err := parseElos(""); err != nil || got != nil {
		t.Errorf(`parseElos("") = %v, %v; want none`, got, err)
	}
	// Stockfish 15.1 takes UCI_Elo from 1350 to 2850.
	for _, bad := range []string{"1349", "2851", "x", "1350,,1800"} {
		if _, err := parseElos(bad); err == nil {
			t.Errorf("parseElos(%q) accepted", bad)
		}
	}
}

func TestEloEstimate(t *testing.T) {
	if d, m := eloEstimate(10, 0, 10); fmt.Sprintf("%+.0f", d) != "+0" || m <= 0 {
		t.Errorf("an even score: %+.0f ± %.0f, want +0 and a margin", d, m)
	}
	// 75 % is about +191 Elo; the mirror result is its negative.
	up, _ := eloEstimate(15, 0, 5)
	down, _ := eloEstimate(5, 0, 15)
	if math.Abs(up-190.8) > 1 || math.Abs(up+down) > 1e-9 {
		t.Errorf("+15 -5 gives %+.1f and -15 +5 gives %+.1f, want about +191 and its negative", up, down)
	}
	// A clean sweep still gives a finite estimate.
	if d, m := eloEstimate(20, 0, 0); math.IsInf(d, 0) || math.IsNaN(d) || d < 400 || math.IsNaN(m) {
		t.Errorf("a sweep gives %+.0f ± %.0f", d, m)
	}
	// Draws narrow the margin.
	_, wide := eloEstimate(10, 0, 10)
	_, narrow := eloEstimate(5, 10, 5)
	if narrow >= wide {
		t.Errorf("margin with draws %.0f, without %.0f; want draws to narrow it", narrow, wide)
	}
}

func TestReadOpenings(t *testing.T) {
	ops, err := readOpenings("testdata/middlegames.fen")
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 100 {
		t.Fatalf("%d openings, want the file's 100 positions", len(ops))
	}
	first := ops[0]
	if first.fen != "r1b1kb1r/1p1nppp1/pq1p1n2/5N1p/N3P3/1P3P2/PBP1B1PP/R2QK2R b KQkq - 1 11" || first.moves != "" ||
		first.name != "Sicilian Najdorf, level 5 vs level 4, game 2, ply 21" {
		t.Errorf("first opening %+v", first)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"empty": "# nothing here\n", "bad": "not a fen ; x\n"} {
		path := dir + "/" + name
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readOpenings(path); err == nil {
			t.Errorf("readOpenings accepted the %s file", name)
		}
	}
}

// fakeScript writes a UCI engine script that answers the handshake, meets
// "go" with the shell command onGo and logs every command it reads to its
// path + ".log".
func fakeScript(t *testing.T, onGo string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "engine")
	script := "#!/bin/sh\nwhile read -r line; do\n  echo \"$line\" >> \"$0.log\"\n  case \"$line\" in\n" +
		"    uci) echo uciok ;;\n    isready) echo readyok ;;\n    go*) " + onGo + " ;;\n" +
		"    quit) exit 0 ;;\n  esac\ndone\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// fakeEngine starts a fakeScript.
func fakeEngine(t *testing.T, name, onGo string) *engine {
	t.Helper()
	e, err := startEngine(name, fakeScript(t, onGo), nil)
	if err != nil {
		t.Fatal(err)
	}
	e.movetime = 10 * time.Millisecond
	t.Cleanup(e.close)
	return e
}

// Stockfish is limited to a UCI_Elo only when one is given.
func TestStartStockfish(t *testing.T) {
	for _, c := range []struct {
		elo     int
		name    string
		limited bool
	}{{1800, "Stockfish 1800", true}, {0, "Stockfish", false}} {
		path := fakeScript(t, "echo 'bestmove e2e4'")
		e, err := startStockfish(path, c.elo)
		if err != nil {
			t.Fatal(err)
		}
		e.close()
		log, err := os.ReadFile(path + ".log")
		if err != nil {
			t.Fatal(err)
		}
		sent := string(log)
		limited := strings.Contains(sent, "setoption name UCI_LimitStrength value true\n") &&
			strings.Contains(sent, fmt.Sprintf("setoption name UCI_Elo value %d\n", c.elo))
		if e.name != c.name || limited != c.limited || !strings.Contains(sent, "setoption name Threads value 1\n") {
			t.Errorf("startStockfish(%d): named %q, sent:\n%s", c.elo, e.name, sent)
		}
	}
}

// An engine that fails or plays an illegal move loses the game, and the
// match scores the loss (a failure was once scored as a draw).
func TestAFaultyEngineLosesTheGame(t *testing.T) {
	for _, c := range []struct{ name, onGo string }{
		{"dies", "exit 1"},
		{"plays an illegal move", "echo 'bestmove e2e5'"},
	} {
		white := fakeEngine(t, "White engine", c.onGo)
		black := fakeEngine(t, "Black engine", "echo 'bestmove e7e5'")
		g, end, err := play(white, black, opening{name: "start"}, 10)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if g.Ply() != 0 || end.result != "0-1" || !strings.HasPrefix(end.reason, "Black wins: White engine") || end.atLimit {
			t.Errorf("White's engine %s: %d plies, %+v; want Black to win at once", c.name, g.Ply(), end)
		}
	}
}

// A game stopped at the move limit is a draw that says how each engine
// last saw it, from White's side, so a match can tell who stood better.
func TestMoveLimitKeepsTheScores(t *testing.T) {
	// Each knight goes out and back: four half-moves, no repetition yet.
	shuffle := func(out, back string, cp int) string {
		return fmt.Sprintf("n=$((n+1)); echo 'info depth 1 score cp %d'; "+
			"if [ $((n%%2)) = 1 ]; then echo 'bestmove %s'; else echo 'bestmove %s'; fi", cp, out, back)
	}
	white := fakeEngine(t, "White engine", shuffle("g1f3", "f3g1", 120))
	black := fakeEngine(t, "Black engine", shuffle("g8f6", "f6g8", 30))
	g, end, err := play(white, black, opening{name: "start"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := ending{result: "1/2-1/2", atLimit: true, reason: "Draw: move limit (White's engine saw +1.20, Black's -0.30)"}
	if g.Ply() != 4 || end != want {
		t.Errorf("after %d plies: %+v; want %+v", g.Ply(), end, want)
	}
}

// A game the match ended carries the match's result in its PGN, not "*";
// a game that ended on the board is written as the game has it.
func TestGamePGN(t *testing.T) {
	start, err := chess.ParseFEN(chess.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	g, err := chess.NewGame(start)
	if err != nil {
		t.Fatal(err)
	}
	playMoves := func(moves ...string) {
		for _, u := range moves {
			m, err := g.Position().ParseUCI(u)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	playMoves("f2f3", "e7e5", "g2g4")
	text := gamePGN(g, "A", "B", "Test", ending{result: "0-1", reason: "Black wins: adjudicated"})
	for _, want := range []string{`[Result "0-1"]`, `[Termination "adjudication"]`, `[Opening "Test"]`, "\n1. f3 e5 2. g4 {Black wins: adjudicated} 0-1\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("adjudicated game's PGN lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "*") {
		t.Errorf("adjudicated game's PGN still says *:\n%s", text)
	}
	playMoves("d8h4")
	text = gamePGN(g, "A", "B", "Test", ending{result: "0-1", reason: g.Outcome().Reason()})
	if text != g.PGN(map[string]string{"White": "A", "Black": "B", "Event": "Chesstutor match", "Opening": "Test"}) ||
		strings.Contains(text, "Termination") || !strings.HasSuffix(text, " 0-1\n") {
		t.Errorf("finished game's PGN:\n%s", text)
	}
}
