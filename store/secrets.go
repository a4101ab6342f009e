package store

import "context"

// Secrets keeps the site's own keys, such as the key that signs visitor
// cookies (N2), so that every instance sharing the database uses the same.
type Secrets interface {
	// Secret returns the value stored under name. When there is none yet
	// it stores fresh and returns it; when two instances race, both get the
	// value that was stored first.
	Secret(ctx context.Context, name string, fresh []byte) ([]byte, error)
}
