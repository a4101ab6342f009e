package store

import (
	"context"
	"time"
)

// Progress records what each visitor has learned (L5): lessons read and
// exercises solved. Both marks are idempotent and keep the first time.
type Progress interface {
	MarkLessonRead(ctx context.Context, visitor, slug string) error
	MarkExerciseSolved(ctx context.Context, visitor, exerciseID, lesson string) error
	VisitorProgress(ctx context.Context, visitor string) (ProgressReport, error)
}

// ProgressReport is everything one visitor has done in the course.
type ProgressReport struct {
	LessonsRead map[string]time.Time // slug -> when
	Solved      map[string]time.Time // exercise id -> when
}

// SolvedIn counts the solved exercises among ids.
func (r ProgressReport) SolvedIn(ids []string) int {
	n := 0
	for _, id := range ids {
		if _, ok := r.Solved[id]; ok {
			n++
		}
	}
	return n
}
