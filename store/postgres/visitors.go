package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// EnsureVisitor stores id if it is new and refreshes last_seen otherwise.
func (s *Postgres) EnsureVisitor(ctx context.Context, id string) error {
	if _, err := s.db.Exec(ctx, `INSERT INTO visitors (id) VALUES ($1)
		ON CONFLICT (id) DO UPDATE SET last_seen = now()`, id); err != nil {
		return fmt.Errorf("postgres: ensure visitor: %w", translate(err))
	}
	return nil
}

// VisitorExists reports whether id was stored before.
func (s *Postgres) VisitorExists(ctx context.Context, id string) (bool, error) {
	var one int
	err := s.db.QueryRow(ctx, "SELECT 1 FROM visitors WHERE id = $1", id).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("postgres: visitor exists: %w", translate(err))
	}
	return true, nil
}
