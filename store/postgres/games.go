package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

// CreateGame stores a new game.
func (s *Postgres) CreateGame(ctx context.Context, g *store.Game) error {
	snaps, err := json.Marshal(g.Snapshots)
	if err != nil {
		return fmt.Errorf("postgres: create game: %w", err)
	}
	if g.CreatedAt.IsZero() {
		g.CreatedAt = time.Now()
	}
	g.UpdatedAt = g.CreatedAt
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: create game: %w", translate(err))
	}
	defer tx.Rollback(ctx)
	_, err = tx.Exec(ctx, `INSERT INTO games (`+record.GameColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
		        $17, $18, $19, $20, $21, $22, $23, 1, $24, $25, $26, $27)`,
		g.ID, g.Visitor, storedMode(g), g.HumanColor, g.Level, g.ClockName, g.BaseMS,
		g.IncrementMS, g.Undo, g.PassScreen, g.TurnBoard, g.StartFEN,
		strings.Join(g.Moves, " "), len(g.Moves), g.Clocks.White, g.Clocks.Black,
		record.UnixMS(g.RunningSince), string(snaps), g.DrawOffer, g.Status, g.Result,
		g.Reason, g.EndColor, g.CreatedAt.UnixMilli(), g.UpdatedAt.UnixMilli(), g.WhiteName, g.BlackName)
	if err != nil {
		return fmt.Errorf("postgres: create game: %w", translate(err))
	}
	if err := createRemote(ctx, tx, g); err != nil {
		return fmt.Errorf("postgres: create game: %w", translate(err))
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: create game: %w", translate(err))
	}
	g.Version = 1
	return nil
}

// Game loads one game by id.
func (s *Postgres) Game(ctx context.Context, id string) (*store.Game, error) {
	row := s.db.QueryRow(ctx, `SELECT `+record.GameColumns+` FROM games WHERE id = $1`, id)
	g, err := record.Game(row)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: load game %s: %w", id, translate(err))
	}
	if err := s.loadRemote(ctx, g); err != nil {
		return nil, fmt.Errorf("postgres: load game %s: %w", id, translate(err))
	}
	return g, nil
}

// UpdateGame saves g when nobody else changed it since it was loaded.
//
// The comparison is the UPDATE's own WHERE clause, decided by PostgreSQL:
// of two processes updating the same version at once, the second waits for
// the first's row lock, re-reads the committed row (READ COMMITTED), finds
// the version moved on and updates nothing — so exactly one wins.
func (s *Postgres) UpdateGame(ctx context.Context, g *store.Game) error {
	snaps, err := json.Marshal(g.Snapshots)
	if err != nil {
		return fmt.Errorf("postgres: update game %s: %w", g.ID, err)
	}
	updated := time.Now()
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: update game %s: %w", g.ID, translate(err))
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `UPDATE games SET moves = $1, ply = $2, clock_white_ms = $3,
		clock_black_ms = $4, running_since_ms = $5, clock_snapshots = $6, draw_offer = $7,
		status = $8, result = $9, reason = $10, end_color = $11, version = version + 1,
		updated_at_ms = $12
		WHERE id = $13 AND version = $14`,
		strings.Join(g.Moves, " "), len(g.Moves), g.Clocks.White, g.Clocks.Black,
		record.UnixMS(g.RunningSince), string(snaps), g.DrawOffer, g.Status, g.Result,
		g.Reason, g.EndColor, updated.UnixMilli(), g.ID, g.Version)
	if err != nil {
		return fmt.Errorf("postgres: update game %s: %w", g.ID, translate(err))
	}
	if tag.RowsAffected() != 1 {
		return store.ErrConflict
	}
	if err := updateRemote(ctx, tx, g); err != nil {
		return fmt.Errorf("postgres: update game %s: %w", g.ID, translate(err))
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: update game %s: %w", g.ID, translate(err))
	}
	g.UpdatedAt = updated
	g.Version++
	return nil
}

// VisitorGames lists the visitor's games, most recently played first.
func (s *Postgres) VisitorGames(ctx context.Context, visitor string, limit int) ([]*store.Game, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.Query(ctx, `SELECT `+record.GameColumns+` FROM games
		WHERE visitor_id = $1 OR id IN (SELECT game_id FROM remote_games WHERE guest_id = $1)
		ORDER BY updated_at_ms DESC, id LIMIT $2`, visitor, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: list games: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Game)
	if err != nil {
		return nil, fmt.Errorf("postgres: list games: %w", translate(err))
	}
	return out, nil
}
