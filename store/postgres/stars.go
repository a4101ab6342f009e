package postgres

import (
	"context"
	"fmt"
	"time"

	"chesstutor/store"
)

// RecordTry counts one graded try of an exercise (see store.Stars).
func (s *Postgres) RecordTry(ctx context.Context, visitor, exerciseID, lesson string, try store.Try) (store.TryRecord, error) {
	var rec store.TryRecord
	wrong, helped := 0, false
	var solved *int
	switch try {
	case store.TryWrong:
		wrong = 1
	case store.TryHelped:
		helped = true
	case store.TrySolved:
		zero := 0
		solved = &zero
	default:
		return rec, fmt.Errorf("postgres: record try: unknown kind %d", try)
	}
	// The SET clause reads the row as it was: wrong tries and help add up
	// only while solved_wrong is NULL, and the first solve copies them.
	var sw *int
	var sh *bool
	err := s.db.QueryRow(ctx, `
		INSERT INTO exercise_tries (visitor_id, exercise_id, lesson, wrong, helped, solved_wrong, solved_helped, updated_at_ms)
		VALUES ($1, $2, $3, $4, $5::boolean, $6::integer, CASE WHEN $6::integer IS NULL THEN NULL ELSE $5::boolean END, $7)
		ON CONFLICT (visitor_id, exercise_id) DO UPDATE SET
		  wrong = CASE WHEN exercise_tries.solved_wrong IS NULL THEN exercise_tries.wrong + excluded.wrong ELSE exercise_tries.wrong END,
		  helped = CASE WHEN exercise_tries.solved_wrong IS NULL THEN exercise_tries.helped OR excluded.helped ELSE exercise_tries.helped END,
		  solved_helped = COALESCE(exercise_tries.solved_helped, CASE WHEN excluded.solved_wrong IS NOT NULL THEN exercise_tries.helped END),
		  solved_wrong = COALESCE(exercise_tries.solved_wrong, CASE WHEN excluded.solved_wrong IS NOT NULL THEN exercise_tries.wrong END),
		  updated_at_ms = excluded.updated_at_ms
		RETURNING wrong, helped, solved_wrong, solved_helped`,
		visitor, exerciseID, lesson, wrong, helped, solved, time.Now().UnixMilli()).Scan(&rec.Wrong, &rec.Helped, &sw, &sh)
	if err != nil {
		return rec, fmt.Errorf("postgres: record try: %w", translate(err))
	}
	if sw != nil {
		rec.Solved, rec.SolvedWrong = true, *sw
	}
	if sh != nil {
		rec.SolvedHelped = *sh
	}
	return rec, nil
}

// VisitorTries returns the try records of every exercise visitor tried.
func (s *Postgres) VisitorTries(ctx context.Context, visitor string) (map[string]store.TryRecord, error) {
	out := map[string]store.TryRecord{}
	rows, err := s.db.Query(ctx, `SELECT exercise_id, wrong, helped, solved_wrong, solved_helped
		FROM exercise_tries WHERE visitor_id = $1`, visitor)
	if err != nil {
		return out, fmt.Errorf("postgres: visitor tries: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var rec store.TryRecord
		var sw *int
		var sh *bool
		if err := rows.Scan(&id, &rec.Wrong, &rec.Helped, &sw, &sh); err != nil {
			return out, fmt.Errorf("postgres: visitor tries: %w", translate(err))
		}
		if sw != nil {
			rec.Solved, rec.SolvedWrong = true, *sw
		}
		if sh != nil {
			rec.SolvedHelped = *sh
		}
		out[id] = rec
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("postgres: visitor tries: %w", translate(err))
	}
	return out, nil
}
