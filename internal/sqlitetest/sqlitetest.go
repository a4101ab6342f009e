// Package sqlitetest opens throwaway SQLite stores for tests: in the
// test's temporary folder, closed when the test ends, and unsynced
// (sqlite.Options.Unsynced), since a test's database never has to survive
// a power cut and syncing every commit made the short suite wait on the
// disk. Tests of durability itself (faults/) run the real binary instead.
package sqlitetest

import (
	"context"
	"path/filepath"
	"testing"

	"chesstutor/store/sqlite"
)

// New opens a fresh store in t.TempDir().
func New(t testing.TB) *sqlite.SQLite {
	t.Helper()
	return Open(t, filepath.Join(t.TempDir(), "test.db"))
}

// Open opens (creating if needed) the store at path and closes it when the
// test ends.
func Open(t testing.TB, path string) *sqlite.SQLite {
	t.Helper()
	st, err := sqlite.OpenWith(context.Background(), path, sqlite.Options{Unsynced: true})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
