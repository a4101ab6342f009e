package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/store"
	"chesstutor/views"
	"chesstutor/words"
)

// handleError is the one place errors become responses: JSON
// {"error": "<words in the visitor's language>", "code": "<stable code>"}
// under /api, the styled error page elsewhere. Only 5xx errors are logged
// with their detail; visitors never see internals.
func (h *Handler) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, msg := h.classify(err)
	if errors.Is(err, store.ErrGone) {
		// Forgotten meanwhile (perhaps on another instance): the next write
		// stores the visitor afresh instead of trusting the cache (N8).
		h.visitors.forget(visitorID(c))
	}
	if status >= 500 {
		h.log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path,
			"status", status, "err", err)
	}
	switch status {
	case http.StatusTooManyRequests:
		if c.Response().Header().Get("Retry-After") == "" { // the limiter says how long
			c.Response().Header().Set("Retry-After", "1")
		}
	case http.StatusServiceUnavailable:
		c.Response().Header().Set("Retry-After", "30")
	}

	req := c.Request()
	if req.Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	w := h.w(c)
	text := w.Msg(msg)
	if isAPI(req.URL.Path) || wantsJSON(req) {
		_ = c.JSON(status, map[string]string{"error": text, "code": msg.Key})
		return
	}
	page, info := "500", views.ErrorInfo{Status: status, Heading: w.T(headingFor(status)), Message: text}
	if status == http.StatusNotFound {
		page = "404"
		if msg.Key == defaultMessage(http.StatusNotFound) {
			info.Message = "" // the page has its own friendlier sentence
		}
	}
	if rerr := h.render(c, status, page, info); rerr != nil {
		h.log.Error("render error page", "err", rerr)
		_ = c.String(status, text)
	}
}

// classify maps an error to a status and the message a person reads. An
// echo.HTTPError carries its message as a words.Message or *words.Error
// (a code); anything else, a bare string included, gets the status's own
// message: no sentence reaches a visitor without the catalogue.
func (h *Handler) classify(err error) (int, words.Message) {
	var he *echo.HTTPError
	var we *words.Error
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &he):
		if he.Code >= 500 {
			return he.Code, words.M(defaultMessage(he.Code))
		}
		switch m := he.Message.(type) {
		case words.Message:
			return he.Code, m
		case *words.Error:
			return he.Code, m.Message
		}
		return he.Code, words.M(defaultMessage(he.Code))
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, words.M(defaultMessage(http.StatusNotFound))
	case errors.Is(err, store.ErrConflict):
		return http.StatusConflict, words.M(defaultMessage(http.StatusConflict))
	case errors.Is(err, store.ErrGone):
		return http.StatusConflict, words.M("error.gone")
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, words.M("error.body_too_large", "Limit", tooBig.Limit)
	case errors.As(err, &we):
		return http.StatusBadRequest, we.Message
	}
	if msg, ok := storageFault(err); ok {
		return http.StatusServiceUnavailable, words.M(msg)
	}
	return http.StatusInternalServerError, words.M(defaultMessage(http.StatusInternalServerError))
}

// refuse is an HTTP error whose words come from the catalogue: the code
// and its name, value arguments (words.M).
func refuse(status int, key string, args ...any) *echo.HTTPError {
	return echo.NewHTTPError(status, words.M(key, args...))
}

// storageFault recognises a store error the visitor can do nothing about
// but wait (store.ErrUnavailable), and returns the key of the sentence for
// the 503 (N3). Which database it was, and how it said so, is the store's
// business.
func storageFault(err error) (string, bool) {
	if !errors.Is(err, store.ErrUnavailable) {
		return "", false
	}
	var ue *store.UnavailableError
	fault := store.Busy
	if errors.As(err, &ue) {
		fault = ue.Fault
	}
	switch fault {
	case store.Full:
		return "error.storage_full", true
	case store.ReadOnly, store.Unreachable:
		return "error.storage_read_only", true
	}
	return "error.storage_busy", true
}

// defaultMessage is the key of a status's own message.
func defaultMessage(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed,
		http.StatusConflict, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType,
		http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return fmt.Sprintf("error.status_%d", status)
	}
	if status >= 500 {
		return "error.status_500"
	}
	return "error.status_other"
}

func headingFor(status int) string {
	switch {
	case status == http.StatusForbidden:
		return "error.heading_refused"
	case status == http.StatusRequestEntityTooLarge:
		return "error.heading_too_much"
	case status == http.StatusTooManyRequests:
		return "error.heading_slow_down"
	case status >= 500:
		return "error.heading_ours"
	}
	return "error.heading_failed"
}

func isAPI(path string) bool {
	return path == "/api" || strings.HasPrefix(path, "/api/")
}

// wantsJSON reports whether a client asked only for JSON (fetch from
// a page module outside /api, for example).
func wantsJSON(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	return strings.HasPrefix(accept, "application/json") && !strings.Contains(accept, "text/html")
}
