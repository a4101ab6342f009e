package sqlite

import (
	"context"
	"fmt"
)

// Secret returns the value stored under name, storing fresh first when
// there is none; the first value stored wins.
func (s *SQLite) Secret(ctx context.Context, name string, fresh []byte) ([]byte, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: secret %s: %w", name, translate(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO site_secrets (name, value) VALUES (?, ?)
		ON CONFLICT (name) DO NOTHING`, name, fresh); err != nil {
		return nil, fmt.Errorf("sqlite: secret %s: %w", name, translate(err))
	}
	var v []byte
	if err := tx.QueryRowContext(ctx, "SELECT value FROM site_secrets WHERE name = ?", name).Scan(&v); err != nil {
		return nil, fmt.Errorf("sqlite: secret %s: %w", name, translate(err))
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: secret %s: %w", name, translate(err))
	}
	return v, nil
}
