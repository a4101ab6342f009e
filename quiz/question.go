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
	"chesstutor/words"
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
// option or square the question does not have. The errors that wrap it
// are *words.Error values whose code says what is wrong.
var ErrBadAnswer = errors.New("quiz: bad answer")

// Option is one answer a visitor may choose.
type Option struct {
	// ID is the option's key: what an answer names and the store keeps.
	// Multiple-choice questions write theirs ("a", "b", …); the board
	// kinds have fixed ones ("check", "yes", "repetition", …).
	ID string
	// Words is the code of a fixed answer's words; zero for a
	// multiple-choice option, whose words are in the question's Text.
	Words words.Message
}

// Text is a question's words in one language, as its file has them.
type Text struct {
	Prompt      string
	Explanation string
	Options     map[string]string // multiple choice: option key -> its words
}

// Question is one quiz question, ready to ask and grade. Everything but
// its Text is the same in every language.
type Question struct {
	ID     string
	Topic  string
	Kind   Kind
	Lesson string // "/learn/<slug>#<anchor>", or the lesson alone

	// Pos is the diagram (nil for plain multiple choice). For draw
	// questions it is the position after the moves were played.
	Pos *chess.Position
	// From is the square the question is about (highlighted), or NoSquare.
	From chess.Square
	// LastMove is the move that led to Pos in draw questions, or NoMove.
	LastMove chess.Move
	// Moves are the moves played in draw questions, numbered, in English
	// SAN (the edge writes them in the visitor's letters).
	Moves []chess.FullMove

	// Options, in display order, for every kind but the board kinds.
	Options []Option
	// Multiple is true when several options are right (checkboxes).
	Multiple bool

	key   []string         // sorted option ids or square names
	texts map[string]*Text // by language
}

// Board reports whether the question is answered by clicking squares.
func (q *Question) Board() bool { return q.Kind == Squares || q.Kind == Name }

// TopicTitle is the code of the topic's name.
func (q *Question) TopicTitle() words.Message { return words.M(topicKeys[q.Topic]) }

// Text is the question's words in lang, or in English when the bank has
// no such language.
func (q *Question) Text(lang string) *Text {
	if t := q.texts[lang]; t != nil {
		return t
	}
	return q.texts[English]
}

// Key returns the right answer: option ids or square names, sorted.
func (q *Question) Key() []string { return slices.Clone(q.key) }

// HasOption reports whether id is one of the question's options.
func (q *Question) HasOption(id string) bool {
	return slices.ContainsFunc(q.Options, func(o Option) bool { return o.ID == id })
}

// MovesText writes the moves with their numbers ("1. Nf3 Nf6 2. Ng1"),
// each move put through san (the visitor's piece letters; nil keeps SAN).
func (q *Question) MovesText(san func(string) string) string {
	if san == nil {
		san = func(s string) string { return s }
	}
	var parts []string
	for _, fm := range q.Moves {
		if fm.White == "" {
			parts = append(parts, fmt.Sprintf("%d… %s", fm.Number, san(fm.Black)))
			continue
		}
		parts = append(parts, fmt.Sprintf("%d. %s", fm.Number, san(fm.White)))
		if fm.Black != "" {
			parts = append(parts, san(fm.Black))
		}
	}
	return strings.Join(parts, " ")
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
// returns it trimmed, lower-cased, without duplicates and sorted. Errors
// wrap ErrBadAnswer and carry the code of what is wrong.
func (q *Question) Normalize(values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		v = strings.ToLower(strings.TrimSpace(v))
		if v == "" || slices.Contains(out, v) {
			continue
		}
		if q.Board() {
			if _, err := chess.ParseSquare(v); err != nil {
				return nil, words.Wrap(ErrBadAnswer, "quiz.refuse_not_square", "Square", v)
			}
		} else if !q.HasOption(v) {
			return nil, words.Wrap(ErrBadAnswer, "quiz.refuse_not_option", "Answer", v)
		}
		out = append(out, v)
	}
	switch {
	case len(out) == 0 && q.Board():
		return nil, words.Wrap(ErrBadAnswer, "quiz.refuse_no_square")
	case len(out) == 0:
		return nil, words.Wrap(ErrBadAnswer, "quiz.refuse_no_choice")
	case len(out) > 1 && !q.Board() && !q.Multiple:
		return nil, words.Wrap(ErrBadAnswer, "quiz.refuse_just_one")
	case len(out) > 64:
		return nil, words.Wrap(ErrBadAnswer, "quiz.refuse_too_many_squares")
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
