package store

import (
	"context"
	"time"
)

// Transfers keeps the one-time codes that make another device the same
// visitor (G28, "continue on another device"). Only a hash of each code
// is stored, never the code, so the table does not hand working codes to
// someone who reads it. A code belongs to its visitor: forgetting the
// visitor deletes it.
type Transfers interface {
	// CreateTransfer stores the hash of a new code for visitor, valid
	// until expires, and deletes the visitor's earlier codes: a visitor
	// has at most one pending code. ErrConflict when another code has the
	// same hash (the caller draws a new code); ErrGone when the visitor
	// is not stored.
	CreateTransfer(ctx context.Context, visitor, codeHash string, expires time.Time) error
	// RedeemTransfer deletes the code with this hash and returns its
	// visitor when the code is still valid at now. A code is redeemed
	// once: of two redeeming it at once, one gets the visitor and the
	// other ErrNotFound. ErrNotFound also when there is no such code or
	// it has expired (an expired code is deleted as well).
	RedeemTransfer(ctx context.Context, codeHash string, now time.Time) (visitor string, err error)
	// ExpireTransfers deletes at most limit codes that expired before now
	// and returns how many; fewer than limit means none are left.
	ExpireTransfers(ctx context.Context, now time.Time, limit int) (int, error)
}
