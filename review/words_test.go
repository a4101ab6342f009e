package review

import (
	"strings"

	"chesstutor/words"
)

// sentence words m's explanation in English, moves in SAN, as the review
// PGN does.
func sentence(m Move) string {
	w := words.Default().For(words.English)
	var parts []string
	for _, msg := range m.Explain() {
		parts = append(parts, w.Msg(msg))
	}
	return strings.Join(parts, " ")
}
