package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"chesstutor/store/internal/record"
)

// SaveTrainerScore records a finished trainer round and returns the best
// score for its view and mode.
func (s *SQLite) SaveTrainerScore(ctx context.Context, visitor, view, mode string, score int) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sqlite: save trainer score: %w", translate(err))
	}
	defer tx.Rollback()
	now := time.Now().UnixMilli()
	if _, err := tx.ExecContext(ctx, `INSERT INTO trainer_best (visitor_id, board_view, mode, best, rounds, best_at_ms)
		VALUES (?, ?, ?, ?, 1, ?)
		ON CONFLICT (visitor_id, board_view, mode) DO UPDATE SET
			rounds = rounds + 1,
			best_at_ms = CASE WHEN excluded.best > best THEN excluded.best_at_ms ELSE best_at_ms END,
			best = max(best, excluded.best)`,
		visitor, view, mode, score, now); err != nil {
		return 0, fmt.Errorf("sqlite: save trainer score: %w", translate(err))
	}
	var best int
	if err := tx.QueryRowContext(ctx, `SELECT best FROM trainer_best WHERE visitor_id = ? AND board_view = ? AND mode = ?`,
		visitor, view, mode).Scan(&best); err != nil {
		return 0, fmt.Errorf("sqlite: save trainer score: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("sqlite: save trainer score: %w", translate(err))
	}
	return best, nil
}

// TrainerBest returns the visitor's best trainer scores keyed "view/mode".
func (s *SQLite) TrainerBest(ctx context.Context, visitor string) (map[string]int, error) {
	out := map[string]int{}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: trainer best: %w", translate(err))
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT board_view, mode, best FROM trainer_best WHERE visitor_id = ?`, visitor)
	if err != nil {
		return nil, fmt.Errorf("sqlite: trainer best: %w", translate(err))
	}
	defer rows.Close()
	if err := record.TrainerBest(rows, out); err != nil {
		return nil, fmt.Errorf("sqlite: trainer best: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: trainer best: %w", translate(err))
	}
	return out, nil
}
