// Package rounds is the quiz service (Q3, Q4): it draws a round from the
// question bank, keeps it in the store, grades each answer once and sums a
// finished round up. The handlers only turn its answers into pages and
// JSON; the questions themselves live in package quiz.
package rounds

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"

	"chesstutor/quiz"
	"chesstutor/store"
	"chesstutor/words"
)

// Kind classifies an Error so the handlers can pick the HTTP status.
type Kind int

// The kinds of Error.
const (
	NotFound Kind = iota + 1 // 404: no such round for this visitor, or no such question in it
	Gone                     // 410: the bank no longer has the question
	Invalid                  // 400: the answer cannot be graded
)

// Error is a refusal: its kind and the code of the words a person reads.
type Error struct {
	Kind Kind
	words.Message
}

// Error is the code and its arguments, for logs and tests.
func (e *Error) Error() string { return (&words.Error{Message: e.Message}).Error() }

func refusal(kind Kind, key string, args ...any) *Error {
	return &Error{Kind: kind, Message: words.M(key, args...)}
}

// maxParts bounds the options or squares one answer may name.
const maxParts = 64

// Service runs quiz rounds. It is safe for concurrent use.
type Service struct {
	bank  *quiz.Bank
	store store.Quizzes
}

// New returns the quiz service over bank and st.
func New(bank *quiz.Bank, st store.Quizzes) *Service {
	return &Service{bank: bank, store: st}
}

// Bank is the question bank the rounds are drawn from.
func (s *Service) Bank() *quiz.Bank { return s.bank }

// Score is one finished round with its share of right answers.
type Score struct {
	store.QuizScore
	Percent int
}

// Overview is what the quiz start page shows a visitor.
type Overview struct {
	Questions int              // in the bank
	Missed    int              // questions whose latest answer was wrong
	Current   *store.QuizRound // the newest unfinished round, or nil
	Scores    []Score          // the latest finished rounds, newest first
}

