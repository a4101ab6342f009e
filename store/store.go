// Package store keeps everything the site remembers about its visitors:
// who they are, what they have learned, their quiz scores and their games.
//
// Store is a small interface composed of one interface per feature so a
// second implementation (PostgreSQL, N6) can be added beside the SQLite one
// without touching handlers.
package store

import (
	"context"
	"errors"
)

// ErrNotFound means the requested record does not exist, or belongs to
// another visitor (handlers answer 404 either way).
var ErrNotFound = errors.New("store: not found")

// ErrConflict means the write lost a race or is stale (handlers answer 409).
var ErrConflict = errors.New("store: conflict")

// Store is everything the handlers need from storage.
//
// Each feature adds its own interface in store/<feature>.go and embeds it
// here; *SQLite implements all of them.
type Store interface {
	Visitors
	Progress
	Games
	Quizzes
	Reviews
	// Ping reports whether the database answers (used by /healthz).
	Ping(ctx context.Context) error
	// Close releases the database; call it once, after the server stopped.
	Close() error
}
