package chess

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The tables the site's catalogue holds (words/locales/*/notation.toml);
// the words package checks that its tables are these.
var (
	spanishLetters = Letters{Knight: "C", Bishop: "A", Rook: "T", Queen: "D", King: "R"}
	russianLetters = Letters{Knight: "К", Bishop: "С", Rook: "Л", Queen: "Ф", King: "Кр"}
	allLetters     = map[string]Letters{"en": EnglishLetters, "figurines": Figurines, "es": spanishLetters, "ru": russianLetters}
)

func TestLettersCheck(t *testing.T) {
	for name, l := range allLetters {
		if err := l.Check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := map[string]Letters{
		"a piece without a letter":   {Knight: "C", Bishop: "A", Rook: "T", Queen: "D"},
		"a file letter":              {Knight: "c", Bishop: "A", Rook: "T", Queen: "D", King: "R"},
		"two pieces alike":           {Knight: "C", Bishop: "A", Rook: "T", Queen: "D", King: "C"},
		"lookalikes across scripts":  {Knight: "К", Bishop: "С", Rook: "Л", Queen: "Ф", King: "K"},
		"castling's O":               {Knight: "N", Bishop: "B", Rook: "R", Queen: "O", King: "K"},
		"the capture x":              {Knight: "x", Bishop: "B", Rook: "R", Queen: "Q", King: "K"},
		"a digit":                    {Knight: "N1", Bishop: "B", Rook: "R", Queen: "Q", King: "K"},
		"punctuation":                {Knight: "N", Bishop: "B=", Rook: "R", Queen: "Q", King: "K"},
		"too long":                   {Knight: "Nkni", Bishop: "B", Rook: "R", Queen: "Q", King: "K"},
		"a pseudo-language wrapping": {Knight: "⟦N⟧", Bishop: "B", Rook: "R", Queen: "Q", King: "K"},
	}
	for name, l := range bad {
		if err := l.Check(); err == nil || !strings.HasPrefix(err.Error(), "chess: ") {
			t.Errorf("%s: Check() = %v, want a chess: error", name, err)
		}
	}
}

func TestWrite(t *testing.T) {
	tests := []struct {
		san, figurines, es, ru string
	}{
		{"Nf3", "♘f3", "Cf3", "Кf3"},
		{"Kxe2#", "♔xe2#", "Rxe2#", "Крxe2#"},
		{"Rd1", "♖d1", "Td1", "Лd1"},
		{"Bb5+", "♗b5+", "Ab5+", "Сb5+"},
		{"Qh4e1", "♕h4e1", "Dh4e1", "Фh4e1"},
		{"Nbd2", "♘bd2", "Cbd2", "Кbd2"},
		{"R1a3", "♖1a3", "T1a3", "Л1a3"},
		{"e8=Q+", "e8=♕+", "e8=D+", "e8=Ф+"},
		{"bxa8=N", "bxa8=♘", "bxa8=C", "bxa8=К"},
		{"exd5", "exd5", "exd5", "exd5"},
		{"O-O-O", "O-O-O", "O-O-O", "O-O-O"},
		{"", "", "", ""},
		{"hello", "hello", "hello", "hello"},
	}
	for _, tt := range tests {
		for name, want := range map[string]string{"figurines": tt.figurines, "es": tt.es, "ru": tt.ru, "en": tt.san} {
			if got := allLetters[name].Write(tt.san); got != want {
				t.Errorf("%s.Write(%q) = %q, want %q", name, tt.san, got, want)
			}
		}
		if got := FigurineSAN(tt.san); got != tt.figurines {
			t.Errorf("FigurineSAN(%q) = %q, want %q", tt.san, got, tt.figurines)
		}
	}
	// A table missing a letter writes the English one rather than nothing.
	if got := (Letters{Knight: "C"}).Write("Qd1"); got != "Qd1" {
		t.Errorf("a table without a queen writes %q", got)
	}
}

// Every clash between a language's letters and English ones, and every
// way of typing a move the site accepts.
func TestParseTyped(t *testing.T) {
	const (
		rookAndKing   = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"       // Ra1 and Ke1 both reach d1
		pawnOrKnight  = "4k3/8/8/8/3p4/2P2N2/8/4K3 w - - 0 1"  // c3 pawn and Nf3 both take d4
		pawnOrBishop  = "4k3/8/8/1p6/P7/8/8/4KB2 w - - 0 1"    // a4 pawn and Bf1 both take b5
		pawnOrQueen   = "4k3/8/8/4p3/3P4/8/7Q/4K3 w - - 0 1"   // d4 pawn and Qh2 both take e5
		knightOrKing  = "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1"      // Ke1 and Ng1 both reach e2
		pawnOrBishopC = "4k3/8/8/8/3p4/2P5/8/4K1B1 w - - 0 1"  // c3 pawn and Bg1 both take d4
		promotion     = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"       // e7-e8
		castle        = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" // both sides free
		bishopC4      = "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"       // Bf1-c4
		black         = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
	)
	tests := []struct{ lang, fen, typed, want string }{
		// Spanish: R is the king, T the rook; English R would be the rook.
		{"es", rookAndKing, "Rd1", "e1d1"},
		{"es", rookAndKing, "rd1", "e1d1"},
		{"es", rookAndKing, "Td1", "a1d1"},
		{"es", rookAndKing, "td1", "a1d1"},
		{"es", rookAndKing, "Kd1", "e1d1"}, // English K: no clash, still the king
		{"en", rookAndKing, "Rd1", "a1d1"},
		// Spanish C is the knight; a lower-case c is always the file.
		{"es", StartFEN, "Cf3", "g1f3"},
		{"es", StartFEN, "Nf3", "g1f3"}, // English N: no clash
		{"es", StartFEN, "c4", "c2c4"},
		{"es", StartFEN, "C4", "c2c4"}, // no square after C: the pawn, as in English
		{"es", pawnOrKnight, "Cxd4", "f3d4"},
		{"es", pawnOrKnight, "cxd4", "c3d4"},
		{"es", pawnOrKnight, "Nxd4", "f3d4"},
		{"en", pawnOrKnight, "Cxd4", "c3d4"},
		// Spanish A is the bishop; a is the file.
		{"es", pawnOrBishop, "Axb5", "f1b5"},
		{"es", pawnOrBishop, "axb5", "a4b5"},
		{"es", pawnOrBishop, "Bxb5", "f1b5"},
		{"en", pawnOrBishop, "Axb5", "a4b5"},
		// Spanish D is the queen; d is the file.
		{"es", pawnOrQueen, "Dxe5", "h2e5"},
		{"es", pawnOrQueen, "dxe5", "d4e5"},
		{"es", pawnOrQueen, "Qxe5", "h2e5"},
		{"es", pawnOrQueen, "D:e5", "h2e5"},
		{"en", pawnOrQueen, "Dxe5", "d4e5"},
		{"es", StartFEN, "D4", "d2d4"},
		// Promotions in Spanish; "=R" cannot be the king, so it is the rook.
		{"es", promotion, "e8=D", "e7e8q"},
		{"es", promotion, "e8D", "e7e8q"},
		{"es", promotion, "e8d", "e7e8q"},
		{"es", promotion, "e8=C", "e7e8n"},
		{"es", promotion, "e8=A", "e7e8b"},
		{"es", promotion, "e8=T", "e7e8r"},
		{"es", promotion, "e8=R", "e7e8r"},
		{"es", promotion, "e8=Q+", "e7e8q"},
		{"es", promotion, "e7e8D", "e7e8q"},
		// Russian: К is the knight, Кр the king; a Latin K looks like К.
		{"ru", knightOrKing, "Кe2", "g1e2"},
		{"ru", knightOrKing, "кe2", "g1e2"},
		{"ru", knightOrKing, "Крe2", "e1e2"},
		{"ru", knightOrKing, "крe2", "e1e2"},
		{"ru", knightOrKing, "КРe2", "e1e2"},
		{"ru", knightOrKing, "Kpe2", "e1e2"},
		{"ru", knightOrKing, "Кре2", "e1e2"}, // all Cyrillic, е included
		{"ru", knightOrKing, "Ke2", "g1e2"},  // Latin K: the Russian knight wins
		{"ru", knightOrKing, "Ne2", "g1e2"},
		{"en", knightOrKing, "Ke2", "e1e2"},
		{"es", knightOrKing, "Кe2", "e1e2"}, // in Spanish К is only a lookalike of K
		{"ru", StartFEN, "Кf3", "g1f3"},
		// Russian С (Cyrillic) is the bishop, Latin c the file.
		{"ru", pawnOrBishopC, "Сxd4", "g1d4"},
		{"ru", pawnOrBishopC, "сxd4", "g1d4"},
		{"ru", pawnOrBishopC, "Cxd4", "g1d4"}, // Latin C looks like С
		{"ru", pawnOrBishopC, "cxd4", "c3d4"},
		{"ru", pawnOrBishopC, "c:d4", "c3d4"},
		{"ru", pawnOrBishopC, "Bxd4", "g1d4"},
		{"ru", pawnOrBishopC, "Схd4", "g1d4"}, // Cyrillic х for the capture
		{"en", pawnOrBishopC, "Cxd4", "c3d4"},
		{"ru", bishopC4, "Сc4", "f1c4"},
		{"ru", bishopC4, "Сс4", "f1c4"}, // the file typed in Cyrillic too
		{"ru", StartFEN, "с4", "c2c4"},  // no square after с: the file
		{"ru", StartFEN, "е4", "e2e4"},
		{"ru", StartFEN, "а3", "a2a3"},
		{"ru", promotion, "e8=Ф", "e7e8q"},
		{"ru", promotion, "e8ф", "e7e8q"},
		{"ru", promotion, "e8=К", "e7e8n"},
		{"ru", promotion, "e8=С", "e7e8b"},
		{"ru", promotion, "e8=Л", "e7e8r"},
		{"ru", rookAndKing, "Лd1", "a1d1"},
		{"ru", rookAndKing, "Rd1", "a1d1"},
		{"ru", rookAndKing, "Фd1", ""}, // no queen: refused
		// Castling in every spelling.
		{"es", castle, "0-0", "e1g1"},
		{"es", castle, "O-O-O", "e1c1"},
		{"ru", castle, "О-О", "e1g1"}, // Cyrillic О
		{"ru", castle, "о-о-о", "e1c1"},
		{"ru", castle, "0–0", "e1g1"}, // en dash
		{"en", castle, "O-O+", "e1g1"},
		// Figurines in every language, white or black.
		{"en", StartFEN, "♘f3", "g1f3"},
		{"es", StartFEN, "♘f3", "g1f3"},
		{"ru", StartFEN, "♘f3", "g1f3"},
		{"ru", StartFEN, "♞f3", "g1f3"},
		{"es", StartFEN, "♘\ufe0ef3", "g1f3"},
		{"en", StartFEN, "♙e4", "e2e4"},
		{"ru", black, "♞c6", "b8c6"},
		{"es", knightOrKing, "♔e2", "e1e2"},
		{"es", pawnOrKnight, "♘×d4", "f3d4"},
		{"en", promotion, "e8=♕", "e7e8q"},
		{"ru", promotion, "e8♞", "e7e8n"},
		// English as ParseSAN reads it.
		{"en", StartFEN, "nf3", "g1f3"},
		{"en", StartFEN, "b4", "b2b4"},
		{"en", StartFEN, " e2-e4 ", "e2e4"},
		{"es", StartFEN, "Cg1f3", "g1f3"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.typed, func(t *testing.T) {
			l := allLetters[tt.lang]
			m, err := mustFEN(t, tt.fen).ParseTyped(tt.typed, l)
			if tt.want == "" {
				var ce *Error
				if err == nil || !errors.As(err, &ce) || ce.Args["Text"] != tt.typed {
					t.Fatalf("ParseTyped(%q) = %v, %v; want a *Error carrying the text", tt.typed, m, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseTyped(%q) (read as %q): %v", tt.typed, l.Read(tt.typed), err)
			}
			if m.UCI() != tt.want {
				t.Errorf("ParseTyped(%q) (read as %q) = %s, want %s", tt.typed, l.Read(tt.typed), m.UCI(), tt.want)
			}
		})
	}
}

// A refusal carries the text as it was typed, not as it was read.
func TestParseTypedRefusals(t *testing.T) {
	tests := []struct {
		lang, fen, typed, code string
		args                   map[string]string
	}{
		{"ru", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Фd4", CodeSANNoPiece + "queen", map[string]string{"Piece": "queen"}},
		{"es", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rd5", CodeSANIllegal + "king", map[string]string{"Piece": "king", "Square": "d5"}},
		{"es", StartFEN, "Cxf3", CodeSANNothingToCapture, map[string]string{"Square": "f3"}},
		{"ru", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Кd2", CodeSANAmbiguous, map[string]string{"Moves": "Nbd2, Nfd2"}},
		{"ru", "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1", "О-О", CodeSANCastleKingSide, nil},
		{"es", StartFEN, "", CodeSANEmpty, nil},
		{"ru", StartFEN, "Кр", CodeSANNoSquare, nil},
		{"es", StartFEN, strings.Repeat("♘", 30), CodeSANTooLong, nil},
	}
	for _, tt := range tests {
		_, err := mustFEN(t, tt.fen).ParseTyped(tt.typed, allLetters[tt.lang])
		var ce *Error
		if !errors.As(err, &ce) || ce.Code != tt.code || ce.Args["Text"] != tt.typed || !strings.Contains(err.Error(), strconv.Quote(tt.typed)) && tt.typed != "" && tt.code != CodeSANCastleKingSide {
			t.Errorf("%s %q: got %#v, want code %q and the typed text", tt.lang, tt.typed, err, tt.code)
			continue
		}
		for k, v := range tt.args {
			if ce.Args[k] != v {
				t.Errorf("%s %q: %s = %q, want %q", tt.lang, tt.typed, k, ce.Args[k], v)
			}
		}
	}
}

// checkTyped writes every legal move of p in every style and reads it
// back as the same move.
func checkTyped(t *testing.T, p *Position) {
	t.Helper()
	for _, m := range p.LegalMoves() {
		san := p.SAN(m)
		for name, l := range allLetters {
			shown := l.Write(san)
			back, err := p.ParseTyped(shown, l)
			if err != nil || back != m {
				t.Fatalf("%s: %s writes %s as %q, which reads back as %v, %v", p.FEN(), name, san, shown, back, err)
			}
		}
		if back, err := p.ParseTyped(FigurineSAN(san), spanishLetters); err != nil || back != m {
			t.Fatalf("%s: figurines %q read in Spanish: %v, %v", p.FEN(), FigurineSAN(san), back, err)
		}
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	f, err := os.Open("testdata/perft.epd")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fen, _, _ := strings.Cut(line, ";")
		p := mustFEN(t, strings.TrimSpace(fen))
		checkTyped(t, p)
		// and one ply deeper, for the other side's moves
		for _, m := range p.LegalMoves() {
			checkTyped(t, p.Play(m))
		}
		n++
	}
	if n < 100 {
		t.Fatalf("read only %d positions", n)
	}
}

func FuzzParseTyped(f *testing.F) {
	for i, s := range []string{"Cf3", "Rd1", "Кf3", "Крe1", "♘f3", "e8=D", "О-О", "Сxd4", "cxd4", "e8♞", "Kpe2", "D4", "с4", "\ufe0f", "Кр"} {
		f.Add(uint8(i), s)
	}
	names := []string{"en", "figurines", "es", "ru"}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		p, err := ParseFEN(fuzzPositions[int(which)%len(fuzzPositions)])
		if err != nil {
			t.Fatal(err)
		}
		l := allLetters[names[int(which/8)%len(names)]]
		m, err := p.ParseTyped(s, l)
		if err != nil {
			var ce *Error
			if !strings.HasPrefix(err.Error(), "chess: ") || !errors.As(err, &ce) || ce.Args["Text"] != s {
				t.Fatalf("ParseTyped(%q): error %#v is not a chess *Error carrying the text", s, err)
			}
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("ParseTyped(%q) returned the illegal move %s", s, m)
		}
		// Reading is stable: the English text it reads as names the move too.
		if back, err := p.ParseSAN(l.Read(s)); err != nil || back != m {
			t.Fatalf("ParseTyped(%q) = %s but ParseSAN(%q) = %v, %v", s, m, l.Read(s), back, err)
		}
	})
}