// Overview gathers the visitor's quiz history for the start page.
func (s *Service) Overview(ctx context.Context, visitor string) (*Overview, error) {
	o := &Overview{Questions: s.bank.Len()}
	missed, err := s.store.MissedQuizQuestions(ctx, visitor)
	if err != nil {
		return nil, err
	}
	for _, id := range missed {
		if _, ok := s.bank.Question(id); ok {
			o.Missed++
		}
	}
	cur, err := s.store.CurrentQuizRound(ctx, visitor)
	switch {
	case err == nil:
		o.Current = cur
	case !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	if o.Scores, err = s.Scores(ctx, visitor); err != nil {
		return nil, err
	}
	return o, nil
}

// Scores lists the visitor's latest finished rounds, newest first.
func (s *Service) Scores(ctx context.Context, visitor string) ([]Score, error) {
	raw, err := s.store.QuizScores(ctx, visitor, 12)
	if err != nil {
		return nil, err
	}
	scores := make([]Score, len(raw))
	for i, sc := range raw {
		scores[i] = Score{QuizScore: sc, Percent: Percent(sc.Score, sc.Total)}
	}
	return scores, nil
}

// Percent is part of whole in whole percent, 0 for an empty whole.
func Percent(part, whole int) int {
	if whole <= 0 {
		return 0
	}
	return part * 100 / whole
}

// Start draws and stores a new round: the questions the visitor missed
// first, then questions across topics, unseen ones first (Q4).
func (s *Service) Start(ctx context.Context, visitor string) (*store.QuizRound, error) {
	missed, err := s.store.MissedQuizQuestions(ctx, visitor)
	if err != nil {
		return nil, err
	}
	seen, err := s.store.SeenQuizQuestions(ctx, visitor)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	return s.store.StartQuizRound(ctx, visitor, s.bank.Pick(quiz.RoundSize, missed, seen, rng))
}

// Round loads the visitor's round id.
func (s *Service) Round(ctx context.Context, visitor, id string) (*store.QuizRound, error) {
	noRound := refusal(NotFound, "quiz.refuse_no_round")
	if !store.ValidID(id) {
		return nil, noRound
	}
	r, err := s.store.QuizRound(ctx, visitor, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, noRound
	}
	return r, err
}

// Index reads a 1-based question number of round r and returns it 0-based.
func Index(r *store.QuizRound, n int) (int, error) {
	if n < 1 || n > len(r.Questions) {
		return 0, refusal(NotFound, "quiz.refuse_question_range", "Last", len(r.Questions))
	}
	return n - 1, nil
}

// Question is the question at index (0-based, checked by Index) of round
// r; Gone when the bank no longer has it.
func (s *Service) Question(r *store.QuizRound, index int) (*quiz.Question, error) {
	q, ok := s.bank.Question(r.Questions[index])
	if !ok {
		return nil, refusal(Gone, "quiz.refuse_question_gone")
	}
	return q, nil
}

// Graded is one answer after grading: the round as it stands afterwards
// and whether the answer had been given before (then the first answer
// stands, reported again, and counts only once).
type Graded struct {
	Round   *store.QuizRound
	Q       *quiz.Question
	Result  quiz.Result
	Already bool
}

// Answer grades values as the answer to question index of round r and
// stores it, once: a question answered before reports the stored answer
// again, also when another request stores first.
func (s *Service) Answer(ctx context.Context, visitor string, r *store.QuizRound, index int, values []string) (*Graded, error) {
	q, err := s.Question(r, index)
	if err != nil {
		return nil, err
	}
	if stored, done := r.Answer(index); done {
		return s.stored(r, q, stored)
	}
	if len(values) > maxParts {
		return nil, refusal(Invalid, "quiz.refuse_too_many_parts")
	}
	result, err := q.Grade(values)
	if errors.Is(err, quiz.ErrBadAnswer) {
		var we *words.Error
		if errors.As(err, &we) {
			return nil, &Error{Kind: Invalid, Message: we.Message}
		}
		return nil, refusal(Invalid, "quiz.refuse_unreadable")
	}
	if err != nil {
		return nil, err
	}
	r, recorded, err := s.store.AnswerQuiz(ctx, visitor, r.ID, index, strings.Join(result.Answer, " "), result.Correct)
	if err != nil {
		return nil, err
	}
	if !recorded {
		// Another request answered first: report what it stored.
		stored, _ := r.Answer(index)
		return s.stored(r, q, stored)
	}
	return &Graded{Round: r, Q: q, Result: result}, nil
}

func (s *Service) stored(r *store.QuizRound, q *quiz.Question, a store.QuizAnswer) (*Graded, error) {
	result, err := q.Grade(strings.Fields(a.Answer))
	if err != nil {
		return nil, err
	}
	return &Graded{Round: r, Q: q, Result: result, Already: true}, nil
}

// Missed is one question of a finished round answered wrongly.
type Missed struct {
	Number int // 1-based
	Q      *quiz.Question
	Answer []string // what the visitor answered
}

// Summary is the end of a round: the score, the code of a word on it and
// the questions missed.
type Summary struct {
	Score, Total int
	Message      words.Message
	Missed       []Missed
}

// Summarise sums up round r (Q3).
func (s *Service) Summarise(r *store.QuizRound) *Summary {
	sum := &Summary{Score: r.Score(), Total: len(r.Questions)}
	for _, a := range r.Answers {
		if a.Correct {
			continue
		}
		q, ok := s.bank.Question(a.Question)
		if !ok {
			continue
		}
		sum.Missed = append(sum.Missed, Missed{Number: a.Index + 1, Q: q, Answer: strings.Fields(a.Answer)})
	}
	switch p := Percent(sum.Score, sum.Total); {
	case p == 100:
		sum.Message = words.M("quiz.summary_perfect")
	case p >= 80:
		sum.Message = words.M("quiz.summary_very_good")
	case p >= 50:
		sum.Message = words.M("quiz.summary_good_start")
	default:
		sum.Message = words.M("quiz.summary_keep_going")
	}
	return sum
}
