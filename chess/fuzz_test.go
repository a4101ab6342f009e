package chess

import (
	"strings"
	"testing"
)

var fuzzPositions = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
	"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
	"4k3/8/8/8/8/2Q1Q3/8/4Q1K1 w - - 0 1",
	"8/8/8/8/3N4/8/8/8 w - - 0 1",
}

// checkMoves plays every legal move of p through SAN and UCI and back.
func checkMoves(t *testing.T, p *Position) {
	t.Helper()
	for _, m := range p.LegalMoves() {
		san := p.SAN(m)
		back, err := p.ParseSAN(san)
		if err != nil || back != m {
			t.Fatalf("%s: SAN %q of %s parses to %v, %v", p.FEN(), san, m, back, err)
		}
		back, err = p.ParseUCI(m.UCI())
		if err != nil || back != m {
			t.Fatalf("%s: UCI %s parses to %v, %v", p.FEN(), m, back, err)
		}
		next := p.Play(m)
		if next == nil {
			t.Fatalf("%s: Play(%s) = nil", p.FEN(), m)
		}
		next.LegalMoves()
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range fuzzPositions {
		f.Add(s)
	}
	f.Add("8/8/8/8/8/8/8 w - - 0 1")
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "chess: ") {
				t.Fatalf("error %q lacks the chess: prefix", err)
			}
			return
		}
		fields := strings.Fields(s)
		if len(fields) == 4 {
			fields = append(fields, "0", "1")
		}
		if got, want := p.FEN(), strings.Join(fields, " "); got != want {
			t.Fatalf("FEN round trip: got %q, want %q", got, want)
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || *q != *p {
			t.Fatalf("re-parsing %q: %v", p.FEN(), err)
		}
		checkMoves(t, p)
	})
}

func FuzzParseSAN(f *testing.F) {
	for i, s := range []string{"e4", "Nf3+", "O-O", "0-0-0", "e8=Q", "e8Q", "exd6", "Qe3d2", "Nbd2", "R1a3", "Kxe2#", "hello", "", "=Q"} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		p, err := ParseFEN(fuzzPositions[int(which)%len(fuzzPositions)])
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseSAN(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "chess: ") {
				t.Fatalf("error %q lacks the chess: prefix", err)
			}
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("ParseSAN(%q) returned the illegal move %s", s, m)
		}
		if back, err := p.ParseSAN(p.SAN(m)); err != nil || back != m {
			t.Fatalf("SAN %q of %s parses to %v, %v", p.SAN(m), m, back, err)
		}
	})
}

func FuzzParseUCI(f *testing.F) {
	for i, s := range []string{"e2e4", "e7e8q", "e1g1", "0000", "a1a9", "e7e8k", "", "b1c3"} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		p, err := ParseFEN(fuzzPositions[int(which)%len(fuzzPositions)])
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseUCI(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "chess: ") {
				t.Fatalf("error %q lacks the chess: prefix", err)
			}
			return
		}
		if !p.IsLegal(m) || !strings.EqualFold(m.UCI(), s) {
			t.Fatalf("ParseUCI(%q) = %s", s, m)
		}
	})
}
