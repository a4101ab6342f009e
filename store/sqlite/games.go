package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

// CreateGame stores a new game.
func (s *SQLite) CreateGame(ctx context.Context, g *store.Game) error {
	snaps, err := json.Marshal(g.Snapshots)
	if err != nil {
		return fmt.Errorf("sqlite: create game: %w", translate(err))
	}
	now := time.Now()
	if g.CreatedAt.IsZero() {
		g.CreatedAt = now
	}
	g.UpdatedAt = g.CreatedAt
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: create game: %w", translate(err))
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO games (`+record.GameColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
		g.ID, g.Visitor, storedMode(g), g.HumanColor, g.Level, g.ClockName, g.BaseMS,
		g.IncrementMS, g.Undo, g.PassScreen, g.TurnBoard, g.StartFEN,
		strings.Join(g.Moves, " "), len(g.Moves), g.Clocks.White, g.Clocks.Black,
		record.UnixMS(g.RunningSince), string(snaps), g.DrawOffer, g.Status, g.Result,
		g.Reason, g.EndColor, g.CreatedAt.UnixMilli(), g.UpdatedAt.UnixMilli(), g.WhiteName, g.BlackName)
	if err != nil {
		return fmt.Errorf("sqlite: create game: %w", translate(err))
	}
	if err := createRemote(ctx, tx, g); err != nil {
		return fmt.Errorf("sqlite: create game: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: create game: %w", translate(err))
	}
	g.Version = 1
	return nil
}

// Game loads one game by id.
func (s *SQLite) Game(ctx context.Context, id string) (*store.Game, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+record.GameColumns+` FROM games WHERE id = ?`, id)
	g, err := record.Game(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: load game %s: %w", id, translate(err))
	}
	if err := s.loadRemote(ctx, g); err != nil {
		return nil, fmt.Errorf("sqlite: load game %s: %w", id, translate(err))
	}
	return g, nil
}

// UpdateGame saves g when nobody else changed it since it was loaded.
func (s *SQLite) UpdateGame(ctx context.Context, g *store.Game) error {
	snaps, err := json.Marshal(g.Snapshots)
	if err != nil {
		return fmt.Errorf("sqlite: update game %s: %w", g.ID, translate(err))
	}
	g.UpdatedAt = time.Now()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: update game %s: %w", g.ID, translate(err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE games SET moves = ?, ply = ?, clock_white_ms = ?,
		clock_black_ms = ?, running_since_ms = ?, clock_snapshots = ?, draw_offer = ?,
		status = ?, result = ?, reason = ?, end_color = ?, version = version + 1,
		updated_at_ms = ?
		WHERE id = ? AND version = ?`,
		strings.Join(g.Moves, " "), len(g.Moves), g.Clocks.White, g.Clocks.Black,
		record.UnixMS(g.RunningSince), string(snaps), g.DrawOffer, g.Status, g.Result,
		g.Reason, g.EndColor, g.UpdatedAt.UnixMilli(), g.ID, g.Version)
	if err != nil {
		return fmt.Errorf("sqlite: update game %s: %w", g.ID, translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: update game %s: %w", g.ID, translate(err))
	}
	if n != 1 {
		return store.ErrConflict
	}
	if err := updateRemote(ctx, tx, g); err != nil {
		return fmt.Errorf("sqlite: update game %s: %w", g.ID, translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: update game %s: %w", g.ID, translate(err))
	}
	g.Version++
	return nil
}

// VisitorGames lists the visitor's games, most recently played first.
func (s *SQLite) VisitorGames(ctx context.Context, visitor string, limit int) ([]*store.Game, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+record.GameColumns+` FROM games
		WHERE visitor_id = ? OR id IN (SELECT game_id FROM remote_games WHERE guest_id = ?)
		ORDER BY updated_at_ms DESC, id LIMIT ?`, visitor, visitor, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list games: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Game)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list games: %w", translate(err))
	}
	return out, nil
}

// CapActiveGames closes the visitor's least recently played active games
// beyond the newest keep, as abandoned, in one transaction.
func (s *SQLite) CapActiveGames(ctx context.Context, visitor string, keep int) (int, error) {
	return s.abandon(ctx, "cap active games", `id IN (
		SELECT id FROM games WHERE visitor_id = ? AND status = 'active'
		ORDER BY updated_at_ms DESC, id LIMIT -1 OFFSET ?)`, visitor, max(keep, 0))
}

// AbandonIdleGames closes at most limit active games last played before
// idleSince, as abandoned, in one transaction.
func (s *SQLite) AbandonIdleGames(ctx context.Context, idleSince time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	return s.abandon(ctx, "abandon idle games", `id IN (
		SELECT id FROM games WHERE status = 'active' AND updated_at_ms < ? LIMIT ?)`,
		idleSince.UnixMilli(), limit)
}

// abandon closes the active games that where selects. The last-played
// time stays as it was: closing is not playing.
func (s *SQLite) abandon(ctx context.Context, what, where string, args ...any) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE games SET status = 'abandoned', reason = 'abandoned',
		result = '*', running_since_ms = NULL, draw_offer = '', version = version + 1
		WHERE status = 'active' AND `+where, args...)
	if err != nil {
		return 0, fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	return int(n), nil
}
