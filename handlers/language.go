package handlers

import (
	"github.com/labstack/echo/v4"

	"chesstutor/views"
	"chesstutor/words"
)

// langCookie keeps a visitor's explicit choice of language: a setting of
// the browser, like the board colours, never a stored visitor row.
const langCookie = "lang"

const wordsKey = "words"

// chooseLanguage picks the request's language (words.Catalogue.Match: the
// ?lang= link, then the cookie, then Accept-Language, then English) and
// keeps an explicit ?lang= choice in the cookie. Every later layer words
// the response with h.w(c).
func (h *Handler) chooseLanguage(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Set(wordsKey, h.pickWords(c))
		return next(c)
	}
}

func (h *Handler) pickWords(c echo.Context) *words.Words {
	req := c.Request()
	choice := req.URL.Query().Get("lang")
	var cookie string
	if ck, err := req.Cookie(langCookie); err == nil {
		cookie = ck.Value
	}
	code := h.words.Match(choice, cookie, req.Header.Get("Accept-Language"))
	if choice != "" && choice == code && choice != cookie {
		setPreference(c, langCookie, code)
	}
	c.Response().Header().Add("Vary", "Accept-Language")
	w := h.words.For(code)
	if notationStyle(c) == views.NotationLetters {
		w = w.ShowingMoves(w.Letters())
	}
	return w
}

// w is the request's words (chooseLanguage); a request that never passed
// the middleware (an early error) gets them chosen here.
func (h *Handler) w(c echo.Context) *words.Words {
	if w, ok := c.Get(wordsKey).(*words.Words); ok {
		return w
	}
	w := h.pickWords(c)
	c.Set(wordsKey, w)
	return w
}
