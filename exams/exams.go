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

// stepStarts are the slugs of the lessons where each step begins: the
// board and the pieces; check, mate and the special moves; draws,
// notation and playing; defending, tactics and the lone king. Slugs, not
// course orders, so a lesson moved in the course keeps its step.
var stepStarts = []string{"board", "check", "game-end", "defending"}

// outsideSteps are the lessons about this site rather than about chess:
// they come after the steps, in no step and on no exam.
var outsideSteps = map[string]bool{"this-site": true}

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

// Steps groups the course's lessons into steps, in order. A lesson in
// outsideSteps belongs to none (Outside lists them).
func Steps(course *lessons.Course) []Step {
	var out []Step
	for _, l := range course.Lessons() {
		if outsideSteps[l.Slug] {
			continue
		}
		for i, first := range stepStarts {
			if l.Slug == first && len(out) == i {
				out = append(out, Step{N: i + 1})
			}
		}
		if len(out) == 0 {
			out = append(out, Step{N: 1})
		}
		out[len(out)-1].Lessons = append(out[len(out)-1].Lessons, l)
	}
	return out
}

// Outside lists the course's lessons that belong to no step, in order.
func Outside(course *lessons.Course) []*lessons.Lesson {
	var out []*lessons.Lesson
	for _, l := range course.Lessons() {
		if outsideSteps[l.Slug] {
			out = append(out, l)
		}
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
	Move    Kind = "move"    // type the move that reaches the goal (the first move of a mate in two or of mating the lone king)
	Setup   Kind = "setup"   // choose the piece for each empty square of a setup exercise
)

// Item is one exam item: a quiz question or an exercise.
type Item struct {
	ID     string // "q:<question id>" or "x:<exercise id>"
	Kind   Kind
	Lesson string            // the slug of the lesson it asks about
	Q      *quiz.Question    // nil for an exercise
	Ex     *lessons.Exercise // nil for a question
}

// FirstMove reports whether a Move item asks only for the first move of
// a longer task (a mate in two, mating the lone king): the move is graded
// as the exercise grades its first move.
func (it Item) FirstMove() bool {
	return it.Kind == Move && (it.Ex.Goal == exercise.GoalMateInTwo || it.Ex.Goal == exercise.GoalMateTechnique)
}

// SetupSquares are the squares a Setup item asks about, one form field
// each: the empty squares where a piece of the starting position goes.
func (it Item) SetupSquares() []chess.Square {
	var out []chess.Square
	for sq := chess.A1; sq <= chess.H8; sq++ {
		if _, ok := it.Ex.Setup().Answer()[sq]; ok {
			out = append(out, sq)
		}
	}
	return out
}

// SetupChoices are the pieces a Setup item offers for each square: the
// kinds of piece in the tray, once each, in the tray's order.
func (it Item) SetupChoices() []chess.Piece {
	var out []chess.Piece
	seen := map[chess.Piece]bool{}
	for _, p := range it.Ex.Setup().Tray() {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
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
	slug, _, _ := strings.Cut(strings.TrimPrefix(q.Lesson, "/learn/"), "#")
	it := Item{ID: "q:" + q.ID, Q: q, Kind: Choice, Lesson: slug}
	switch q.Kind {
	case quiz.Squares:
		it.Kind = Squares
	case quiz.Name:
		it.Kind = Name
	}
	return it
}

// exerciseItem is an exercise as an exam item. Every kind can be asked
// in one form: a mate in two and mating the lone king ask for the first
// move, setting up the board asks for the piece of each empty square.
func exerciseItem(ex *lessons.Exercise) (Item, bool) {
	it := Item{ID: "x:" + ex.ID, Ex: ex, Lesson: ex.Lesson}
	switch ex.Kind {
	case lessons.KindSquares, lessons.KindUndefended:
		it.Kind = Squares
	case lessons.KindName:
		it.Kind = Name
	case lessons.KindMove:
		it.Kind = Move
	case lessons.KindSetup:
		it.Kind = Setup
	default:
		return it, false
	}
	return it, true
}

// Pool is every item a step's exam may draw: the quiz questions whose
// lesson is in the step and the step's exercises a form can ask.
func Pool(s Step, bank *quiz.Bank) (questions, exercises []Item) {
	for _, q := range bank.Questions() {
		if it := questionItem(q); s.Has(it.Lesson) {
			questions = append(questions, it)
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

// Draw draws an exam of step s: first one item of every lesson of the
// step that has any (a question or an exercise, at random), then quiz
// questions while there are fewer than MaxQuestion, then exercises up to
// Size; shuffled.
func Draw(s Step, bank *quiz.Bank, rng *rand.Rand) []Item {
	qs, xs := Pool(s, bank)
	pool := append(append([]Item{}, qs...), xs...)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	taken := map[string]bool{}
	var items []Item
	nq := 0
	take := func(it Item) {
		taken[it.ID] = true
		items = append(items, it)
		if it.Q != nil {
			nq++
		}
	}
	for _, l := range s.Lessons {
		for _, it := range pool {
			if it.Lesson == l.Slug && len(items) < Size {
				take(it)
				break
			}
		}
	}
	// Then questions up to their share, so every exam mixes both, then
	// exercises, then whatever is left.
	for _, it := range pool {
		if len(items) < Size && !taken[it.ID] && it.Q != nil && nq < MaxQuestion {
			take(it)
		}
	}
	for _, it := range pool {
		if len(items) < Size && !taken[it.ID] {
			take(it)
		}
	}
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
		var res exercise.Result
		if it.Ex.Kind == lessons.KindUndefended {
			res = exercise.CheckUndefended(it.Ex.Pos, marked)
		} else {
			res = exercise.Check(it.Ex.Pos, it.Ex.From, marked)
		}
		var key []string
		for _, sq := range res.Answer {
			key = append(key, sq.String())
		}
		return Verdict{Correct: res.Correct && len(res.Wrong) == 0, Key: key}
	case it.Kind == Setup:
		return gradeSetup(it, values)
	default: // Move
		task := it.Ex.Task()
		v := Verdict{}
		if it.Ex.Goal == exercise.GoalMateTechnique {
			// Many first moves may keep the mate in reach: the key is
			// the computer's own, the move it would play.
			v.Key = []string{it.Ex.Pos.SAN(exercise.Defence(it.Ex.Pos))}
		} else {
			for _, m := range task.RightMoves() {
				v.Key = append(v.Key, it.Ex.Pos.SAN(m))
			}
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
		// A mate in two or the lone king's mate asks for its first move,
		// right when the exercise would go on with the computer's reply.
		v.Correct = at.Verdict.Solved || (it.FirstMove() && at.Verdict.Correct)
		if !v.Correct {
			v.Reason = at.Verdict.Reason
		}
		return v
	}
}

// gradeSetup grades a Setup item: values are "square=piece" pairs
// ("d1=wQ"), one per square asked; the placement is graded by the setup
// exercise's own grader, and an unanswered square leaves it missed.
func gradeSetup(it Item, values []string) Verdict {
	v := Verdict{}
	for _, sq := range it.SetupSquares() {
		v.Key = append(v.Key, sq.String()+"="+it.Ex.Setup().Answer()[sq].String())
	}
	placed := map[chess.Square]chess.Piece{}
	for _, pair := range values {
		name, code, ok := strings.Cut(pair, "=")
		sq, err := chess.ParseSquare(name)
		if !ok || err != nil || code == "" {
			continue
		}
		for _, p := range it.SetupChoices() {
			if p.String() == code {
				placed[sq] = p
			}
		}
	}
	res, err := it.Ex.Setup().Check(placed)
	v.Correct = err == nil && res.Correct
	return v
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
