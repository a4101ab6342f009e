package chess

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type perftCase struct {
	fen    string
	depth  int
	nodes  uint64
	lineNo int
}

func loadPerft(t testing.TB) []perftCase {
	t.Helper()
	f, err := os.Open("testdata/perft.epd")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ";")
		fen := strings.TrimSpace(parts[0])
		for _, p := range parts[1:] {
			var d int
			var n uint64
			fs := strings.Fields(p)
			if len(fs) != 2 || !strings.HasPrefix(fs[0], "D") {
				t.Fatalf("line %d: bad field %q", lineNo, p)
			}
			d, err1 := strconv.Atoi(fs[0][1:])
			n, err2 := strconv.ParseUint(fs[1], 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("line %d: bad field %q", lineNo, p)
			}
			cases = append(cases, perftCase{fen, d, n, lineNo})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestPerft walks the legal move tree of every position in the suite to
// every listed depth (R2–R6) and checks the position is unchanged afterwards.
func TestPerft(t *testing.T) {
	cases := loadPerft(t)
	if len(cases) < 100 {
		t.Fatalf("only %d perft cases loaded", len(cases))
	}
	for _, c := range cases {
		if testing.Short() && c.nodes > 1_000_000 {
			continue
		}
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Errorf("line %d: %v", c.lineNo, err)
			continue
		}
		before := *p
		if got := p.Perft(c.depth); got != c.nodes {
			t.Errorf("line %d %q depth %d: got %d nodes, want %d", c.lineNo, c.fen, c.depth, got, c.nodes)
		}
		if *p != before {
			t.Errorf("line %d %q: position changed by the walk", c.lineNo, c.fen)
		}
		if got := p.FEN(); got != before.FEN() {
			t.Errorf("line %d: FEN changed to %q", c.lineNo, got)
		}
	}
}

const kiwipeteFEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

func benchPerft(b *testing.B, fen string, depth int, want uint64) {
	p, err := ParseFEN(fen)
	if err != nil {
		b.Fatal(err)
	}
	var nodes uint64
	for i := 0; i < b.N; i++ {
		n := p.Perft(depth)
		if n != want {
			b.Fatalf("got %d nodes, want %d", n, want)
		}
		nodes += n
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerftStart5 measures the generator on the start position at depth 5.
func BenchmarkPerftStart5(b *testing.B) { benchPerft(b, StartFEN, 5, 4865609) }

// BenchmarkPerftKiwipete4 measures the generator on Kiwipete at depth 4.
func BenchmarkPerftKiwipete4(b *testing.B) { benchPerft(b, kiwipeteFEN, 4, 4085603) }

// BenchmarkAppendLegalMoves shows that generating moves does not allocate.
func BenchmarkAppendLegalMoves(b *testing.B) {
	p, err := ParseFEN(kiwipeteFEN)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]Move, 0, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = p.AppendLegalMoves(buf[:0])
	}
	if len(buf) != 48 {
		b.Fatalf("got %d moves, want 48", len(buf))
	}
}
