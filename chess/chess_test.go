package chess

import (
	"errors"
	"strings"
	"testing"
)

func mustFEN(t *testing.T, fen string) *Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

func mustGame(t *testing.T, fen string) *Game {
	t.Helper()
	g, err := NewGame(mustFEN(t, fen))
	if err != nil {
		t.Fatalf("NewGame(%q): %v", fen, err)
	}
	return g
}

// playSAN plays the space-separated SAN moves, failing the test on an error.
func playSAN(t *testing.T, g *Game, moves string) {
	t.Helper()
	for _, s := range strings.Fields(moves) {
		m, err := g.Position().ParseSAN(s)
		if err != nil {
			t.Fatalf("ParseSAN(%q) in %s: %v", s, g.Position().FEN(), err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("Play(%s): %v", s, err)
		}
	}
}

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r3k3/8/8/8/8/8/8/4K2R w Kq - 12 40",
		"8/8/8/8/3N4/8/8/8 w - - 0 1", // a lone knight: a teaching position (R12)
		"8/8/8/8/8/8/8/8 b - - 99 100",
		"4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
	} {
		t.Run(fen, func(t *testing.T) {
			if got := mustFEN(t, fen).FEN(); got != fen {
				t.Errorf("got %q, want %q", got, fen)
			}
		})
	}
}

