package views

import (
	"html/template"
	"strings"
	"testing"

	"chesstutor/words"
)

// TestLanguageLinks: the links to a page in every language, written in
// Go, are what html/template wrote from the loops the layout and the
// footer had, for every language and for paths with everything a request
// may carry (spaces, quotes, markup, escapes, other scripts, schemes).
func TestLanguageLinks(t *testing.T) {
	const loops = `{{- $path := pathOnly .}}{{range languages}}
<link rel="alternate" hreflang="{{.Code}}" href="{{$path}}?lang={{.Code}}">{{end}}
<link rel="alternate" hreflang="x-default" href="{{$path}}">|` +
		`{{$here := lang}}{{$path := pathOnly .}}{{range languages}}
      <li><a href="{{$path}}?lang={{.Code}}" hreflang="{{.Code}}" lang="{{.Code}}"{{if eq .Code $here}} aria-current="true"{{end}}>{{.Name}}</a></li>{{end}}`
	paths := []string{"/", "/learn/rook", "/play/0123abcd?lang=ru&x=1", "/a b/ё", `/x'"<>&+()`, "/%41%zz%4", "/%",
		"//evil.example/x", "javascript:alert(1)", "http://example.com/x", "/a:b", "mailto:x@example.com", "/путь?q=ё", ""}
	cat := words.MustLoad(words.WithPseudo())
	for _, code := range []string{"en", "es", "ru", words.Pseudo} {
		w := cat.For(code)
		links := newLanguageLinks(w)
		loopsT := template.Must(template.New("links").Funcs(template.FuncMap{
			"languages": w.Catalogue().Languages,
			"lang":      w.Lang,
			"pathOnly": func(p string) string {
				p, _, _ = strings.Cut(p, "?")
				return p
			},
		}).Parse(loops))
		for _, p := range paths {
			var b strings.Builder
			if err := loopsT.Execute(&b, p); err != nil {
				t.Fatal(err)
			}
			want := b.String()
			got := string(links.alternates(p)) + "|" + string(links.languageMenu(p))
			if got != want {
				t.Errorf("%s %q:\ngot  %s\nwant %s", code, p, got, want)
			}
		}
	}
}
