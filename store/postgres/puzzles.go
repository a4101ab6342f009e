package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"chesstutor/store"
)

// PuzzlePlayer returns the visitor's puzzle record, Version 0 when none.
func (s *Postgres) PuzzlePlayer(ctx context.Context, visitor string) (store.PuzzlePlayer, error) {
	var p store.PuzzlePlayer
	err := s.db.QueryRow(ctx, `SELECT rating, rd, volatility, solved, failed, streak_current, streak_best, streak_seed, version
		FROM puzzle_players WHERE visitor_id = $1`, visitor).Scan(&p.Rating, &p.RD, &p.Volatility, &p.Solved, &p.Failed,
		&p.StreakCurrent, &p.StreakBest, &p.StreakSeed, &p.Version)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.PuzzlePlayer{}, nil
	}
	if err != nil {
		return p, fmt.Errorf("postgres: puzzle player: %w", translate(err))
	}
	return p, nil
}

// PuzzleRatings returns the rating of every puzzle tried.
func (s *Postgres) PuzzleRatings(ctx context.Context) (map[string]store.PuzzleRating, error) {
	rows, err := s.db.Query(ctx, `SELECT puzzle_id, rating, rd, volatility, attempts FROM puzzle_ratings`)
	if err != nil {
		return nil, fmt.Errorf("postgres: puzzle ratings: %w", translate(err))
	}
	defer rows.Close()
	out := map[string]store.PuzzleRating{}
	for rows.Next() {
		var id string
		var r store.PuzzleRating
		if err := rows.Scan(&id, &r.Rating, &r.RD, &r.Volatility, &r.Attempts); err != nil {
			return nil, fmt.Errorf("postgres: puzzle ratings: %w", translate(err))
		}
		out[id] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: puzzle ratings: %w", translate(err))
	}
	return out, nil
}

// PuzzlesTried returns the ids of the puzzles the visitor has tried.
func (s *Postgres) PuzzlesTried(ctx context.Context, visitor string) (map[string]bool, error) {
	rows, err := s.db.Query(ctx, `SELECT puzzle_id FROM puzzle_attempts WHERE visitor_id = $1`, visitor)
	if err != nil {
		return nil, fmt.Errorf("postgres: puzzles tried: %w", translate(err))
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("postgres: puzzles tried: %w", translate(err))
		}
		out[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: puzzles tried: %w", translate(err))
	}
	return out, nil
}

// PuzzleResults returns whether the visitor solved each puzzle tried at
// the first attempt, oldest attempt first.
func (s *Postgres) PuzzleResults(ctx context.Context, visitor string) ([]bool, error) {
	rows, err := s.db.Query(ctx, `SELECT solved FROM puzzle_attempts WHERE visitor_id = $1 ORDER BY at_ms, puzzle_id`, visitor)
	if err != nil {
		return nil, fmt.Errorf("postgres: puzzle results: %w", translate(err))
	}
	defer rows.Close()
	var out []bool
	for rows.Next() {
		var solved int
		if err := rows.Scan(&solved); err != nil {
			return nil, fmt.Errorf("postgres: puzzle results: %w", translate(err))
		}
		out = append(out, solved == 1)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: puzzle results: %w", translate(err))
	}
	return out, nil
}

// RecordPuzzleAttempt stores a first attempt and both new ratings in one
// transaction, or nothing (ErrConflict) when the visitor tried the puzzle
// before or a version moved on. The versioned updates settle a race
// between two instances: the second writer changes no row and conflicts.
func (s *Postgres) RecordPuzzleAttempt(ctx context.Context, a store.PuzzleAttempt) error {
	now := time.Now().UnixMilli()
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		solved := 0
		if a.Solved {
			solved = 1
		}
		tag, err := tx.Exec(ctx, `INSERT INTO puzzle_attempts (visitor_id, puzzle_id, solved, rating_before, rating_after, at_ms)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (visitor_id, puzzle_id) DO NOTHING`,
			a.Visitor, a.PuzzleID, solved, a.RatingBefore, a.Player.Rating, now)
		if err := conflictUnless(tag, err); err != nil {
			return err
		}
		if err := savePuzzlePlayer(ctx, tx, a.Visitor, a.Player, now); err != nil {
			return err
		}
		r := a.Puzzle
		if r.Attempts == 1 {
			tag, err = tx.Exec(ctx, `INSERT INTO puzzle_ratings (puzzle_id, rating, rd, volatility, attempts)
				VALUES ($1, $2, $3, $4, 1) ON CONFLICT (puzzle_id) DO NOTHING`, a.PuzzleID, r.Rating, r.RD, r.Volatility)
		} else {
			tag, err = tx.Exec(ctx, `UPDATE puzzle_ratings SET rating = $1, rd = $2, volatility = $3, attempts = attempts + 1
				WHERE puzzle_id = $4 AND attempts = $5`, r.Rating, r.RD, r.Volatility, a.PuzzleID, r.Attempts-1)
		}
		return conflictUnless(tag, err)
	})
	if err != nil {
		return fmt.Errorf("postgres: record puzzle attempt: %w", err)
	}
	return nil
}

// SavePuzzlePlayer writes the visitor's record if its version is still
// p.Version.
func (s *Postgres) SavePuzzlePlayer(ctx context.Context, visitor string, p store.PuzzlePlayer) error {
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		return savePuzzlePlayer(ctx, tx, visitor, p, time.Now().UnixMilli())
	})
	if err != nil {
		return fmt.Errorf("postgres: save puzzle player: %w", err)
	}
	return nil
}

func savePuzzlePlayer(ctx context.Context, tx pgx.Tx, visitor string, p store.PuzzlePlayer, now int64) error {
	var tag pgconn.CommandTag
	var err error
	if p.Version == 0 {
		tag, err = tx.Exec(ctx, `INSERT INTO puzzle_players (visitor_id, rating, rd, volatility, solved, failed,
			streak_current, streak_best, streak_seed, version, updated_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10)
			ON CONFLICT (visitor_id) DO NOTHING`,
			visitor, p.Rating, p.RD, p.Volatility, p.Solved, p.Failed, p.StreakCurrent, p.StreakBest, p.StreakSeed, now)
	} else {
		tag, err = tx.Exec(ctx, `UPDATE puzzle_players SET rating = $1, rd = $2, volatility = $3, solved = $4, failed = $5,
			streak_current = $6, streak_best = $7, streak_seed = $8, version = version + 1, updated_at_ms = $9
			WHERE visitor_id = $10 AND version = $11`,
			p.Rating, p.RD, p.Volatility, p.Solved, p.Failed, p.StreakCurrent, p.StreakBest, p.StreakSeed, now, visitor, p.Version)
	}
	return conflictUnless(tag, err)
}

// conflictUnless turns a statement that changed no row into ErrConflict.
func conflictUnless(tag pgconn.CommandTag, err error) error {
	if err != nil {
		return translate(err)
	}
	if tag.RowsAffected() == 0 {
		return store.ErrConflict
	}
	return nil
}
