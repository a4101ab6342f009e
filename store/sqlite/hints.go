package sqlite

import (
	"context"
	"fmt"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

var _ store.Hints = (*SQLite)(nil)

// AddHint records a hint once.
func (s *SQLite) AddHint(ctx context.Context, gameID string, h store.Hint) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: add hint %s: %w", gameID, translate(err))
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE id = ?`, gameID).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: add hint %s: %w", gameID, translate(err))
	}
	if n == 0 {
		return store.ErrNotFound
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO game_hints (game_id, ply, step) VALUES (?, ?, ?)`,
		gameID, h.Ply, h.Step); err != nil {
		return fmt.Errorf("sqlite: add hint %s: %w", gameID, translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: add hint %s: %w", gameID, translate(err))
	}
	return nil
}

// GameHints lists a game's hints, by ply, the piece before the move.
func (s *SQLite) GameHints(ctx context.Context, gameID string) ([]store.Hint, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT ply, step FROM game_hints WHERE game_id = ?
		ORDER BY ply, CASE step WHEN 'piece' THEN 0 ELSE 1 END`, gameID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: hints of %s: %w", gameID, translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Hint)
	if err != nil {
		return nil, fmt.Errorf("sqlite: hints of %s: %w", gameID, translate(err))
	}
	return out, nil
}
