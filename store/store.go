// Package store says what the site remembers about its visitors — who they
// are, what they have learned, their quiz rounds and their games — and
// nothing about how: it holds the interfaces, the record types and the
// errors every implementation returns. Implementations live in their own
// packages (store/sqlite today; PostgreSQL later, N6) and must pass the
// contract suite in store/storetest.
package store

import (
	"context"
	"errors"
)

// ErrNotFound means the requested record does not exist, or belongs to
// another visitor (handlers answer 404 either way).
var ErrNotFound = errors.New("store: not found")

// ErrConflict means the write lost a race or is stale: a versioned update
// whose version no longer matches, so nothing was changed (handlers answer
// 409).
var ErrConflict = errors.New("store: conflict")

// ErrGone means a write named a visitor (or a record of theirs) that is no
// longer stored, so the database's foreign keys refused it and nothing was
// changed. It happens when "forget me" ran, perhaps on another instance,
// while a page still carried the visitor's cookie (handlers answer 409 and
// forget the visitor from their cache, so the next write stores it anew).
var ErrGone = errors.New("store: the visitor this belongs to is no longer stored")

// ErrUnavailable means the storage, not the request, is at fault: the disk
// is full, the database is read-only or failing to write, too busy, or
// cannot be reached. Nothing was changed; the same request may work later
// (handlers answer 503 with Retry-After, N3). Implementations return an
// *UnavailableError, which matches ErrUnavailable with errors.Is.
var ErrUnavailable = errors.New("store: unavailable")

// Fault says why the storage is unavailable, so a visitor can be told
// whether to wait a moment or a while.
type Fault uint8

// The kinds of storage fault.
const (
	// Busy: too many writers at once, or the database is locked.
	Busy Fault = iota + 1
	// ReadOnly: the database cannot be written (read-only file or
	// server, failing disk writes).
	ReadOnly
	// Full: the disk or the database is full.
	Full
	// Unreachable: the database cannot be opened or connected to.
	Unreachable
)

func (f Fault) String() string {
	switch f {
	case Busy:
		return "busy"
	case ReadOnly:
		return "read-only"
	case Full:
		return "full"
	case Unreachable:
		return "unreachable"
	}
	return "unknown"
}

// UnavailableError is a storage fault with the driver's error underneath.
type UnavailableError struct {
	Fault Fault
	Err   error
}

func (e *UnavailableError) Error() string {
	return "store: unavailable (" + e.Fault.String() + "): " + e.Err.Error()
}

// Unwrap returns the driver's error.
func (e *UnavailableError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrUnavailable) true.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// Store is everything the handlers need from storage.
//
// Each feature has its own interface in store/<feature>.go, embedded here;
// an implementation provides all of them.
type Store interface {
	Visitors
	Progress
	Stars
	Exams
	Games
	RemoteGames
	Quizzes
	Reviews
	Hints
	Trainer
	Puzzles
	Transfers
	Secrets
	Classes
	// Ping reports whether the database answers (used by /healthz).
	Ping(ctx context.Context) error
	// Close releases the database; call it once, after the server stopped.
	Close() error
}
