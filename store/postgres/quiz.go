package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

// StartQuizRound stores a new round.
func (s *Postgres) StartQuizRound(ctx context.Context, visitor string, questions []string) (*store.QuizRound, error) {
	if len(questions) == 0 {
		return nil, errors.New("postgres: start quiz round: no questions")
	}
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, fmt.Errorf("postgres: start quiz round: %w", err)
	}
	r := &store.QuizRound{
		ID:        hex.EncodeToString(raw[:]),
		Visitor:   visitor,
		Questions: append([]string(nil), questions...),
		CreatedAt: time.Now(),
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO quiz_rounds (id, visitor_id, questions, total, created_at_ms)
		VALUES ($1, $2, $3, $4, $5)`, r.ID, visitor, strings.Join(questions, " "), len(questions),
		r.CreatedAt.UnixMilli()); err != nil {
		return nil, fmt.Errorf("postgres: start quiz round: %w", translate(err))
	}
	return r, nil
}

// readSnapshot reads several statements as of one moment.
var readSnapshot = pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}

// QuizRound loads one of the visitor's rounds.
func (s *Postgres) QuizRound(ctx context.Context, visitor, id string) (*store.QuizRound, error) {
	var r *store.QuizRound
	err := s.inTx(ctx, readSnapshot, func(tx pgx.Tx) (err error) {
		r, err = loadQuizRound(ctx, tx, visitor, id, false)
		return err
	})
	if err != nil {
		return nil, quizErr("load quiz round "+id, err)
	}
	return r, nil
}

// CurrentQuizRound returns the newest unfinished round.
func (s *Postgres) CurrentQuizRound(ctx context.Context, visitor string) (*store.QuizRound, error) {
	var r *store.QuizRound
	err := s.inTx(ctx, readSnapshot, func(tx pgx.Tx) error {
		var id string
		err := tx.QueryRow(ctx, `SELECT id FROM quiz_rounds
			WHERE visitor_id = $1 AND finished_at_ms IS NULL
			ORDER BY created_at_ms DESC, id LIMIT 1`, visitor).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return translate(err)
		}
		r, err = loadQuizRound(ctx, tx, visitor, id, false)
		return err
	})
	if err != nil {
		return nil, quizErr("current quiz round", err)
	}
	return r, nil
}

// quizErr passes store.ErrNotFound through as it is and wraps the rest.
func quizErr(what string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return err
	}
	return fmt.Errorf("postgres: %s: %w", what, translate(err))
}

// loadQuizRound reads a round and its answers; forUpdate locks the round's
// row until the transaction ends, so answers to one round, even from
// several processes, are recorded one after another.
func loadQuizRound(ctx context.Context, tx pgx.Tx, visitor, id string, forUpdate bool) (*store.QuizRound, error) {
	var (
		questions string
		created   int64
		finished  *int64
	)
	q := `SELECT questions, created_at_ms, finished_at_ms FROM quiz_rounds WHERE id = $1 AND visitor_id = $2`
	if forUpdate {
		q += ` FOR UPDATE`
	}
	err := tx.QueryRow(ctx, q, id, visitor).Scan(&questions, &created, &finished)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, translate(err)
	}
	r := &store.QuizRound{
		ID:        id,
		Visitor:   visitor,
		Questions: strings.Fields(questions),
		CreatedAt: time.UnixMilli(created),
	}
	if finished != nil {
		r.FinishedAt = time.UnixMilli(*finished)
	}
	rows, err := tx.Query(ctx, `SELECT idx, question, answer, correct, answered_at_ms
		FROM quiz_answers WHERE round_id = $1 ORDER BY idx`, id)
	if err != nil {
		return nil, fmt.Errorf("answers: %w", translate(err))
	}
	defer rows.Close()
	r.Answers, err = record.Collect(rows, record.QuizAnswer)
	if err != nil {
		return nil, fmt.Errorf("answers: %w", translate(err))
	}
	return r, nil
}

// AnswerQuiz records one answer, once. The round's row is locked first, so
// of two requests answering the same question — in one process or two —
// the second sees the first's answer and records nothing, and the round is
// finished by whichever answer is the last.
func (s *Postgres) AnswerQuiz(ctx context.Context, visitor, roundID string, index int, answer string, correct bool) (*store.QuizRound, bool, error) {
	var (
		r        *store.QuizRound
		recorded bool
	)
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var err error
		r, err = loadQuizRound(ctx, tx, visitor, roundID, true)
		if err != nil {
			return err
		}
		if index < 0 || index >= len(r.Questions) {
			return fmt.Errorf("round %s has no question %d: %w", roundID, index, store.ErrNotFound)
		}
		if _, done := r.Answer(index); done {
			return nil
		}
		question := r.Questions[index]
		now := time.Now()
		if _, err := tx.Exec(ctx, `INSERT INTO quiz_answers (round_id, idx, question, answer, correct, answered_at_ms)
			VALUES ($1, $2, $3, $4, $5, $6)`, roundID, index, question, answer, correct, now.UnixMilli()); err != nil {
			return translate(err)
		}
		right, wrong := 0, 1
		if correct {
			right, wrong = 1, 0
		}
		if _, err := tx.Exec(ctx, `INSERT INTO quiz_history (visitor_id, question, last_correct, times_right, times_wrong, updated_at_ms)
			VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (visitor_id, question) DO UPDATE SET last_correct = excluded.last_correct,
				times_right = quiz_history.times_right + excluded.times_right,
				times_wrong = quiz_history.times_wrong + excluded.times_wrong,
				updated_at_ms = excluded.updated_at_ms`,
			visitor, question, correct, right, wrong, now.UnixMilli()); err != nil {
			return fmt.Errorf("history: %w", translate(err))
		}
		r.Answers = append(r.Answers, store.QuizAnswer{Index: index, Question: question, Answer: answer, Correct: correct, At: now})
		if r.Next() == -1 {
			r.FinishedAt = now
			if _, err := tx.Exec(ctx, `UPDATE quiz_rounds SET score = $1, finished_at_ms = $2 WHERE id = $3`,
				r.Score(), now.UnixMilli(), roundID); err != nil {
				return fmt.Errorf("finish round: %w", translate(err))
			}
		}
		recorded = true
		return nil
	})
	if err != nil {
		return nil, false, quizErr("answer quiz", err)
	}
	// Keep Answers in index order, as loadQuizRound returns them.
	for i := len(r.Answers) - 1; i > 0 && r.Answers[i].Index < r.Answers[i-1].Index; i-- {
		r.Answers[i], r.Answers[i-1] = r.Answers[i-1], r.Answers[i]
	}
	return r, recorded, nil
}

// MissedQuizQuestions lists the questions whose latest answer was wrong.
func (s *Postgres) MissedQuizQuestions(ctx context.Context, visitor string) ([]string, error) {
	return s.quizQuestionList(ctx, `SELECT question FROM quiz_history
		WHERE visitor_id = $1 AND NOT last_correct ORDER BY updated_at_ms, question`, visitor)
}

// SeenQuizQuestions returns every question the visitor has answered.
func (s *Postgres) SeenQuizQuestions(ctx context.Context, visitor string) (map[string]bool, error) {
	ids, err := s.quizQuestionList(ctx, `SELECT question FROM quiz_history WHERE visitor_id = $1`, visitor)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		seen[id] = true
	}
	return seen, nil
}

func (s *Postgres) quizQuestionList(ctx context.Context, query, visitor string) ([]string, error) {
	rows, err := s.db.Query(ctx, query, visitor)
	if err != nil {
		return nil, fmt.Errorf("postgres: quiz history: %w", translate(err))
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: quiz history: %w", translate(err))
	}
	return ids, nil
}

// QuizScores lists the visitor's finished rounds, newest first.
func (s *Postgres) QuizScores(ctx context.Context, visitor string, limit int) ([]store.QuizScore, error) {
	if limit <= 0 {
		limit = 20
	}
	rows, err := s.db.Query(ctx, `SELECT score, total, finished_at_ms FROM quiz_rounds
		WHERE visitor_id = $1 AND finished_at_ms IS NOT NULL
		ORDER BY finished_at_ms DESC, id LIMIT $2`, visitor, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: quiz scores: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.QuizScore)
	if err != nil {
		return nil, fmt.Errorf("postgres: quiz scores: %w", translate(err))
	}
	return out, nil
}
