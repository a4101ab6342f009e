package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

// MarkLessonRead records that visitor has read the lesson slug.
func (s *SQLite) MarkLessonRead(ctx context.Context, visitor, slug string) error {
	return s.markProgress(ctx, "mark lesson read",
		`INSERT INTO lessons_read (visitor_id, slug, read_at_ms) VALUES (?, ?, ?)
		 ON CONFLICT (visitor_id, slug) DO NOTHING`,
		visitor, slug, time.Now().UnixMilli())
}

// MarkExerciseSolved records that visitor has solved exerciseID of lesson.
func (s *SQLite) MarkExerciseSolved(ctx context.Context, visitor, exerciseID, lesson string) error {
	return s.markProgress(ctx, "mark exercise solved",
		`INSERT INTO exercises_solved (visitor_id, exercise_id, lesson, solved_at_ms) VALUES (?, ?, ?, ?)
		 ON CONFLICT (visitor_id, exercise_id) DO NOTHING`,
		visitor, exerciseID, lesson, time.Now().UnixMilli())
}

func (s *SQLite) markProgress(ctx context.Context, what, query string, args ...any) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	return nil
}

// VisitorProgress returns everything visitor has read and solved. A visitor
// with no progress gets empty (non-nil) maps.
func (s *SQLite) VisitorProgress(ctx context.Context, visitor string) (store.ProgressReport, error) {
	r := store.ProgressReport{LessonsRead: map[string]time.Time{}, Solved: map[string]time.Time{}}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return r, fmt.Errorf("sqlite: visitor progress: %w", translate(err))
	}
	defer tx.Rollback()
	load := func(query string, into map[string]time.Time) error {
		rows, err := tx.QueryContext(ctx, query, visitor)
		if err != nil {
			return err
		}
		defer rows.Close()
		return record.Times(rows, into)
	}
	if err := load(`SELECT slug, read_at_ms FROM lessons_read WHERE visitor_id = ?`, r.LessonsRead); err != nil {
		return r, fmt.Errorf("sqlite: visitor progress: lessons: %w", translate(err))
	}
	if err := load(`SELECT exercise_id, solved_at_ms FROM exercises_solved WHERE visitor_id = ?`, r.Solved); err != nil {
		return r, fmt.Errorf("sqlite: visitor progress: exercises: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return r, fmt.Errorf("sqlite: visitor progress: %w", translate(err))
	}
	return r, nil
}
