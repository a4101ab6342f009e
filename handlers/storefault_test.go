package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"chesstutor/store"
)

// driverSaysNo stands for the database driver's own error under a store
// error; its words must never reach a visitor.
var driverSaysNo = errors.New("database says no")

func unavailable(f store.Fault) error { return &store.UnavailableError{Fault: f, Err: driverSaysNo} }

// codedError looks like an SQLite driver error that escaped its store
// untranslated: handlers do not decode it (that is the store's job), so
// it is a plain 500.
type codedError struct{ code int }

func (e *codedError) Error() string { return fmt.Sprintf("database says no (%d)", e.code) }
func (e *codedError) Code() int     { return e.code }

// faultyStore is the real store with a switch that makes every write fail
// with an injected error, as a full or read-only disk would.
type faultyStore struct {
	store.Store
	fail atomic.Pointer[error]
}

func (f *faultyStore) injected() error {
	if p := f.fail.Load(); p != nil {
		return fmt.Errorf("store: wrapped: %w", *p)
	}
	return nil
}

func (f *faultyStore) CreateGame(ctx context.Context, g *store.Game) error {
	if err := f.injected(); err != nil {
		return err
	}
	return f.Store.CreateGame(ctx, g)
}

func (f *faultyStore) UpdateGame(ctx context.Context, g *store.Game) error {
	if err := f.injected(); err != nil {
		return err
	}
	return f.Store.UpdateGame(ctx, g)
}

func (f *faultyStore) MarkLessonRead(ctx context.Context, visitor, slug string) error {
	if err := f.injected(); err != nil {
		return err
	}
	return f.Store.MarkLessonRead(ctx, visitor, slug)
}

// TestStorageFaultsAnswer503 injects the store's errors for a full disk, a
// read-only or unreachable database and a busy one under the real
// handlers: each answers 503 with its sentence and Retry-After, as JSON
// under /api and as a page elsewhere; any other error, a driver's own
// included, stays a plain 500. (store/sqlite tests which SQLite codes
// become which store errors.)
func TestStorageFaultsAnswer503(t *testing.T) {
	t.Parallel()
	var fs *faultyStore
	site := newSite(t, siteOptions{wrapStore: func(real store.Store) store.Store {
		fs = &faultyStore{Store: real}
		return fs
	}})
	v := site.visitor(t)
	id := v.newGame(t, `{"mode":"friend"}`)
	slug := site.course.Lessons()[0].Slug

	cases := []struct {
		name   string
		err    error
		status int
		msg    string
	}{
		{"disk full", unavailable(store.Full), 503, "storage is full"},
		{"read-only", unavailable(store.ReadOnly), 503, "not writable"},
		{"unreachable", unavailable(store.Unreachable), 503, "not writable"},
		{"busy", unavailable(store.Busy), 503, "too busy"},
		{"unavailable without a fault", fmt.Errorf("store: %w", store.ErrUnavailable), 503, "too busy"},
		{"untranslated driver code", &codedError{13}, 500, "went wrong"},
		{"plain error", errors.New("boom"), 500, "went wrong"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs.fail.Store(&tc.err)
			defer fs.fail.Store(nil)
			rec := v.do("POST", "/api/games/"+id+"/moves", "application/json", `{"move":"e2e4","ply":0}`)
			if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.msg) {
				t.Errorf("move: %d %s, want %d with %q", rec.Code, rec.Body, tc.status, tc.msg)
			}
			if tc.status == 503 {
				if rec.Header().Get("Retry-After") == "" {
					t.Errorf("503 without Retry-After")
				}
				if !strings.Contains(rec.Body.String(), "Nothing was changed") {
					t.Errorf("503 does not say nothing was changed: %s", rec.Body)
				}
			}
			page := v.form("/learn/"+slug+"/done", url.Values{})
			if page.Code != tc.status || !strings.Contains(page.Body.String(), tc.msg) ||
				!strings.HasPrefix(page.Header().Get("Content-Type"), "text/html") {
				t.Errorf("form: %d %.200s, want a %d page with %q", page.Code, page.Body, tc.status, tc.msg)
			}
			if strings.Contains(rec.Body.String()+page.Body.String(), "database says no") {
				t.Errorf("the driver's message reached the visitor")
			}
		})
	}
	// With the fault gone, the move goes through.
	v.api(t, "POST", "/api/games/"+id+"/moves", `{"move":"e2e4","ply":0}`, http.StatusOK)
}
