package engine

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"chesstutor/chess"
)

var evalPositions = []string{
	chess.StartFEN,
	"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 9",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"2r3k1/5pp1/pr1p1n2/3Pn2p/1BB1p3/PP6/5PPP/R1R3K1 w - - 0 25",
	"8/5pk1/6p1/3P4/2K5/8/5PP1/8 b - - 0 40",
	"r1br2k1/ppp2pp1/2n1p1qp/8/1bBPP3/P4N2/1PQ1NPPP/2KR3R b - - 0 12",
	"4k3/8/8/8/8/8/8/4KBN1 w - - 0 1",
}

// mirrorFEN swaps the colours of a position: ranks flipped, pieces of the
// other colour, the other side to move.
func mirrorFEN(t *testing.T, fen string) string {
	t.Helper()
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	f[0] = swap(strings.Join(ranks, "/"))
	f[1] = map[string]string{"w": "b", "b": "w"}[f[1]]
	if f[2] != "-" {
		rights := swap(f[2])
		f[2] = ""
		for _, r := range "KQkq" {
			if strings.ContainsRune(rights, r) {
				f[2] += string(r)
			}
		}
	}
	if f[3] != "-" {
		f[3] = string(f[3][0]) + map[byte]string{'3': "6", '6': "3"}[f[3][1]]
	}
	return strings.Join(f, " ")
}

// Both sets of weights judge a position and its mirror image alike, so
// that neither colour is favoured by a slip in the evaluation.
func TestEvaluationIsSymmetric(t *testing.T) {
	t.Parallel()
	for _, fen := range evalPositions {
		pos, mirror := mustFEN(t, fen), mustFEN(t, mirrorFEN(t, fen))
		for _, w := range []*weights{&handWeights, &tunedWeights} {
			if a, b := evaluate(pos, w), evaluate(mirror, w); a != b {
				t.Errorf("%s: %d, but %d for its mirror image (hand weights: %v)", fen, a, b, w == &handWeights)
			}
		}
	}
}

// Levels 1–7 were calibrated against Stockfish with the hand-set weights
// and keep them; level 8 plays with the tuned ones, and a search returns
// to them after a level's move.
func TestLevelsJudgeWithTheirWeights(t *testing.T) {
	for _, p := range levels {
		want := &handWeights
		if p.Number == 8 {
			want = &tunedWeights
		}
		if p.weights() != want {
			t.Errorf("level %d does not use the %s weights", p.Number, map[bool]string{true: "hand-set", false: "tuned"}[want == &handWeights])
		}
	}
	s := NewSearcher(1)
	if _, _, err := s.PlayLevel(t.Context(), mustFEN(t, evalPositions[1]), nil, 3, Limits{}); err != nil {
		t.Fatal(err)
	}
	if s.weights != &handWeights {
		t.Error("a new searcher does not judge with the hand-set weights, or a level-3 move changed them")
	}
	s.SetTuned(true)
	if _, _, err := s.PlayLevel(t.Context(), mustFEN(t, evalPositions[1]), nil, 3, Limits{}); err != nil {
		t.Fatal(err)
	}
	if s.weights != &tunedWeights {
		t.Error("after a level-3 move the searcher no longer judges with the weights it was set to")
	}
	if handWeights.salt == tunedWeights.salt {
		t.Error("both sets of weights share transposition-table entries")
	}
}

// A tuning pass on samples the hand-set weights misjudge lowers the
// error, and the result is Go source for tuned.go.
func TestTuningLowersTheError(t *testing.T) {
	t.Parallel()
	// An extra knight (against a lone king's side with pawns) always won
	// these games, and a level position was always drawn.
	var samples []Sample
	for _, s := range []struct {
		fen    string
		result float64
	}{
		{"4k3/pppp4/8/8/8/8/PPPP4/4KN2 w - - 0 1", 1},
		{"4k3/pppp4/8/8/8/8/PPPP4/4KN2 b - - 0 1", 1},
		{"4kn2/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0},
		{"1n2k3/4pppp/8/8/8/8/4PPPP/4K3 b - - 0 1", 0},
		{"4k3/4pppp/8/8/8/8/4PPPP/4K3 w - - 0 1", 0.5},
		{"4k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1", 0.5},
	} {
		samples = append(samples, Sample{Pos: mustFEN(t, s.fen), Result: s.result})
	}
	tu := NewTuning(samples, 2, true)
	if tu.Params() == 0 {
		t.Fatal("nothing to tune")
	}
	tu.FitK()
	before := tu.Error()
	after, changed := tu.Pass(8)
	if changed == 0 || after >= before {
		t.Fatalf("a pass changed %d numbers and the error went from %.6f to %.6f", changed, before, after)
	}
	if len(tu.Changes()) == 0 {
		t.Error("no change listed")
	}
	src, err := tu.Source("// test\n\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "tuned.go", src, 0); err != nil || !strings.Contains(src, "var tunedWeights = weights{") {
		t.Errorf("the source does not parse (%v):\n%s", err, src)
	}
	if handWeights.MgValue[chess.Knight] != 325 || tunedWeights.MgValue[chess.Knight] == tu.w.MgValue[chess.Knight] {
		t.Error("tuning changed the weights in use")
	}
}
