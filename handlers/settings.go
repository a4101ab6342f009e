package handlers

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// boardCookie remembers the board colours a visitor chose (N4). It holds
// one of boardThemes; no cookie means "follow the system setting"
// (prefers-contrast).
const boardCookie = "board"

// boardThemes are the board colour choices; the layout turns the choice
// into a class on <html> ("board-contrast").
var boardThemes = map[string]bool{"classic": true, "contrast": true}

// boardTheme returns the visitor's saved board colours, or "" for the
// system setting.
func boardTheme(c echo.Context) string {
	ck, err := c.Cookie(boardCookie)
	if err != nil || !boardThemes[ck.Value] {
		return ""
	}
	return ck.Value
}

// saveBoardTheme stores the choice from the small form in the footer and
// sends the visitor back to the page they were on. It needs no JavaScript.
func (h *Handler) saveBoardTheme(c echo.Context) error {
	theme := c.FormValue("board")
	if theme != "auto" && !boardThemes[theme] {
		return refuse(http.StatusBadRequest, "settings.bad_board_theme")
	}
	if theme == "auto" {
		theme = "" // forget the choice
	}
	setPreference(c, boardCookie, theme)
	return c.Redirect(http.StatusSeeOther, localPath(c.FormValue("back")))
}

// localPath returns p when it is a path on this site, "/" otherwise, so
// the form cannot be used to redirect anywhere else.
func localPath(p string) string {
	u, err := url.Parse(p)
	if err != nil || p == "" || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") || u.Host != "" || u.Scheme != "" {
		return "/"
	}
	return u.RequestURI()
}

// setPreference keeps a choice of the browser (board colours, notation,
// language) in a cookie for a year; an empty value forgets it. Nothing is
// stored about the visitor.
func setPreference(c echo.Context, name, value string) {
	ck := &http.Cookie{
		Name:     name,
		Value:    value,
		Path:     "/",
		MaxAge:   365 * 24 * 3600,
		HttpOnly: true,
		Secure:   overTLS(c.Request()),
		SameSite: http.SameSiteLaxMode,
	}
	if value == "" {
		ck.MaxAge = -1
	}
	c.SetCookie(ck)
}
