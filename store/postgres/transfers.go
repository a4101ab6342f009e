package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"chesstutor/store"
)

// CreateTransfer stores a code's hash for the visitor, replacing the
// visitor's earlier code (one row per visitor), in one statement.
func (s *Postgres) CreateTransfer(ctx context.Context, visitor, codeHash string, expires time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO transfer_codes (code_hash, visitor_id, expires_at_ms) VALUES ($1, $2, $3)
		ON CONFLICT (visitor_id) DO UPDATE SET code_hash = excluded.code_hash,
			expires_at_ms = excluded.expires_at_ms, created_at = now()`,
		codeHash, visitor, expires.UnixMilli())
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "23505" { // unique_violation: another visitor's code has this hash
		return fmt.Errorf("postgres: create transfer: %w", store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("postgres: create transfer: %w", translate(err))
	}
	return nil
}

// RedeemTransfer deletes the code and returns its visitor if it had not
// expired at now. The DELETE is the one statement that decides: of two
// instances redeeming the same code at once, one deletes the row.
func (s *Postgres) RedeemTransfer(ctx context.Context, codeHash string, now time.Time) (string, error) {
	var visitor string
	var expires int64
	err := s.db.QueryRow(ctx, `DELETE FROM transfer_codes WHERE code_hash = $1 RETURNING visitor_id, expires_at_ms`,
		codeHash).Scan(&visitor, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", store.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("postgres: redeem transfer: %w", translate(err))
	}
	if expires <= now.UnixMilli() {
		return "", store.ErrNotFound
	}
	return visitor, nil
}

// ExpireTransfers deletes at most limit codes expired at now. SKIP
// LOCKED and a MATERIALIZED choice, as in ExpireVisitors: sweeps of
// several instances share the work.
func (s *Postgres) ExpireTransfers(ctx context.Context, now time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	tag, err := s.db.Exec(ctx, `WITH picked AS MATERIALIZED (
		SELECT code_hash FROM transfer_codes WHERE expires_at_ms <= $1
		LIMIT $2 FOR UPDATE SKIP LOCKED)
		DELETE FROM transfer_codes WHERE code_hash IN (SELECT code_hash FROM picked)`, now.UnixMilli(), limit)
	if err != nil {
		return 0, fmt.Errorf("postgres: expire transfers: %w", translate(err))
	}
	return int(tag.RowsAffected()), nil
}
