package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// registerGlossary adds the /glossary page: the words of chess in plain
// terms, linked from the footer (issue 15).
func (h *Handler) registerGlossary(e *echo.Echo) {
	e.GET("/glossary", h.showGlossary)
}

// showGlossary renders lessons/glossary.md.
func (h *Handler) showGlossary(c echo.Context) error {
	if h.lessons.Glossary() == "" {
		return echo.NewHTTPError(http.StatusNotFound, "There is no glossary.")
	}
	return h.render(c, http.StatusOK, "glossary", rulesPage{Title: "Chess words", Body: h.lessons.Glossary()})
}
