package review

import (
	"context"
	"os"
	"strings"
	"testing"

	"chesstutor/chess/engine"
)

// BenchmarkReviewSixtyMoves reviews a 60-move game (120 plies, played by
// levels 5 and 4) at the default budget on one engine worker, and reports
// the depth the searches reached. Run it alone:
//
//	go test ./review -run '^$' -bench SixtyMoves -benchtime 1x -cpu 1
func BenchmarkReviewSixtyMoves(b *testing.B) {
	text, err := os.ReadFile("testdata/sixty-moves.txt")
	if err != nil {
		b.Fatal(err)
	}
	start, moves := plantGame(b, "", strings.Fields(string(text))...)
	if len(moves) != 120 {
		b.Fatalf("%d plies in the benchmark game, want 120", len(moves))
	}
	for b.Loop() {
		pool := engine.NewPool(1, 64)
		an, err := Analyse(context.Background(), pool, start, moves, nil, Options{})
		if err != nil {
			b.Fatal(err)
		}
		r, err := Build(start, moves, an)
		if err != nil {
			b.Fatal(err)
		}
		depth, lo := 0, 99
		for _, a := range an {
			depth += a.Depth
			lo = min(lo, a.Depth)
		}
		b.ReportMetric(float64(depth)/float64(len(an)), "mean-depth")
		b.ReportMetric(float64(lo), "min-depth")
		b.ReportMetric(float64(r.White.Counts[Blunder]+r.Black.Counts[Blunder]), "blunders")
	}
}
