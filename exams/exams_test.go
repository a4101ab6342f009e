package exams

import (
	"errors"
	"math/rand/v2"
	"testing"

	"chesstutor/chess"
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
	if n != len(course.Lessons()) {
		t.Errorf("the steps hold %d lessons, the course %d", n, len(course.Lessons()))
	}
	if got := steps[3].Lessons[0].Slug; got != "defending" {
		t.Errorf("step 4 starts with %q, want defending", got)
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
		return []string{it.Ex.Pos.SAN(it.Ex.Task().RightMoves()[0])}
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
