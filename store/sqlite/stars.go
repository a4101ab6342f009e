package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"chesstutor/store"
)

// RecordTry counts one graded try of an exercise (see store.Stars).
func (s *SQLite) RecordTry(ctx context.Context, visitor, exerciseID, lesson string, try store.Try) (store.TryRecord, error) {
	var rec store.TryRecord
	wrong, helped, solved := 0, 0, any(nil)
	switch try {
	case store.TryWrong:
		wrong = 1
	case store.TryHelped:
		helped = 1
	case store.TrySolved:
		solved = 0
	default:
		return rec, fmt.Errorf("sqlite: record try: unknown kind %d", try)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return rec, fmt.Errorf("sqlite: record try: %w", translate(err))
	}
	defer tx.Rollback()
	// The SET clause reads the row as it was: wrong tries and help add up
	// only while solved_wrong is NULL, and the first solve copies them.
	var sw, sh sql.NullInt64
	var h int
	err = tx.QueryRowContext(ctx, `
		INSERT INTO exercise_tries (visitor_id, exercise_id, lesson, wrong, helped, solved_wrong, solved_helped, updated_at_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (visitor_id, exercise_id) DO UPDATE SET
		  wrong = CASE WHEN exercise_tries.solved_wrong IS NULL THEN exercise_tries.wrong + excluded.wrong ELSE exercise_tries.wrong END,
		  helped = CASE WHEN exercise_tries.solved_wrong IS NULL THEN max(exercise_tries.helped, excluded.helped) ELSE exercise_tries.helped END,
		  solved_helped = COALESCE(exercise_tries.solved_helped, CASE WHEN excluded.solved_wrong IS NOT NULL THEN exercise_tries.helped END),
		  solved_wrong = COALESCE(exercise_tries.solved_wrong, CASE WHEN excluded.solved_wrong IS NOT NULL THEN exercise_tries.wrong END),
		  updated_at_ms = excluded.updated_at_ms
		RETURNING wrong, helped, solved_wrong, solved_helped`,
		visitor, exerciseID, lesson, wrong, helped, solved, solved, time.Now().UnixMilli()).Scan(&rec.Wrong, &h, &sw, &sh)
	if err != nil {
		return rec, fmt.Errorf("sqlite: record try: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return rec, fmt.Errorf("sqlite: record try: %w", translate(err))
	}
	rec.Helped = h == 1
	rec.Solved = sw.Valid
	rec.SolvedWrong, rec.SolvedHelped = int(sw.Int64), sh.Int64 == 1
	return rec, nil
}

// VisitorTries returns the try records of every exercise visitor tried.
func (s *SQLite) VisitorTries(ctx context.Context, visitor string) (map[string]store.TryRecord, error) {
	out := map[string]store.TryRecord{}
	rows, err := s.db.QueryContext(ctx, `SELECT exercise_id, wrong, helped, solved_wrong, solved_helped
		FROM exercise_tries WHERE visitor_id = ?`, visitor)
	if err != nil {
		return out, fmt.Errorf("sqlite: visitor tries: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var rec store.TryRecord
		var h int
		var sw, sh sql.NullInt64
		if err := rows.Scan(&id, &rec.Wrong, &h, &sw, &sh); err != nil {
			return out, fmt.Errorf("sqlite: visitor tries: %w", translate(err))
		}
		rec.Helped, rec.Solved = h == 1, sw.Valid
		rec.SolvedWrong, rec.SolvedHelped = int(sw.Int64), sh.Int64 == 1
		out[id] = rec
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("sqlite: visitor tries: %w", translate(err))
	}
	return out, nil
}
