package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"chesstutor/store"
)

// SQLite's extended result codes for a broken uniqueness constraint.
const (
	codeConstraintPrimaryKey = 1555 // SQLITE_CONSTRAINT_PRIMARYKEY
	codeConstraintUnique     = 2067 // SQLITE_CONSTRAINT_UNIQUE
)

// duplicate reports whether err is a broken PRIMARY KEY or UNIQUE constraint.
func duplicate(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && (coded.Code() == codeConstraintPrimaryKey || coded.Code() == codeConstraintUnique)
}

// CreateTransfer stores a code's hash for the visitor, replacing the
// visitor's earlier code (one row per visitor).
func (s *SQLite) CreateTransfer(ctx context.Context, visitor, codeHash string, expires time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: create transfer: %w", translate(err))
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO transfer_codes (code_hash, visitor_id, expires_at_ms) VALUES (?, ?, ?)
		ON CONFLICT (visitor_id) DO UPDATE SET code_hash = excluded.code_hash,
			expires_at_ms = excluded.expires_at_ms, created_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')`,
		codeHash, visitor, expires.UnixMilli())
	if duplicate(err) {
		return fmt.Errorf("sqlite: create transfer: %w", store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("sqlite: create transfer: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: create transfer: %w", translate(err))
	}
	return nil
}

// RedeemTransfer deletes the code and returns its visitor if it had not
// expired at now.
func (s *SQLite) RedeemTransfer(ctx context.Context, codeHash string, now time.Time) (string, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("sqlite: redeem transfer: %w", translate(err))
	}
	defer tx.Rollback()
	var visitor string
	var expires int64
	err = tx.QueryRowContext(ctx, `DELETE FROM transfer_codes WHERE code_hash = ? RETURNING visitor_id, expires_at_ms`,
		codeHash).Scan(&visitor, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: redeem transfer: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return "", fmt.Errorf("sqlite: redeem transfer: %w", translate(err))
	}
	if expires <= now.UnixMilli() {
		return "", store.ErrNotFound
	}
	return visitor, nil
}

// ExpireTransfers deletes at most limit codes expired at now.
func (s *SQLite) ExpireTransfers(ctx context.Context, now time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire transfers: %w", translate(err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM transfer_codes WHERE code_hash IN (
		SELECT code_hash FROM transfer_codes WHERE expires_at_ms <= ? LIMIT ?)`, now.UnixMilli(), limit)
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire transfers: %w", translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire transfers: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("sqlite: expire transfers: %w", translate(err))
	}
	return int(n), nil
}
