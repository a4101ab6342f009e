package handlers

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"chesstutor/views"
	"chesstutor/words"
)

// TestLanguagesAtOnce (issue 31, 7d): visitors in English, Spanish and
// Russian ask for the same pages at the same moment through the real
// site — the home page, a lesson, the new-game form and a JSON refusal —
// and each gets its own language only: <html lang>, words of its
// language and none of another's, byte for byte the page it gets when
// alone. Run it with -race: the template functions and the words are
// per request, nothing shared changes.
func TestLanguagesAtOnce(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	cat := words.Default()
	langs := []string{"en", "es", "ru"}

	type page struct {
		name, method, target, body string
		status                     int
		// words are what the page must say in each language: catalogue
		// texts and the lesson's own title. Each differs between the
		// languages, so finding another language's is a mix-up.
		words func(lang string) []string
	}
	key := func(k string, args ...any) func(lang string) string {
		return func(lang string) string { return cat.For(lang).T(k, args...) }
	}
	html := func(fns ...func(string) string) func(lang string) []string {
		return func(lang string) []string {
			var out []string
			for _, f := range fns {
				out = append(out, template.HTMLEscapeString(f(lang)))
			}
			return out
		}
	}
	lessonTitle := func(lang string) string {
		l, ok := s.h.lessons.In(lang).Lesson("rook")
		if !ok {
			t.Fatalf("no rook lesson in %s", lang)
		}
		return l.Title
	}
	pages := []page{
		{"home", http.MethodGet, "/", "", http.StatusOK, html(key("site.skip"), key("site.footer_cookie"), key("site.board_colours"))},
		{"lesson", http.MethodGet, "/learn/rook", "", http.StatusOK, html(lessonTitle, key("lesson.all_lessons"), key("lesson.practice_button"))},
		{"new game", http.MethodGet, "/play", "", http.StatusOK, html(key("play.title"), key("play.start"), key("level.name_1"))},
		{"refusal", http.MethodPost, "/api/games", `{"mode":"sideways"}`, http.StatusBadRequest, func(lang string) []string {
			b, _ := json.Marshal(map[string]string{"code": "game.refuse_mode", "error": key("game.refuse_mode", "Text", "sideways")(lang)})
			return []string{string(b)}
		}},
	}

	// The three ways a request names its language: a ?lang= link, the
	// lang cookie, Accept-Language.
	request := func(p page, lang string, how int) *http.Request {
		target := p.target
		if how == 0 {
			target += "?lang=" + lang
		}
		req := httptest.NewRequest(p.method, target, strings.NewReader(p.body))
		req.AddCookie(v.cookie)
		switch how {
		case 1:
			req.AddCookie(&http.Cookie{Name: langCookie, Value: lang})
		case 2:
			req.Header.Set("Accept-Language", lang+";q=0.9,de;q=0.5")
		}
		if p.body != "" {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
		}
		return req
	}
	// check returns what is wrong with a response for lang, or "".
	check := func(p page, lang string, rec *httptest.ResponseRecorder) string {
		body := rec.Body.String()
		if rec.Code != p.status {
			return fmt.Sprintf("status %d, want %d", rec.Code, p.status)
		}
		if p.method == http.MethodGet && !strings.Contains(body, `<html lang="`+lang+`"`) {
			return "no <html lang=\"" + lang + "\">"
		}
		for _, w := range p.words(lang) {
			if !strings.Contains(body, w) {
				return fmt.Sprintf("lacks %q", w)
			}
		}
		for _, other := range langs {
			if other == lang {
				continue
			}
			for _, w := range p.words(other) {
				if strings.Contains(body, w) {
					return fmt.Sprintf("says %q, which is %s", w, other)
				}
			}
		}
		return ""
	}

	// Alone first: each page in each language, the yardstick.
	type served struct {
		page, lang string
		how        int
	}
	alone := map[served]string{}
	for _, p := range pages {
		for _, lang := range langs {
			for i, w := range p.words(lang) {
				for _, other := range langs {
					if other != lang && strings.Contains(w, p.words(other)[i]) {
						t.Fatalf("%s: the %s and %s words %q and %q are too alike to tell apart", p.name, lang, other, w, p.words(other)[i])
					}
				}
			}
			for how := range 3 {
				rec := s.serve(request(p, lang, how))
				if bad := check(p, lang, rec); bad != "" {
					t.Fatalf("%s in %s (way %d), alone: %s\n%s", p.name, lang, how, bad, rec.Body)
				}
				alone[served{p.name, lang, how}] = rec.Body.String()
			}
		}
	}

	// Then all at once: every goroutine asks for every page, its
	// language named each of the three ways in turn.
	goroutines, rounds := 8, 3
	if testing.Short() {
		goroutines, rounds = 4, 2
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := 0; g < goroutines; g++ {
		for _, lang := range langs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for r := 0; r < rounds; r++ {
					for i := range pages {
						p := pages[(i+g)%len(pages)] // not all on the same page at the same instant
						how := (g + r + i) % 3
						rec := s.serve(request(p, lang, how))
						if bad := check(p, lang, rec); bad != "" {
							t.Errorf("%s in %s (goroutine %d, way %d): %s", p.name, lang, g, how, bad)
							return
						}
						if got := rec.Body.String(); got != alone[served{p.name, lang, how}] {
							t.Errorf("%s in %s (goroutine %d, way %d): the page differs from the one served alone", p.name, lang, g, how)
							return
						}
					}
				}
			}()
		}
	}
	close(start)
	wg.Wait()
}

// TestFoldedWordsChangeNoPage: the renderer folds each word that depends
// on the language only into the templates when it parses them
// (views.foldWords, for speed); every page, in every language, is the
// same byte for byte as when each word is looked up on the request.
func TestFoldedWordsChangeNoPage(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	game := v.newGame(t, `{"mode":"friend"}`)
	quiz := v.startQuiz(t)
	unfolded, err := views.New(words.Default(), views.Unfolded())
	if err != nil {
		t.Fatal(err)
	}
	folded := s.h.views
	pages := []string{"/", "/learn", "/learn/board", "/learn/rook", "/practice", "/practice/" + s.course.Exercises()[0].ID,
		"/quiz", "/quiz/rounds/" + quiz, "/play", "/play/" + game, "/games", "/privacy", "/rules", "/glossary",
		"/trainer", "/no-such-page", "/puzzles/daily", "/puzzles/streak"}
	for _, lang := range []string{"en", "es", "ru"} {
		for i, p := range pages {
			// Every other page with the language's letters for moves,
			// the other template set.
			style := []string{views.NotationFigurine, views.NotationLetters}[i%2]
			get := func(r *views.Renderer) *httptest.ResponseRecorder {
				s.h.views = r
				req := httptest.NewRequest(http.MethodGet, p, nil)
				req.AddCookie(v.cookie)
				req.AddCookie(&http.Cookie{Name: notationCookie, Value: style})
				req.Header.Set("Accept-Language", lang)
				return s.serve(req)
			}
			a, b := get(folded), get(unfolded)
			if a.Code != b.Code || a.Body.String() != b.Body.String() {
				t.Errorf("%s %s (%s): folded %d, %d bytes; unfolded %d, %d bytes", lang, p, style, a.Code, a.Body.Len(), b.Code, b.Body.Len())
			}
			if !strings.Contains(a.Body.String(), `<html lang="`+lang+`"`) {
				t.Errorf("%s %s: %d, not a page in its language", lang, p, a.Code)
			}
		}
	}
	s.h.views = folded
}
