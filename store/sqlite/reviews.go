package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

var _ store.Reviews = (*SQLite)(nil)

// StartReview stores a pending review, replacing any earlier one.
func (s *SQLite) StartReview(ctx context.Context, r *store.Review) error {
	now := time.Now()
	r.RequestedAt, r.UpdatedAt = now, now
	r.Positions, r.Classed = nil, nil
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: start review %s: %w", r.GameID, translate(err))
	}
	defer tx.Rollback()
	for _, q := range []string{
		`DELETE FROM review_moves WHERE game_id = ?`,
		`DELETE FROM review_positions WHERE game_id = ?`,
		`DELETE FROM reviews WHERE game_id = ?`,
	} {
		if _, err := tx.ExecContext(ctx, q, r.GameID); err != nil {
			return fmt.Errorf("sqlite: start review %s: %w", r.GameID, translate(err))
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO reviews (game_id, visitor_id, token, status, start_fen,
		moves, ply, requested_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.GameID, r.Visitor, r.Token, r.Status, r.StartFEN, strings.Join(r.Moves, " "), len(r.Moves),
		now.UnixMilli(), now.UnixMilli())
	if err != nil {
		return fmt.Errorf("sqlite: start review %s: %w", r.GameID, translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: start review %s: %w", r.GameID, translate(err))
	}
	return nil
}

// Review loads a game's review with its positions and moves.
func (s *SQLite) Review(ctx context.Context, gameID string) (*store.Review, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: load review %s: %w", gameID, translate(err))
	}
	defer tx.Rollback()
	rv, err := record.Review(tx.QueryRowContext(ctx, `SELECT `+record.ReviewColumns+` FROM reviews WHERE game_id = ?`, gameID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: load review %s: %w", gameID, translate(err))
	}
	rows, err := tx.QueryContext(ctx, `SELECT idx, cp, mate, is_mate, best, pv, depth
		FROM review_positions WHERE game_id = ? ORDER BY idx`, gameID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: load review %s: %w", gameID, translate(err))
	}
	rv.Positions, err = record.Collect(rows, record.ReviewPosition)
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("sqlite: load review %s: %w", gameID, translate(err))
	}
	rows, err = tx.QueryContext(ctx, `SELECT ply, class, loss, best, reason
		FROM review_moves WHERE game_id = ? ORDER BY ply`, gameID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: load review %s: %w", gameID, translate(err))
	}
	defer rows.Close()
	rv.Classed, err = record.Collect(rows, record.ReviewMove)
	if err != nil {
		return nil, fmt.Errorf("sqlite: load review %s: %w", gameID, translate(err))
	}
	return rv, nil
}

// pendingFor checks, inside tx, that the pending review with token is
// still the game's and returns its ply and number of stored positions.
func pendingFor(ctx context.Context, tx *sql.Tx, gameID, token string) (ply, positions int, err error) {
	var status, stored string
	err = tx.QueryRowContext(ctx, `SELECT status, token, ply,
		(SELECT COUNT(*) FROM review_positions WHERE game_id = reviews.game_id)
		FROM reviews WHERE game_id = ?`, gameID).Scan(&status, &stored, &ply, &positions)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, store.ErrConflict
	}
	if err != nil {
		return 0, 0, err
	}
	if status != store.ReviewPending || stored != token {
		return 0, 0, store.ErrConflict
	}
	return ply, positions, nil
}

// AddReviewPosition stores the next position of a pending review.
func (s *SQLite) AddReviewPosition(ctx context.Context, gameID, token string, p store.ReviewPosition) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: review %s position %d: %w", gameID, p.Index, translate(err))
	}
	defer tx.Rollback()
	ply, n, err := pendingFor(ctx, tx, gameID, token)
	if err != nil {
		return fmt.Errorf("sqlite: review %s position %d: %w", gameID, p.Index, translate(err))
	}
	if p.Index != n || p.Index > ply {
		return fmt.Errorf("sqlite: review %s: position %d is not the next (%d of %d): %w", gameID, p.Index, n, ply+1, store.ErrConflict)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO review_positions (game_id, idx, cp, mate, is_mate, best, pv, depth)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, gameID, p.Index, p.CP, p.Mate, p.IsMate, p.Best, strings.Join(p.PV, " "), p.Depth)
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE reviews SET updated_at_ms = ? WHERE game_id = ?`, time.Now().UnixMilli(), gameID)
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return fmt.Errorf("sqlite: review %s position %d: %w", gameID, p.Index, translate(err))
	}
	return nil
}

// FinishReview stores the classed moves and marks the review done.
func (s *SQLite) FinishReview(ctx context.Context, gameID, token, engine string, moves []store.ReviewMove) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: finish review %s: %w", gameID, translate(err))
	}
	defer tx.Rollback()
	ply, n, err := pendingFor(ctx, tx, gameID, token)
	if err != nil {
		return fmt.Errorf("sqlite: finish review %s: %w", gameID, translate(err))
	}
	if n != ply+1 || len(moves) != ply {
		return fmt.Errorf("sqlite: finish review %s: %d positions and %d moves for %d plies: %w", gameID, n, len(moves), ply, store.ErrConflict)
	}
	for i, m := range moves {
		if m.Ply != i+1 {
			return fmt.Errorf("sqlite: finish review %s: move %d has ply %d", gameID, i+1, m.Ply)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO review_moves (game_id, ply, class, loss, best, reason)
			VALUES (?, ?, ?, ?, ?, ?)`, gameID, m.Ply, m.Class, m.Loss, m.Best, string(m.Reason)); err != nil {
			return fmt.Errorf("sqlite: finish review %s: %w", gameID, translate(err))
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE reviews SET status = ?, engine = ?, updated_at_ms = ? WHERE game_id = ?`,
		store.ReviewDone, engine, time.Now().UnixMilli(), gameID); err != nil {
		return fmt.Errorf("sqlite: finish review %s: %w", gameID, translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: finish review %s: %w", gameID, translate(err))
	}
	return nil
}

// PendingReviews lists the unfinished reviews, oldest request first.
func (s *SQLite) PendingReviews(ctx context.Context) ([]*store.Review, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+record.ReviewColumns+` FROM reviews
		WHERE status = ? ORDER BY requested_at_ms, game_id`, store.ReviewPending)
	if err != nil {
		return nil, fmt.Errorf("sqlite: pending reviews: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Review)
	if err != nil {
		return nil, fmt.Errorf("sqlite: pending reviews: %w", translate(err))
	}
	return out, nil
}
