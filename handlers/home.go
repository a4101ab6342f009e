package handlers

import (
	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/views"
)

// homeData is what the home page shows.
type homeData struct {
	Diagram    views.Board
	Progress   *homeProgress // nil until the visitor has started
	QuizScores any           // recent quiz scores, newest first
	GamesCount int
}

// homeProgress summarises the visitor's course progress.
type homeProgress struct {
	LessonsRead, LessonsTotal int
	Solved, ExercisesTotal    int
	Next                      *homeNext
}

type homeNext struct{ URL, Title string }

// homeDiagramFEN is the Italian Game after 1.e4 e5 2.Nf3 Nc6 3.Bc4: a
// calm, classical position a beginner will meet again and again.
const homeDiagramFEN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"

var homeDiagram = func() *chess.Position {
	p, err := chess.ParseFEN(homeDiagramFEN)
	if err != nil {
		panic("handlers: home diagram FEN: " + err.Error()) // a constant; covered by tests
	}
	return p
}()

// showHome explains the path Learn → Practise → Quiz → Play and shows the
// visitor's progress.
func (h *Handler) showHome(c echo.Context) error {
	data := homeData{
		Diagram: views.Board{
			Pos:        homeDiagram,
			Highlights: []chess.Square{chess.C4},
			Arrows:     []views.Arrow{{From: chess.C4, To: chess.F7}},
			Caption:    "After 1.e4 e5 2.Nf3 Nc6 3.Bc4, the white bishop aims at f7, the weakest square near the black king.",
			Size:       "diagram",
		},
	}
	visitor := visitorID(c)
	progress, err := h.homeProgress(c.Request().Context(), visitor)
	if err != nil {
		return err
	}
	data.Progress = progress
	scores, err := h.store.QuizScores(c.Request().Context(), visitor, 5)
	if err != nil {
		return err
	}
	data.QuizScores = scores
	if h.games != nil {
		list, err := h.games.List(c.Request().Context(), visitor, 100)
		if err != nil {
			return err
		}
		data.GamesCount = len(list)
	}
	return h.render(c, 200, "home", data)
}
