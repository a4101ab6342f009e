package handlers

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"chesstutor/store/sqlite"
)

// BenchmarkRenderPages serves pages through the whole site as NewSite
// builds it — middleware, the visitor's lookup, the handler, the
// templates, the boards — for a visitor asking in English and in Russian
// (issue 31, point 8: a page may cost at most 10 % more than before the
// site spoke several languages). It uses only what the site had before
// the language work, so the same file runs on an older commit for the
// comparison; there, the Russian requests get English pages.
//
// Besides the time per page it reports the process's CPU time per page
// (cpu-ns/op): on a machine shared with others, the wall clock also counts
// the time this process waited for a core, the CPU time does not.
func BenchmarkRenderPages(b *testing.B) {
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	site, err := NewSite(SiteConfig{
		Store:  st,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Limits: Limits{APIRate: 1e9, APIBurst: 1e9, PageRate: 1e9, PageBurst: 1e9},
	})
	if err != nil {
		b.Fatal(err)
	}
	serve := func(req *http.Request) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, req)
		return rec
	}
	var visitor *http.Cookie
	for _, c := range serve(httptest.NewRequest(http.MethodGet, "/", nil)).Result().Cookies() {
		if c.Name == visitorCookie {
			visitor = c
		}
	}
	if visitor == nil {
		b.Fatal("GET / set no visitor cookie")
	}
	req := httptest.NewRequest(http.MethodPost, "/api/games", strings.NewReader(`{"mode":"friend"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.AddCookie(visitor)
	rec := serve(req)
	var game struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &game); err != nil || rec.Code != http.StatusCreated || game.ID == "" {
		b.Fatalf("new game: %d %s", rec.Code, rec.Body)
	}

	// A site that has been up a while has served every page, so
	// html/template has escaped all of them (it does so on a page's
	// first request) and they sit in the heap the collector walks.
	for _, p := range []string{"/", "/learn", "/learn/rook", "/learn/rook/practice", "/practice", "/practice/squares",
		"/quiz", "/play", "/play/" + game.ID, "/games", "/privacy", "/rules", "/glossary", "/no-such-page"} {
		req := httptest.NewRequest(http.MethodGet, p, nil)
		req.AddCookie(visitor)
		if rec := serve(req); rec.Code >= 500 {
			b.Fatalf("GET %s = %d", p, rec.Code)
		}
	}

	pages := []struct{ name, path string }{
		{"home", "/"},
		{"lesson", "/learn/rook"},
		{"newgame", "/play"},
		{"game", "/play/" + game.ID},
	}
	for _, lang := range []string{"en", "ru"} {
		for _, p := range pages {
			b.Run(lang+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				before := cpuTime()
				for b.Loop() {
					req := httptest.NewRequest(http.MethodGet, p.path, nil)
					req.Header.Set("Accept-Language", lang)
					req.AddCookie(visitor)
					rec := serve(req)
					if rec.Code != http.StatusOK {
						b.Fatalf("GET %s = %d", p.path, rec.Code)
					}
				}
				b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// cpuTime is the CPU time the process has used (every thread: the
// garbage collector's work is part of a page's cost), in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
