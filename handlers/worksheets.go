package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/views"
)

// This file serves the worksheets (L10): a printable page of a lesson's
// exercises for parents and teachers, each a diagram with a task line and
// a line to write on, and the answer key at the end.

// Worksheet sizes: at least minTasks diagrams (a lesson with fewer
// borrows exercises from the lessons next to it, labelled as such), at
// most maxTasks.
const (
	minTasks = 6
	maxTasks = 12
)

// registerWorksheets adds the worksheet route.
func (h *Handler) registerWorksheets(e *echo.Echo) {
	e.GET("/learn/:slug/worksheet", h.showWorksheet)
}

// worksheetTask is one numbered task of a worksheet.
type worksheetTask struct {
	N      int
	Task   string
	From   *lessons.Lesson // another lesson's exercise, or nil
	Board  views.Board
	Answer string
}

// worksheetPage is the payload of views/pages/worksheet.html.
type worksheetPage struct {
	Lesson *lessons.Lesson
	Tasks  []worksheetTask
}

// showWorksheet renders the worksheet of a lesson with exercises.
func (h *Handler) showWorksheet(c echo.Context) error {
	l, ok := h.course(c).Lesson(c.Param("slug"))
	if !ok {
		return refuse(http.StatusNotFound, "exercise.refuse_no_lesson")
	}
	if len(l.Exercises) == 0 {
		return refuse(http.StatusNotFound, "worksheet.refuse_no_exercises")
	}
	page := worksheetPage{Lesson: l}
	for i, ex := range worksheetExercises(l) {
		t := h.worksheetTask(c, ex)
		t.N = i + 1
		if ex.Lesson != l.Slug {
			t.From, _ = h.course(c).Lesson(ex.Lesson)
		}
		page.Tasks = append(page.Tasks, t)
	}
	return h.render(c, http.StatusOK, "worksheet", page)
}

// worksheetExercises picks a worksheet's exercises: the lesson's own (at
// most maxTasks), then, while there are fewer than minTasks, the nearest
// lessons' before it, then after it.
func worksheetExercises(l *lessons.Lesson) []*lessons.Exercise {
	out := l.Exercises[:min(len(l.Exercises), maxTasks)]
	out = out[:len(out):len(out)]
	for _, step := range []func(*lessons.Lesson) *lessons.Lesson{
		func(x *lessons.Lesson) *lessons.Lesson { return x.Prev },
		func(x *lessons.Lesson) *lessons.Lesson { return x.Next },
	} {
		for o := step(l); o != nil && len(out) < minTasks; o = step(o) {
			for _, ex := range o.Exercises {
				if len(out) == minTasks {
					break
				}
				out = append(out, ex)
			}
		}
	}
	return out
}

// worksheetTask is one exercise as paper asks it and answers it.
func (h *Handler) worksheetTask(c echo.Context, ex *lessons.Exercise) worksheetTask {
	w := h.w(c)
	letters := h.shownLetters(c)
	attrs := map[string]string{"data-worksheet-task": ex.ID}
	t := worksheetTask{Task: ex.Prompt}
	switch ex.Kind {
	case lessons.KindSquares:
		t.Board = views.Board{Pos: ex.Pos, Flipped: ex.Pos.Turn() == chess.Black, Highlights: []chess.Square{ex.From}}
		t.Answer = strings.Join(squareNames(exercise.Answer(ex.Pos, ex.From)), ", ")
	case lessons.KindUndefended:
		t.Board = views.Board{Pos: ex.Pos, Flipped: ex.Pos.Turn() == chess.Black}
		t.Answer = strings.Join(squareNames(exercise.UndefendedAnswer(ex.Pos)), ", ")
	case lessons.KindName:
		t.Board = views.Board{Pos: ex.Pos, Flipped: ex.Flipped}
		t.Task = w.T("worksheet.task_name", "Square", ex.Target.String())
		t.Answer = ex.Target.String()
	case lessons.KindSetup:
		t.Board = views.Board{Pos: ex.Pos}
		t.Task = w.T("worksheet.task_setup", "Prompt", ex.Prompt)
		var parts []string
		for sq := chess.A1; sq <= chess.H8; sq++ {
			if p, ok := ex.Setup().Answer()[sq]; ok {
				parts = append(parts, w.T("worksheet.answer_piece", "Piece", w.T("board.piece_"+p.String()), "Square", sq.String()))
			}
		}
		t.Answer = strings.Join(parts, ", ")
	case lessons.KindMove:
		t.Board = views.Board{Pos: ex.Pos, Flipped: ex.Pos.Turn() == chess.Black}
		if ex.From != chess.NoSquare {
			t.Board.Highlights = []chess.Square{ex.From}
		}
		var moves []chess.Move
		if ex.Goal == exercise.GoalMateTechnique {
			t.Task = w.T("worksheet.task_technique", "Prompt", ex.Prompt)
			moves = []chess.Move{exercise.Defence(ex.Pos)} // the engine's own first move
		} else {
			moves = ex.Task().RightMoves()
		}
		var sans []string
		for _, m := range moves {
			sans = append(sans, letters.Write(ex.Pos.SAN(m)))
		}
		t.Answer = strings.Join(sans, ", ")
	}
	t.Board.Size = "diagram"
	t.Board.Attrs = attrs
	return t
}
