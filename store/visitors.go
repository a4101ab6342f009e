package store

import "context"

// Visitors records the anonymous visitors the site has handed a cookie to.
type Visitors interface {
	// EnsureVisitor stores the visitor id if it is new and refreshes its
	// last-seen time otherwise. It is idempotent.
	EnsureVisitor(ctx context.Context, id string) error
	// VisitorExists reports whether the id was stored before.
	VisitorExists(ctx context.Context, id string) (bool, error)
}
