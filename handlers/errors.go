package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/store"
	"chesstutor/views"
)

// handleError is the one place errors become responses: JSON
// {"error": "…"} under /api, the styled error page elsewhere. Only 5xx
// errors are logged with their detail; visitors never see internals.
func (h *Handler) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, msg := h.classify(err)
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
	if isAPI(req.URL.Path) || wantsJSON(req) {
		_ = c.JSON(status, map[string]string{"error": msg})
		return
	}
	page, info := "500", views.ErrorInfo{Status: status, Heading: headingFor(status), Message: msg}
	if status == http.StatusNotFound {
		page = "404"
		if msg == defaultMessage(http.StatusNotFound) {
			info.Message = "" // the page has its own friendlier sentence
		}
	}
	if rerr := h.render(c, status, page, info); rerr != nil {
		h.log.Error("render error page", "err", rerr)
		_ = c.String(status, msg)
	}
}

// classify maps an error to a status and a sentence a person reads.
func (h *Handler) classify(err error) (int, string) {
	var he *echo.HTTPError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &he):
		if he.Code >= 500 {
			return he.Code, defaultMessage(he.Code)
		}
		if s, ok := he.Message.(string); ok && s != "" && s != http.StatusText(he.Code) {
			return he.Code, s
		}
		return he.Code, defaultMessage(he.Code)
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, defaultMessage(http.StatusNotFound)
	case errors.Is(err, store.ErrConflict):
		return http.StatusConflict, defaultMessage(http.StatusConflict)
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("The request body is too large; the limit is %d bytes.", tooBig.Limit)
	}
	if msg, ok := storageFault(err); ok {
		return http.StatusServiceUnavailable, msg
	}
	return http.StatusInternalServerError, defaultMessage(http.StatusInternalServerError)
}

// storageFault recognises a store error the visitor can do nothing about
// but wait (store.ErrUnavailable), and returns the sentence for the 503
// (N3). Which database it was, and how it said so, is the store's business.
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
		return "The site's storage is full, so it could not save this. Nothing was changed. Please try again later.", true
	case store.ReadOnly, store.Unreachable:
		return "The site cannot save anything right now because its storage is not writable. Nothing was changed. Please try again in a few minutes.", true
	}
	return "The site is too busy to save this right now. Nothing was changed. Please try again in a moment.", true
}

func defaultMessage(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "The request did not make sense to the server. Please check it and try again."
	case http.StatusForbidden:
		return "The server refused this request."
	case http.StatusNotFound:
		return "We could not find that. The link may be old, or it may belong to someone else."
	case http.StatusMethodNotAllowed:
		return "That action is not possible at this address."
	case http.StatusConflict:
		return "Something changed in the meantime. Please reload and try again."
	case http.StatusRequestEntityTooLarge:
		return "The request is too large."
	case http.StatusUnsupportedMediaType:
		return "The server does not understand this kind of content."
	case http.StatusUnprocessableEntity:
		return "That is not allowed here."
	case http.StatusTooManyRequests:
		return "Too many requests at once. Please wait a moment and try again."
	case http.StatusServiceUnavailable:
		return "The site is not ready right now. Please try again in a moment."
	}
	if status >= 500 {
		return "Something went wrong on our side. Please try again in a moment."
	}
	return http.StatusText(status)
}

func headingFor(status int) string {
	switch {
	case status == http.StatusForbidden:
		return "That request was refused"
	case status == http.StatusRequestEntityTooLarge:
		return "That was too much at once"
	case status == http.StatusTooManyRequests:
		return "Slow down a little"
	case status >= 500:
		return "Something went wrong on our side"
	}
	return "That did not work"
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
