// Package sqlitetest opens throwaway SQLite stores for tests: in the
// test's temporary folder, closed when the test ends, and unsynced
// (sqlite.Options.Unsynced), since a test's database never has to survive
// a power cut and syncing every commit made the short suite wait on the
// disk. Tests of durability itself (faults/) run the real binary instead.
//
// A new database starts as a copy of one migrated once per test process:
// running every migration again for each of a package's hundred test
// databases was most of what opening one cost. Opening the copy still runs
// the migrations' check, which finds them all applied. The store's own
// tests (store/sqlite) migrate from scratch; they test the migrations.
package sqlitetest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"chesstutor/store/sqlite"
)

// New opens a fresh store in t.TempDir().
func New(t testing.TB) *sqlite.SQLite {
	t.Helper()
	return Open(t, filepath.Join(t.TempDir(), "test.db"))
}

// Open opens the store at path, which starts as a freshly migrated
// database when there is no file there yet, and closes it when the test
// ends.
func Open(t testing.TB, path string) *sqlite.SQLite {
	t.Helper()
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		tmpl, err := migrated()
		if err != nil {
			t.Fatalf("migrate the template database: %v", err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, tmpl, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := sqlite.OpenWith(context.Background(), path, sqlite.Options{Unsynced: true})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// migrated returns the bytes of an empty database with every migration
// applied, made once per process. Closing the store checkpoints its
// write-ahead log into the file, so the file alone is the whole database.
var migrated = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "sqlitetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	st, err := sqlite.OpenWith(context.Background(), path, sqlite.Options{Unsynced: true})
	if err != nil {
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil, errors.New("the template's write-ahead log was not checkpointed on close")
	}
	return os.ReadFile(path)
})
