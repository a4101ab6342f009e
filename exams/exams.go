// Package exams holds the course's steps and their exams (L9): which
// lessons make each step, drawing an exam of 10 to 12 mixed items from a
// step (quiz questions about its lessons and exercises of its lessons),
// reading an exam back from its form and grading it with the graders the
// quiz and the exercises already use. It is pure: the handlers keep the
// passes in the store and word everything.
package exams

import (
	"errors"
	"math/rand/v2"
	"strings"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/quiz"
	"chesstutor/words"
)

// Exam sizes and the pass mark.
const (
	MinItems    = 10
	MaxItems    = 12
	Size        = 11 // items drawn when the step has enough
	MaxQuestion = 6  // quiz questions in one exam, the rest exercises
	PassPercent = 80
)

// firstLessons are the course orders where each step begins: 1 the board
// and the pieces; 10 check, mate and the special moves; 16 draws,
// notation and playing; 21 defending and tactics.
var firstLessons = []int{1, 10, 16, 21}

// Step is one step of the course: its number (1-based) and its lessons.
type Step struct {
	N       int
	Lessons []*lessons.Lesson
}

// Has reports whether the lesson slug belongs to the step.
func (s Step) Has(slug string) bool {
	for _, l := range s.Lessons {
		if l.Slug == slug {
			return true
		}
	}
	return false
}

// Steps groups the course's lessons into steps, in order.
func Steps(course *lessons.Course) []Step {
	var out []Step
	for _, l := range course.Lessons() {
		n := 0
		for i, first := range firstLessons {
			if l.Order >= first {
				n = i + 1
			}
		}
		if n == 0 {
			n = 1
		}
		if len(out) < n {
			out = append(out, Step{N: n})
		}
		out[n-1].Lessons = append(out[n-1].Lessons, l)
	}
	return out
}

// Kind is how an item is asked on the exam page.
type Kind string

// The item kinds.
const (
	Choice  Kind = "choice"  // pick one or several options (quiz choice, status, castle, draw)
	Squares Kind = "squares" // type every square asked for
	Name    Kind = "name"    // type the name of the marked square
	Move    Kind = "move"    // type the move that reaches the goal
)

// Item is one exam item: a quiz question or an exercise.
type Item struct {
	ID   string // "q:<question id>" or "x:<exercise id>"
	Kind Kind
	Q    *quiz.Question    // nil for an exercise
	Ex   *lessons.Exercise // nil for a question
}

// Target is the square a Name item marks.
func (it Item) Target() chess.Square {
	if it.Ex != nil {
		return it.Ex.Target
	}
	sq, _ := chess.ParseSquare(it.Q.Key()[0])
	return sq
}

// questionItem is a quiz question as an exam item.
func questionItem(q *quiz.Question) Item {
	it := Item{ID: "q:" + q.ID, Q: q, Kind: Choice}
	switch q.Kind {
	case quiz.Squares:
		it.Kind = Squares
	case quiz.Name:
		it.Kind = Name
	}
	return it
}

// exerciseItem is an exercise as an exam item; ok is false for the kinds
// a form cannot ask in one go (setting up the board, a mate in two, the
// lone king's mate against the computer).
func exerciseItem(ex *lessons.Exercise) (Item, bool) {
	it := Item{ID: "x:" + ex.ID, Ex: ex}
	switch ex.Kind {
	case lessons.KindSquares:
		it.Kind = Squares
	case lessons.KindName:
		it.Kind = Name
	case lessons.KindMove:
		if ex.Goal == exercise.GoalMateInTwo || ex.Goal == exercise.GoalMateTechnique {
			return it, false
		}
		it.Kind = Move
	default:
		return it, false
	}
	return it, true
}

// Pool is every item a step's exam may draw: the quiz questions whose
// lesson is in the step and the step's exercises a form can ask.
func Pool(s Step, bank *quiz.Bank) (questions, exercises []Item) {
	for _, q := range bank.Questions() {
		slug, _, _ := strings.Cut(strings.TrimPrefix(q.Lesson, "/learn/"), "#")
		if s.Has(slug) {
			questions = append(questions, questionItem(q))
		}
	}
	for _, l := range s.Lessons {
		for _, ex := range l.Exercises {
			if it, ok := exerciseItem(ex); ok {
				exercises = append(exercises, it)
			}
		}
	}
	return questions, exercises
}

// Draw draws an exam of step s: Size items when the step has them, up to
// MaxQuestion quiz questions and exercises for the rest, shuffled.
func Draw(s Step, bank *quiz.Bank, rng *rand.Rand) []Item {
	qs, xs := Pool(s, bank)
	rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	nq := min(len(qs), MaxQuestion)
	nx := min(len(xs), Size-nq)
	nq = min(len(qs), Size-nx)
	items := append(append([]Item{}, qs[:nq]...), xs[:nx]...)
	rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	return items
}

