package postgres

import (
	"context"
	"fmt"
	"time"

	"chesstutor/store/internal/record"
)

// SaveTrainerScore records a finished trainer round and returns the best
// score for its view and mode. One statement inserts or raises the row and
// returns it, so two rounds saved at once from two instances both count
// and the best is the larger.
func (s *Postgres) SaveTrainerScore(ctx context.Context, visitor, view, mode string, score int) (int, error) {
	var best int
	err := s.db.QueryRow(ctx, `INSERT INTO trainer_best AS t (visitor_id, board_view, mode, best, rounds, best_at_ms)
		VALUES ($1, $2, $3, $4, 1, $5)
		ON CONFLICT (visitor_id, board_view, mode) DO UPDATE SET
			rounds = t.rounds + 1,
			best_at_ms = CASE WHEN excluded.best > t.best THEN excluded.best_at_ms ELSE t.best_at_ms END,
			best = GREATEST(t.best, excluded.best)
		RETURNING best`,
		visitor, view, mode, score, time.Now().UnixMilli()).Scan(&best)
	if err != nil {
		return 0, fmt.Errorf("postgres: save trainer score: %w", translate(err))
	}
	return best, nil
}

// TrainerBest returns the visitor's best trainer scores keyed "view/mode".
func (s *Postgres) TrainerBest(ctx context.Context, visitor string) (map[string]int, error) {
	rows, err := s.db.Query(ctx, `SELECT board_view, mode, best FROM trainer_best WHERE visitor_id = $1`, visitor)
	if err != nil {
		return nil, fmt.Errorf("postgres: trainer best: %w", translate(err))
	}
	defer rows.Close()
	out := map[string]int{}
	if err := record.TrainerBest(rows, out); err != nil {
		return nil, fmt.Errorf("postgres: trainer best: %w", translate(err))
	}
	return out, nil
}
