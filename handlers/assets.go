package handlers

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"chesstutor/public"
)

// asset is one embedded public file, read and compressed once at start-up:
// assets are served on every first visit, and gzip at the best level costs
// more than the request itself.
type asset struct {
	contentType string
	raw, gz     []byte // gz is nil when compressing does not pay
}

// loadAssets returns every public file in memory, with a gzip copy of the
// text ones. The files are embedded, so they are read and compressed once
// per process and the map is shared by every Handler (the tests build
// dozens); nothing writes to it after this.
var loadAssets = sync.OnceValues(readAssets)

func readAssets() (map[string]asset, error) {
	out := map[string]asset{}
	err := fs.WalkDir(public.Files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(public.Files, name)
		if err != nil {
			return err
		}
		a := asset{contentType: contentType(name), raw: raw}
		if len(raw) >= 512 && !strings.HasSuffix(name, ".png") {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(raw)
			zw.Close()
			if buf.Len() < len(raw) {
				a.gz = buf.Bytes()
			}
		}
		out[name] = a
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("handlers: load public assets: %w", err)
	}
	return out, nil
}

// serveAsset serves an embedded file from /assets/<version>/<path>. The
// current version is cached for a year (the URL changes with the content);
// an old version still gets today's file, but without long caching, so a
// page rendered before a deploy keeps working.
func (h *Handler) serveAsset(c echo.Context) error {
	a, ok := h.assets[c.Param("*")]
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	header := c.Response().Header()
	if c.Param("version") == public.Version {
		header.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		header.Set("Cache-Control", "no-cache")
	}
	if a.gz == nil {
		return c.Blob(http.StatusOK, a.contentType, a.raw)
	}
	header.Add("Vary", "Accept-Encoding")
	if strings.Contains(c.Request().Header.Get("Accept-Encoding"), "gzip") {
		header.Set("Content-Encoding", "gzip")
		return c.Blob(http.StatusOK, a.contentType, a.gz)
	}
	return c.Blob(http.StatusOK, a.contentType, a.raw)
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
	case ".wav":
		return "audio/wav"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}
