package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"chesstutor/store"
)

// PuzzlePlayer returns the visitor's puzzle record, Version 0 when none.
func (s *SQLite) PuzzlePlayer(ctx context.Context, visitor string) (store.PuzzlePlayer, error) {
	var p store.PuzzlePlayer
	err := s.db.QueryRowContext(ctx, `SELECT rating, rd, volatility, solved, failed, streak_current, streak_best, streak_seed, version
		FROM puzzle_players WHERE visitor_id = ?`, visitor).Scan(&p.Rating, &p.RD, &p.Volatility, &p.Solved, &p.Failed,
		&p.StreakCurrent, &p.StreakBest, &p.StreakSeed, &p.Version)
	if err == sql.ErrNoRows {
		return store.PuzzlePlayer{}, nil
	}
	if err != nil {
		return p, fmt.Errorf("sqlite: puzzle player: %w", translate(err))
	}
	return p, nil
}

// PuzzleRatings returns the rating of every puzzle tried.
func (s *SQLite) PuzzleRatings(ctx context.Context) (map[string]store.PuzzleRating, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT puzzle_id, rating, rd, volatility, attempts FROM puzzle_ratings`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: puzzle ratings: %w", translate(err))
	}
	defer rows.Close()
	out := map[string]store.PuzzleRating{}
	for rows.Next() {
		var id string
		var r store.PuzzleRating
		if err := rows.Scan(&id, &r.Rating, &r.RD, &r.Volatility, &r.Attempts); err != nil {
			return nil, fmt.Errorf("sqlite: puzzle ratings: %w", translate(err))
		}
		out[id] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: puzzle ratings: %w", translate(err))
	}
	return out, nil
}

// PuzzlesTried returns the ids of the puzzles the visitor has tried.
func (s *SQLite) PuzzlesTried(ctx context.Context, visitor string) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT puzzle_id FROM puzzle_attempts WHERE visitor_id = ?`, visitor)
	if err != nil {
		return nil, fmt.Errorf("sqlite: puzzles tried: %w", translate(err))
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlite: puzzles tried: %w", translate(err))
		}
		out[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: puzzles tried: %w", translate(err))
	}
	return out, nil
}

// PuzzleResults returns whether the visitor solved each puzzle tried at
// the first attempt, oldest attempt first.
func (s *SQLite) PuzzleResults(ctx context.Context, visitor string) ([]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT solved FROM puzzle_attempts WHERE visitor_id = ? ORDER BY at_ms, puzzle_id`, visitor)
	if err != nil {
		return nil, fmt.Errorf("sqlite: puzzle results: %w", translate(err))
	}
	defer rows.Close()
	var out []bool
	for rows.Next() {
		var solved int
		if err := rows.Scan(&solved); err != nil {
			return nil, fmt.Errorf("sqlite: puzzle results: %w", translate(err))
		}
		out = append(out, solved == 1)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: puzzle results: %w", translate(err))
	}
	return out, nil
}

// RecordPuzzleAttempt stores a first attempt and both new ratings in one
// transaction, or nothing (ErrConflict) when the visitor tried the puzzle
// before or a version moved on.
func (s *SQLite) RecordPuzzleAttempt(ctx context.Context, a store.PuzzleAttempt) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: record puzzle attempt: %w", translate(err))
	}
	defer tx.Rollback()
	now := time.Now().UnixMilli()
	res, err := tx.ExecContext(ctx, `INSERT INTO puzzle_attempts (visitor_id, puzzle_id, solved, rating_before, rating_after, at_ms)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (visitor_id, puzzle_id) DO NOTHING`,
		a.Visitor, a.PuzzleID, boolInt(a.Solved), a.RatingBefore, a.Player.Rating, now)
	if err := conflictUnless(res, err); err != nil {
		return fmt.Errorf("sqlite: record puzzle attempt: %w", err)
	}
	if err := savePuzzlePlayer(ctx, tx, a.Visitor, a.Player, now); err != nil {
		return fmt.Errorf("sqlite: record puzzle attempt: %w", err)
	}
	r := a.Puzzle
	if r.Attempts == 1 {
		res, err = tx.ExecContext(ctx, `INSERT INTO puzzle_ratings (puzzle_id, rating, rd, volatility, attempts)
			VALUES (?, ?, ?, ?, 1) ON CONFLICT (puzzle_id) DO NOTHING`, a.PuzzleID, r.Rating, r.RD, r.Volatility)
	} else {
		res, err = tx.ExecContext(ctx, `UPDATE puzzle_ratings SET rating = ?, rd = ?, volatility = ?, attempts = attempts + 1
			WHERE puzzle_id = ? AND attempts = ?`, r.Rating, r.RD, r.Volatility, a.PuzzleID, r.Attempts-1)
	}
	if err := conflictUnless(res, err); err != nil {
		return fmt.Errorf("sqlite: record puzzle attempt: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: record puzzle attempt: %w", translate(err))
	}
	return nil
}

// SavePuzzlePlayer writes the visitor's record if its version is still
// p.Version.
func (s *SQLite) SavePuzzlePlayer(ctx context.Context, visitor string, p store.PuzzlePlayer) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: save puzzle player: %w", translate(err))
	}
	defer tx.Rollback()
	if err := savePuzzlePlayer(ctx, tx, visitor, p, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("sqlite: save puzzle player: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: save puzzle player: %w", translate(err))
	}
	return nil
}

func savePuzzlePlayer(ctx context.Context, tx *sql.Tx, visitor string, p store.PuzzlePlayer, now int64) error {
	var res sql.Result
	var err error
	if p.Version == 0 {
		res, err = tx.ExecContext(ctx, `INSERT INTO puzzle_players (visitor_id, rating, rd, volatility, solved, failed,
			streak_current, streak_best, streak_seed, version, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
			ON CONFLICT (visitor_id) DO NOTHING`,
			visitor, p.Rating, p.RD, p.Volatility, p.Solved, p.Failed, p.StreakCurrent, p.StreakBest, p.StreakSeed, now)
	} else {
		res, err = tx.ExecContext(ctx, `UPDATE puzzle_players SET rating = ?, rd = ?, volatility = ?, solved = ?, failed = ?,
			streak_current = ?, streak_best = ?, streak_seed = ?, version = version + 1, updated_at_ms = ?
			WHERE visitor_id = ? AND version = ?`,
			p.Rating, p.RD, p.Volatility, p.Solved, p.Failed, p.StreakCurrent, p.StreakBest, p.StreakSeed, now, visitor, p.Version)
	}
	return conflictUnless(res, err)
}

// conflictUnless turns a statement that changed no row into ErrConflict.
func conflictUnless(res sql.Result, err error) error {
	if err != nil {
		return translate(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return translate(err)
	}
	if n == 0 {
		return store.ErrConflict
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
