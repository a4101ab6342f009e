package handlers

import (
	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/views"
)

// homeData is what the home page shows.
type homeData struct {
	Diagram    views.Board
	Start      homeNext      // the hero's primary button: the first lesson, or Continue
	Progress   *homeProgress // nil until the visitor has started
	QuizScores []quizScore   // recent quiz scores, newest first
	Sparkline  *views.Sparkline
	GamesCount int
	Homework   *pupilHomework // the homework of the visitor's classes (classes_dashboard.go)
	Daily      *dailyCard     // the puzzle of the day (puzzles.go)
}

// homeProgress summarises the visitor's course progress.
type homeProgress struct {
	LessonsRead, LessonsTotal int
	Solved, ExercisesTotal    int
	Next                      *homeNext
}

// homeNext is a button: where it goes and what it says (in the request's
// language; for the progress panel's Next, the lesson's title).
type homeNext struct{ URL, Label string }

// homeDiagramFEN is the Italian Game (1.e4 e5 2.Nf3 Nc6 3.Bc4): a calm,
// classical position a beginner will meet again and again. Its caption
// tells it in words, for a newcomer who cannot read moves yet.
const homeDiagramFEN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"

var homeDiagram = func() *chess.Position {
	p, err := chess.ParseFEN(homeDiagramFEN)
	if err != nil {
		panic("handlers: home diagram FEN: " + err.Error()) // a constant; covered by tests
	}
	return p
}()

// showHome explains the path Learn → Practice → Quiz → Play and shows the
// visitor's progress. Its first button opens the first lesson, or the
// lesson /learn would continue with (L7), so a returning visitor is one
// click from where they stopped.
func (h *Handler) showHome(c echo.Context) error {
	w := h.w(c)
	data := homeData{
		Diagram: views.Board{
			Pos:        homeDiagram,
			Highlights: []chess.Square{chess.C4},
			Arrows:     []views.Arrow{{From: chess.C4, To: chess.F7}},
			Caption:    w.T("home.diagram_caption"),
			Size:       "diagram",
		},
	}
	visitor := visitorID(c)
	progress, err := h.homeProgress(c, visitor)
	if err != nil {
		return err
	}
	data.Progress = progress
	data.Start = h.homeStart(c, progress)
	if data.QuizScores, data.Sparkline, err = h.quizScores(c); err != nil {
		return err
	}
	if len(data.QuizScores) > 5 {
		data.QuizScores = data.QuizScores[:5]
	}
	if h.games != nil {
		list, err := h.games.List(c.Request().Context(), visitor, 100)
		if err != nil {
			return err
		}
		data.GamesCount = len(list)
	}
	if data.Homework, err = h.homeHomework(c); err != nil {
		return err
	}
	data.Daily = h.dailyCard(c)
	return h.render(c, 200, "home", data)
}

// homeStart is the hero's primary button.
func (h *Handler) homeStart(c echo.Context, p *homeProgress) homeNext {
	w := h.w(c)
	switch {
	case p == nil:
		if h.lessons != nil && len(h.course(c).Lessons()) > 0 {
			return homeNext{URL: "/learn/" + h.course(c).Lessons()[0].Slug, Label: w.T("home.start_first")}
		}
		return homeNext{URL: "/learn", Label: w.T("home.start_first")}
	case p.Next != nil:
		return homeNext{URL: p.Next.URL, Label: w.T("home.continue", "Lesson", p.Next.Label)}
	default:
		return homeNext{URL: "/quiz", Label: w.T("home.take_quiz")}
	}
}
