package exams

import (
	"errors"
	"math/rand/v2"
	"testing"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/quiz"
)

func load(t *testing.T) (*lessons.Course, *quiz.Bank) {
	t.Helper()
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	return course, bank
}

func TestStepsCoverTheCourse(t *testing.T) {
	course, _ := load(t)
	steps := Steps(course)
	if len(steps) != 4 {
		t.Fatalf("got %d steps, want 4", len(steps))
	}
	n := 0
	for i, s := range steps {
		if s.N != i+1 || len(s.Lessons) == 0 {
			t.Errorf("step %d = %+v", i+1, s)
		}
		n += len(s.Lessons)
	}
	if out := Outside(course); n+len(out) != len(course.Lessons()) || len(out) != 1 || out[0].Slug != "this-site" {
		t.Errorf("the steps hold %d lessons and %v none, the course has %d", n, out, len(course.Lessons()))
	}
	// The teaching lessons come before "Playing on this site" (issue 36),
	// and each step's lessons follow each other in the course.
	last := course.Lessons()[len(course.Lessons())-1]
	if last.Slug != "this-site" {
		t.Errorf("the last lesson is %q, want this-site", last.Slug)
	}
	order := 0
	for _, s := range steps {
		for _, l := range s.Lessons {
			if l.Order != order+1 {
				t.Errorf("step %d: lesson %s has order %d after %d", s.N, l.Slug, l.Order, order)
			}
			order = l.Order
		}
	}
	want := []string{"defending", "tactics", "lone-king"}
	if got := steps[3].Lessons; len(got) != 3 || got[0].Slug != want[0] || got[1].Slug != want[1] || got[2].Slug != want[2] {
		t.Errorf("step 4 = %v, want %v", got, want)
	}
}

