package handlers

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/chess/engine"
	"chesstutor/internal/sqlitetest"
	"chesstutor/internal/testbin"
	"chesstutor/lessons"
	"chesstutor/quiz"
	"chesstutor/store"
	"chesstutor/store/sqlite"
	"chesstutor/views"
	"chesstutor/words"
)

// fullSite is the whole site built by NewSite, as main.go builds it (the
// real store, views, lessons, quiz, game service and engine pool), served
// through httptest. Its log is kept so tests can assert what was logged.
type fullSite struct {
	h      *Handler
	e      *echo.Echo
	st     *sqlite.SQLite // the real store, for tests that look behind the site
	dbPath string
	log    *lockedBuffer
	course *lessons.Course
	bank   *quiz.Bank
}

// siteOptions vary the site a test builds; the zero value is the site as
// main.go runs it, logging at info level.
type siteOptions struct {
	limits   Limits     // zero fields take the defaults, as in main.go
	logLevel slog.Level // the least severe record kept in the log
	// wrapStore, when set, stands between the handlers and the real store
	// (to inject faults).
	wrapStore func(store.Store) store.Store
	// words, when set, is the catalogue (the pseudo-language test).
	words *words.Catalogue
	// reviews runs the review service until the test ends.
	reviews bool
	// now, when set, is the site's clock.
	now func() time.Time
}

// reviewDepth bounds the test site's review and hint searches by depth
// rather than time: deep enough that a queen left to a knight is a
// blunder, shallow enough for the short suite.
const reviewDepth = 8

// testHashMB is the engine's table size in tests: the searches are short,
// and clearing a large table for every site costs more than they do.
const testHashMB = 2

// defaultViews are the pages parsed once for the embedded catalogue and
// shared by every test site that speaks it (SiteConfig.Views).
var defaultViews = sync.OnceValues(func() (*views.Renderer, error) { return views.New(words.Default()) })

// pseudoSet is the catalogue with the test-only pseudo-language, with its
// pages and lessons: built once and shared by the tests that speak it, as
// defaultViews is for the embedded catalogue.
type pseudoSet struct {
	words   *words.Catalogue
	views   *views.Renderer
	lessons *lessons.Library
}

var pseudo = sync.OnceValues(func() (pseudoSet, error) {
	cat, err := words.Load(words.WithPseudo())
	if err != nil {
		return pseudoSet{}, err
	}
	r, err := views.New(cat)
	if err != nil {
		return pseudoSet{}, err
	}
	lib, err := lessons.LoadLibrary(cat)
	return pseudoSet{words: cat, views: r, lessons: lib}, err
})

// pseudoWords is the shared catalogue with the pseudo-language (for
// siteOptions.words).
func pseudoWords(t testing.TB) *words.Catalogue {
	t.Helper()
	p, err := pseudo()
	if err != nil {
		t.Fatal(err)
	}
	return p.words
}

// viewsFor is the shared renderer and course for the embedded catalogue
// (nil) or the pseudo-language's; for another catalogue both are nil and
// the site builds its own.
func viewsFor(t testing.TB, cat *words.Catalogue) (*views.Renderer, *lessons.Library) {
	t.Helper()
	if cat != nil {
		if p, err := pseudo(); err == nil && p.words == cat {
			return p.views, p.lessons
		}
		return nil, nil
	}
	r, err := defaultViews()
	if err != nil {
		t.Fatal(err)
	}
	return r, nil
}

// newSite builds the full site on a fresh database in t.TempDir().
func newSite(t testing.TB, opt siteOptions) *fullSite {
	t.Helper()
	dbPath := filepath.Join(t.TempDir(), "site.db")
	st := sqlitetest.Open(t, dbPath)
	var served store.Store = st
	if opt.wrapStore != nil {
		served = opt.wrapStore(st)
	}
	logs := &lockedBuffer{}
	pages, course := viewsFor(t, opt.words)
	site, err := NewSite(SiteConfig{
		Store:       served,
		Engine:      engine.NewPool(1, testHashMB),
		Logger:      slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: opt.logLevel})),
		Limits:      opt.limits,
		ReviewDepth: reviewDepth,
		Words:       opt.words,
		Views:       pages,
		Lessons:     course,
		Now:         opt.now,
	})
	if err != nil {
		t.Fatal(err)
	}
	if opt.reviews {
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); site.Reviews.Run(ctx) }()
		t.Cleanup(func() { stop(); <-done })
	}
	h := site.Handler
	return &fullSite{h: h, e: site.Echo, st: st, dbPath: dbPath, log: logs, course: h.lessons.In(words.English), bank: h.rounds.Bank()}
}

