package store

import (
	"context"
	"time"
)

// Exams keeps which step exams a visitor has passed (L9): a pass unlocks
// the step's certificate. Only passes are kept, with the first pass's
// time (the certificate's date) and the best score; a failed try stores
// nothing, so retakes are free.
type Exams interface {
	// RecordExamPass records a passed exam of step with score right out
	// of total. The first pass's time stays; the best score is kept.
	RecordExamPass(ctx context.Context, visitor string, step, score, total int) error
	// ExamPasses returns the visitor's passes by step (empty, not nil,
	// when there are none).
	ExamPasses(ctx context.Context, visitor string) (map[int]ExamPass, error)
}

// ExamPass is one passed step exam.
type ExamPass struct {
	Step         int
	Score, Total int       // the best pass so far
	PassedAt     time.Time // the first pass
}
