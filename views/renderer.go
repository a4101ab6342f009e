// Package views renders the site's HTML: the layout, the pages and the
// board. Templates are embedded and parsed once at start-up; a missing or
// broken template fails the boot, not a visitor's request.
package views

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync/atomic"
	"text/template/parse"

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
	// same) or NotationLetters; templates hand it to san and notation.
	Notation string
}

// Renderer holds every page, each parsed together with the layout and the
// partials, once per language: a set's "t" function speaks its language,
// so a request's words never depend on anything shared and changing.
type Renderer struct {
	sets map[string]map[string]*template.Template // lang -> page -> template
	// sizes hold each page's size when it was last rendered, so the next
	// rendering's buffer starts that large instead of doubling its way
	// up (a page with its script's words is 30-40 KB; in Russian, twice
	// the bytes for the same words).
	sizes map[string]map[string]*atomic.Int64
	cat   *words.Catalogue
}

// requiredPages must exist for the site to boot.
var requiredPages = []string{"home", "404", "500"}

// Funcs are the template functions every template may use, speaking w's
// language: t (a key and name, value pairs), th (a key whose text holds
// markup), msg (a words.Message), lang, languages, scriptWords (the words
// under a key prefix as JSON for the page's script), alternates and
// languageMenu (a page's links to itself in every language), san and
// notation (moves with figurines; see notationFuncs).
func Funcs(w *words.Words) template.FuncMap {
	links := newLanguageLinks(w)
	fm := template.FuncMap{
		"alternates":   links.alternates,
		"languageMenu": links.languageMenu,
		"asset":        public.URL,
		"board":        func(b Board) template.HTML { b.Words = w; return RenderBoard(b) },
		"pieces":       PieceSprite,
		"sound":        soundURL,
		"boardWords": func() string {
			return BoardWords(w)
		},
		"date":        w.Date,
		"t":           w.T,
		"th":          w.HTML,
		"msg":         w.Msg,
		"lang":        w.Lang,
		"languages":   w.Catalogue().Languages,
		"scriptWords": func(prefixes ...string) (string, error) { return scriptWords(w, prefixes...) },
		"percent": func(part, whole int) int {
			if whole <= 0 {
				return 0
			}
			return part * 100 / whole
		},
	}
	for k, f := range notationFuncs(w) {
		fm[k] = f
	}
	return fm
}

// scriptWords is the JSON of the words under prefixes, for a page's script.
func scriptWords(w *words.Words, prefixes ...string) (string, error) {
	all := map[string]any{}
	for _, p := range prefixes {
		for k, v := range w.Script(p) {
			all[k] = v
		}
	}
	b, err := json.Marshal(all)
	return string(b), err
}

// foldWords replaces, in every template of set, each call whose result
// depends on nothing but the set's language — {{t
// "key"}} without arguments, {{scriptWords "prefix." …}}, {{boardWords}},
// {{lang}}, and {{asset "…"}} and {{sound "…"}}, which depend on nothing
// — with its result as a string constant. The words are then looked up once, when the
// language's templates are parsed, instead of through reflection on every
// request: a page in any language costs what the English-only page did
// (issue 31, BenchmarkRenderPages). html/template escapes the constant
// for where it stands just as it escaped the call's result, so the page
// is the same byte for byte. It must run before the set first executes
// (html/template escapes the trees then).
func foldWords(set *template.Template, w *words.Words) error {
	fold := map[string]func(args []string) (string, bool, error){
		"t": func(args []string) (string, bool, error) {
			if len(args) != 1 {
				return "", false, nil // named arguments come from the page's data
			}
			return w.T(args[0]), true, nil
		},
		"scriptWords": func(args []string) (string, bool, error) {
			s, err := scriptWords(w, args...)
			return s, true, err
		},
		"boardWords": func(args []string) (string, bool, error) { return BoardWords(w), len(args) == 0, nil },
		"lang":       func(args []string) (string, bool, error) { return w.Lang(), len(args) == 0, nil },
		"asset": func(args []string) (string, bool, error) {
			if len(args) != 1 {
				return "", false, nil
			}
			return public.URL(args[0]), true, nil
		},
		"sound": func(args []string) (string, bool, error) {
			if len(args) != 1 {
				return "", false, nil
			}
			return soundURL(args[0]), true, nil
		},
	}
	var err error
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n != nil {
				for _, c := range n.Nodes {
					walk(c)
				}
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n != nil {
				for _, c := range n.Cmds {
					walk(c)
				}
			}
		case *parse.CommandNode:
			if s, ok, ferr := foldCommand(n, fold); ferr != nil {
				err = ferr
			} else if ok {
				n.Args = []parse.Node{&parse.StringNode{NodeType: parse.NodeString, Pos: n.Pos, Quoted: strconv.Quote(s), Text: s}}
				return
			}
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.ChainNode:
			walk(n.Node)
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		}
	}
	for _, t := range set.Templates() {
		if t.Tree != nil {
			walk(t.Tree.Root)
		}
	}
	return err
}

// plainEscapers are html/template's escapers for text, quoted attribute
// values and URLs (its own names for them, see plainWords), each with
// the strings it leaves as they are.
var plainEscapers = map[string]func(string) bool{
	"_html_template_htmlescaper":   htmlPlain,
	"_html_template_attrescaper":   htmlPlain,
	"_html_template_rcdataescaper": htmlPlain,
	// A URL of letters, digits and -._~/ has no scheme to refuse and
	// nothing to encode.
	"_html_template_urlfilter":     urlPlain,
	"_html_template_urlnormalizer": urlPlain,
}

