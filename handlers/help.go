package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/review"
	"chesstutor/store"
)

// Help while playing against levels 1–4 (G23): a hint in two steps and the
// opponent's capture threats. The game page's help.js uses these.

// helpError turns the help's refusals into statuses.
func helpError(err error) error {
	switch {
	case errors.Is(err, review.ErrNoHelp):
		return echo.NewHTTPError(http.StatusConflict, fmt.Sprintf("Hints and threats are offered in games against levels 1 to %d.", review.MaxHelpLevel))
	case errors.Is(err, review.ErrNotYourMove):
		return echo.NewHTTPError(http.StatusConflict, "A hint is for your own move; wait until it is your turn.")
	case errors.Is(err, review.ErrStalePly):
		return echo.NewHTTPError(http.StatusConflict, "The game has moved on. Reload to see the position.")
	case errors.Is(err, review.ErrBadStep):
		return echo.NewHTTPError(http.StatusBadRequest, `The hint step must be "piece" or "move".`)
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
		return echo.NewHTTPError(http.StatusBadRequest, `Send the ply you see: {"ply":N,"step":"piece"}.`)
	}
	hint, err := h.reviews.Hint(c.Request().Context(), visitorID(c), c.Param("id"), *req.Ply, req.Step)
	if err != nil {
		return helpError(err)
	}
	out := hintJSON{Step: hint.Step, From: hint.From.String(), Piece: hint.Piece.String(),
		Text: fmt.Sprintf("Hint: move your %s on %s.", hint.Piece, hint.From)}
	if hint.Move != chess.NoMove {
		out.Move, out.SAN = hint.Move.UCI(), hint.SAN
		out.Text = fmt.Sprintf("Hint: play %s.", hint.SAN)
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
	out := make([]threatJSON, len(ts))
	for i, t := range ts {
		out[i] = threatJSON{From: t.From.String(), To: t.To.String(), By: t.By.String(), Target: t.Target.String(),
			Text: fmt.Sprintf("The %s on %s can take your %s on %s.", t.By, t.From, t.Target, t.To)}
		if t.Target == chess.King {
			out[i].Text = fmt.Sprintf("The %s on %s gives check.", t.By, t.From)
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"offered": true, "threats": out})
}

// noteHints adds the hints a player used to a game's PGN as comments: one
// at the start saying how many, and one after each move made with help.
// A PGN of a game without hints comes back unchanged.
func (h *Handler) noteHints(ctx context.Context, id, text string) (string, error) {
	hints, err := h.store.GameHints(ctx, id)
	if err != nil || len(hints) == 0 {
		return text, err
	}
	header, result := pgnHeader(text)
	fen := chess.StartFEN
	for _, line := range strings.Split(header, "\n") {
		if v, ok := strings.CutPrefix(line, `[FEN "`); ok {
			fen = strings.TrimSuffix(v, `"]`)
		}
	}
	start, err := chess.ParseFEN(fen)
	if err != nil {
		return text, fmt.Errorf("handlers: PGN of %s: %w", id, err)
	}
	sans := strings.Fields(pgnMoves(text))
	steps := map[int][]string{}
	for _, hint := range hints {
		steps[hint.Ply] = append(steps[hint.Ply], hint.Step)
	}
	comments := map[int]string{}
	lead := fmt.Sprintf("The player used a hint %s.", timesWord(len(steps)))
	for ply, s := range steps {
		what := "which piece to move"
		if len(s) == 2 {
			what = "which piece to move, then the move"
		} else if s[0] == store.HintMove {
			what = "the move"
		}
		i := min(ply, len(sans)-1) // a hint in the last position notes on the last move
		if i < 0 {
			lead += " Hint before the first move: " + what + "."
			continue
		}
		note := "Hint before this move: " + what + "."
		if ply >= len(sans) {
			note = "Hint after this move: " + what + "."
		}
		comments[i] = strings.TrimSpace(comments[i] + " " + note)
	}
	return header + "\n" + movetext(start, sans, nil, comments, lead, result), nil
}

func timesWord(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
