package sqlite

import (
	"context"
	"fmt"
	"time"

	"chesstutor/store"
)

// RecordExamPass records a passed step exam (see store.Exams).
func (s *SQLite) RecordExamPass(ctx context.Context, visitor string, step, score, total int) error {
	_, err := s.db.ExecContext(ctx, `
		INSERT INTO exam_passes (visitor_id, step, score, total, passed_at_ms) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (visitor_id, step) DO UPDATE SET
		  score = CASE WHEN excluded.score * exam_passes.total > exam_passes.score * excluded.total THEN excluded.score ELSE exam_passes.score END,
		  total = CASE WHEN excluded.score * exam_passes.total > exam_passes.score * excluded.total THEN excluded.total ELSE exam_passes.total END`,
		visitor, step, score, total, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("sqlite: record exam pass: %w", translate(err))
	}
	return nil
}

// ExamPasses returns the visitor's passed step exams by step.
func (s *SQLite) ExamPasses(ctx context.Context, visitor string) (map[int]store.ExamPass, error) {
	out := map[int]store.ExamPass{}
	rows, err := s.db.QueryContext(ctx, `SELECT step, score, total, passed_at_ms FROM exam_passes WHERE visitor_id = ?`, visitor)
	if err != nil {
		return out, fmt.Errorf("sqlite: exam passes: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var p store.ExamPass
		var ms int64
		if err := rows.Scan(&p.Step, &p.Score, &p.Total, &ms); err != nil {
			return out, fmt.Errorf("sqlite: exam passes: %w", translate(err))
		}
		p.PassedAt = time.UnixMilli(ms)
		out[p.Step] = p
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("sqlite: exam passes: %w", translate(err))
	}
	return out, nil
}
