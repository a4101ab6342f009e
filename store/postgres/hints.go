package postgres

import (
	"context"
	"fmt"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

var _ store.Hints = (*Postgres)(nil)

// AddHint records a hint once.
func (s *Postgres) AddHint(ctx context.Context, gameID string, h store.Hint) error {
	tag, err := s.db.Exec(ctx, `INSERT INTO game_hints (game_id, ply, step)
		SELECT id, $2, $3 FROM games WHERE id = $1
		ON CONFLICT (game_id, ply, step) DO NOTHING`, gameID, h.Ply, h.Step)
	if err != nil {
		return fmt.Errorf("postgres: add hint %s: %w", gameID, translate(err))
	}
	if tag.RowsAffected() == 0 {
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM games WHERE id = $1`, gameID).Scan(&n); err != nil {
			return fmt.Errorf("postgres: add hint %s: %w", gameID, translate(err))
		}
		if n == 0 {
			return store.ErrNotFound
		}
	}
	return nil
}

// GameHints lists a game's hints, by ply, the piece before the move.
func (s *Postgres) GameHints(ctx context.Context, gameID string) ([]store.Hint, error) {
	rows, err := s.db.Query(ctx, `SELECT ply, step FROM game_hints WHERE game_id = $1
		ORDER BY ply, CASE step WHEN 'piece' THEN 0 ELSE 1 END`, gameID)
	if err != nil {
		return nil, fmt.Errorf("postgres: hints of %s: %w", gameID, translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Hint)
	if err != nil {
		return nil, fmt.Errorf("postgres: hints of %s: %w", gameID, translate(err))
	}
	return out, nil
}