// TestDrawAsksEveryLesson: every exam asks at least one item of every
// lesson of its step that has any, and across draws every kind of
// exercise of a step comes up: the setup in step 1, a mate in two's first
// move in step 2, the lone king's first move and the undefended pieces in
// step 4 (issue 36).
func TestDrawAsksEveryLesson(t *testing.T) {
	course, bank := load(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, s := range Steps(course) {
		qs, xs := Pool(s, bank)
		has := map[string]bool{}
		for _, it := range append(qs, xs...) {
			has[it.Lesson] = true
		}
		for _, l := range s.Lessons {
			if len(l.Exercises) > 0 && !has[l.Slug] {
				t.Errorf("step %d: lesson %s has exercises the exam cannot ask", s.N, l.Slug)
			}
		}
		seen := map[string]bool{}
		for round := 0; round < 60; round++ {
			items := Draw(s, bank, rng)
			asked := map[string]bool{}
			for _, it := range items {
				asked[it.Lesson] = true
				seen[kindOf(it)] = true
			}
			for _, l := range s.Lessons {
				if has[l.Slug] && !asked[l.Slug] {
					t.Fatalf("step %d: an exam without lesson %s: %v", s.N, l.Slug, items)
				}
			}
		}
		wantKinds := map[int][]string{1: {"setup", "name", "squares"}, 2: {"mate-in-two"}, 4: {"mate-technique", "undefended", "fork"}}
		for _, k := range wantKinds[s.N] {
			if !seen[k] {
				t.Errorf("step %d: 60 exams never asked a %s item", s.N, k)
			}
		}
	}
}

// kindOf names an item by what it asks: its exercise's kind or goal.
func kindOf(it Item) string {
	switch {
	case it.Ex == nil:
		return "question"
	case it.Ex.Kind == lessons.KindMove:
		return string(it.Ex.Goal)
	}
	return string(it.Ex.Kind)
}

// TestFirstMoveItems: a mate in two and the lone king's mate ask for the
// first move, graded as the exercise grades that move (its JudgeMove), for
// every legal move; the key is one of the right ones.
func TestFirstMoveItems(t *testing.T) {
	course, _ := load(t)
	n := 0
	for _, ex := range course.Exercises() {
		if ex.Kind != lessons.KindMove || (ex.Goal != exercise.GoalMateInTwo && ex.Goal != exercise.GoalMateTechnique) {
			continue
		}
		it, ok := exerciseItem(ex)
		if !ok || !it.FirstMove() {
			t.Fatalf("%s: not asked as a first move", ex.ID)
		}
		n++
		task := ex.Task()
		for _, m := range ex.Pos.LegalMoves() {
			want := task.JudgeMove(m).Correct
			if got := Grade(it, []string{ex.Pos.SAN(m)}, chess.Letters{}).Correct; got != want {
				t.Errorf("%s: %s graded %v, the exercise says %v", ex.ID, ex.Pos.SAN(m), got, want)
			}
		}
		key := Grade(it, nil, chess.Letters{}).Key
		if len(key) == 0 || !Grade(it, key[:1], chess.Letters{}).Correct {
			t.Errorf("%s: the key %v is not a right first move", ex.ID, key)
		}
	}
	if n < 8 {
		t.Errorf("%d first-move items, want the course's mates in two and lone-king mates", n)
	}
}

// TestSetupItems: a setup exercise asks the piece of each empty square
// of its board; the starting position (read from its FEN here, not from
// the grader) is right, any two different pieces swapped are wrong, and
// a square left unanswered is wrong.
func TestSetupItems(t *testing.T) {
	course, _ := load(t)
	start, err := chess.ParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ex := range course.Exercises() {
		if ex.Kind != lessons.KindSetup {
			continue
		}
		n++
		it, ok := exerciseItem(ex)
		if !ok || it.Kind != Setup {
			t.Fatalf("%s: not a setup item", ex.ID)
		}
		var right []string
		for _, sq := range it.SetupSquares() {
			if ex.Pos.PieceAt(sq) != chess.NoPiece || start.PieceAt(sq) == chess.NoPiece {
				t.Errorf("%s: asks about %s", ex.ID, sq)
			}
			right = append(right, sq.String()+"="+start.PieceAt(sq).String())
		}
		if len(right) < 2 {
			t.Fatalf("%s: %d squares", ex.ID, len(right))
		}
		if !Grade(it, right, chess.Letters{}).Correct {
			t.Errorf("%s: the starting position graded wrong: %v", ex.ID, right)
		}
		if Grade(it, right[1:], chess.Letters{}).Correct {
			t.Errorf("%s: a square left out graded right", ex.ID)
		}
		for i := range right {
			for j := i + 1; j < len(right); j++ {
				a, b := right[i][3:], right[j][3:]
				if a == b {
					continue
				}
				swapped := append([]string{}, right...)
				swapped[i], swapped[j] = right[i][:3]+b, right[j][:3]+a
				if Grade(it, swapped, chess.Letters{}).Correct {
					t.Errorf("%s: %v graded right", ex.ID, swapped)
				}
			}
		}
	}
	if n < 2 {
		t.Errorf("%d setup exercises, want 2", n)
	}
}

// TestDrawIsMixedAndSized: every step's exam has 10 to 12 items from its
// own lessons, questions and exercises mixed where the step has both, and
// the key of every item grades as right and an empty answer as wrong.
func TestDrawIsMixedAndSized(t *testing.T) {
	course, bank := load(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range Steps(course) {
		qs, _ := Pool(s, bank)
		for round := 0; round < 20; round++ {
			items := Draw(s, bank, rng)
			if len(items) < MinItems || len(items) > MaxItems {
				t.Fatalf("step %d: %d items", s.N, len(items))
			}
			var nq, nx int
			ids := make([]string, len(items))
			for i, it := range items {
				ids[i] = it.ID
				if it.Q != nil {
					nq++
				} else {
					nx++
				}
				lesson := ""
				if it.Ex != nil {
					lesson = it.Ex.Lesson
				}
				if it.Ex != nil && !s.Has(lesson) {
					t.Errorf("step %d drew %s from %s", s.N, it.ID, lesson)
				}
				right := it.keyAnswer(t)
				if v := Grade(it, right, chess.Letters{}); !v.Correct {
					t.Errorf("step %d: %s with its key %v graded wrong", s.N, it.ID, right)
				}
				if v := Grade(it, nil, chess.Letters{}); v.Correct {
					t.Errorf("step %d: %s with no answer graded right", s.N, it.ID)
				}
			}
			if nx == 0 || (len(qs) > 0 && nq == 0) {
				t.Errorf("step %d: %d questions and %d exercises, want a mix", s.N, nq, nx)
			}
			if back, err := Read(s, bank, ids); err != nil || len(back) != len(items) {
				t.Errorf("step %d: reading the drawn ids back: %v", s.N, err)
			}
		}
	}
}

// keyAnswer is what a child who knows the answer types or ticks.
func (it Item) keyAnswer(t *testing.T) []string {
	t.Helper()
	if it.Kind == Move {
		return Grade(it, nil, chess.Letters{}).Key[:1]
	}
	return Grade(it, nil, chess.Letters{}).Key
}

func TestReadRefusesForeignExams(t *testing.T) {
	course, bank := load(t)
	steps := Steps(course)
	rng := rand.New(rand.NewPCG(3, 4))
	one := Draw(steps[0], bank, rng)
	ids := func(items []Item) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.ID)
		}
		return out
	}
	cases := map[string][]string{
		"too few":      ids(one[:MinItems-1]),
		"twice":        append(ids(one[:MinItems]), one[0].ID),
		"another step": ids(one),
		"made up":      append(ids(one[:MinItems]), "q:nothing"),
	}
	for name, posted := range cases {
		t.Run(name, func(t *testing.T) {
			s := steps[0]
			if name == "another step" {
				s = steps[3]
			}
			if _, err := Read(s, bank, posted); !errors.Is(err, ErrBadExam) {
				t.Errorf("got %v, want ErrBadExam", err)
			}
		})
	}
}

func TestGradeAllPassMark(t *testing.T) {
	for _, c := range []struct {
		score, total int
		pass         bool
	}{{8, 10, true}, {7, 10, false}, {9, 11, true}, {8, 11, false}, {10, 12, true}, {9, 12, false}} {
		if got := (Result{Score: c.score, Total: c.total}).Passed(); got != c.pass {
			t.Errorf("%d/%d passed = %v, want %v", c.score, c.total, got, c.pass)
		}
	}
}

func TestSquaresOf(t *testing.T) {
	if got := SquaresOf([]string{"E4, d5 e4", "z9 h8"}); len(got) != 3 || got[0] != "e4" || got[1] != "d5" || got[2] != "h8" {
		t.Errorf("got %v", got)
	}
}
