package words

import "chesstutor/chess"

// letterKeys are the catalogue keys of a language's piece letters
// (locales/<lang>/notation.toml).
var letterKeys = [...]struct {
	piece chess.PieceType
	key   string
}{
	{chess.King, "notation.letter_K"},
	{chess.Queen, "notation.letter_Q"},
	{chess.Rook, "notation.letter_R"},
	{chess.Bishop, "notation.letter_B"},
	{chess.Knight, "notation.letter_N"},
}

// Letters is the language's piece letters as a chess table, for showing
// moves with letters (Letters().Write("Nf3") is "Cf3" in Spanish) and for
// reading moves typed in the language (chess.Position.ParseTyped). A
// table that could not be read back (the test pseudo-language's wrapped
// letters) gives way to the English letters.
func (w *Words) Letters() chess.Letters { return w.letters }

func readLetters(w *Words) chess.Letters {
	var l chess.Letters
	for _, k := range letterKeys {
		l[k.piece] = w.T(k.key)
	}
	if l.Check() != nil {
		return chess.EnglishLetters
	}
	return l
}

// SAN is a move in English SAN as a message argument ("Nf3"): services
// pass moves this way, and the words show them the reader's way, as
// figurines (♘f3) by default or in the language's letters (Cf3) after
// ShowingMoves, the way the move list shows them.
type SAN string

// ShowingMoves returns these words writing SAN arguments with table (the
// figurines or Letters()); the rest is shared, so it costs one copy.
func (w *Words) ShowingMoves(table chess.Letters) *Words {
	c := *w
	c.moves = table
	return &c
}

// Moves is the table SAN arguments are written with.
func (w *Words) Moves() chess.Letters { return w.moves }
