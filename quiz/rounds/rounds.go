// Package rounds is the quiz service (Q3, Q4): it draws a round from the
// question bank, keeps it in the store, grades each answer once and sums a
// finished round up. The handlers only turn its answers into pages and
// JSON; the questions themselves live in package quiz.
package rounds

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"chesstutor/quiz"
	"chesstutor/store"
)

// Kind classifies an Error so the handlers can pick the HTTP status.
type Kind int

// The kinds of Error.
const (
	NotFound Kind = iota + 1 // 404: no such round for this visitor, or no such question in it
	Gone                     // 410: the bank no longer has the question
	Invalid                  // 400: the answer cannot be graded
)

// Error is a refusal with a message a person reads.
type Error struct {
	Kind    Kind
	Message string
}

func (e *Error) Error() string { return e.Message }

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
	noRound := &Error{NotFound, "There is no quiz round at this address. Start a new round from the quiz page."}
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
		return 0, &Error{NotFound, fmt.Sprintf("This round has questions 1 to %d only.", len(r.Questions))}
	}
	return n - 1, nil
}

// Question is the question at index (0-based, checked by Index) of round
// r; Gone when the bank no longer has it.
func (s *Service) Question(r *store.QuizRound, index int) (*quiz.Question, error) {
	q, ok := s.bank.Question(r.Questions[index])
	if !ok {
		return nil, &Error{Gone, "This question has been removed from the quiz. Start a new round from the quiz page."}
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
		return nil, &Error{Invalid, "That answer has far too many parts."}
	}
	result, err := q.Grade(values)
	if errors.Is(err, quiz.ErrBadAnswer) {
		return nil, &Error{Invalid, BadAnswer(err)}
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

// BadAnswer turns a grading error into a sentence for the page.
func BadAnswer(err error) string {
	msg := strings.TrimPrefix(err.Error(), quiz.ErrBadAnswer.Error()+": ")
	if msg == "" {
		return "That answer could not be read."
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + "."
}

// AnswerText puts a stored answer into words: the squares, or the chosen
// options' texts.
func AnswerText(q *quiz.Question, answer []string) string {
	if q.Board() {
		return strings.Join(answer, ", ")
	}
	var parts []string
	for _, id := range answer {
		if t := q.OptionText(id); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "; ")
}

// Missed is one question of a finished round answered wrongly.
type Missed struct {
	Number int // 1-based
	Q      *quiz.Question
	Answer []string // what the visitor answered
}

// Summary is the end of a round: the score, a word on it and the
// questions missed.
type Summary struct {
	Score, Total int
	Message      string
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
		sum.Message = "Every answer right. You know the rules!"
	case p >= 80:
		sum.Message = "Very good. Look over the questions you missed below; they come back in your next round."
	case p >= 50:
		sum.Message = "A good start. Read the explanations below, then try another round: the questions you missed come first."
	default:
		sum.Message = "The rules take a little time. Read the explanations and the lessons they link to, then try again: the questions you missed come back first."
	}
	return sum
}
