package handlers

// The PGN downloads: the game (with the hints used as comments) and the
// game with its review as comments (G13, G23, H1). Both are written by
// chess.PGN; the handlers only add the words.

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/review"
	"chesstutor/words"
)

// sendPGN writes doc as the attachment name.
func sendPGN(c echo.Context, name string, doc *chess.PGN) error {
	text, err := doc.Text()
	if err != nil {
		return fmt.Errorf("handlers: PGN %s: %w", name, err)
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "application/x-chess-pgn; charset=utf-8", []byte(text))
}

// downloadPGN is GET /api/games/:id/pgn.
func (h *Handler) downloadPGN(c echo.Context) error {
	name, doc, err := h.games.PGN(c.Request().Context(), visitorID(c), c.Param("id"))
	if err != nil {
		return gameError(err)
	}
	if err := h.noteHints(c.Request().Context(), c.Param("id"), doc); err != nil {
		return err
	}
	return sendPGN(c, name, doc)
}

// downloadReviewPGN is GET /api/games/:id/review/pgn: the game's PGN with
// the review as comments, a [%eval] for every move and, for the moves that
// cost something, a NAG and the sentence.
func (h *Handler) downloadReviewPGN(c echo.Context) error {
	ctx := c.Request().Context()
	st, err := h.reviews.Get(ctx, visitorID(c), c.Param("id"))
	if err != nil {
		return reviewError(err)
	}
	name, doc, err := h.games.PGN(ctx, visitorID(c), c.Param("id"))
	if err != nil {
		return gameError(err)
	}
	if st.Start.FEN() != doc.Start.FEN() || !slices.Equal(st.Moves, doc.Moves) {
		// The game went on after the review: this is the reviewed part.
		doc.Result, doc.Termination, doc.Ending = "*", "", ""
	}
	doc.Start, doc.Moves, doc.Notes = st.Start, st.Moves, reviewNotes(h.words.For(words.English).ShowingMoves(chess.EnglishLetters), st)
	return sendPGN(c, strings.TrimSuffix(name, ".pgn")+"-review.pgn", doc)
}

var nags = map[review.Class]int{review.Inaccuracy: 6, review.Mistake: 2, review.Blunder: 4}

// reviewNotes are the notes of the reviewed moves: the evaluation of every
// move and, from an inaccuracy up, a NAG, the class and the sentence, in
// English as PGN is (N9), w's words (moves in English SAN).
func reviewNotes(w *words.Words, st *review.Status) []chess.Note {
	notes := make([]chess.Note, len(st.Review.Moves))
	for i, m := range st.Review.Moves {
		n := chess.Note{NAG: nags[m.Class], Eval: pgnEval(m.Eval)}
		if m.Class >= review.Inaccuracy {
			n.Comment = w.T("review.class."+m.Code()) + ". " + explanation(w, m)
		}
		notes[i] = n
	}
	return notes
}

// pgnEval writes an evaluation the way PGN comments carry it: pawns from
// White's side ("0.35", "-1.20") or a mate ("#3", "#-2"); "" after mate.
func pgnEval(e review.Eval) string {
	if e.IsMate {
		if e.Mate == 0 {
			return ""
		}
		return fmt.Sprintf("#%d", e.Mate)
	}
	return strconv.FormatFloat(float64(e.CP)/100, 'f', 2, 64)
}
