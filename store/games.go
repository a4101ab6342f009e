package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Games keeps the games visitors play (G13). Writes are guarded by a version
// number so two requests racing on one game can never both win (N3).
type Games interface {
	// CreateGame stores a new game; g.Version becomes 1.
	CreateGame(ctx context.Context, g *Game) error
	// Game loads one game by id, or ErrNotFound.
	Game(ctx context.Context, id string) (*Game, error)
	// UpdateGame saves g if the stored version still equals g.Version and
	// then increments g.Version; otherwise it returns ErrConflict and changes
	// nothing.
	UpdateGame(ctx context.Context, g *Game) error
	// VisitorGames lists a visitor's games, most recently played first.
	VisitorGames(ctx context.Context, visitor string, limit int) ([]*Game, error)
}

var _ Games = (*SQLite)(nil)

// ClockPair is what the two clocks show, in milliseconds.
type ClockPair struct {
	White int64 `json:"w"`
	Black int64 `json:"b"`
}

// Game is one stored game: its settings, its moves and its clock and ending
// bookkeeping. The game service (package games) gives the fields meaning.
type Game struct {
	ID          string
	Visitor     string
	Mode        string // "friend" or "computer"
	HumanColor  string // "white" or "black"
	Level       int    // 1..8 against the computer, 0 otherwise
	ClockName   string // "none", "3+2", …
	BaseMS      int64  // 0 when untimed
	IncrementMS int64
	Undo        bool
	PassScreen  bool
	TurnBoard   bool
	StartFEN    string
	Moves       []string // UCI, one per ply
	Clocks      ClockPair
	// RunningSince is when the side to move's clock last started; zero
	// while the clocks are paused or the game is untimed or over.
	RunningSince time.Time
	Snapshots    []ClockPair // index = ply
	DrawOffer    string      // colour that offered a draw, or ""
	Status       string      // "active" or the ending method
	Result       string      // "1-0", "0-1", "1/2-1/2" or "*"
	Reason       string
	EndColor     string // who resigned or whose flag fell
	Version      int64
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

const gameColumns = `id, visitor_id, mode, human_color, level, clock_name, clock_base_ms,
	clock_inc_ms, undo_allowed, pass_screen, turn_board, start_fen, moves, ply,
	clock_white_ms, clock_black_ms, running_since_ms, clock_snapshots, draw_offer,
	status, result, reason, end_color, version, created_at_ms, updated_at_ms`

// CreateGame stores a new game.
func (s *SQLite) CreateGame(ctx context.Context, g *Game) error {
	snaps, err := json.Marshal(g.Snapshots)
	if err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	now := time.Now()
	if g.CreatedAt.IsZero() {
		g.CreatedAt = now
	}
	g.UpdatedAt = g.CreatedAt
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO games (`+gameColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
		g.ID, g.Visitor, g.Mode, g.HumanColor, g.Level, g.ClockName, g.BaseMS,
		g.IncrementMS, g.Undo, g.PassScreen, g.TurnBoard, g.StartFEN,
		strings.Join(g.Moves, " "), len(g.Moves), g.Clocks.White, g.Clocks.Black,
		unixMS(g.RunningSince), string(snaps), g.DrawOffer, g.Status, g.Result,
		g.Reason, g.EndColor, g.CreatedAt.UnixMilli(), g.UpdatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	g.Version = 1
	return nil
}

// Game loads one game by id.
func (s *SQLite) Game(ctx context.Context, id string) (*Game, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, id)
	g, err := scanGame(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: load game %s: %w", id, err)
	}
	return g, nil
}

// UpdateGame saves g when nobody else changed it since it was loaded.
func (s *SQLite) UpdateGame(ctx context.Context, g *Game) error {
	snaps, err := json.Marshal(g.Snapshots)
	if err != nil {
		return fmt.Errorf("store: update game %s: %w", g.ID, err)
	}
	g.UpdatedAt = time.Now()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: update game %s: %w", g.ID, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE games SET moves = ?, ply = ?, clock_white_ms = ?,
		clock_black_ms = ?, running_since_ms = ?, clock_snapshots = ?, draw_offer = ?,
		status = ?, result = ?, reason = ?, end_color = ?, version = version + 1,
		updated_at_ms = ?
		WHERE id = ? AND version = ?`,
		strings.Join(g.Moves, " "), len(g.Moves), g.Clocks.White, g.Clocks.Black,
		unixMS(g.RunningSince), string(snaps), g.DrawOffer, g.Status, g.Result,
		g.Reason, g.EndColor, g.UpdatedAt.UnixMilli(), g.ID, g.Version)
	if err != nil {
		return fmt.Errorf("store: update game %s: %w", g.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: update game %s: %w", g.ID, err)
	}
	if n != 1 {
		return ErrConflict
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: update game %s: %w", g.ID, err)
	}
	g.Version++
	return nil
}

// VisitorGames lists the visitor's games, most recently played first.
func (s *SQLite) VisitorGames(ctx context.Context, visitor string, limit int) ([]*Game, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+gameColumns+` FROM games
		WHERE visitor_id = ? ORDER BY updated_at_ms DESC, id LIMIT ?`, visitor, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list games: %w", err)
	}
	defer rows.Close()
	var out []*Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list games: %w", err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list games: %w", err)
	}
	return out, nil
}

type scanner interface {
	Scan(dest ...any) error
}

func scanGame(r scanner) (*Game, error) {
	var (
		g                  Game
		moves, snaps       string
		ply                int
		running            sql.NullInt64
		created, updated   int64
		undo, pass, turnBd bool
	)
	err := r.Scan(&g.ID, &g.Visitor, &g.Mode, &g.HumanColor, &g.Level, &g.ClockName,
		&g.BaseMS, &g.IncrementMS, &undo, &pass, &turnBd, &g.StartFEN, &moves, &ply,
		&g.Clocks.White, &g.Clocks.Black, &running, &snaps, &g.DrawOffer, &g.Status,
		&g.Result, &g.Reason, &g.EndColor, &g.Version, &created, &updated)
	if err != nil {
		return nil, err
	}
	g.Undo, g.PassScreen, g.TurnBoard = undo, pass, turnBd
	if moves != "" {
		g.Moves = strings.Fields(moves)
	}
	if len(g.Moves) != ply {
		return nil, fmt.Errorf("game %s: %d moves stored but ply %d", g.ID, len(g.Moves), ply)
	}
	if err := json.Unmarshal([]byte(snaps), &g.Snapshots); err != nil {
		return nil, fmt.Errorf("game %s: clock snapshots: %w", g.ID, err)
	}
	if running.Valid {
		g.RunningSince = time.UnixMilli(running.Int64)
	}
	g.CreatedAt = time.UnixMilli(created)
	g.UpdatedAt = time.UnixMilli(updated)
	return &g, nil
}

// unixMS turns a zero time into NULL.
func unixMS(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}