func TestFENShortForm(t *testing.T) {
	p := mustFEN(t, "  8/8/8/8/3N4/8/8/8   w - -  ")
	if got, want := p.FEN(), "8/8/8/8/3N4/8/8/8 w - - 0 1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFENErrors(t *testing.T) {
	tests := []struct{ name, fen, want string }{
		{"empty", "", "FEN has 0 fields"},
		{"seven ranks", "8/8/8/8/8/8/8 w - - 0 1", "FEN has 7 ranks, want 8"},
		{"long rank", "9/8/8/8/8/8/8/8 w - - 0 1", "not a piece letter"},
		{"rank too long", "pppppppppp/8/8/8/8/8/8/8 w - - 0 1", "more than 8 squares"},
		{"short rank", "7/8/8/8/8/8/8/8 w - - 0 1", "has 7 squares, want 8"},
		{"digits in a row", "44/8/8/8/8/8/8/8 w - - 0 1", "two digits in a row"},
		{"bad letter", "8/8/8/8/8/8/8/7x w - - 0 1", "not a piece letter"},
		{"two white kings", "8/8/8/8/8/8/8/KK6 w - - 0 1", "2 white kings"},
		{"side", "8/8/8/8/8/8/8/8 x - - 0 1", "side to move"},
		{"castling letter", "4k3/8/8/8/8/8/8/4K2R w X - 0 1", "castling field"},
		{"castling order", "r3k2r/8/8/8/8/8/8/R3K2R w QK - 0 1", "order KQkq"},
		{"castling without rook", "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "needs the white king on e1 and a white rook on h1"},
		{"ep not a square", "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "not - or a square"},
		{"ep wrong rank", "4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "must be on rank 6"},
		{"ep without pawn", "4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "does not fit the board"},
		{"halfmove letters", "4k3/8/8/8/8/8/8/4K3 w - - x 1", "half-move clock"},
		{"negative halfmove", "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "half-move clock"},
		{"move zero", "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "out of range"},
		{"leading zero", "4k3/8/8/8/8/8/8/4K3 w - - 01 1", "not a plain number"},
		{"five fields", "4k3/8/8/8/8/8/8/4K3 w - - 0", "FEN has 5 fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFEN(tt.fen)
			if err == nil {
				t.Fatalf("ParseFEN(%q) = nil error, want one containing %q", tt.fen, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "chess: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want a chess: error containing %q", err, tt.want)
			}
		})
	}
}

func TestSANOutput(t *testing.T) {
	tests := []struct{ name, fen, uci, want string }{
		{"pawn push", StartFEN, "e2e4", "e4"},
		{"knight", StartFEN, "g1f3", "Nf3"},
		{"pawn capture", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "exd5"},
		{"disambiguate by file", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", "Nbd2"},
		{"disambiguate by rank", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
		{"disambiguate by both", "4k3/8/8/8/8/2Q1Q3/8/4Q1K1 w - - 0 1", "e3d2", "Qe3d2+"},
		{"file is enough among three", "4k3/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1", "e3d2", "Qed2"},
		{"pinned twin needs no disambiguation", "4k3/8/8/8/8/8/4r3/2N1KN2 w - - 0 1", "c1e2", "Nxe2"},
		{"capture with piece", "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", "Nxd5"},
		{"check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+"},
		{"mate", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a8", "Ra8#"},
		{"king side castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"queen side castling", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O"},
		{"promotion to queen", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "e8=Q"},
		{"promotion to knight with check", "8/4P3/5k2/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N+"},
		{"capture promotion", "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7d8r", "exd8=R"},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			m, err := p.ParseUCI(tt.uci)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.SAN(m); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			back, err := p.ParseSAN(tt.want)
			if err != nil || back != m {
				t.Errorf("ParseSAN(%q) = %v, %v; want %v", tt.want, back, err, m)
			}
		})
	}
}

func TestSANIllegalMove(t *testing.T) {
	p := mustFEN(t, StartFEN)
	other := mustFEN(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	m, _ := other.ParseUCI("a1a8")
	if got := p.SAN(m); got != "" {
		t.Errorf("SAN of a move from another position = %q, want \"\"", got)
	}
}

func TestParseSANLenient(t *testing.T) {
	tests := []struct{ name, fen, san, want string }{
		{"check mark", StartFEN, "Nf3+", "g1f3"},
		{"annotation", StartFEN, "e4!?", "e2e4"},
		{"promotion without =", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8Q", "e7e8q"},
		{"lower-case promotion", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=n", "e7e8n"},
		{"zero castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1g1"},
		{"castling with check", "r4k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O+", "e1g1"},
		{"long castling zeros", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "0-0-0", "e8c8"},
		{"king two squares", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Kg1", "e1g1"},
		{"long form", StartFEN, "Ng1f3", "g1f3"},
		{"coordinates", StartFEN, "e2e4", "e2e4"},
		{"coordinates with dash", StartFEN, "e2-e4", "e2e4"},
		{"spaces", StartFEN, "  d4 ", "d2d4"},
		{"pawn letter", StartFEN, "Pe4", "e2e4"},
		{"over-specified", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nb1d2", "b1d2"},
		{"en passant note", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6e.p.", "e5d6"},
		{"lower-case piece", StartFEN, "nf3", "g1f3"},
		{"upper-case square", StartFEN, "NF3", "g1f3"},
		{"upper-case pawn move", StartFEN, "E4", "e2e4"},
		{"promotion in lower case", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8q", "e7e8q"},
		{"lower-case b is the b-pawn", StartFEN, "b4", "b2b4"},
		{"lower-case b pawn capture", "4k3/8/8/2p5/1P6/8/8/4K3 w - - 0 1", "bxc5", "b4c5"},
		{"lower-case b as bishop when only that fits", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "bd2", "c1d2"},
		{"lower-case b prefers the pawn", "4k3/8/8/8/8/8/1P6/2B1K3 w - - 0 1", "b3", "b2b3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := mustFEN(t, tt.fen).ParseSAN(tt.san)
			if err != nil {
				t.Fatalf("ParseSAN(%q): %v", tt.san, err)
			}
			if m.UCI() != tt.want {
				t.Errorf("got %s, want %s", m.UCI(), tt.want)
			}
		})
	}
}

func TestParseSANRefused(t *testing.T) {
	tests := []struct {
		name, fen, san, want string
		code                 string
	}{
		{"empty", StartFEN, "", "empty", CodeSANEmpty},
		{"nonsense", StartFEN, "hello", "does not end in a square", CodeSANNoSquare},
		{"junk before the square", StartFEN, "Nzf3", "not a move", CodeSANNotNotation},
		{"no square", StartFEN, "Nf", "does not end in a square", CodeSANNoSquare},
		{"bad square", StartFEN, "Nf9", "does not end in a square", CodeSANNoSquare},
		{"illegal pawn move", StartFEN, "e5", "no white pawn can move to e5", CodeSANIllegal + "pawn"},
		{"no such piece", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Qd4", "White has no queen", CodeSANNoPiece + "queen"},
		{"ambiguous", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", "ambiguous; it could be Nbd2 or Nfd2", CodeSANAmbiguous},
		{"promotion missing", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8", "say what it becomes", CodeSANNeedsPromotion},
		{"promotion to king", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=K", "queen, rook, bishop or knight", CodeSANPromotionPiece},
		{"promotion too early", StartFEN, "e4=Q", "not a legal promotion", CodeSANIllegalPromotion},
		{"false capture", StartFEN, "Nxf3", "nothing to capture on f3", CodeSANNothingToCapture},
		{"castling through pieces", StartFEN, "O-O", "cannot castle on the king side", CodeSANCastleKingSide},
		{"too long", StartFEN, strings.Repeat("N", 40), "too long", CodeSANTooLong},
		{"lower-case b names neither", StartFEN, "bc4", "no white pawn can move to c4", CodeSANIllegal + "pawn"},
		{"ambiguous in lower case", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "nd2", "ambiguous", CodeSANAmbiguous},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := mustFEN(t, tt.fen).ParseSAN(tt.san)
			if err == nil {
				t.Fatalf("ParseSAN(%q) = %v, want an error", tt.san, m)
			}
			if !strings.HasPrefix(err.Error(), "chess: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want a chess: error containing %q", err, tt.want)
			}
			// The error is typed: a code and the text as it was entered;
			// syntax errors are *SyntaxErrors, the rest are not.
			var ce *Error
			if !errors.As(err, &ce) || ce.Code != tt.code || ce.Args["Text"] != tt.san || ce.Args["Color"] != "white" {
				t.Errorf("got %#v, want a *Error with code %q, text %q and colour white", err, tt.code, tt.san)
			}
			var se *SyntaxError
			syntax := tt.code == CodeSANEmpty || tt.code == CodeSANTooLong || tt.code == CodeSANNotNotation || tt.code == CodeSANNoSquare
			if errors.As(err, &se) != syntax {
				t.Errorf("%q: *SyntaxError = %v, want %v", tt.code, errors.As(err, &se), syntax)
			}
		})
	}
}

func TestParseUCI(t *testing.T) {
	p := mustFEN(t, "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for _, ok := range []string{"e1g1", "e1c1", "b7b8q", "b7a8N", "a1a8"} {
		if m, err := p.ParseUCI(ok); err != nil || !strings.EqualFold(m.UCI(), ok) {
			t.Errorf("ParseUCI(%q) = %v, %v", ok, m, err)
		}
	}
	tests := []struct {
		in, want string
		code     string
	}{
		{"", "not a UCI move", CodeUCISyntax},
		{"e2", "not a UCI move", CodeUCISyntax},
		{"z1e2", "not a UCI move", CodeUCISyntax},
		{"b7b8k", "may only become q, r, b or n", CodeUCIPromotion},
		{"b7b8", "add what it becomes", CodeUCINeedsPromotion},
		{"d4d5", "no piece on d4", CodeUCINoPiece},
		{"e1e3", "not a legal move", CodeUCIIllegal},
		{"0000", "not a UCI move", CodeUCISyntax},
		{"e1g1qq", "not a UCI move", CodeUCISyntax},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := p.ParseUCI(tt.in)
			if err == nil || !strings.HasPrefix(err.Error(), "chess: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want a chess: error containing %q", err, tt.want)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Code != tt.code || ce.Args["Text"] != tt.in {
				t.Errorf("got %#v, want code %q and text %q", err, tt.code, tt.in)
			}
		})
	}
}

func TestPlayLeavesReceiver(t *testing.T) {
	p := mustFEN(t, StartFEN)
	m, _ := p.ParseSAN("e4")
	next := p.Play(m)
	if p.FEN() != StartFEN {
		t.Errorf("receiver changed to %q", p.FEN())
	}
	if got, want := next.FEN(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if next.Play(m) != nil {
		t.Error("Play of a move that is not legal should return nil")
	}
}

func TestDestinations(t *testing.T) {
	tests := []struct {
		name, fen string
		from      Square
		want      string
	}{
		{"lone knight", "8/8/8/8/3N4/8/8/8 w - - 0 1", D4, "c2 e2 b3 f3 b5 f5 c6 e6"},
		{"promotion counted once", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", E7, "e8"},
		{"pinned rook slides along the pin", "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", E2, "e3 e4 e5 e6 e7 e8"},
		{"empty square", StartFEN, E4, ""},
		{"other side's piece", StartFEN, E7, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range mustFEN(t, tt.fen).Destinations(tt.from) {
				got = append(got, s.String())
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("got %q, want %q", strings.Join(got, " "), tt.want)
			}
		})
	}
}

func TestCastlingRights(t *testing.T) {
	t.Run("rook captured on its corner", func(t *testing.T) {
		g := mustGame(t, "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1")
		playSAN(t, g, "Bxh1")
		if got := g.Position().CastlingRights().String(); got != "Qkq" {
			t.Errorf("rights %q, want Qkq", got)
		}
		if g.Position().CanCastle(White, true) {
			t.Error("White may still castle king side")
		}
	})
	t.Run("king moved and came back", func(t *testing.T) {
		g := mustGame(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
		playSAN(t, g, "Ke2 Ke7 Ke1 Ke8")
		p := g.Position()
		if got := p.CastlingRights().String(); got != "-" {
			t.Errorf("rights %q, want -", got)
		}
		for _, m := range p.LegalMoves() {
			if m.IsCastle() {
				t.Errorf("castling move %s offered", m)
			}
		}
	})
	t.Run("rook moved and came back", func(t *testing.T) {
		g := mustGame(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
		playSAN(t, g, "Rh2 Ra7 Rh1 Ra8")
		if got := g.Position().CastlingRights().String(); got != "Qk" {
			t.Errorf("rights %q, want Qk", got)
		}
	})
	t.Run("attacked rook and b1 do not stop castling", func(t *testing.T) {
		p := mustFEN(t, "1r2k3/8/8/8/8/8/8/R3K2r w Q - 0 1")
		if _, err := p.ParseSAN("O-O-O"); err == nil {
			t.Error("castling out of check allowed")
		}
		p = mustFEN(t, "rr2k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
		if _, err := p.ParseSAN("O-O-O"); err != nil {
			t.Errorf("castling refused though only a1 and b1 are attacked: %v", err)
		}
	})
	t.Run("crossing an attacked square", func(t *testing.T) {
		p := mustFEN(t, "3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1")
		if _, err := p.ParseSAN("O-O-O"); err == nil {
			t.Error("king crossed d1, which the rook attacks")
		}
	})
}

func TestEnPassantDiscoveredCheck(t *testing.T) {
	p := mustFEN(t, "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1")
	if _, err := p.ParseSAN("exd6"); err == nil {
		t.Error("en passant that uncovers the rook on the rank was allowed")
	}
	q := mustFEN(t, "4k3/8/8/K2pP3/8/8/8/8 w - d6 0 1")
	if _, err := q.ParseSAN("exd6"); err != nil {
		t.Errorf("legal en passant refused: %v", err)
	}
}

func TestHashEnPassant(t *testing.T) {
	tests := []struct {
		name, with, without string
		same                bool
	}{
		{"no capturing pawn", "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1", true},
		{"capture is illegal", "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", "4k3/8/8/K2pP2r/8/8/8/8 w - - 0 1", true},
		{"capture is legal", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := mustFEN(t, tt.with).Hash(), mustFEN(t, tt.without).Hash()
			if (a == b) != tt.same {
				t.Errorf("hashes equal = %v, want %v", a == b, tt.same)
			}
		})
	}
}

func TestHashIncremental(t *testing.T) {
	g := mustGame(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	playSAN(t, g, "a4 bxa3 Bxa6 O-O d6 c5 dxe7 axb2 exf8=Q+ Kxf8 O-O")
	for _, p := range g.Positions() {
		if got, want := p.Hash(), mustFEN(t, p.FEN()).Hash(); got != want {
			t.Errorf("%s: incremental hash %x, from scratch %x", p.FEN(), got, want)
		}
	}
}

func TestNewGameRefuses(t *testing.T) {
	tests := []struct{ name, fen, want string }{
		{"no white king", "4k3/8/8/8/8/8/8/8 w - - 0 1", "exactly one white king, and this position has 0"},
		{"no black king", "8/8/8/8/8/8/8/4K3 w - - 0 1", "exactly one black king"},
		{"pawn on last rank", "3Pk3/8/8/8/8/8/8/4K3 b - - 0 1", "pawn on d8"},
		{"pawn on first rank", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn on a1"},
		{"side not to move in check", "4k3/8/8/8/8/8/8/4K2q b - - 0 1", "white king is in check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewGame(mustFEN(t, tt.fen))
			if err == nil || !strings.HasPrefix(err.Error(), "chess: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want a chess: error containing %q", err, tt.want)
			}
		})
	}
	if _, err := NewGame(nil); err == nil {
		t.Error("NewGame(nil) gave no error")
	}
}

func TestOutcomes(t *testing.T) {
	tests := []struct {
		name, fen, moves string
		result           string
		method           Method
		reason           string
	}{
		{"checkmate", StartFEN, "f3 e5 g4 Qh4#", "0-1", Checkmate, "Black wins by checkmate"},
		{"stalemate", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "Qf7", "1/2-1/2", Stalemate, "Draw by stalemate"},
		{"fifty-move rule", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", "Ra7", "1/2-1/2", FiftyMoveRule, "Draw by the fifty-move rule"},
		{"mate on the hundredth half-move", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", "Ra8#", "1-0", Checkmate, "White wins by checkmate"},
		{"ninety-nine half-moves play on", "7k/8/6K1/8/8/8/8/R7 w - - 98 80", "Ra7", "*", NoMethod, ""},
		{"capture leaves K v K", "7k/8/8/8/8/8/8/K5r1 w - - 30 60", "Kb2 Kg8 Kc2 Rg2+ Kd3 Kf8 Ke3 Rg4 Kf3 Ke8 Kxg4", "1/2-1/2", InsufficientMaterial, "Draw by insufficient material"},
		{"game goes on", StartFEN, "e4 e5", "*", NoMethod, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustGame(t, tt.fen)
			playSAN(t, g, tt.moves)
			o := g.Outcome()
			if o.Result != tt.result || o.Method != tt.method || o.Reason() != tt.reason {
				t.Errorf("got %q %q %q, want %q %q %q", o.Result, o.Method, o.Reason(), tt.result, tt.method, tt.reason)
			}
		})
	}
}

func TestInsufficientMaterial(t *testing.T) {
	tests := []struct {
		name, fen string
		want      bool
	}{
		{"K v K", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"K+B v K", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},
		{"K v K+B", "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"K+N v K", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true},
		{"K v K+N", "1n2k3/8/8/8/8/8/8/4K3 b - - 0 1", true},
		{"bishops on both colours", "4k3/8/8/5b2/8/3b4/8/2B1KB2 w - - 0 1", false},
		{"many bishops all on dark squares", "4k3/8/8/2b5/5b2/4B3/8/2B1K3 w - - 0 1", true},
		{"many bishops all on light squares", "4k3/8/4b3/8/8/8/8/3BKB2 w - - 0 1", true},
		{"bishops on light squares only", "4k3/8/4b3/8/2B5/8/8/4KB2 w - - 0 1", true},
		{"K+B v K+B opposite colours", "4k3/8/8/8/8/8/8/2B1Kb2 w - - 0 1", false},
		{"K+N v K+N", "1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false},
		{"K+B v K+N", "1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false},
		{"K+N+N v K", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", false},
		{"K+P v K", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
		{"K+R v K", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false},
		{"K+Q v K", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustFEN(t, tt.fen).InsufficientMaterial(); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	// In each case White's time runs out; Black is the opponent of R9.
	tests := []struct {
		name, fen string
		result    string
		reason    string
	}{
		{"(a) lone king", "4k3/8/8/8/8/8/4P3/Q3K3 w - - 0 1", "1/2-1/2", "Draw: White's time ran out, but Black could never checkmate"},
		{"not (a): king and pawn", "4k3/4p3/8/8/8/8/8/Q3K3 w - - 0 1", "0-1", "Black wins on time"},
		{"(b) knight against queens", "1n2k3/8/8/8/8/8/8/QQ2K3 w - - 0 1", "1/2-1/2", "Draw: White's time ran out, but Black could never checkmate"},
		{"(b) knight against one queen", "1n2k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "1/2-1/2", "Draw: White's time ran out, but Black could never checkmate"},
		{"not (b): knight against rook", "1n2k3/8/8/8/8/8/8/R3K3 w - - 0 1", "0-1", "Black wins on time"},
		{"not (b): knight against queen and pawn", "1n2k3/8/8/8/8/8/4P3/Q3K3 w - - 0 1", "0-1", "Black wins on time"},
		{"not (b): two knights", "1n2kn2/8/8/8/8/8/8/Q3K3 w - - 0 1", "0-1", "Black wins on time"},
		{"(c) same-colour bishops against rook and queen", "2b1k3/8/4b3/8/8/8/8/RQ2K3 w - - 0 1", "1/2-1/2", "Draw: White's time ran out, but Black could never checkmate"},
		{"(c) bishop against rook and bishop on the same colour", "2b1k3/8/8/8/8/8/8/R3KB2 w - - 0 1", "1/2-1/2", "Draw: White's time ran out, but Black could never checkmate"},
		{"not (c): flagged side has a bishop on the other colour", "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "0-1", "Black wins on time"},
		{"not (c): flagged side has a knight", "2b1k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "0-1", "Black wins on time"},
		{"not (c): flagged side has a pawn", "2b1k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "0-1", "Black wins on time"},
		{"not (c): bishops on both colours", "2bbk3/8/8/8/8/8/8/Q3K3 w - - 0 1", "0-1", "Black wins on time"},
		{"not (c): bishop and knight", "1nb1k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "0-1", "Black wins on time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustGame(t, tt.fen)
			g.Timeout(White)
			o := g.Outcome()
			if o.Method != Timeout || o.Result != tt.result || o.Reason() != tt.reason {
				t.Errorf("got %q %q %q, want timeout %q %q", o.Method, o.Result, o.Reason(), tt.result, tt.reason)
			}
		})
	}
}

func TestThreefold(t *testing.T) {
	cycle := " Nf3 Ke7 Ng1 Ke8"
	t.Run("legal en passant makes the first position different", func(t *testing.T) {
		g := mustGame(t, "4k3/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1")
		playSAN(t, g, "d5"+cycle+cycle)
		if g.Outcome().Over() || g.RepetitionCount() != 2 {
			t.Fatalf("after two cycles: %q, count %d; want play on, count 2", g.Outcome().Reason(), g.RepetitionCount())
		}
		playSAN(t, g, "Nf3") // the knight-on-f3 position comes a third time first
		if o := g.Outcome(); o.Method != ThreefoldRepetition || o.Reason() != "Draw by threefold repetition" {
			t.Errorf("after the third Nf3: %q", o.Reason())
		}
	})
	t.Run("en passant target without a legal capture counts as the same", func(t *testing.T) {
		g := mustGame(t, "4k3/3p4/8/7P/8/8/8/4K1N1 b - - 0 1")
		playSAN(t, g, "d5"+cycle)
		if g.RepetitionCount() != 2 {
			t.Fatalf("count %d, want 2", g.RepetitionCount())
		}
		playSAN(t, g, cycle)
		if o := g.Outcome(); o.Method != ThreefoldRepetition {
			t.Errorf("got %q, want a draw by threefold repetition", o.Reason())
		}
		if err := g.Play(g.Position().LegalMoves()[0]); err == nil {
			t.Error("a move was accepted after the game ended")
		}
	})
}

func TestGameActions(t *testing.T) {
	t.Run("illegal move", func(t *testing.T) {
		g := mustGame(t, StartFEN)
		other := mustFEN(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
		m, _ := other.ParseUCI("a1a8")
		if err := g.Play(m); err == nil || !strings.HasPrefix(err.Error(), "chess: ") {
			t.Errorf("got %v, want a chess: error", err)
		}
		if err := g.Play(NoMove); err == nil {
			t.Error("NoMove accepted")
		}
	})
	t.Run("undo", func(t *testing.T) {
		g := mustGame(t, StartFEN)
		if err := g.Undo(); err == nil {
			t.Error("undo with no moves gave no error")
		}
		playSAN(t, g, "f3 e5 g4 Qh4#")
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if g.Outcome().Over() || g.Ply() != 3 || len(g.SANs()) != 3 || len(g.Positions()) != 4 {
			t.Errorf("after undo: %q, ply %d", g.Outcome().Reason(), g.Ply())
		}
		if got, want := g.Position().FEN(), "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("resign", func(t *testing.T) {
		g := mustGame(t, StartFEN)
		g.Resign(White)
		if o := g.Outcome(); o.Result != "0-1" || o.Reason() != "Black wins by resignation" {
			t.Errorf("got %q %q", o.Result, o.Reason())
		}
		if err := g.Undo(); err == nil {
			t.Error("undo after resignation gave no error")
		}
		g.AgreeDraw()
		if g.Outcome().Method != Resignation {
			t.Error("a draw replaced the resignation")
		}
	})
	t.Run("agree draw", func(t *testing.T) {
		g := mustGame(t, StartFEN)
		playSAN(t, g, "e4")
		g.AgreeDraw()
		if o := g.Outcome(); o.Result != "1/2-1/2" || o.Method.String() != "agreement" || o.Reason() != "Draw by agreement" {
			t.Errorf("got %q %q", o.Result, o.Reason())
		}
	})
	t.Run("timeout win", func(t *testing.T) {
		g := mustGame(t, StartFEN)
		g.Timeout(Black)
		if o := g.Outcome(); o.Result != "1-0" || o.Reason() != "White wins on time" {
			t.Errorf("got %q %q", o.Result, o.Reason())
		}
	})
	t.Run("start position already over", func(t *testing.T) {
		g := mustGame(t, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
		if g.Outcome().Method != InsufficientMaterial {
			t.Errorf("got %q", g.Outcome().Reason())
		}
	})
}

func TestMethodStrings(t *testing.T) {
	want := []string{"", "checkmate", "stalemate", "threefold repetition", "fifty-move rule",
		"insufficient material", "timeout", "resignation", "agreement"}
	for i, w := range want {
		if got := Method(i).String(); got != w {
			t.Errorf("Method(%d) = %q, want %q", i, got, w)
		}
	}
}

func TestPGN(t *testing.T) {
	t.Run("seven tags and wrapping", func(t *testing.T) {
		g := mustGame(t, StartFEN)
		playSAN(t, g, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4")
		g.AgreeDraw()
		pgn := g.PGN(map[string]string{"White": "Ann \"A\"", "Black": "Bob", "Date": "2026.01.02", "Annotator": "x", "bad tag": "y"})
		for _, want := range []string{
			"[Event \"?\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"?\"]\n[White \"Ann \\\"A\\\"\"]\n[Black \"Bob\"]\n[Result \"1/2-1/2\"]\n[Annotator \"x\"]\n\n1. e4 e5 2. Nf3",
			"17. dxe5 Nxe4",
			"{Draw by agreement.} 1/2-1/2\n",
		} {
			if !strings.Contains(pgn, want) {
				t.Errorf("PGN lacks %q:\n%s", want, pgn)
			}
		}
		if strings.Contains(pgn, "bad tag") {
			t.Error("an invalid tag name was written")
		}
		for _, line := range strings.Split(pgn, "\n") {
			if len(line) > 79 {
				t.Errorf("line longer than 79 columns: %q", line)
			}
		}
	})
	t.Run("annotations", func(t *testing.T) {
		g := mustGame(t, StartFEN)
		playSAN(t, g, "f3 e5 g4")
		p := g.Record(map[string]string{"Event": "Test"})
		p.Lead = "Two hints were used."
		p.Notes = []Note{{Eval: "0.10"}, {NAG: 6, Eval: "-0.60", Comment: "Inaccuracy. A } closes nothing."}, {NAG: 4, Eval: "#-1", Comment: "Blunder."}}
		p.Result, p.Termination, p.Ending = "0-1", TerminationAdjudication, "Black wins: adjudicated."
		text, err := p.Text()
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(text), " ")
		for _, want := range []string{
			`[Result "0-1"]`, `[Termination "adjudication"]`,
			"{Two hints were used.} 1. f3 {[%eval 0.10]} 1... e5 $6 {[%eval -0.60] Inaccuracy. A ) closes nothing.}",
			"2. g4 $4 {[%eval #-1] Blunder.} {Black wins: adjudicated.} 0-1",
		} {
			if !strings.Contains(flat, want) {
				t.Errorf("annotated PGN lacks %q:\n%s", want, text)
			}
		}
		p.Moves = append(p.Moves, p.Moves[0]) // f3 again, with Black to move
		if _, err := p.Text(); err == nil {
			t.Error("a PGN with an illegal move was written")
		}
	})
	t.Run("set-up position with Black to move", func(t *testing.T) {
		fen := "4k3/8/8/8/8/8/r7/4K3 b - - 0 30"
		g := mustGame(t, fen)
		playSAN(t, g, "Kd7 Kf1")
		pgn := g.PGN(nil)
		for _, want := range []string{"[Result \"*\"]", "[FEN \"" + fen + "\"]", "[SetUp \"1\"]", "\n30... Kd7 31. Kf1 *\n"} {
			if !strings.Contains(pgn, want) {
				t.Errorf("PGN lacks %q:\n%s", want, pgn)
			}
		}
	})
}

func TestNoAllocations(t *testing.T) {
	p := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	buf := make([]Move, 0, 256)
	var child Position
	allocs := testing.AllocsPerRun(100, func() {
		buf = p.AppendLegalMoves(buf[:0])
		buf = p.AppendCaptures(buf)
		p.PlayInto(buf[0], &child)
		child.PlayNull(&child)
		_ = child.Hash()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

func TestAppendCaptures(t *testing.T) {
	p := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	var want []string
	for _, m := range p.LegalMoves() {
		if m.IsCapture() || m.IsPromotion() {
			want = append(want, m.UCI())
		}
	}
	var got []string
	for _, m := range p.AppendCaptures(nil) {
		got = append(got, m.UCI())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") || len(got) != 8 {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestTeachingPositionWithoutKing(t *testing.T) {
	// A side without a king has no check rules (R12): the rook may move
	// anywhere, even next to the enemy king.
	p := mustFEN(t, "8/8/8/8/3R4/8/8/8 w - - 0 1")
	if got := len(p.Destinations(D4)); got != 14 {
		t.Errorf("rook has %d destinations, want 14", got)
	}
	if p.InCheck() || p.IsCheckmate() {
		t.Error("a side without a king is in check")
	}
}

func TestCanNeverMate(t *testing.T) {
	tests := []struct {
		name, fen string
		c         Color
		want      bool
	}{
		{"lone king", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", Black, true},
		{"knight against a bare king", "1n2k3/8/8/8/8/8/8/4K3 w - - 0 1", Black, true},
		{"bishop against a bare king", "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1", Black, true},
		{"rook", "r3k3/8/8/8/8/8/8/4K3 w - - 0 1", Black, false},
		{"pawn", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", White, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CanNeverMate(mustFEN(t, tt.fen), tt.c); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReplay(t *testing.T) {
	g, err := Replay(StartFEN, []string{"f2f3", "e7e5", "g2g4", "d8h4"})
	if err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o.Method != Checkmate || o.Result != "0-1" || strings.Join(g.SANs(), " ") != "f3 e5 g4 Qh4#" {
		t.Errorf("replayed %v to %+v", g.SANs(), o)
	}
	for _, tc := range []struct {
		name, fen string
		uci       []string
		want      string
	}{
		{"bad start", "not a fen", nil, "chess:"},
		{"no game from it", "8/8/8/8/8/8/8/8 w - - 0 1", nil, "king"},
		{"illegal move", StartFEN, []string{"e2e4", "e2e4"}, "move 2 e2e4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Replay(tc.fen, tc.uci); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
