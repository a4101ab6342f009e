package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
)

// This file serves the help of a "play the move" exercise (X12): a hint
// (the piece that makes a right move) and the answer (the move and what
// it does), for the lesson's live boards and the practice page's script.
// The practice page's form asks for the same with ?show=hint|answer
// (exercises_move.go).

// helpRequest is the body of POST /api/exercises/:id/help: what to show,
// and in a mate in two the line played so far (as in the check API).
type helpRequest struct {
	Kind string   `json:"kind"`
	Line []string `json:"line"`
}

// helpResponse answers a help request: the square of the piece to move,
// and for the answer its move (UCI and SAN); Text says it in words.
type helpResponse struct {
	Kind   string `json:"kind"`
	Square string `json:"square"`
	Move   string `json:"move,omitempty"`
	SAN    string `json:"san,omitempty"`
	Text   string `json:"text"`
}

// helpExercise gives a hint or the answer of a move exercise.
func (h *Handler) helpExercise(c echo.Context) error {
	ex, ok := h.course(c).Exercise(c.Param("id"))
	if !ok {
		return refuse(http.StatusNotFound, "exercise.refuse_no_exercise")
	}
	if ex.Kind != lessons.KindMove {
		return refuse(http.StatusBadRequest, "exercise.refuse_help_kind")
	}
	var req helpRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Kind != "hint" && req.Kind != "answer" {
		return refuse(http.StatusBadRequest, "exercise.refuse_help")
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
	return c.JSON(http.StatusOK, h.help(c, ex, help, req.Kind))
}

// help words a task's help for the visitor: the answer's move in their
// notation (and in words before the notation lesson).
func (h *Handler) help(c echo.Context, ex *lessons.Exercise, help exercise.Help, kind string) helpResponse {
	out := helpResponse{Kind: kind, Square: help.Move.From().String()}
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
