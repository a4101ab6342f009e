// Package views renders the site's HTML: the layout, the pages and the
// board. Templates are embedded and parsed once at start-up; a missing or
// broken template fails the boot, not a visitor's request.
package views

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"chesstutor/public"
	"chesstutor/words"
)

//go:embed layout.html partials/*.html pages/*.html
var templateFiles embed.FS

// Page is the data every page template receives. Templates reach the
// page's own payload as .Data.
type Page struct {
	Title   string // optional; pages usually define {{define "title"}}
	Section string // learn|practice|quiz|play|games|home: marks the header link
	CSRF    string // token for the hidden _csrf field of form posts
	Data    any
	// BoardTheme is the visitor's board colours ("classic", "contrast"),
	// "" to follow the system (prefers-contrast); the layout puts it on
	// <html> as class "board-<theme>".
	BoardTheme string
	// Path is the page's own path and query, for forms that come back here.
	Path string
	// Lang is the request's language (a code of the catalogue); it picks
	// the template set whose words are that language's.
	Lang string
	// Notation is how the visitor reads moves: NotationFigurine ("" is the
	// same) or NotationLetters; it picks the set whose san function
	// writes that way.
	Notation string
}

// Renderer holds every page, each parsed together with the layout and the
// partials, once per language: a set's "t" function speaks its language,
// so a request's words never depend on anything shared and changing.
type Renderer struct {
	sets map[string]map[string]*template.Template // lang (+ "/letters") -> page -> template
	cat  *words.Catalogue
}

// requiredPages must exist for the site to boot.
var requiredPages = []string{"home", "404", "500"}

// Funcs are the template functions every template may use, speaking w's
// language: t (a key and name, value pairs), th (a key whose text holds
// markup), msg (a words.Message), lang, languages, scriptWords (the words
// under a key prefix as JSON for the page's script), san and notation
// (moves with figurines; see notationFuncs).
func Funcs(w *words.Words) template.FuncMap {
	fm := template.FuncMap{
		"asset":  public.URL,
		"board":  func(b Board) template.HTML { b.Words = w; return RenderBoard(b) },
		"pieces": PieceSprite,
		"sound":  soundURL,
		"boardWords": func() string {
			return BoardWords(w)
		},
		"pathOnly": func(p string) string {
			if i := strings.IndexByte(p, '?'); i >= 0 {
				return p[:i]
			}
			return p
		},
		"date":      w.Date,
		"t":         w.T,
		"th":        w.HTML,
		"msg":       w.Msg,
		"lang":      w.Lang,
		"languages": w.Catalogue().Languages,
		"scriptWords": func(prefixes ...string) (string, error) {
			all := map[string]any{}
			for _, p := range prefixes {
				for k, v := range w.Script(p) {
					all[k] = v
				}
			}
			b, err := json.Marshal(all)
			return string(b), err
		},
		"percent": func(part, whole int) int {
			if whole <= 0 {
				return 0
			}
			return part * 100 / whole
		},
	}
	for k, f := range notationFuncs(w, NotationFigurine) {
		fm[k] = f
	}
	return fm
}

// soundURL is the hashed URL of public/sounds/<name>.wav, or "" when the
// site has no such sound (pages then name none and play none).
func soundURL(name string) string {
	p := "sounds/" + name + ".wav"
	if _, err := fs.Stat(public.Files, p); err != nil {
		return ""
	}
	return public.URL(p)
}

// New parses the layout, the partials and every page once for each of
// the catalogue's languages; each page also gets a copy whose moves are
// written with the language's letters.
func New(cat *words.Catalogue) (*Renderer, error) {
	r := &Renderer{sets: map[string]map[string]*template.Template{}, cat: cat}
	langs := cat.Languages()
	if cat.Supported(words.Pseudo) {
		langs = append(langs, words.Language{Code: words.Pseudo})
	}
	for _, l := range langs {
		w := cat.For(l.Code)
		pages, err := parsePages(w)
		if err != nil {
			return nil, err
		}
		letters := make(map[string]*template.Template, len(pages))
		for name, t := range pages {
			c, err := t.Clone()
			if err != nil {
				return nil, fmt.Errorf("views: page %s: %w", name, err)
			}
			letters[name] = c.Funcs(notationFuncs(w, NotationLetters))
		}
		r.sets[l.Code] = pages
		r.sets[l.Code+"/"+NotationLetters] = letters
	}
	return r, nil
}

func parsePages(w *words.Words) (map[string]*template.Template, error) {
	base, err := template.New("layout.html").Funcs(Funcs(w)).ParseFS(templateFiles, "layout.html", "partials/*.html")
	if err != nil {
		return nil, fmt.Errorf("views: parse layout: %w", err)
	}
	files, err := fs.Glob(templateFiles, "pages/*.html")
	if err != nil {
		return nil, fmt.Errorf("views: list pages: %w", err)
	}
	pages := map[string]*template.Template{}
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".html")
		t, err := base.Clone()
		if err != nil {
			return nil, fmt.Errorf("views: page %s: %w", name, err)
		}
		if _, err := t.ParseFS(templateFiles, f); err != nil {
			return nil, fmt.Errorf("views: page %s: %w", name, err)
		}
		for _, block := range []string{"title", "content"} {
			if t.Lookup(block) == nil {
				return nil, fmt.Errorf("views: page %s does not define {{define %q}}", name, block)
			}
		}
		pages[name] = t
	}
	for _, name := range requiredPages {
		if pages[name] == nil {
			return nil, fmt.Errorf("views: missing page template pages/%s.html", name)
		}
	}
	return pages, nil
}

// Execute renders a page into memory, so a template error never leaves
// half a page behind; callers that post-process the page (ETag, 304) use
// it directly.
func (r *Renderer) Execute(page string, data Page) ([]byte, error) {
	lang := data.Lang
	if r.sets[lang] == nil {
		lang = words.English
	}
	set := r.sets[lang]
	if data.Notation == NotationLetters {
		set = r.sets[lang+"/"+NotationLetters]
	}
	t := set[page]
	if t == nil {
		return nil, fmt.Errorf("views: no page template %q", page)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", data); err != nil {
		return nil, fmt.Errorf("views: render %s: %w", page, err)
	}
	return buf.Bytes(), nil
}

// Render executes a page (see Execute) and only then writes it. When w is
// an http.ResponseWriter it also sets the content type and status.
func (r *Renderer) Render(w io.Writer, status int, page string, data Page) error {
	b, err := r.Execute(page, data)
	if err != nil {
		return err
	}
	if rw, ok := w.(http.ResponseWriter); ok {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		rw.WriteHeader(status)
	}
	_, err = w.Write(b)
	return err
}

// ErrorInfo is the payload of the error pages (404 and 500 templates).
type ErrorInfo struct {
	Status  int
	Heading string
	Message string
}
