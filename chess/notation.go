package chess

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds notation for people: SAN shown with figurines or a
// language's piece letters, and moves typed that way read back. Stored
// moves, the API's machine fields and PGN stay English SAN; only what a
// person reads and types changes.

// Letters are the piece letters of one way of writing moves, by piece
// type: Letters[Knight] is "N" in English, "C" in Spanish, "К" in
// Russian. Pawns have no letter in SAN, so Letters[Pawn] is usually "".
// The site's languages keep their tables in the words catalogue.
type Letters [King + 1]string

// EnglishLetters are the letters of SAN itself, and of every PGN file.
var EnglishLetters = Letters{Knight: "N", Bishop: "B", Rook: "R", Queen: "Q", King: "K"}

// Figurines write each piece as its figurine (♘f3), the same in every
// language. Write uses the white figurines for both sides, as printed
// books do; Read accepts the black ones too.
var Figurines = Letters{Knight: "♘", Bishop: "♗", Rook: "♖", Queen: "♕", King: "♔"}

// Check reports whether l can be written and read back: every piece but
// the pawn has a letter of one to three letters (or a figurine), no two
// pieces look alike, and none could be taken for a file, a rank, a
// capture or castling.
func (l Letters) Check() error {
	seen := map[string]PieceType{}
	for t := Pawn; t <= King; t++ {
		s := l[t]
		if s == "" {
			if t == Pawn {
				continue
			}
			return fmt.Errorf("chess: the %s has no letter", t)
		}
		n := utf8.RuneCountInString(s)
		if n > 3 || !utf8.ValidString(s) {
			return fmt.Errorf("chess: the %s's letter %q is not one to three letters", t, s)
		}
		for _, r := range s {
			if !unicode.IsLetter(r) && figurine(r) == NoPieceType {
				return fmt.Errorf("chess: the %s's letter %q holds %q, which is not a letter", t, s, r)
			}
		}
		first, _ := utf8.DecodeRuneInString(s)
		if first >= 'a' && first <= 'h' {
			return fmt.Errorf("chess: the %s's letter %q starts like a file", t, s)
		}
		switch k := skeleton(s); k {
		case "O", "X":
			return fmt.Errorf("chess: the %s's letter %q would read as castling or a capture", t, s)
		default:
			if other, dup := seen[k]; dup {
				return fmt.Errorf("chess: the %s's letter %q looks like the %s's", t, s, other)
			}
			seen[k] = t
		}
	}
	return nil
}

// FigurineSAN writes a SAN move with figurines: "Nf3" is "♘f3", "e8=Q+"
// is "e8=♕+".
func FigurineSAN(san string) string { return Figurines.Write(san) }

// Write writes a move given in English SAN with l's letters: with the
// Spanish letters "Nf3" is "Cf3" and "e8=Q" is "e8=D"; with the Russian
// "Kg1" is "Крg1". Only the piece letter at the start and the promotion
// piece change; files, ranks, castling and marks stay. Text that is not
// SAN comes back unchanged.
func (l Letters) Write(san string) string {
	if san == "" {
		return san
	}
	var b strings.Builder
	rest := san
	if t := englishPiece(san[0]); t != NoPieceType && t != Pawn && len(san) > 1 {
		b.WriteString(l.letter(t))
		rest = san[1:]
	}
	if i := strings.IndexByte(rest, '='); i >= 0 && i+1 < len(rest) {
		if t := englishPiece(rest[i+1]); t >= Knight && t <= Queen {
			b.WriteString(rest[:i+1])
			b.WriteString(l.letter(t))
			rest = rest[i+2:]
		}
	}
	b.WriteString(rest)
	return b.String()
}

// letter is l's letter for t, or the English one when l lacks it.
func (l Letters) letter(t PieceType) string {
	if s := l[t]; s != "" {
		return s
	}
	return string(t.Letter())
}

func englishPiece(c byte) PieceType {
	switch c {
	case 'N':
		return Knight
	case 'B':
		return Bishop
	case 'R':
		return Rook
	case 'Q':
		return Queen
	case 'K':
		return King
	case 'P':
		return Pawn
	}
	return NoPieceType
}

// maxTyped bounds the text Read rewrites; longer text is no move and is
// left for ParseSAN to refuse.
const maxTyped = 64

