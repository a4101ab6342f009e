package main

import (
	"math/rand/v2"
	"strings"
	"testing"

	"chesstutor/chess"
	search "chesstutor/chess/engine"
)

func TestParseSamples(t *testing.T) {
	in := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|0.5\n4k3/8/8/8/8/8/8/3QK3 b - - 0 1|1\n"
	got, err := parseSamples(strings.NewReader(in), "in")
	if err != nil || len(got) != 2 || got[0].Result != 0.5 || got[1].Result != 1 {
		t.Fatalf("parseSamples = %v, %v", got, err)
	}
	for _, bad := range []string{
		"",
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1\n",
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1|2\n",
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1|win\n",
		"not a position|1\n",
	} {
		if _, err := parseSamples(strings.NewReader(bad), "in"); err == nil {
			t.Errorf("parseSamples accepted %q", bad)
		}
	}
}

func TestPlayGameLabelsItsPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := search.NewSearcher(1)
	initial, err := chess.ParseFEN(chess.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for tries := 0; lines == nil && tries < 20; tries++ {
		var err error
		if lines, err = playGame(s, rng, []start{{pos: initial, initial: true}}, 300); err != nil {
			t.Fatal(err)
		}
	}
	if len(lines) < 10 {
		t.Fatalf("a game gave %d positions", len(lines))
	}
	samples, err := parseSamples(strings.NewReader(strings.Join(lines, "")), "game")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		if s.Result != samples[0].Result {
			t.Fatalf("one game, two results: %v and %v", samples[0].Result, s.Result)
		}
		if s.Pos.InCheck() {
			t.Errorf("%s is in check, not a quiet position", s.Pos.FEN())
		}
	}
}

func TestParseSteps(t *testing.T) {
	if got, err := parseSteps("8, 4,2,1"); err != nil || len(got) != 4 || got[0] != 8 || got[3] != 1 {
		t.Errorf("parseSteps = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "4,,2", "x", "-1"} {
		if _, err := parseSteps(bad); err == nil {
			t.Errorf("parseSteps(%q) accepted", bad)
		}
	}
}
