package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/games"
	"chesstutor/views"
)

// notationCookie remembers how a visitor reads moves: views.NotationLetters
// for the language's letters (Cf3 in Spanish); no cookie means figurines
// (♘f3), the default in every language. Like the board colours it is a
// setting of the browser, never a stored visitor row.
const notationCookie = "notation"

// notationStyle returns the visitor's way of reading moves: views.NotationLetters
// or views.NotationFigurine.
func notationStyle(c echo.Context) string {
	if ck, err := c.Cookie(notationCookie); err == nil && ck.Value == views.NotationLetters {
		return views.NotationLetters
	}
	return views.NotationFigurine
}

// shownLetters is the table a move is shown to this visitor with (the
// figurines or the language's letters): h.shownLetters(c).Write(san).
// Words pass a move as a words.SAN argument and get the same table.
func (h *Handler) shownLetters(c echo.Context) chess.Letters { return h.w(c).Moves() }

// typedLetters is the table a move typed in this request is read with:
// the request's language's letters, figurines and the English letters
// that do not clash (chess.Letters.Read, chess.Position.ParseTyped).
func (h *Handler) typedLetters(c echo.Context) chess.Letters {
	return h.w(c).Letters()
}

// saveNotation stores the choice from the footer's small form and sends
// the visitor back to the page they were on. It needs no JavaScript.
func (h *Handler) saveNotation(c echo.Context) error {
	style := c.FormValue("notation")
	if style != views.NotationFigurine && style != views.NotationLetters {
		return refuse(http.StatusBadRequest, "notation.refuse_style")
	}
	if style == views.NotationFigurine {
		style = "" // the default: forget the choice
	}
	setPreference(c, notationCookie, style)
	return c.Redirect(http.StatusSeeOther, localPath(c.FormValue("back")))
}

// moveTyped plays a move of the game API: UCI in uci, or a move typed in
// san with figurines, the request's language's letters or English ones,
// which the game service receives as English SAN. A refusal quotes the
// text as the visitor typed it, not as it was read.
func (h *Handler) moveTyped(ctx context.Context, c echo.Context, ply *int, uci, san string) (*games.State, error) {
	read := h.typedLetters(c).Read(san)
	st, err := h.games.Move(ctx, visitorID(c), c.Param("id"), ply, uci, read)
	var ge *games.Error
	if err != nil && read != san && errors.As(err, &ge) {
		if _, ok := ge.Message.Args["Text"]; ok {
			ge.Message.Args["Text"] = clipTyped(strings.TrimSpace(san))
		}
	}
	return st, err
}

// clipTyped shortens typed text for a sentence, on a letter boundary.
func clipTyped(s string) string {
	const most = 20
	if utf8.RuneCountInString(s) <= most {
		return s
	}
	return string([]rune(s)[:most]) + "…"
}
