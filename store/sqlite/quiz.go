package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

// StartQuizRound stores a new round.
func (s *SQLite) StartQuizRound(ctx context.Context, visitor string, questions []string) (*store.QuizRound, error) {
	if len(questions) == 0 {
		return nil, errors.New("sqlite: start quiz round: no questions")
	}
	r := &store.QuizRound{
		ID:        store.NewID(),
		Visitor:   visitor,
		Questions: append([]string(nil), questions...),
		CreatedAt: time.Now(),
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: start quiz round: %w", translate(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO quiz_rounds (id, visitor_id, questions, total, created_at_ms)
		VALUES (?, ?, ?, ?, ?)`, r.ID, visitor, strings.Join(questions, " "), len(questions),
		r.CreatedAt.UnixMilli()); err != nil {
		return nil, fmt.Errorf("sqlite: start quiz round: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: start quiz round: %w", translate(err))
	}
	return r, nil
}

// QuizRound loads one of the visitor's rounds.
func (s *SQLite) QuizRound(ctx context.Context, visitor, id string) (*store.QuizRound, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: load quiz round %s: %w", id, translate(err))
	}
	defer tx.Rollback()
	r, err := loadQuizRound(ctx, tx, visitor, id)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: load quiz round %s: %w", id, translate(err))
	}
	return r, nil
}

// CurrentQuizRound returns the newest unfinished round.
func (s *SQLite) CurrentQuizRound(ctx context.Context, visitor string) (*store.QuizRound, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: current quiz round: %w", translate(err))
	}
	defer tx.Rollback()
	var id string
	err = tx.QueryRowContext(ctx, `SELECT id FROM quiz_rounds
		WHERE visitor_id = ? AND finished_at_ms IS NULL
		ORDER BY created_at_ms DESC, id LIMIT 1`, visitor).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: current quiz round: %w", translate(err))
	}
	r, err := loadQuizRound(ctx, tx, visitor, id)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: current quiz round: %w", translate(err))
	}
	return r, nil
}

func loadQuizRound(ctx context.Context, tx *sql.Tx, visitor, id string) (*store.QuizRound, error) {
	var (
		questions string
		created   int64
		finished  sql.NullInt64
	)
	err := tx.QueryRowContext(ctx, `SELECT questions, created_at_ms, finished_at_ms
		FROM quiz_rounds WHERE id = ? AND visitor_id = ?`, id, visitor).Scan(&questions, &created, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: load quiz round %s: %w", id, translate(err))
	}
	r := &store.QuizRound{
		ID:        id,
		Visitor:   visitor,
		Questions: strings.Fields(questions),
		CreatedAt: time.UnixMilli(created),
	}
	if finished.Valid {
		r.FinishedAt = time.UnixMilli(finished.Int64)
	}
	rows, err := tx.QueryContext(ctx, `SELECT idx, question, answer, correct, answered_at_ms
		FROM quiz_answers WHERE round_id = ? ORDER BY idx`, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: load quiz answers %s: %w", id, translate(err))
	}
	defer rows.Close()
	r.Answers, err = record.Collect(rows, record.QuizAnswer)
	if err != nil {
		return nil, fmt.Errorf("sqlite: load quiz answers %s: %w", id, translate(err))
	}
	return r, nil
}

// AnswerQuiz records one answer, once.
func (s *SQLite) AnswerQuiz(ctx context.Context, visitor, roundID string, index int, answer string, correct bool) (*store.QuizRound, bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, false, fmt.Errorf("sqlite: answer quiz: %w", translate(err))
	}
	defer tx.Rollback()
	r, err := loadQuizRound(ctx, tx, visitor, roundID)
	if err != nil {
		return nil, false, err
	}
	if index < 0 || index >= len(r.Questions) {
		return nil, false, fmt.Errorf("sqlite: answer quiz: round %s has no question %d: %w", roundID, index, store.ErrNotFound)
	}
	if _, done := r.Answer(index); done {
		return r, false, nil
	}
	question := r.Questions[index]
	now := time.Now()
	if _, err := tx.ExecContext(ctx, `INSERT INTO quiz_answers (round_id, idx, question, answer, correct, answered_at_ms)
		VALUES (?, ?, ?, ?, ?, ?)`, roundID, index, question, answer, correct, now.UnixMilli()); err != nil {
		return nil, false, fmt.Errorf("sqlite: answer quiz: %w", translate(err))
	}
	right, wrong := 0, 1
	if correct {
		right, wrong = 1, 0
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO quiz_history (visitor_id, question, last_correct, times_right, times_wrong, updated_at_ms)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (visitor_id, question) DO UPDATE SET last_correct = excluded.last_correct,
			times_right = times_right + excluded.times_right, times_wrong = times_wrong + excluded.times_wrong,
			updated_at_ms = excluded.updated_at_ms`,
		visitor, question, correct, right, wrong, now.UnixMilli()); err != nil {
		return nil, false, fmt.Errorf("sqlite: answer quiz: history: %w", translate(err))
	}
	r.Answers = append(r.Answers, store.QuizAnswer{Index: index, Question: question, Answer: answer, Correct: correct, At: now})
	if r.Next() == -1 {
		r.FinishedAt = now
		if _, err := tx.ExecContext(ctx, `UPDATE quiz_rounds SET score = ?, finished_at_ms = ? WHERE id = ?`,
			r.Score(), now.UnixMilli(), roundID); err != nil {
			return nil, false, fmt.Errorf("sqlite: answer quiz: finish round: %w", translate(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, false, fmt.Errorf("sqlite: answer quiz: %w", translate(err))
	}
	// Keep Answers in index order, as loadQuizRound returns them.
	for i := len(r.Answers) - 1; i > 0 && r.Answers[i].Index < r.Answers[i-1].Index; i-- {
		r.Answers[i], r.Answers[i-1] = r.Answers[i-1], r.Answers[i]
	}
	return r, true, nil
}

// MissedQuizQuestions lists the questions whose latest answer was wrong.
func (s *SQLite) MissedQuizQuestions(ctx context.Context, visitor string) ([]string, error) {
	return s.quizQuestionList(ctx, `SELECT question FROM quiz_history
		WHERE visitor_id = ? AND last_correct = 0 ORDER BY updated_at_ms, question`, visitor)
}

// SeenQuizQuestions returns every question the visitor has answered.
func (s *SQLite) SeenQuizQuestions(ctx context.Context, visitor string) (map[string]bool, error) {
	ids, err := s.quizQuestionList(ctx, `SELECT question FROM quiz_history WHERE visitor_id = ?`, visitor)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		seen[id] = true
	}
	return seen, nil
}

func (s *SQLite) quizQuestionList(ctx context.Context, query, visitor string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, query, visitor)
	if err != nil {
		return nil, fmt.Errorf("sqlite: quiz history: %w", translate(err))
	}
	defer rows.Close()
	ids, err := record.Collect(rows, record.String)
	if err != nil {
		return nil, fmt.Errorf("sqlite: quiz history: %w", translate(err))
	}
	return ids, nil
}

// QuizScores lists the visitor's finished rounds, newest first.
func (s *SQLite) QuizScores(ctx context.Context, visitor string, limit int) ([]store.QuizScore, error) {
	if limit <= 0 {
		limit = 20
	}
	rows, err := s.db.QueryContext(ctx, `SELECT score, total, finished_at_ms FROM quiz_rounds
		WHERE visitor_id = ? AND finished_at_ms IS NOT NULL
		ORDER BY finished_at_ms DESC, id LIMIT ?`, visitor, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: quiz scores: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.QuizScore)
	if err != nil {
		return nil, fmt.Errorf("sqlite: quiz scores: %w", translate(err))
	}
	return out, nil
}
