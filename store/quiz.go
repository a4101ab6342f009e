package store

import (
	"context"
	"time"
)

// Quizzes keeps quiz rounds, their answers and each visitor's history per
// question (Q3, Q4).
type Quizzes interface {
	// StartQuizRound stores a new round with the given question ids.
	StartQuizRound(ctx context.Context, visitor string, questions []string) (*QuizRound, error)
	// QuizRound loads one of the visitor's rounds with its answers; a round
	// that does not exist or belongs to someone else is ErrNotFound.
	QuizRound(ctx context.Context, visitor, id string) (*QuizRound, error)
	// AnswerQuiz records the answer to question number index of the round
	// and returns the round afterwards. An answer is stored only once: if
	// that question was answered before, nothing changes and recorded is
	// false, so a repeated post never counts twice. The round is finished
	// and scored when its last question is answered.
	AnswerQuiz(ctx context.Context, visitor, roundID string, index int, answer string, correct bool) (r *QuizRound, recorded bool, err error)
	// CurrentQuizRound returns the visitor's newest unfinished round, or
	// ErrNotFound when there is none.
	CurrentQuizRound(ctx context.Context, visitor string) (*QuizRound, error)
	// MissedQuizQuestions lists the question ids whose latest answer by the
	// visitor was wrong, the longest-missed first.
	MissedQuizQuestions(ctx context.Context, visitor string) ([]string, error)
	// SeenQuizQuestions returns the ids of every question the visitor has answered.
	SeenQuizQuestions(ctx context.Context, visitor string) (map[string]bool, error)
	// QuizScores lists the visitor's finished rounds, newest first.
	QuizScores(ctx context.Context, visitor string, limit int) ([]QuizScore, error)
}

// QuizScore is the result of one finished round.
type QuizScore struct {
	Score, Total int
	At           time.Time
}

// QuizAnswer is one stored answer.
type QuizAnswer struct {
	Index    int
	Question string
	Answer   string // option ids or squares, space-separated
	Correct  bool
	At       time.Time
}

// QuizRound is a round of questions and the answers given so far.
type QuizRound struct {
	ID         string
	Visitor    string
	Questions  []string
	Answers    []QuizAnswer // by index order; only the answered ones
	CreatedAt  time.Time
	FinishedAt time.Time // zero while questions remain
}

// Answer returns the answer to question number i, if given.
func (r *QuizRound) Answer(i int) (QuizAnswer, bool) {
	for _, a := range r.Answers {
		if a.Index == i {
			return a, true
		}
	}
	return QuizAnswer{}, false
}

// Next returns the index of the first unanswered question, or -1 when the
// round is complete.
func (r *QuizRound) Next() int {
	for i := range r.Questions {
		if _, ok := r.Answer(i); !ok {
			return i
		}
	}
	return -1
}

// Finished reports whether every question has been answered.
func (r *QuizRound) Finished() bool { return !r.FinishedAt.IsZero() }

// Score counts the right answers so far.
func (r *QuizRound) Score() int {
	n := 0
	for _, a := range r.Answers {
		if a.Correct {
			n++
		}
	}
	return n
}
