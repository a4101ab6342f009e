package uci

import (
	"context"
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/chess/engine"
)

// The scale of mates must be the one engine.MateIn reads.
func TestMateScoreOnTheEngineScale(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, -1, -2, -5} {
		if got := engine.MateIn(mateScore(n)); got != n {
			t.Errorf("mate %d reads as mate %d", n, got)
		}
	}
}

func TestParseInfo(t *testing.T) {
	cases := []struct {
		line            string
		depth, k, score int
		pv              int
		ok              bool
	}{
		{"info depth 12 seldepth 18 multipv 1 score cp -35 nodes 100 pv e2e4 e7e5", 12, 1, -35, 2, true},
		{"info depth 9 score mate 2 pv d1h5 g7g6 h5f7", 9, 1, mateScore(2), 3, true},
		{"info depth 9 score cp 20 lowerbound pv e2e4", 0, 0, 0, 0, false},
		{"info depth 9 multipv 2 score cp 20 pv e2e4", 9, 2, 20, 1, true},
		{"info string NNUE evaluation using nn.nnue", 0, 0, 0, 0, false},
	}
	for _, c := range cases {
		d, k, s, pv, ok := parseInfo(splitFields(c.line))
		if ok != c.ok || (ok && (d != c.depth || k != c.k || s != c.score || len(pv) != c.pv)) {
			t.Errorf("%q: depth %d line %d score %d pv %v ok %v", c.line, d, k, s, pv, ok)
		}
	}
}

// The nodes of an "info" line are read, so a node budget can be counted.
func TestInfoNodes(t *testing.T) {
	if n, ok := infoNodes(splitFields("info depth 12 seldepth 18 multipv 1 score cp -35 nodes 60022 nps 283122 pv e2e4")); !ok || n != 60022 {
		t.Errorf("nodes %d, %v; want 60022", n, ok)
	}
	if _, ok := infoNodes(splitFields("info string NNUE evaluation using nn.nnue")); ok {
		t.Error("nodes read from a line without them")
	}
}

// TestStockfish runs the machine's Stockfish: a mate in one is found and
// scored as one, and searchmoves keeps the search to the moves listed.
func TestStockfish(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Stockfish")
	}
	path := Find()
	if path == "" {
		t.Skip("no Stockfish on this machine")
	}
	e, err := Start(path, 1, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Name() == "" {
		t.Error("no name")
	}
	pos, err := chess.ParseFEN("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Analyse(context.Background(), pos, nil, engine.Limits{Depth: 8})
	if err != nil {
		t.Fatal(err)
	}
	if res.Move.UCI() != "a1a8" || engine.MateIn(res.Score) != 1 {
		t.Errorf("got %s, mate %d; want a1a8 mate 1", res.Move.UCI(), engine.MateIn(res.Score))
	}
	if res.Nodes == 0 {
		t.Error("no nodes reported")
	}
	h3, _ := pos.ParseUCI("h2h3")
	g3, _ := pos.ParseUCI("g2g3")
	res, err = e.Analyse(context.Background(), pos, nil, engine.Limits{Depth: 8, Moves: []chess.Move{h3, g3}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Move != h3 && res.Move != g3 {
		t.Errorf("searchmoves h2h3 g2g3 gave %s", res.Move.UCI())
	}
	if len(res.Root) != 2 || !res.Root[0].Scored || !res.Root[1].Scored {
		t.Errorf("root %+v: want both moves scored", res.Root)
	}
	// Back to one line for a plain search.
	res, err = e.Analyse(context.Background(), pos, nil, engine.Limits{Depth: 6})
	if err != nil || res.Move.UCI() != "a1a8" {
		t.Errorf("after searchmoves: %s, %v", res.Move.UCI(), err)
	}
}

func splitFields(s string) []string { return strings.Fields(s) }
