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

// showGlossary renders lessons/<lang>/glossary.md.
func (h *Handler) showGlossary(c echo.Context) error {
	course := h.course(c)
	if course.Glossary() == "" {
		return refuse(http.StatusNotFound, "glossary.none")
	}
	return h.render(c, http.StatusOK, "glossary", rulesPage{Title: course.GlossaryTitle(),
		Description: h.w(c).T("glossary.meta_description"), Body: course.Glossary()})
}
