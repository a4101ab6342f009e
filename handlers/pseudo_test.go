package handlers

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"chesstutor/words"
)

// neutral is text that is the same in every language: chess notation,
// square names, formats, the site's name and the languages' names.
var neutral = regexp.MustCompile(`\b([KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?[+#]?|[a-h]|O-O(-O)?|PGN|FEN|UCI|SAN|JSON|CSV)\b|Chess Steps|English|Español|Русский`)

// pseudoVowel: the pseudo-language accents every vowel, so an unaccented
// Latin vowel left after the neutral words is English that escaped.
var pseudoVowel = regexp.MustCompile(`[aeiouAEIOU]`)

// contentClasses hold course content (lessons, glossary, rules, quiz
// questions), which is written per language in its own files and checked
// against English by the content packages, not by the catalogue.
var contentClasses = []string{"lesson"}

// bareText lists the visible text and the spoken attributes of a page that
// did not come from the catalogue (no pseudo-language marks).
func bareText(t *testing.T, body string, content []string) []string {
	t.Helper()
	var out []string
	z := html.NewTokenizer(strings.NewReader(body))
	var stack []string
	skip := 0 // depth inside script, style or course content
	check := func(s, where string) {
		s = strings.TrimSpace(s)
		rest := s
		for _, c := range content { // longest first
			rest = strings.ReplaceAll(rest, c, "")
		}
		if s == "" || !pseudoVowel.MatchString(neutral.ReplaceAllString(rest, "")) {
			return
		}
		out = append(out, where+": "+s)
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatal(z.Err())
			}
			sort.Strings(out)
			return out
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			content := false
			for _, a := range tok.Attr {
				switch a.Key {
				case "aria-label", "title", "placeholder", "alt":
					if skip == 0 {
						check(a.Val, tok.Data+"@"+a.Key)
					}
				case "class":
					for _, c := range contentClasses {
						if strings.Contains(" "+a.Val+" ", " "+c+" ") {
							content = true
						}
					}
				}
			}
			if tok.Data == "meta" {
				var name, value string
				for _, a := range tok.Attr {
					if a.Key == "name" {
						name = a.Val
					}
					if a.Key == "content" {
						value = a.Val
					}
				}
				if name == "description" {
					check(value, "meta description")
				}
			}
			if tt == html.SelfClosingTagToken || voidElement[tok.Data] {
				continue
			}
			stack = append(stack, tok.Data)
			if skip > 0 || content || tok.Data == "script" || tok.Data == "style" || tok.Data == "svg" {
				skip++
			}
		case html.EndTagToken:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
				if skip > 0 {
					skip--
				}
			}
		case html.TextToken:
			if skip == 0 {
				where := "text"
				if len(stack) > 0 {
					where = stack[len(stack)-1]
				}
				text := string(z.Text())
				if where == "noscript" { // raw text: its markup is not words
					text = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(text, " ")
				}
				check(text, where)
			}
		}
	}
}

var voidElement = map[string]bool{"meta": true, "link": true, "input": true, "br": true, "img": true, "hr": true,
	"source": true, "area": true, "base": true, "col": true, "embed": true, "param": true, "track": true, "wbr": true}

