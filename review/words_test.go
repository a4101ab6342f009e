package review

import (
	"strings"

	"chesstutor/chess"
	"chesstutor/words"
)

// sentence words m's explanation in English, moves in SAN, as the review
// PGN does.
func sentence(m Move) string {
	w := words.Default().For(words.English).ShowingMoves(chess.EnglishLetters)
	var parts []string
	for _, msg := range m.Explain() {
		parts = append(parts, w.Msg(msg))
	}
	return strings.Join(parts, " ")
}
