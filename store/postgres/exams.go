package postgres

import (
	"context"
	"fmt"
	"time"

	"chesstutor/store"
)

// RecordExamPass records a passed step exam (see store.Exams).
func (s *Postgres) RecordExamPass(ctx context.Context, visitor string, step, score, total int) error {
	_, err := s.db.Exec(ctx, `
		INSERT INTO exam_passes (visitor_id, step, score, total, passed_at_ms) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (visitor_id, step) DO UPDATE SET
		  score = CASE WHEN excluded.score * exam_passes.total > exam_passes.score * excluded.total THEN excluded.score ELSE exam_passes.score END,
		  total = CASE WHEN excluded.score * exam_passes.total > exam_passes.score * excluded.total THEN excluded.total ELSE exam_passes.total END`,
		visitor, step, score, total, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("postgres: record exam pass: %w", translate(err))
	}
	return nil
}

// ExamPasses returns the visitor's passed step exams by step.
func (s *Postgres) ExamPasses(ctx context.Context, visitor string) (map[int]store.ExamPass, error) {
	out := map[int]store.ExamPass{}
	rows, err := s.db.Query(ctx, `SELECT step, score, total, passed_at_ms FROM exam_passes WHERE visitor_id = $1`, visitor)
	if err != nil {
		return out, fmt.Errorf("postgres: exam passes: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var p store.ExamPass
		var ms int64
		if err := rows.Scan(&p.Step, &p.Score, &p.Total, &ms); err != nil {
			return out, fmt.Errorf("postgres: exam passes: %w", translate(err))
		}
		p.PassedAt = time.UnixMilli(ms)
		out[p.Step] = p
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("postgres: exam passes: %w", translate(err))
	}
	return out, nil
}
