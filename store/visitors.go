package store

import (
	"context"
	"time"
)

// Visitors records the anonymous visitors the site keeps something for.
//
// A visitor row is created lazily, by the first request that stores
// something (N8): a page view stores nothing. Everything a visitor owns
// belongs to their row, so deleting the row deletes all of it.
type Visitors interface {
	// EnsureVisitor stores the visitor id if it is new and refreshes its
	// last-seen time otherwise. It is idempotent.
	EnsureVisitor(ctx context.Context, id string) error
	// VisitorExists reports whether the id was stored before.
	VisitorExists(ctx context.Context, id string) (bool, error)
	// ForgetVisitor deletes the visitor and every row stored about them
	// (progress, quiz rounds and answers, games, and whatever later
	// features keep), in one transaction. Forgetting a visitor that has no
	// row is not an error.
	ForgetVisitor(ctx context.Context, id string) error
	// ExportVisitor returns every row stored about the visitor, as stored
	// ("download my data"), or ErrNotFound when the visitor has no row.
	ExportVisitor(ctx context.Context, id string) (*Export, error)
	// ExpireVisitors deletes, in one transaction, at most limit visitors
	// with all their data: those last seen before idleSince, and those
	// with nothing stored last seen before emptySince. It returns how many
	// it deleted; fewer than limit means none are left to delete.
	ExpireVisitors(ctx context.Context, idleSince, emptySince time.Time, limit int) (int, error)
}

// Export is everything stored about one visitor, table by table. Each row
// maps column names to values exactly as stored (strings, numbers, or nil
// for an empty column); codes stay codes (N7).
type Export struct {
	Visitor string                      `json:"visitor"`
	Tables  map[string][]map[string]any `json:"tables"`
}

// Rows counts the exported rows of all tables.
func (e *Export) Rows() int {
	n := 0
	for _, rows := range e.Tables {
		n += len(rows)
	}
	return n
}
