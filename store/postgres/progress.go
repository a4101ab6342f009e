package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

// MarkLessonRead records that visitor has read the lesson slug.
func (s *Postgres) MarkLessonRead(ctx context.Context, visitor, slug string) error {
	if _, err := s.db.Exec(ctx, `INSERT INTO lessons_read (visitor_id, slug, read_at_ms)
		VALUES ($1, $2, $3) ON CONFLICT (visitor_id, slug) DO NOTHING`,
		visitor, slug, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("postgres: mark lesson read: %w", translate(err))
	}
	return nil
}

// MarkExerciseSolved records that visitor has solved exerciseID of lesson.
func (s *Postgres) MarkExerciseSolved(ctx context.Context, visitor, exerciseID, lesson string) error {
	if _, err := s.db.Exec(ctx, `INSERT INTO exercises_solved (visitor_id, exercise_id, lesson, solved_at_ms)
		VALUES ($1, $2, $3, $4) ON CONFLICT (visitor_id, exercise_id) DO NOTHING`,
		visitor, exerciseID, lesson, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("postgres: mark exercise solved: %w", translate(err))
	}
	return nil
}

// VisitorProgress returns everything visitor has read and solved, read in
// one snapshot. A visitor with no progress gets empty (non-nil) maps.
func (s *Postgres) VisitorProgress(ctx context.Context, visitor string) (store.ProgressReport, error) {
	r := store.ProgressReport{LessonsRead: map[string]time.Time{}, Solved: map[string]time.Time{}}
	load := func(tx pgx.Tx, query string, into map[string]time.Time) error {
		rows, err := tx.Query(ctx, query, visitor)
		if err != nil {
			return err
		}
		defer rows.Close()
		return record.Times(rows, into)
	}
	err := s.inTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		if err := load(tx, `SELECT slug, read_at_ms FROM lessons_read WHERE visitor_id = $1`, r.LessonsRead); err != nil {
			return fmt.Errorf("lessons: %w", translate(err))
		}
		if err := load(tx, `SELECT exercise_id, solved_at_ms FROM exercises_solved WHERE visitor_id = $1`, r.Solved); err != nil {
			return fmt.Errorf("exercises: %w", translate(err))
		}
		return nil
	})
	if err != nil {
		return r, fmt.Errorf("postgres: visitor progress: %w", err)
	}
	return r, nil
}
