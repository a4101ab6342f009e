package views

import (
	"strings"
	"testing"

	"chesstutor/words"
)

// A page rendered for a visitor who reads letters gets the language's
// letters from san and in data-notation; everyone else gets figurines.
func TestNotationSets(t *testing.T) {
	cat := words.MustLoad()
	r, err := New(cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ lang, style, san, attr string }{
		{"es", "", "♘f3", `&#34;N&#34;:&#34;♘&#34;`},
		{"es", NotationFigurine, "♘f3", `&#34;N&#34;:&#34;♘&#34;`},
		{"es", NotationLetters, "Cf3", `&#34;N&#34;:&#34;C&#34;`},
		{"ru", NotationLetters, "Кf3", `&#34;N&#34;:&#34;К&#34;`},
		{"en", NotationLetters, "Nf3", `&#34;N&#34;:&#34;N&#34;`},
	} {
		fm := notationFuncs(cat.For(tt.lang))
		if got := fm["san"].(func(string, string) string)(tt.style, "Nf3"); got != tt.san {
			t.Errorf("%s %q: san Nf3 = %q, want %q", tt.lang, tt.style, got, tt.san)
		}
		page, err := r.Execute("404", Page{Lang: tt.lang, Notation: tt.style, Path: "/", Data: ErrorInfo{Status: 404}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), tt.attr) {
			t.Errorf("%s %q: the page's data-notation lacks %s", tt.lang, tt.style, tt.attr)
		}
	}
}
