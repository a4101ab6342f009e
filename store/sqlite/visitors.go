package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// EnsureVisitor stores id if it is new and refreshes last_seen otherwise.
func (s *SQLite) EnsureVisitor(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: ensure visitor: %w", translate(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO visitors (id) VALUES (?)
		ON CONFLICT (id) DO UPDATE SET last_seen = strftime('%Y-%m-%dT%H:%M:%fZ','now')`, id); err != nil {
		return fmt.Errorf("sqlite: ensure visitor: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: ensure visitor: %w", translate(err))
	}
	return nil
}

// VisitorExists reports whether id was stored before.
func (s *SQLite) VisitorExists(ctx context.Context, id string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, "SELECT 1 FROM visitors WHERE id = ?", id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("sqlite: visitor exists: %w", translate(err))
	}
	return true, nil
}
