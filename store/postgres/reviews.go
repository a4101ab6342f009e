package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

var _ store.Reviews = (*Postgres)(nil)

// StartReview stores a pending review, replacing any earlier one.
func (s *Postgres) StartReview(ctx context.Context, r *store.Review) error {
	now := time.Now()
	r.RequestedAt, r.UpdatedAt = now, now
	r.Positions, r.Classed = nil, nil
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		// The cascade removes the old review's positions and moves.
		if _, err := tx.Exec(ctx, `DELETE FROM reviews WHERE game_id = $1`, r.GameID); err != nil {
			return translate(err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO reviews (game_id, visitor_id, token, status, start_fen,
			moves, ply, requested_at_ms, updated_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
			r.GameID, r.Visitor, r.Token, r.Status, r.StartFEN, strings.Join(r.Moves, " "), len(r.Moves), now.UnixMilli())
		return translate(err)
	})
	if err != nil {
		return fmt.Errorf("postgres: start review %s: %w", r.GameID, err)
	}
	return nil
}

// Review loads a game's review with its positions and moves, in one
// read-only snapshot.
func (s *Postgres) Review(ctx context.Context, gameID string) (*store.Review, error) {
	var rv *store.Review
	err := s.inTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		var err error
		rv, err = record.Review(tx.QueryRow(ctx, `SELECT `+record.ReviewColumns+` FROM reviews WHERE game_id = $1`, gameID))
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return translate(err)
		}
		rows, err := tx.Query(ctx, `SELECT idx, cp, mate, is_mate, best, pv, depth
			FROM review_positions WHERE game_id = $1 ORDER BY idx`, gameID)
		if err != nil {
			return translate(err)
		}
		rv.Positions, err = record.Collect(rows, record.ReviewPosition)
		rows.Close()
		if err != nil {
			return translate(err)
		}
		rows, err = tx.Query(ctx, `SELECT ply, class, loss, best, reason
			FROM review_moves WHERE game_id = $1 ORDER BY ply`, gameID)
		if err != nil {
			return translate(err)
		}
		defer rows.Close()
		rv.Classed, err = record.Collect(rows, record.ReviewMove)
		return translate(err)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: load review %s: %w", gameID, err)
	}
	return rv, nil
}

// pendingFor locks the game's review row inside tx, checks it is the
// pending review with token, and returns its ply and stored positions.
func pendingFor(ctx context.Context, tx pgx.Tx, gameID, token string) (ply, positions int, err error) {
	var status, stored string
	err = tx.QueryRow(ctx, `SELECT status, token, ply FROM reviews WHERE game_id = $1 FOR UPDATE`, gameID).Scan(&status, &stored, &ply)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, store.ErrConflict
	}
	if err != nil {
		return 0, 0, translate(err)
	}
	if status != store.ReviewPending || stored != token {
		return 0, 0, store.ErrConflict
	}
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM review_positions WHERE game_id = $1`, gameID).Scan(&positions); err != nil {
		return 0, 0, translate(err)
	}
	return ply, positions, nil
}

// AddReviewPosition stores the next position of a pending review.
func (s *Postgres) AddReviewPosition(ctx context.Context, gameID, token string, p store.ReviewPosition) error {
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		ply, n, err := pendingFor(ctx, tx, gameID, token)
		if err != nil {
			return err
		}
		if p.Index != n || p.Index > ply {
			return fmt.Errorf("position %d is not the next (%d of %d): %w", p.Index, n, ply+1, store.ErrConflict)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO review_positions (game_id, idx, cp, mate, is_mate, best, pv, depth)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, gameID, p.Index, p.CP, p.Mate, p.IsMate, p.Best, strings.Join(p.PV, " "), p.Depth); err != nil {
			return translate(err)
		}
		_, err = tx.Exec(ctx, `UPDATE reviews SET updated_at_ms = $1 WHERE game_id = $2`, time.Now().UnixMilli(), gameID)
		return translate(err)
	})
	if err != nil {
		return fmt.Errorf("postgres: review %s position %d: %w", gameID, p.Index, err)
	}
	return nil
}

// FinishReview stores the classed moves and marks the review done.
func (s *Postgres) FinishReview(ctx context.Context, gameID, token, engine string, moves []store.ReviewMove) error {
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		ply, n, err := pendingFor(ctx, tx, gameID, token)
		if err != nil {
			return err
		}
		if n != ply+1 || len(moves) != ply {
			return fmt.Errorf("%d positions and %d moves for %d plies: %w", n, len(moves), ply, store.ErrConflict)
		}
		for i, m := range moves {
			if m.Ply != i+1 {
				return fmt.Errorf("move %d has ply %d", i+1, m.Ply)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO review_moves (game_id, ply, class, loss, best, reason)
				VALUES ($1, $2, $3, $4, $5, $6)`, gameID, m.Ply, m.Class, m.Loss, m.Best, string(m.Reason)); err != nil {
				return translate(err)
			}
		}
		_, err = tx.Exec(ctx, `UPDATE reviews SET status = $1, engine = $2, updated_at_ms = $3 WHERE game_id = $4`,
			store.ReviewDone, engine, time.Now().UnixMilli(), gameID)
		return translate(err)
	})
	if err != nil {
		return fmt.Errorf("postgres: finish review %s: %w", gameID, err)
	}
	return nil
}

// PendingReviews lists the unfinished reviews, oldest request first.
func (s *Postgres) PendingReviews(ctx context.Context) ([]*store.Review, error) {
	rows, err := s.db.Query(ctx, `SELECT `+record.ReviewColumns+` FROM reviews
		WHERE status = $1 ORDER BY requested_at_ms, game_id`, store.ReviewPending)
	if err != nil {
		return nil, fmt.Errorf("postgres: pending reviews: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Review)
	if err != nil {
		return nil, fmt.Errorf("postgres: pending reviews: %w", translate(err))
	}
	return out, nil
}
