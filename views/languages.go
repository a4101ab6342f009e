package views

import (
	"fmt"
	"html/template"
	"strings"

	"chesstutor/words"
)

// languageLinks writes the links from a page to itself in every language
// the site speaks: the <link rel="alternate" hreflang> lines of the head
// (alternates) and the items of the footer's language menu (menu). They
// are on every page and vary with its path only, so they are written in
// Go, from parts made once per language, instead of by a template loop
// whose every value costs a reflective call (BenchmarkRenderPages). The
// path is escaped as html/template escapes it in an href (TestLanguageLinks
// compares them).
type languageLinks struct {
	alternate []string // per language: `<link … href="`, then path, then `?lang=xx">`
	menu      []string // per language: `<li><a href="`, then path, then the rest
	langs     []words.Language
	here      string
}

func newLanguageLinks(w *words.Words) *languageLinks {
	l := &languageLinks{langs: w.Catalogue().Languages(), here: w.Lang()}
	esc := template.HTMLEscapeString
	for _, lang := range l.langs {
		code := esc(lang.Code)
		l.alternate = append(l.alternate, "\n"+`<link rel="alternate" hreflang="`+code+`" href="`, `?lang=`+code+`">`)
		current := ""
		if lang.Code == l.here {
			current = ` aria-current="true"`
		}
		l.menu = append(l.menu, "\n      <li><a href=\"", `?lang=`+code+`" hreflang="`+code+`" lang="`+code+`"`+current+`>`+esc(lang.Name)+`</a></li>`)
	}
	return l
}

// alternates are the head's links to the page (path, its query dropped)
// in each language, then its x-default.
func (l *languageLinks) alternates(path string) template.HTML {
	href := hrefPath(path)
	var b strings.Builder
	for i := 0; i < len(l.alternate); i += 2 {
		b.WriteString(l.alternate[i])
		b.WriteString(href)
		b.WriteString(l.alternate[i+1])
	}
	b.WriteString("\n" + `<link rel="alternate" hreflang="x-default" href="`)
	b.WriteString(href)
	b.WriteString(`">`)
	return template.HTML(b.String()) // every part escaped above
}

// languageMenu is the footer menu's items: the page in each language,
// the current one marked.
func (l *languageLinks) languageMenu(path string) template.HTML {
	href := hrefPath(path)
	var b strings.Builder
	for i := 0; i < len(l.menu); i += 2 {
		b.WriteString(l.menu[i])
		b.WriteString(href)
		b.WriteString(l.menu[i+1])
	}
	return template.HTML(b.String()) // every part escaped above
}

// hrefPath is a page's path and query with the query dropped, as
// html/template writes a value at the start of a quoted href: a URL with
// a scheme other than http, https or mailto is refused, bytes that may
// not stand in a URL are percent-encoded (escapes already there are
// kept), and the rest is escaped for the attribute.
func hrefPath(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	if i := strings.IndexByte(p, ':'); i >= 0 && !strings.ContainsAny(p[:i], "/?#") {
		switch strings.ToLower(p[:i]) {
		case "http", "https", "mailto":
		default:
			return "#ZgotmplZ" // html/template's mark of an unsafe URL
		}
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~!#$*,/:;=?@[]", c) >= 0:
			b.WriteByte(c)
		case c == '&':
			b.WriteString("&amp;")
		case c == '+':
			b.WriteString("&#43;")
		case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
