package views

import (
	"html/template"
	"strings"
	"testing"
	"testing/fstest"
	"text/template/parse"

	"chesstutor/words"
)

// TestFoldingEscapesInEveryContext: a folded word is escaped for where it
// stands — text, attribute, URL, script — as the call's result was;
// calls with arguments from the page, and th (markup), stay calls.
func TestFoldingEscapesInEveryContext(t *testing.T) {
	toml := "[x]\nk = \"a \\\"quoted\\\" <b>&amp; 'word'</b> ё/?=\"\nn = \"{{.Count}} times\"\nh = \"<em>ok</em>\"\n" +
		"p = \"Plain words, ё!\"\n"
	fsys := fstest.MapFS{}
	for _, lang := range []string{"en", "es", "ru"} {
		fsys[lang+"/x.toml"] = &fstest.MapFile{Data: []byte(toml)}
	}
	cat, err := words.LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	w := cat.For("ru")
	src := `<p title="{{t "x.k"}}">{{t "x.k"}}</p><a href="/x?q={{t "x.k"}}">{{printf "%s!" (t "x.k")}}</a>` +
		`<script>var s = {{t "x.k"}};</script>{{t "x.n" "Count" .}} {{th "x.h"}}` +
		`<p title="{{t "x.p"}}">{{t "x.p"}}</p><a href="/x?q={{t "x.p"}}"></a><script>var p = {{t "x.p"}};</script>` +
		`<link href="{{asset "css/site.css"}}"><a href="{{t "x.p"}}"></a>`
	parseIt := func(fold bool) *template.Template {
		tmpl := template.Must(template.New("x").Funcs(Funcs(w)).Parse(src))
		if fold {
			if err := foldWords(tmpl, w); err != nil {
				t.Fatal(err)
			}
		}
		return tmpl
	}
	folded := parseIt(true)
	// Only the plain words in text and in an attribute, and the asset's
	// URL, become text; in a URL and the script the words need escaping.
	if n, err := plainWords(folded, "x"); n != 3 || err != nil {
		t.Errorf("plainWords turned %d actions (%v), want 3", n, err)
	}
	calls := 0
	var count func(n parse.Node)
	count = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			for _, c := range n.Nodes {
				count(c)
			}
		case *parse.ActionNode:
			count(n.Pipe)
		case *parse.PipeNode:
			for _, c := range n.Cmds {
				count(c)
			}
		case *parse.CommandNode:
			if id, ok := n.Args[0].(*parse.IdentifierNode); ok && (id.Ident == "t" || id.Ident == "th") {
				calls++
			}
			for _, a := range n.Args {
				count(a)
			}
		}
	}
	count(folded.Tree.Root)
	if calls != 2 { // {{t "x.n" "Count" .}} and {{th "x.h"}}
		t.Errorf("%d calls left after folding, want 2", calls)
	}
	if c := strings.Count(folded.Tree.Root.String(), "Plain words"); c != 5 {
		t.Errorf("the plain words are in the tree %d times, want 5", c)
		t.Errorf("%d calls left after folding, want 2", calls)
	}
	var a, b strings.Builder
	if err := folded.Execute(&a, 5); err != nil {
		t.Fatal(err)
	}
	if err := parseIt(false).Execute(&b, 5); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("folded:\n%s\nplain:\n%s", a.String(), b.String())
	}
	for _, want := range []string{
		`<p title="a &#34;quoted&#34; &lt;b&gt;&amp;amp; &#39;word&#39;&lt;/b&gt; ё/?=">a &#34;quoted&#34; &lt;b&gt;`,
		`?q=a%20%22quoted%22%20%3cb%3e`,
		`var s = "a \"quoted\" \u003cb\u003e\u0026amp;`,
		`5 times <em>ok</em>`,
		`<p title="Plain words, ё!">Plain words, ё!</p><a href="/x?q=Plain%20words%2c%20%d1%91%21"></a><script>var p = "Plain words, ё!";</script>`,
		`<link href="/assets/`, `/css/site.css"><a href="Plain%20words,%20%d1%91!"></a>`,
	} {
		if !strings.Contains(a.String(), want) {
			t.Errorf("the page lacks %s:\n%s", want, a.String())
		}
	}
}

// TestPlainWords: every page of every language has words that render as
// plain text, with no call on a request. Should html/template rename its
// escapers, plainWords would turn nothing: the pages would stay right but
// cost more (BenchmarkRenderPages), and this test says so.
func TestPlainWords(t *testing.T) {
	cat := words.MustLoad()
	for _, l := range cat.Languages() {
		w := cat.For(l.Code)
		pages, err := parsePages(w)
		if err != nil {
			t.Fatal(err)
		}
		for name, p := range pages {
			if err := foldWords(p, w); err != nil {
				t.Fatal(err)
			}
			if n, err := plainWords(p, "layout.html"); n < 10 || err != nil {
				t.Errorf("%s %s: %d words made plain (%v); has html/template renamed its escapers?", l.Code, name, n, err)
			}
		}
	}
}
