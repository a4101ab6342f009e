package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/classes"
	"chesstutor/store"
	"chesstutor/transfer"
	"chesstutor/words"
)

// The privacy page says what the site keeps and for how long, and lets a
// visitor download everything kept about them or delete it (N8).

func (h *Handler) registerPrivacy(e *echo.Echo, api *echo.Group) {
	e.GET("/privacy", h.showPrivacy)
	e.POST("/privacy/download", h.downloadMyData)
	e.GET("/privacy/data", h.showMyData) // privacy_read.go
	e.POST("/privacy/forget", h.forgetMeForm)
	api.GET("/me", h.getMe)
	api.DELETE("/me", h.deleteMe)
}

// privacyPage is the privacy page's data.
type privacyPage struct {
	Stored      bool          // something is kept about this visitor
	Forgotten   bool          // they have just been forgotten
	NeedConfirm bool          // the forget form came without its tick
	KeepFor     words.Message // "a year"
	GamesFor    words.Message // "30 days"
	MaxGames    int
	// TransferMinutes is how long a code to continue on another device works.
	TransferMinutes int
	// JoinTries is how many wrong join codes an address may try in a
	// minute; MaxPupils the most pupils in a class (classes.go).
	JoinTries, MaxPupils int
}

func (h *Handler) showPrivacy(c echo.Context) error {
	stored := false
	if !freshVisitor(c) {
		var err error
		if stored, err = h.visitorStored(c.Request().Context(), visitorID(c)); err != nil {
			return err
		}
	}
	return h.render(c, http.StatusOK, "privacy", h.privacyFacts(privacyPage{
		Stored: stored, Forgotten: c.QueryParam("forgotten") == "1",
	}))
}

func (h *Handler) privacyFacts(p privacyPage) privacyPage {
	p.KeepFor = humanDuration(h.retention.Visitors)
	p.GamesFor = humanDuration(h.retention.Games)
	p.MaxGames = h.maxGames()
	p.TransferMinutes = int(transfer.Lifetime / time.Minute)
	p.JoinTries = int(h.limits.JoinRate * 60)
	p.MaxPupils = classes.MaxPupils
	return p
}

func (h *Handler) maxGames() int {
	if h.games == nil {
		return 0
	}
	return h.games.MaxActive()
}

// myData is the download: everything stored about the visitor.
type myData struct {
	Visitor    string                      `json:"visitor"`
	ExportedAt time.Time                   `json:"exported_at"`
	Tables     map[string][]map[string]any `json:"tables"`
	// Classes and Homework: the classes the visitor is a pupil of and
	// their homework, with the items done (classes_dashboard.go).
	Classes  []myClassJSON  `json:"classes"`
	Homework []homeworkJSON `json:"homework"`
}

// exportMe reads everything stored about the visitor; a visitor with no
// row gets an empty export, which is the truth.
func (h *Handler) exportMe(c echo.Context) (myData, error) {
	d := myData{Visitor: visitorID(c), ExportedAt: h.now().UTC(), Tables: map[string][]map[string]any{},
		Classes: []myClassJSON{}, Homework: []homeworkJSON{}}
	if freshVisitor(c) {
		return d, nil
	}
	e, err := h.store.ExportVisitor(c.Request().Context(), visitorID(c))
	if errors.Is(err, store.ErrNotFound) {
		return d, nil
	}
	if err != nil {
		return d, err
	}
	d.Tables = e.Tables
	if d.Classes, d.Homework, err = h.myClasses(c); err != nil {
		return d, err
	}
	return d, nil
}

// getMe answers GET /api/me: the visitor's data as JSON.
func (h *Handler) getMe(c echo.Context) error {
	d, err := h.exportMe(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, d)
}

// downloadMyData answers the privacy page's download form with the same
// JSON as a file.
func (h *Handler) downloadMyData(c echo.Context) error {
	d, err := h.exportMe(c)
	if err != nil {
		return err
	}
	body, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("handlers: encode my data: %w", err)
	}
	hd := c.Response().Header()
	hd.Set("Cache-Control", "no-store")
	hd.Set("Content-Disposition", `attachment; filename="chess-steps-my-data.json"`)
	return c.Blob(http.StatusOK, "application/json; charset=utf-8", append(body, '\n'))
}

// forget deletes every row of the visitor and their cookie.
func (h *Handler) forget(c echo.Context) error {
	id := visitorID(c)
	if !freshVisitor(c) {
		if err := h.store.ForgetVisitor(c.Request().Context(), id); err != nil {
			return err
		}
	}
	h.visitors.forget(id)
	clearVisitorCookies(c)
	return nil
}

// deleteMe answers DELETE /api/me with 204.
func (h *Handler) deleteMe(c echo.Context) error {
	if err := h.forget(c); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// forgetMeForm is the privacy page's "Forget me" form; its tick box
// confirms, so a slip of the finger cannot delete a year of progress.
func (h *Handler) forgetMeForm(c echo.Context) error {
	if c.FormValue("confirm") != "yes" {
		return h.render(c, http.StatusBadRequest, "privacy", h.privacyFacts(privacyPage{
			Stored: !freshVisitor(c), NeedConfirm: true,
		}))
	}
	if err := h.forget(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/privacy?forgotten=1")
}

// humanDuration says a retention period in words: "a year", "30 days"
// (whole years, else whole days, else hours, else minutes).
func humanDuration(d time.Duration) words.Message {
	days := int(d / (24 * time.Hour))
	switch {
	case days > 0 && days%365 == 0:
		return words.M("privacy.years", "Count", days/365)
	case days > 0:
		return words.M("privacy.days", "Count", days)
	case d >= 2*time.Hour:
		return words.M("privacy.hours", "Count", int(d/time.Hour))
	}
	return words.M("privacy.minutes", "Count", int(d.Round(time.Minute)/time.Minute))
}