// Read rewrites a move a person typed into English SAN text for ParseSAN,
// without looking at a position. It accepts
//
//   - figurines, white or black, for the piece and the promotion (♘f3, e8=♕);
//   - l's letters in either case (with the Spanish letters Cf3, Rd1 for the
//     king, e8=D; with the Russian Кf3, крe1, Сc4);
//   - English letters that are not l's (in Spanish Nf3 and Bc4 still work);
//   - castling as O-O, 0-0 or with a Cyrillic О, captures as x, : or ×.
//
// Where one of l's letters means another piece in English, l wins: in
// Spanish R is the king. Letters are compared by how they look, so a Latin
// K typed in Russian is the knight К and "Kp" is the king Кр. A lower-case
// Latin a–h at the start is always a file (in Spanish "c4" is a pawn move,
// "C" the knight), and a letter is a piece only when a square follows it
// ("D4" in Spanish is the pawn move d4). Cyrillic а, с, е and х inside the
// move, which look like the files a, c, e and the capture x, are read as
// them. Anything else is left for ParseSAN, which is lenient in case.
func (l Letters) Read(typed string) string {
	s := strings.TrimSpace(typed)
	if s == "" || len(s) > maxTyped || !utf8.ValidString(s) {
		return typed
	}
	rs := make([]rune, 0, len(s))
	for _, r := range s {
		switch r {
		case '\uFE0E', '\uFE0F', '\u200B', '\u200D': // emoji variation, zero-width
			continue
		case '×':
			r = 'x'
		case '‐', '‑', '–', '—', '−':
			r = '-'
		}
		rs = append(rs, r)
	}
	end := len(rs)
	for end > 0 && strings.ContainsRune("+#!?", rs[end-1]) {
		end--
	}
	core, marks := rs[:end], string(rs[end:])
	if castling(core) {
		var b strings.Builder
		for _, r := range core {
			if r != '-' {
				r = 'O'
			}
			b.WriteRune(r)
		}
		return b.String() + marks
	}

	// The promotion piece at the end, after "=" or the last rank's digit.
	promo := ""
	if t, n := l.pieceAt(core, len(core)); t >= Knight && t <= Queen && n < len(core) {
		if before := core[len(core)-n-1]; before == '=' || before >= '1' && before <= '8' {
			promo = string(t.Letter())
			core = core[:len(core)-n]
		}
	}

	// The piece at the start, when a square follows it.
	lead := ""
	if t, n := l.pieceAt(core, 0); t != NoPieceType && hasSquare(core[n:]) {
		lead = string(t.Letter())
		core = core[n:]
	} else if len(core) > 0 {
		if k := skeleton(string(core[0])); len(k) == 1 && core[0] > unicode.MaxASCII && englishPiece(k[0]) != NoPieceType && hasSquare(core[1:]) {
			lead = k // a Cyrillic letter that looks like an English one: В, К, Р
			core = core[1:]
		}
	}

	var b strings.Builder
	b.WriteString(lead)
	for _, r := range core {
		b.WriteRune(latinLookalike(r))
	}
	b.WriteString(promo)
	b.WriteString(marks)
	return b.String()
}

// pieceAt finds a figurine or one of l's letters in rs starting at i (or,
// when i is len(rs), ending there) and returns its piece and length in
// runes; l's longest letter wins (Кр before К). A lower-case Latin a–h
// starting at 0 is a file, never a piece.
func (l Letters) pieceAt(rs []rune, i int) (PieceType, int) {
	atEnd := i == len(rs) && i > 0
	if atEnd {
		if t := figurine(rs[i-1]); t != NoPieceType {
			return t, 1
		}
	} else if i < len(rs) {
		if t := figurine(rs[i]); t != NoPieceType {
			return t, 1
		}
		if rs[i] >= 'a' && rs[i] <= 'h' {
			return NoPieceType, 0
		}
	}
	best, bestLen := NoPieceType, 0
	for t := Pawn; t <= King; t++ {
		n := utf8.RuneCountInString(l[t])
		if n == 0 || n > len(rs) || n <= bestLen {
			continue
		}
		var part []rune
		if atEnd {
			part = rs[len(rs)-n:]
		} else if i+n <= len(rs) {
			part = rs[i : i+n]
		} else {
			continue
		}
		if skeleton(string(part)) == skeleton(l[t]) {
			best, bestLen = t, n
		}
	}
	return best, bestLen
}

// hasSquare reports whether rs holds a square, a file a–h then a rank 1–8
// (either case, Cyrillic lookalikes read as Latin).
func hasSquare(rs []rune) bool {
	for i := 0; i+1 < len(rs); i++ {
		f := unicode.ToLower(latinLookalike(rs[i]))
		if f >= 'a' && f <= 'h' && rs[i+1] >= '1' && rs[i+1] <= '8' {
			return true
		}
	}
	return false
}

// castling reports whether rs is O-O or O-O-O written with the letter O
// (Latin or Cyrillic, either case) or zeros.
func castling(rs []rune) bool {
	os := 0
	for i, r := range rs {
		switch r {
		case 'O', 'o', '0', 'О', 'о':
			if i > 0 && rs[i-1] != '-' {
				return false
			}
			os++
		case '-':
			if i == 0 || rs[i-1] == '-' {
				return false
			}
		default:
			return false
		}
	}
	return (os == 2 || os == 3) && rs[len(rs)-1] != '-'
}

// figurine returns the piece a chess symbol shows, white (♔ U+2654) or
// black (♚ U+265A), or NoPieceType.
func figurine(r rune) PieceType {
	if r < '♔' || r > '♟' {
		return NoPieceType
	}
	return [6]PieceType{King, Queen, Rook, Bishop, Knight, Pawn}[(r-'♔')%6]
}

// lookalikes are the Cyrillic letters that look like Latin ones, the only
// ones that matter for notation: the piece letters K, C, B, P, the files
// a, c, e, the capture x and castling's O.
var lookalikes = map[rune]rune{
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O',
	'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'а': 'a', 'е': 'e', 'о': 'o',
	'р': 'p', 'с': 'c', 'х': 'x',
}

func latinLookalike(r rune) rune {
	if l, ok := lookalikes[r]; ok {
		return l
	}
	return r
}

// skeleton is how a letter looks, for comparing letters typed in either
// case and either script: upper case, Cyrillic lookalikes as Latin.
func skeleton(s string) string {
	return strings.Map(func(r rune) rune { return latinLookalike(unicode.ToUpper(r)) }, s)
}

// ParseTyped finds the legal move a person typed: SAN with figurines, l's
// letters or English letters, as Read describes (with the Spanish letters
// "Cf3" is the knight and "Rd1" the king). Its errors are ParseSAN's, with
// Text the text as it was typed.
func (p *Position) ParseTyped(typed string, l Letters) (Move, error) {
	m, err := p.ParseSAN(l.Read(typed))
	if err != nil {
		retext(err, typed)
	}
	return m, err
}
