package words

import (
	"errors"
	"testing"

	"chesstutor/chess"
)

// Each language's piece letters are the ones its chess teachers use (FIDE:
// es R D T A C, ru Кр Ф Л С К), and every table can be read back.
func TestLetters(t *testing.T) {
	c := MustLoad(WithPseudo())
	want := map[string]chess.Letters{
		"en": chess.EnglishLetters,
		"es": {chess.King: "R", chess.Queen: "D", chess.Rook: "T", chess.Bishop: "A", chess.Knight: "C"},
		"ru": {chess.King: "Кр", chess.Queen: "Ф", chess.Rook: "Л", chess.Bishop: "С", chess.Knight: "К"},
	}
	for _, l := range c.Languages() {
		w := c.For(l.Code)
		var raw chess.Letters
		for _, k := range letterKeys {
			raw[k.piece] = w.T(k.key)
		}
		if err := raw.Check(); err != nil {
			t.Errorf("%s: the catalogue's letters cannot be read back: %v", l.Code, err)
		}
		if got := w.Letters(); got != want[l.Code] {
			t.Errorf("%s: Letters() = %q, want %q", l.Code, got, want[l.Code])
		}
	}
	// The pseudo-language's wrapped letters give way to the English ones.
	if got := c.For(Pseudo).Letters(); got != chess.EnglishLetters {
		t.Errorf("pseudo-language letters = %q, want the English ones", got)
	}
}

// A move typed in the language's letters reads with the table Letters
// gives, and a move shown with it uses the language's letters.
func TestLettersReadAndWrite(t *testing.T) {
	c := MustLoad()
	pos, err := chess.ParseFEN("4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ lang, typed, want, shown string }{
		{"es", "Rd1", "e1d1", "Rd1"},
		{"es", "Cf3", "g1f3", "Cf3"},
		{"es", "Nf3", "g1f3", "Cf3"},
		{"ru", "Кf3", "g1f3", "Кf3"},
		{"ru", "Крd1", "e1d1", "Крd1"},
		{"en", "Rd1", "a1d1", "Rd1"},
	}
	for _, tt := range tests {
		l := c.For(tt.lang).Letters()
		m, err := pos.ParseTyped(tt.typed, l)
		if err != nil || m.UCI() != tt.want {
			t.Errorf("%s: %q = %v, %v; want %s", tt.lang, tt.typed, m, err, tt.want)
			continue
		}
		if got := l.Write(pos.SAN(m)); got != tt.shown {
			t.Errorf("%s: %s is shown as %q, want %q", tt.lang, pos.SAN(m), got, tt.shown)
		}
	}
}

// Every refusal of a typed move the rules package can give is in the
// catalogue (chess.<code>), so the edge never shows a bare key.
func TestTypedMoveRefusalsWorded(t *testing.T) {
	codes := []string{
		chess.CodeSANEmpty, chess.CodeSANTooLong, chess.CodeSANNotNotation, chess.CodeSANNoSquare,
		chess.CodeSANCastleKingSide, chess.CodeSANCastleQueenSide, chess.CodeSANPromotionPiece,
		chess.CodeSANNothingToCapture, chess.CodeSANAmbiguous, chess.CodeSANNeedsPromotion,
		chess.CodeSANOnlyPawnPromotes, chess.CodeSANIllegalPromotion,
		chess.CodeUCISyntax, chess.CodeUCIPromotion, chess.CodeUCINeedsPromotion, chess.CodeUCINoPiece, chess.CodeUCIIllegal,
	}
	for p := chess.Pawn; p <= chess.King; p++ {
		codes = append(codes, chess.CodeSANNoPiece+p.String(), chess.CodeSANIllegal+p.String())
	}
	c := MustLoad()
	for _, code := range codes {
		if !c.For("en").Has("chess." + code) {
			t.Errorf("chess.%s is not in the catalogue", code)
		}
	}
	// Worded in Russian with the text as typed.
	pos, err := chess.ParseFEN("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = pos.ParseTyped("Крe4", c.For("ru").Letters())
	var ce *chess.Error
	if !errors.As(err, &ce) {
		t.Fatalf("ParseTyped = %v, want a *chess.Error", err)
	}
	args := []any{}
	for k, v := range ce.Args {
		args = append(args, k, v)
	}
	if got, want := c.For("ru").T("chess."+ce.Code, args...), "\"Крe4\" — так ходить нельзя: твой король не может пойти на e4."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A move passed as a SAN argument is shown the reader's way: figurines by
// default in every language, the language's letters after ShowingMoves,
// in plain and in HTML words alike; the English SAN never reaches a
// Spanish reader, for whom R is the king.
func TestSANArgumentsShowTheReadersWay(t *testing.T) {
	c := MustLoad()
	for _, tt := range []struct{ lang, figurine, letters string }{
		{"en", "Hint: play ♖a8+.", "Hint: play Ra8+."},
		{"es", "Pista: juega ♖a8+.", "Pista: juega Ta8+."},
		{"ru", "Подсказка: сыграй ♖a8+.", "Подсказка: сыграй Лa8+."},
	} {
		w := c.For(tt.lang)
		if got := w.T("help.hint_move", "Move", SAN("Ra8+")); got != tt.figurine {
			t.Errorf("%s: %q, want %q", tt.lang, got, tt.figurine)
		}
		lw := w.ShowingMoves(w.Letters())
		if got := lw.T("help.hint_move", "Move", SAN("Ra8+")); got != tt.letters {
			t.Errorf("%s with letters: %q, want %q", tt.lang, got, tt.letters)
		}
		if got := string(lw.HTML("help.hint_move", "Move", SAN("Ra8+"))); got != tt.letters {
			t.Errorf("%s with letters, HTML: %q, want %q", tt.lang, got, tt.letters)
		}
		if w.Moves() != chess.Figurines {
			t.Errorf("%s: ShowingMoves changed the words it was called on", tt.lang)
		}
	}
}
