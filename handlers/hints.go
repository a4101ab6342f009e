package handlers

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/review"
	"chesstutor/store"
	"chesstutor/words"
)

// Help while playing against levels 0–4 (G23): a hint in two steps and the
// opponent's capture threats. The game page's help.js uses these, and the
// game's PGN notes the hints used (noteHints).

// registerHints lists the help's API; the review service finds both.
func (h *Handler) registerHints(api *echo.Group) {
	api.POST("/games/:id/hint", h.giveHint)
	api.GET("/games/:id/threats", h.showThreats)
}

// helpError turns the help's refusals into statuses.
func helpError(err error) error {
	switch {
	case errors.Is(err, review.ErrNoHelp):
		return refuse(http.StatusConflict, "help.refuse_no_help", "Min", engine.MinLevel, "Level", review.MaxHelpLevel)
	case errors.Is(err, review.ErrNotYourMove):
		return refuse(http.StatusConflict, "help.refuse_not_your_move")
	case errors.Is(err, review.ErrStalePly):
		return refuse(http.StatusConflict, "help.refuse_stale")
	case errors.Is(err, review.ErrBadStep):
		return refuse(http.StatusBadRequest, "help.refuse_bad_step")
	}
	return gameError(err)
}

// hintJSON is a hint as POST /api/games/:id/hint answers it.
type hintJSON struct {
	Step  string `json:"step"`
	From  string `json:"from"`
	Piece string `json:"piece"`
	Move  string `json:"move,omitempty"` // UCI, at the second step
	SAN   string `json:"san,omitempty"`
	Text  string `json:"text"`
}

// giveHint is POST /api/games/:id/hint with {"ply":N,"step":"piece"|"move"}.
func (h *Handler) giveHint(c echo.Context) error {
	var req struct {
		Ply  *int   `json:"ply"`
		Step string `json:"step"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Ply == nil {
		return refuse(http.StatusBadRequest, "help.refuse_no_ply")
	}
	hint, err := h.reviews.Hint(c.Request().Context(), visitorID(c), c.Param("id"), *req.Ply, req.Step)
	if err != nil {
		return helpError(err)
	}
	w := h.w(c)
	out := hintJSON{Step: hint.Step, From: hint.From.String(), Piece: hint.Piece.String(),
		Text: w.T("help.hint_piece", "Piece", yourPiece(hint.Piece), "Square", hint.From)}
	if hint.Move != chess.NoMove {
		out.Move, out.SAN = hint.Move.UCI(), hint.SAN
		out.Text = w.T("help.hint_move", "Move", words.SAN(hint.SAN))
	}
	return c.JSON(http.StatusOK, out)
}

// threatJSON is one capture threat.
type threatJSON struct {
	From   string `json:"from"`
	To     string `json:"to"`
	By     string `json:"by"`
	Target string `json:"target"`
	Text   string `json:"text"`
}

// showThreats is GET /api/games/:id/threats: {"offered":true,"threats":[…]},
// or {"offered":false,"threats":[]} in a game without help, so the page
// learns from the server which games offer it.
func (h *Handler) showThreats(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	ts, err := h.reviews.Threats(c.Request().Context(), visitorID(c), c.Param("id"))
	if errors.Is(err, review.ErrNoHelp) {
		return c.JSON(http.StatusOK, map[string]any{"offered": false, "threats": []threatJSON{}})
	}
	if err != nil {
		return helpError(err)
	}
	w := h.w(c)
	out := make([]threatJSON, len(ts))
	for i, t := range ts {
		by := words.M("piece.name_" + t.By.String())
		out[i] = threatJSON{From: t.From.String(), To: t.To.String(), By: t.By.String(), Target: t.Target.String(),
			Text: w.T("help.threat", "Piece", by, "From", t.From, "Target", yourPiece(t.Target), "Square", t.To)}
		if t.Target == chess.King {
			out[i].Text = w.T("help.threat_check", "Piece", by, "From", t.From)
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"offered": true, "threats": out})
}

// noteHints adds the hints a player used to a game's PGN as comments, in
// English as PGN is (N9): one before the first move saying how many, and
// one after each move made with help. A game without hints is unchanged.
func (h *Handler) noteHints(ctx context.Context, id string, doc *chess.PGN) error {
	hints, err := h.store.GameHints(ctx, id)
	if err != nil || len(hints) == 0 {
		return err
	}
	w := h.words.For(words.English)
	steps := map[int][]string{}
	for _, hint := range hints {
		steps[hint.Ply] = append(steps[hint.Ply], hint.Step)
	}
	n := len(doc.Moves)
	comments := make([]string, n)
	lead := w.T("help.pgn_used", "Count", len(steps))
	for _, ply := range slices.Sorted(maps.Keys(steps)) {
		s := steps[ply]
		what := words.M("help.pgn_what_piece")
		if len(s) == 2 {
			what = words.M("help.pgn_what_both")
		} else if s[0] == store.HintMove {
			what = words.M("help.pgn_what_move")
		}
		i := min(ply, n-1) // a hint in the last position notes on the last move
		if i < 0 {
			lead += " " + w.T("help.pgn_before_first", "What", what)
			continue
		}
		note := w.T("help.pgn_before", "What", what)
		if ply >= n {
			note = w.T("help.pgn_after", "What", what)
		}
		comments[i] = strings.TrimSpace(comments[i] + " " + note)
	}
	doc.Lead = lead
	doc.Notes = make([]chess.Note, n)
	for i, c := range comments {
		doc.Notes[i].Comment = c
	}
	return nil
}

// yourPiece is "your knight" in the catalogue's words.
func yourPiece(t chess.PieceType) words.Message { return words.M("piece.your_" + t.String()) }