func htmlPlain(s string) bool { return !strings.ContainsAny(s, "\x00\"&'+<>") }

func urlPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~/", c) >= 0) {
			return false
		}
	}
	return true
}

// plainWords turns the folded words of a page that its escaping leaves
// as they are into plain template text, so that rendering them costs no
// call at all, as the words of the English-only templates did. It runs
// the page once with no data, which makes html/template escape every
// template the page uses (and reports a template it cannot escape, so the
// boot fails instead of a request); then each action left as
// {{"words" | escaper …}}, where each escaper is one of plainEscapers and
// the words hold no character it would change, becomes the words
// themselves.
// Should html/template ever name its escapers otherwise, nothing is
// turned and the pages stay the same, only slower (TestPlainWords
// notices). It reports how many actions it turned.
func plainWords(set *template.Template, entry string) (int, error) {
	var escErr *template.Error
	if err := set.ExecuteTemplate(io.Discard, entry, nil); errors.As(err, &escErr) {
		return 0, err
	}
	n := 0
	var walk func(l *parse.ListNode)
	walk = func(l *parse.ListNode) {
		if l == nil {
			return
		}
		defer mergeText(l)
		for i, node := range l.Nodes {
			switch node := node.(type) {
			case *parse.ActionNode:
				if s, ok := plainAction(node); ok {
					l.Nodes[i] = &parse.TextNode{NodeType: parse.NodeText, Pos: node.Pos, Text: []byte(s)}
					n++
				}
			case *parse.IfNode:
				walk(node.List)
				walk(node.ElseList)
			case *parse.RangeNode:
				walk(node.List)
				walk(node.ElseList)
			case *parse.WithNode:
				walk(node.List)
				walk(node.ElseList)
			case *parse.ListNode:
				walk(node)
			}
		}
	}
	for _, t := range set.Templates() {
		if t.Tree != nil {
			walk(t.Tree.Root)
		}
	}
	return n, nil
}

// mergeText joins the text nodes of l that follow each other (the words
// plainWords turned into text between the page's own), so a page has
// fewer nodes to hold and to walk.
func mergeText(l *parse.ListNode) {
	out := l.Nodes[:0]
	for _, node := range l.Nodes {
		if t, ok := node.(*parse.TextNode); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*parse.TextNode); ok {
				joined := make([]byte, 0, len(prev.Text)+len(t.Text))
				out[len(out)-1] = &parse.TextNode{NodeType: parse.NodeText, Pos: prev.Pos, Text: append(append(joined, prev.Text...), t.Text...)}
				continue
			}
		}
		out = append(out, node)
	}
	clear(l.Nodes[len(out):])
	l.Nodes = out
}

// plainAction is the words of {{"words" | escaper | …}} when every
// escaper would leave them as they are.
func plainAction(a *parse.ActionNode) (string, bool) {
	p := a.Pipe
	if p == nil || len(p.Decl) > 0 || len(p.Cmds) < 2 || len(p.Cmds[0].Args) != 1 {
		return "", false
	}
	s, ok := p.Cmds[0].Args[0].(*parse.StringNode)
	if !ok {
		return "", false
	}
	for _, c := range p.Cmds[1:] {
		esc, isIdent := c.Args[0].(*parse.IdentifierNode)
		if len(c.Args) != 1 || !isIdent || plainEscapers[esc.Ident] == nil || !plainEscapers[esc.Ident](s.Text) {
			return "", false
		}
	}
	return s.Text, true
}

// foldCommand is the result of a command of fold whose arguments are all
// string constants.
func foldCommand(c *parse.CommandNode, fold map[string]func([]string) (string, bool, error)) (string, bool, error) {
	id, ok := c.Args[0].(*parse.IdentifierNode)
	if !ok || fold[id.Ident] == nil {
		return "", false, nil
	}
	var args []string
	for _, a := range c.Args[1:] {
		s, ok := a.(*parse.StringNode)
		if !ok {
			return "", false, nil
		}
		args = append(args, s.Text)
	}
	return fold[id.Ident](args)
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

// Option changes how New prepares the pages.
type Option func(*options)

type options struct{ unfolded bool }

// Unfolded leaves every word a call made on each request, as the
// templates are written (no foldWords): a test serves the site both ways
// to prove that folding changes no page.
func Unfolded() Option { return func(o *options) { o.unfolded = true } }

// New parses the layout, the partials and every page once for each of
// the catalogue's languages.
func New(cat *words.Catalogue, opts ...Option) (*Renderer, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	r := &Renderer{sets: map[string]map[string]*template.Template{}, sizes: map[string]map[string]*atomic.Int64{}, cat: cat}
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
		if !o.unfolded {
			for name, t := range pages {
				if err := foldWords(t, w); err != nil {
					return nil, fmt.Errorf("views: page %s: %w", name, err)
				}
				if _, err := plainWords(t, "layout.html"); err != nil {
					return nil, fmt.Errorf("views: page %s: %w", name, err)
				}
			}
		}
		r.sets[l.Code] = pages
		r.sizes[l.Code] = map[string]*atomic.Int64{}
		for name := range pages {
			r.sizes[l.Code][name] = new(atomic.Int64)
		}
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
	t := r.sets[lang][page]
	if t == nil {
		return nil, fmt.Errorf("views: no page template %q", page)
	}
	size := r.sizes[lang][page]
	var buf bytes.Buffer
	buf.Grow(int(size.Load()) + 1024) // room for a little more than last time
	if err := t.ExecuteTemplate(&buf, "layout.html", data); err != nil {
		return nil, fmt.Errorf("views: render %s: %w", page, err)
	}
	size.Store(int64(buf.Len()))
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