// TestPseudoLanguagePages renders pages, error pages and JSON refusals in
// the pseudo-language and reports every word that escaped the catalogue
// (N9, issue 31). Pages listed in notYet are converted by work still under
// way; the test fails if any other page shows bare English, and tells when
// a listed page has become clean so that it leaves the list.
func TestPseudoLanguagePages(t *testing.T) {
	s := newSite(t, siteOptions{limits: Limits{APIRate: 1e6, APIBurst: 1e6}, logLevel: slog.LevelWarn,
		words: pseudoWords(t)})
	v := s.visitor(t)
	get := func(path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.AddCookie(v.cookie)
		req.AddCookie(&http.Cookie{Name: langCookie, Value: words.Pseudo})
		return s.serve(req)
	}
	computer := v.newGame(t, `{"mode":"computer","level":1,"color":"white","clock":"5+0"}`)
	friend := v.newGame(t, `{"mode":"friend"}`)
	ply := 0
	v.api(t, http.MethodPost, "/api/games/"+friend+"/resign", `{"ply":0}`, http.StatusOK)
	_ = ply
	pages := []string{"/", "/learn", "/learn/board", "/learn/rook", "/learn/rook/practice", "/learn/check/practice",
		"/learn/board/practice", "/practice", "/practice/squares", "/quiz", "/quiz/rounds/" + v.startQuiz(t),
		"/play", "/play?fen=8/8/8/8/8/8/8/8", "/games", "/play/" + computer, "/play/" + friend, "/play/" + friend + "/review",
		"/privacy", "/rules", "/glossary", "/trainer", "/continue", "/no-such-page", "/play/0123456789abcdef0123456789abcdef",
		"/puzzles", "/puzzles/daily", "/puzzles/streak"}
	// The course's own texts (titles, summaries, prompts) are content: in
	// the pseudo-language they are English by design.
	var content []string
	for _, l := range s.course.Lessons() {
		content = append(content, l.Title, l.Summary)
		for _, ex := range l.Exercises {
			content = append(content, ex.Prompt)
		}
	}
	for _, q := range s.bank.Questions() {
		tx := q.Text(words.English)
		content = append(content, tx.Prompt, tx.Explanation)
		for _, o := range tx.Options {
			content = append(content, o)
		}
	}
	front := regexp.MustCompile(`(?m)^(?:title|summary): (.+)$`)
	for _, f := range []string{"rules.md", "glossary.md"} {
		b, err := os.ReadFile(filepath.Join("..", "lessons", "en", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range front.FindAllStringSubmatch(string(b), -1) {
			content = append(content, m[1])
		}
	}
	sort.Slice(content, func(i, j int) bool { return len(content[i]) > len(content[j]) })
	// Pages whose conversion is still under way (issue 31); each leaves
	// the list when it is clean.
	notYet := map[string]bool{}
	for _, p := range pages {
		rec := get(p)
		if rec.Code >= 500 {
			t.Errorf("%s: %d", p, rec.Code)
			continue
		}
		bare := bareText(t, rec.Body.String(), content)
		switch {
		case len(bare) > 0 && !notYet[p]:
			t.Errorf("%s shows %d texts outside the catalogue:\n  %s", p, len(bare), strings.Join(bare, "\n  "))
		case len(bare) == 0 && notYet[p]:
			t.Errorf("%s is clean now: take it off notYet", p)
		case len(bare) > 0:
			t.Logf("%s (not yet converted): %d texts outside the catalogue:\n  %s", p, len(bare), strings.Join(bare, "\n  "))
		}
	}
	// JSON refusals speak the pseudo-language too, with a stable code.
	for _, r := range []struct{ method, path, body string }{
		{http.MethodPost, "/api/games", `{"mode":"chess boxing"}`},
		{http.MethodPost, "/api/games", `{"mode":`},
		{http.MethodPost, "/api/games/" + computer + "/moves", `{"san":"Zz9","ply":0}`},
		{http.MethodPost, "/api/games/" + computer + "/moves", `{"move":"e2e5","ply":0}`},
		{http.MethodGet, "/api/games/0123456789abcdef0123456789abcdef", ""},
	} {
		req := httptest.NewRequest(r.method, r.path, strings.NewReader(r.body))
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(v.cookie)
		req.AddCookie(&http.Cookie{Name: langCookie, Value: words.Pseudo})
		rec := s.serve(req)
		var body map[string]string
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body["code"] == "" ||
			!strings.HasPrefix(body["error"], words.PseudoOpen) {
			t.Errorf("%s %s: %d %s", r.method, r.path, rec.Code, rec.Body)
		}
	}
}