// ErrBadExam marks a posted exam that is not one Draw could have made:
// too few or too many items, one twice, or one from outside the step.
var ErrBadExam = errors.New("exams: not an exam of this step")

// Read finds the items a posted exam names, in order, checking that
// Draw could have drawn them for step s.
func Read(s Step, bank *quiz.Bank, ids []string) ([]Item, error) {
	if len(ids) < MinItems || len(ids) > MaxItems {
		return nil, ErrBadExam
	}
	qs, xs := Pool(s, bank)
	byID := map[string]Item{}
	for _, it := range append(qs, xs...) {
		byID[it.ID] = it
	}
	seen := map[string]bool{}
	var items []Item
	for _, id := range ids {
		it, ok := byID[id]
		if !ok || seen[id] {
			return nil, ErrBadExam
		}
		seen[id] = true
		items = append(items, it)
	}
	return items, nil
}

// Verdict is one graded item: right or not, and the right answer for
// the result page (square names, option ids, or moves in SAN).
type Verdict struct {
	Correct bool
	Key     []string
	// Reason says why a move was wrong, from the exercise grader; zero
	// when there is none.
	Reason words.Message
}

// Grade grades an item's answer: the chosen options, or the text typed
// (square names or a move, read with letters). An empty or unreadable
// answer is wrong, never an error: the exam is graded as it was sent.
func Grade(it Item, values []string, letters chess.Letters) Verdict {
	switch {
	case it.Q != nil && it.Kind != Name:
		if it.Kind == Squares {
			values = SquaresOf(values)
		}
		v := Verdict{Key: it.Q.Key()}
		if r, err := it.Q.Grade(values); err == nil {
			v.Correct = r.Correct
		}
		return v
	case it.Kind == Name:
		want := it.Target()
		got := SquaresOf(values)
		v := Verdict{Key: []string{want.String()}}
		if it.Q != nil {
			r, err := it.Q.Grade(got)
			v.Correct = err == nil && r.Correct
			return v
		}
		v.Correct = len(got) == 1 && got[0] == want.String()
		return v
	case it.Kind == Squares:
		var marked []chess.Square
		for _, s := range SquaresOf(values) {
			sq, _ := chess.ParseSquare(s)
			marked = append(marked, sq)
		}
		res := exercise.Check(it.Ex.Pos, it.Ex.From, marked)
		var key []string
		for _, sq := range res.Answer {
			key = append(key, sq.String())
		}
		return Verdict{Correct: res.Correct && len(res.Wrong) == 0, Key: key}
	default: // Move
		task := it.Ex.Task()
		v := Verdict{}
		for _, m := range task.RightMoves() {
			v.Key = append(v.Key, it.Ex.Pos.SAN(m))
		}
		text := strings.TrimSpace(strings.Join(values, " "))
		if text == "" {
			return v
		}
		uci := ""
		if m, err := it.Ex.Pos.ParseTyped(text, letters); err == nil {
			uci = m.UCI()
		} else {
			uci = strings.NewReplacer(" ", "", "-", "", "x", "").Replace(strings.ToLower(text))
		}
		at, err := task.Try(nil, uci)
		if err != nil {
			return v
		}
		v.Correct = at.Verdict.Solved
		if !v.Correct {
			v.Reason = at.Verdict.Reason
		}
		return v
	}
}

// SquaresOf reads square names typed in any way a child might ("e4, d5",
// "E4 d5"): every pair of a file letter and a rank digit, once each, in
// the order typed. Anything else is left out.
func SquaresOf(values []string) []string {
	text := strings.ToLower(strings.Join(values, " "))
	var out []string
	seen := map[string]bool{}
	r := []rune(text)
	for i := 0; i+1 < len(r); i++ {
		if r[i] >= 'a' && r[i] <= 'h' && r[i+1] >= '1' && r[i+1] <= '8' {
			s := string(r[i : i+2])
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
			i++
		}
	}
	return out
}

// Result is a graded exam.
type Result struct {
	Score, Total int
	Verdicts     []Verdict
}

// Passed reports whether the score reaches the pass mark.
func (r Result) Passed() bool { return r.Total > 0 && r.Score*100 >= r.Total*PassPercent }

// Percent is the score in whole percent.
func (r Result) Percent() int {
	if r.Total == 0 {
		return 0
	}
	return r.Score * 100 / r.Total
}

// GradeAll grades every item with its answer (answers[i] for items[i]).
func GradeAll(items []Item, answers [][]string, letters chess.Letters) Result {
	res := Result{Total: len(items)}
	for i, it := range items {
		var vals []string
		if i < len(answers) {
			vals = answers[i]
		}
		v := Grade(it, vals, letters)
		if v.Correct {
			res.Score++
		}
		res.Verdicts = append(res.Verdicts, v)
	}
	return res
}
