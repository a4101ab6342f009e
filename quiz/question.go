// Package quiz holds the rules quiz (Q1–Q4): questions stored as embedded
// JSON files, answer keys for board questions computed by package chess,
// grading, and the drawing of rounds.
package quiz

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"chesstutor/chess"
)

// Kind says how a question is asked and answered.
type Kind string

// The question kinds of Q2.
const (
	// Choice is multiple choice with one or several right options.
	Choice Kind = "choice"
	// Status asks whether a position is check, checkmate, stalemate or none.
	Status Kind = "status"
	// Squares is answered by clicking one or more squares on the board.
	Squares Kind = "squares"
	// Castle asks whether the side to move may castle on one side.
	Castle Kind = "castle"
	// Draw asks whether a game is drawn, and why.
	Draw Kind = "draw"
	// Name asks for one square by its name ("click e4"), answered on the
	// board like Squares (X7, Q5).
	Name Kind = "name"
)

// Kinds lists every kind, in the order reports show them.
var Kinds = []Kind{Choice, Status, Squares, Castle, Draw, Name}

// ErrBadAnswer marks an answer that cannot be graded: empty, or naming an
// option or square the question does not have. Its message is for people.
var ErrBadAnswer = errors.New("quiz: bad answer")

// Option is one answer a visitor may choose.
type Option struct {
	ID   string // stable: "a", "b", … in the order written, or a fixed word
	Text string
}

// Question is one quiz question, ready to ask and grade.
type Question struct {
	ID          string
	Topic       string
	Kind        Kind
	Prompt      string
	Explanation string
	Lesson      string // "/learn/<slug>#<anchor>", or the lesson alone

	// Pos is the diagram (nil for plain multiple choice). For draw
	// questions it is the position after the moves were played.
	Pos *chess.Position
	// From is the square the question is about (highlighted), or NoSquare.
	From chess.Square
	// LastMove is the move that led to Pos in draw questions, or NoMove.
	LastMove chess.Move
	// Moves lists the moves played in draw questions ("1. Nf3 Nf6 …").
	Moves string

	// Options, in display order, for every kind but Squares.
	Options []Option
	// Multiple is true when several options are right (checkboxes).
	Multiple bool

	key []string // sorted option ids or square names
}

// Board reports whether the question is answered by clicking squares.
func (q *Question) Board() bool { return q.Kind == Squares || q.Kind == Name }

// TopicTitle is the topic's name for people.
func (q *Question) TopicTitle() string { return topicTitles[q.Topic] }

// Key returns the right answer: option ids or square names, sorted.
func (q *Question) Key() []string { return slices.Clone(q.key) }

// KeyText is the right answer in words, for the feedback after a wrong answer.
func (q *Question) KeyText() string {
	if q.Board() {
		return strings.Join(q.key, ", ")
	}
	var parts []string
	for _, o := range q.Options {
		if slices.Contains(q.key, o.ID) {
			parts = append(parts, o.Text)
		}
	}
	return strings.Join(parts, "; ")
}

// OptionText returns the text of an option id, or "" if there is none.
func (q *Question) OptionText(id string) string {
	for _, o := range q.Options {
		if o.ID == id {
			return o.Text
		}
	}
	return ""
}

// Result is a graded answer.
type Result struct {
	Correct bool
	Answer  []string // the normalised answer, sorted
	Key     []string // the right answer, sorted
	Missed  []string // right options or squares the visitor left out
	Wrong   []string // options or squares chosen that are not right
}

// Normalize checks an answer (option ids or square names as posted) and
// returns it trimmed, lower-cased, without duplicates and sorted. Errors wrap
// ErrBadAnswer and say what is wrong in words a visitor understands.
func (q *Question) Normalize(values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		v = strings.ToLower(strings.TrimSpace(v))
		if v == "" || slices.Contains(out, v) {
			continue
		}
		if q.Board() {
			if _, err := chess.ParseSquare(v); err != nil {
				return nil, fmt.Errorf("%w: %q is not a square on the board", ErrBadAnswer, v)
			}
		} else if q.OptionText(v) == "" {
			return nil, fmt.Errorf("%w: %q is not one of the answers to this question", ErrBadAnswer, v)
		}
		out = append(out, v)
	}
	switch {
	case len(out) == 0 && q.Board():
		return nil, fmt.Errorf("%w: mark at least one square, then send your answer", ErrBadAnswer)
	case len(out) == 0:
		return nil, fmt.Errorf("%w: choose an answer first", ErrBadAnswer)
	case len(out) > 1 && !q.Board() && !q.Multiple:
		return nil, fmt.Errorf("%w: choose just one answer", ErrBadAnswer)
	case len(out) > 64:
		return nil, fmt.Errorf("%w: too many squares", ErrBadAnswer)
	}
	slices.Sort(out)
	return out, nil
}

// Grade normalises an answer and compares it with the key: right means
// exactly the right set, nothing missing and nothing extra.
func (q *Question) Grade(values []string) (Result, error) {
	answer, err := q.Normalize(values)
	if err != nil {
		return Result{}, err
	}
	r := Result{Answer: answer, Key: q.Key()}
	for _, k := range q.key {
		if !slices.Contains(answer, k) {
			r.Missed = append(r.Missed, k)
		}
	}
	for _, a := range answer {
		if !slices.Contains(q.key, a) {
			r.Wrong = append(r.Wrong, a)
		}
	}
	r.Correct = len(r.Missed) == 0 && len(r.Wrong) == 0
	return r, nil
}

// shuffleOptions puts the options in an order that depends only on the
// question id, so the right answer is not always first yet a page shows the
// same order every time.
func shuffleOptions(id string, opts []Option) {
	h := fnv.New64a()
	h.Write([]byte(id))
	seed := h.Sum64()
	rng := rand.New(rand.NewPCG(seed, seed>>1|1))
	rng.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
}
