package handlers

import (
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/public"
)

// serveAsset serves an embedded file from /assets/<version>/<path>. The
// current version is cached for a year (the URL changes with the content);
// an old version still gets today's file, but without long caching, so a
// page rendered before a deploy keeps working.
func (h *Handler) serveAsset(c echo.Context) error {
	name := c.Param("*")
	if !fs.ValidPath(name) || strings.HasPrefix(name, ".") {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	b, err := fs.ReadFile(public.Files, name)
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	if c.Param("version") == public.Version {
		c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		c.Response().Header().Set("Cache-Control", "no-cache")
	}
	return c.Blob(http.StatusOK, contentType(name), b)
}

// serveFavicon answers the browsers that ask for /favicon.ico.
func (h *Handler) serveFavicon(c echo.Context) error {
	b, err := fs.ReadFile(public.Files, "icons/favicon.svg")
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.Blob(http.StatusOK, "image/svg+xml", b)
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}
