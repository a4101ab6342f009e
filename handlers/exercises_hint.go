package handlers

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/store"
)

// This file serves the help of a "play the move" exercise (X12): a hint
// (the piece that makes a right move) and the answer (the move and what
// it does), for the lesson's live boards and the practice page's script.
// The practice page's form asks for the same with ?show=hint|answer
// (exercises_move.go).

// helpRequest is the body of POST /api/exercises/:id/help: what to show
// ("hint" or "answer"; empty asks for the answer of any kind), and in a
// mate in two the line played so far (as in the check API).
type helpRequest struct {
	Kind string   `json:"kind"`
	Line []string `json:"line"`
}

// exerciseHintResponse answers a help request. Every kind gets the exercise's
// stars (help is recorded first, so a solve after it earns one star; help
// never lowers stars already earned) and, unless only a hint was asked
// for, its answer (answerOf). A move exercise asked for a hint or the
// answer adds the square of the piece to move, the move (UCI and SAN) for
// the answer, and Text, which says it in words.
type exerciseHintResponse struct {
	Stars  int    `json:"stars"`
	Answer any    `json:"answer,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Square string `json:"square,omitempty"`
	Move   string `json:"move,omitempty"`
	SAN    string `json:"san,omitempty"`
	Text   string `json:"text,omitempty"`
}

// helpExercise records that a hint or the answer of an exercise was shown
// (X11, X12) and gives it.
func (h *Handler) helpExercise(c echo.Context) error {
	ex, ok := h.course(c).Exercise(c.Param("id"))
	if !ok {
		return refuse(http.StatusNotFound, "exercise.refuse_no_exercise")
	}
	var req helpRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Kind != "" && req.Kind != "hint" && req.Kind != "answer" {
		return refuse(http.StatusBadRequest, "exercise.refuse_help")
	}
	var out exerciseHintResponse
	if req.Kind != "" {
		if ex.Kind != lessons.KindMove {
			return refuse(http.StatusBadRequest, "exercise.refuse_help_kind")
		}
		task := ex.Task()
		line, err := task.ParseLine(req.Line)
		if err != nil {
			return err
		}
		help := task.Help(line)
		if help.Move == chess.NoMove { // a line whose first move was not a right one
			return refuse(http.StatusBadRequest, "practice.refuse_line_unknown")
		}
		out = h.exerciseHint(c, ex, help, req.Kind)
	}
	rec, err := h.store.RecordTry(c.Request().Context(), visitorID(c), ex.ID, ex.Lesson, store.TryHelped)
	if err != nil {
		return fmt.Errorf("handlers: record help on %s: %w", ex.ID, err)
	}
	out.Stars = starsOf(rec)
	if req.Kind != "hint" {
		out.Answer = answerOf(ex)
	}
	return c.JSON(http.StatusOK, out)
}

// exerciseHint words a task's help for the visitor: the answer's move in their
// notation (and in words before the notation lesson).
func (h *Handler) exerciseHint(c echo.Context, ex *lessons.Exercise, help exercise.Help, kind string) exerciseHintResponse {
	out := exerciseHintResponse{Kind: kind, Square: help.Move.From().String()}
	if kind == "hint" {
		out.Text = h.w(c).Msg(help.Hint)
		return out
	}
	out.Move = help.Move.UCI()
	out.SAN = help.SAN
	answer := help.Answer
	if h.beforeNotation(c, ex) {
		answer = h.sayMoves(c, answer)
	}
	out.Text = h.w(c).Msg(answer)
	return out
}
