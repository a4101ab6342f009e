package handlers

import (
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/lessons"
	"chesstutor/words"
)

// Before the notation lesson a learner cannot read "Ra8#" yet: the
// feedback of a move exercise in an earlier lesson names each move in
// words with the notation beside it, "♖a8# (the rook to a8)" (issue 38).
// The exercise package hands moves to its sentences as English SAN under
// the arguments below; the edge rewrites them here.

// notationSlug is the lesson that teaches notation.
const notationSlug = "notation"

// beforeNotation reports whether the exercise's lesson comes before the
// notation lesson (false when the course has none).
func (h *Handler) beforeNotation(c echo.Context, ex *lessons.Exercise) bool {
	course := h.course(c)
	n, ok := course.Lesson(notationSlug)
	l, ok2 := course.Lesson(ex.Lesson)
	return ok && ok2 && l.Order < n.Order
}

// sanSquare is the square a SAN move goes to: its last square name.
var sanSquare = regexp.MustCompile(`[a-h][1-8]`)

// sayMove writes an English SAN move the visitor's way with its words
// beside it: "♖a8# (the rook to a8)", "O-O (castling kingside)".
func (h *Handler) sayMove(c echo.Context, san string) string {
	shown := h.shownLetters(c).Write(san)
	var said words.Message
	switch {
	case strings.HasPrefix(san, "O-O-O"):
		said = words.M("exercise.said_castle_long")
	case strings.HasPrefix(san, "O-O"):
		said = words.M("exercise.said_castle_short")
	default:
		squares := sanSquare.FindAllString(san, -1)
		if len(squares) == 0 {
			return shown
		}
		piece := "pawn"
		switch san[0] {
		case 'K':
			piece = "king"
		case 'Q':
			piece = "queen"
		case 'R':
			piece = "rook"
		case 'B':
			piece = "bishop"
		case 'N':
			piece = "knight"
		}
		key := "exercise.said_move"
		if strings.Contains(san, "x") {
			key = "exercise.said_capture"
		}
		said = words.M(key, "Piece", words.M("piece.the_"+piece), "Square", squares[len(squares)-1])
	}
	return h.w(c).T("exercise.said", "Move", shown, "Words", said)
}

// sayMoves rewrites the moves of a sentence (and of the sentences inside
// it) with sayMove.
func (h *Handler) sayMoves(c echo.Context, m words.Message) words.Message {
	if len(m.Args) == 0 {
		return m
	}
	args := make(map[string]any, len(m.Args))
	for k, v := range m.Args {
		switch v := v.(type) {
		case words.SAN:
			args[k] = h.sayMove(c, string(v))
		case words.Message:
			args[k] = h.sayMoves(c, v)
		default:
			args[k] = v
		}
	}
	m.Args = args
	return m
}
