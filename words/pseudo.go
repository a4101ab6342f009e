package words

import (
	"strings"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// Pseudo-language marks: every pseudo string starts with PseudoOpen and
// ends with PseudoClose, so a test can find any text that did not come
// from the catalogue.
const (
	PseudoOpen  = "⟦"
	PseudoClose = "⟧"
)

var accents = map[rune]rune{
	'a': 'á', 'e': 'é', 'i': 'í', 'o': 'ö', 'u': 'ü', 'y': 'ý', 'c': 'ç', 'n': 'ñ', 's': 'š', 'z': 'ž',
	'A': 'Á', 'E': 'É', 'I': 'Í', 'O': 'Ö', 'U': 'Ü', 'Y': 'Ý', 'C': 'Ç', 'N': 'Ñ', 'S': 'Š', 'Z': 'Ž',
}

func pseudoMessage(m *i18n.Message) *i18n.Message {
	p := *m
	p.Zero, p.One, p.Two = pseudoText(m.Zero), pseudoText(m.One), pseudoText(m.Two)
	p.Few, p.Many, p.Other = pseudoText(m.Few), pseudoText(m.Many), pseudoText(m.Other)
	return &p
}

// pseudoText accents the letters outside {{…}} actions and HTML tags,
// lengthens the text by about 40 % and wraps it in the marks.
func pseudoText(s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(PseudoOpen)
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "{{"):
			j := strings.Index(s[i:], "}}")
			if j < 0 {
				b.WriteString(s[i:])
				i = len(s)
				continue
			}
			b.WriteString(s[i : i+j+2])
			i += j + 2
		case s[i] == '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				j = len(s) - i - 1
			}
			b.WriteString(s[i : i+j+1])
			i += j + 1
		case s[i] == '&':
			j := strings.IndexByte(s[i:], ';')
			if j < 0 || j > 8 {
				j = 0
			}
			b.WriteString(s[i : i+j+1])
			i += j + 1
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if a, ok := accents[r]; ok {
				r = a
			}
			b.WriteRune(r)
			i += n
		}
	}
	pad := utf8.RuneCountInString(s) * 2 / 5
	b.WriteString(strings.Repeat("·", pad))
	b.WriteString(PseudoClose)
	return b.String()
}