// newFullSite builds the site with a rate limit high enough for table
// tests, logging warnings and errors only.
func newFullSite(t testing.TB) *fullSite {
	t.Helper()
	return newSite(t, siteOptions{limits: Limits{APIRate: 1e6, APIBurst: 1e6}, logLevel: slog.LevelWarn})
}

// lockedBuffer is a log sink safe for concurrent requests.
type lockedBuffer = testbin.SyncBuffer

// siteVisitor is one browser with its own visitor cookie.
type siteVisitor struct {
	site   *fullSite
	id     string
	cookie *http.Cookie
}

// visitor makes a new visitor with a cookie and nothing stored yet, as
// the site hands it out at the first stored write (keepVisitor).
func (s *fullSite) visitor(t testing.TB) *siteVisitor {
	t.Helper()
	ck := s.newCookie()
	return &siteVisitor{site: s, id: cookieID(ck.Value), cookie: ck}
}

// newCookie signs a new visitor id the way the site does.
func (s *fullSite) newCookie() *http.Cookie {
	return &http.Cookie{Name: visitorCookie, Value: s.h.cookies.sign(store.NewID()), Path: "/"}
}

// cookieOf returns the cookie the response sets under name, or nil.
func cookieOf(rec *httptest.ResponseRecorder, name string) *http.Cookie {
	for _, c := range rec.Result().Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// visitorCookieOf returns the visitor cookie the response sets, or nil.
func visitorCookieOf(rec *httptest.ResponseRecorder) *http.Cookie {
	return cookieOf(rec, visitorCookie)
}

func (s *fullSite) serve(req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	s.e.ServeHTTP(rec, req)
	return rec
}

// do sends a request as the visitor, the way the site's own pages do
// (same-origin fetch or form post).
func (v *siteVisitor) do(method, target, contentType, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if unsafeMethod(method) {
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	req.AddCookie(v.cookie)
	return v.site.serve(req)
}

// api posts a JSON body (or GETs when body is "") and decodes the reply.
func (v *siteVisitor) api(t testing.TB, method, target, body string, want int) map[string]any {
	t.Helper()
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	rec := v.do(method, target, ct, body)
	if rec.Code != want {
		t.Fatalf("%s %s %s = %d, want %d: %s", method, target, body, rec.Code, want, rec.Body)
	}
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s %s: reply is not JSON: %s", method, target, rec.Body)
	}
	return out
}

// form posts url-encoded values with the visitor's CSRF token.
func (v *siteVisitor) form(target string, values url.Values) *httptest.ResponseRecorder {
	values.Set("_csrf", csrfToken(v.id))
	return v.do(http.MethodPost, target, "application/x-www-form-urlencoded", values.Encode())
}

// newGame creates a game for the visitor and returns its id.
func (v *siteVisitor) newGame(t testing.TB, body string) string {
	t.Helper()
	out := v.api(t, http.MethodPost, "/api/games", body, http.StatusCreated)
	id, _ := out["id"].(string)
	if len(id) != 32 {
		t.Fatalf("new game has id %q", id)
	}
	return id
}

// startQuiz starts a quiz round with the form and returns its id.
func (v *siteVisitor) startQuiz(t testing.TB) string {
	t.Helper()
	rec := v.form("/quiz/rounds", url.Values{})
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("POST /quiz/rounds = %d: %s", rec.Code, rec.Body)
	}
	id := strings.TrimPrefix(rec.Header().Get("Location"), "/quiz/rounds/")
	if len(id) != 32 {
		t.Fatalf("quiz round location %q", rec.Header().Get("Location"))
	}
	return id
}

// snapshot dumps every table of the database, so a test can prove a
// refused request stored nothing.
func (s *fullSite) snapshot(t testing.TB) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+s.dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	var out strings.Builder
	for _, tbl := range tables {
		rs, err := db.Query(`SELECT * FROM "` + tbl + `" ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rs.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rs.Next() {
			if err := rs.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s %v\n", tbl, vals)
		}
		rs.Close()
	}
	return out.String()
}

// noPanic fails the test if the site logged a panic or a 5xx.
func (s *fullSite) noPanic(t testing.TB) {
	t.Helper()
	logs := s.log.String()
	if strings.Contains(logs, "panic") || strings.Contains(logs, "request failed") {
		t.Errorf("the site logged a panic or a server error:\n%s", logs)
	}
}
