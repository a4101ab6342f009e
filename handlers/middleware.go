package handlers

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/store"
)

const (
	visitorKey      = "visitor"
	freshVisitorKey = "fresh-visitor"
	visitorCookie   = "visitor"
	// visitorMaxAge is the longest lifetime browsers accept (400 days).
	visitorMaxAge = 400 * 24 * 60 * 60
)

// contentSecurityPolicy allows only the site's own scripts, styles and
// images: no inline script, no style attributes, no framing (N2).
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// headAsGet answers HEAD like GET (monitors and curl -I use it): the
// request is routed as GET and the body the handler writes is dropped.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if req := c.Request(); req.Method == http.MethodHead {
			req.Method = http.MethodGet // Echo routes this very request
			c.Response().Writer = headWriter{c.Response().Writer}
		}
		return next(c)
	}
}

// headWriter keeps the status and headers of a response and drops its body.
type headWriter struct{ http.ResponseWriter }

func (w headWriter) Write(p []byte) (int, error) { return len(p), nil }

func (w headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests writes one structured log line per request.
func (h *Handler) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		if err := next(c); err != nil {
			c.Error(err)
		}
		req, res := c.Request(), c.Response()
		h.log.Info("request",
			"method", req.Method,
			"path", redactPath(req.URL.Path),
			"status", res.Status,
			"bytes", res.Size,
			"ms", float64(time.Since(start).Microseconds())/1000,
			"visitor", shortID(visitorID(c)),
		)
		return nil
	}
}

// redactPath keeps teacher links out of the logs: the secret in
// /teach/{secret} and /api/teach/{secret} is a capability (issue 33).
func redactPath(p string) string {
	for _, prefix := range []string{"/teach/", "/api/teach/"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			_, tail, _ := strings.Cut(rest, "/")
			if tail != "" {
				tail = "/" + tail
			}
			return prefix + "…" + tail
		}
	}
	return p
}

// shortID keeps logs useful without writing whole visitor ids into them.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// recoverPanics turns a panic into a plain 500; the stack goes to the log
// only, never to the visitor.
func (h *Handler) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				h.log.Error("panic", "method", c.Request().Method, "path", c.Request().URL.Path,
					"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = echo.NewHTTPError(http.StatusInternalServerError)
			}
		}()
		return next(c)
	}
}

// secureHeaders sets the security headers on every response.
func (h *Handler) secureHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		hd := c.Response().Header()
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		return next(c)
	}
}

// limitBody refuses bodies over the limit with 413 before reading them
// when the length is announced, and caps the reader otherwise.
func (h *Handler) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.ContentLength > h.limits.BodyBytes {
			return refuse(http.StatusRequestEntityTooLarge, "error.body_too_large", "Limit", h.limits.BodyBytes)
		}
		if req.Body != nil {
			req.Body = http.MaxBytesReader(c.Response(), req.Body, h.limits.BodyBytes)
		}
		return next(c)
	}
}

// identifyVisitor reads the visitor's id from their signed, HttpOnly,
// SameSite=Lax cookie (Secure over TLS) (N2). A visitor without one gets
// a random 128-bit id for this request only, and no cookie: the cookie is
// handed out by keepVisitor at their first stored write, so a page view
// stores nothing and sets no visitor cookie (N8), and after "Forget me"
// none comes back until the visitor keeps something. A forged or
// never-issued id fails the signature and counts as no cookie, without
// touching the database.
//
// Cookies from before signing (a bare id) keep working when their id has
// a stored row: the id is kept and the cookie signed again. A bare id
// without a row is refused like a forged one.
func (h *Handler) identifyVisitor(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		path := c.Request().URL.Path
		if strings.HasPrefix(path, "/assets/") || path == "/healthz" || path == "/favicon.ico" {
			return next(c)
		}
		id, reissue := "", false
		if ck, err := c.Cookie(visitorCookie); err == nil {
			var stale, ok bool
			if id, stale, ok = h.cookies.verify(ck.Value); ok {
				reissue = stale
			} else if validVisitorID(ck.Value) {
				known, err := h.visitorStored(c.Request().Context(), ck.Value)
				if err != nil {
					return fmt.Errorf("handlers: look up visitor: %w", err)
				}
				if known {
					id, reissue = ck.Value, true
				}
			}
		}
		if id == "" {
			var err error
			if id, err = newVisitorID(); err != nil {
				return err
			}
			c.Set(freshVisitorKey, true)
		}
		if reissue {
			h.setVisitorCookie(c, id)
		}
		c.Set(visitorKey, id)
		return next(c)
	}
}

// setVisitorCookie hands the visitor their signed id.
func (h *Handler) setVisitorCookie(c echo.Context, id string) {
	c.SetCookie(&http.Cookie{
		Name:     visitorCookie,
		Value:    h.cookies.sign(id),
		Path:     "/",
		MaxAge:   visitorMaxAge,
		HttpOnly: true,
		Secure:   overTLS(c.Request()),
		SameSite: http.SameSiteLaxMode,
	})
}

// clearVisitorCookies removes the visitor's cookie and the CSRF cookie
// ("forget me").
func clearVisitorCookies(c echo.Context) {
	for _, name := range []string{visitorCookie, csrfCookie} {
		c.SetCookie(&http.Cookie{
			Name: name, Value: "", Path: "/", MaxAge: -1,
			HttpOnly: true, Secure: overTLS(c.Request()), SameSite: http.SameSiteLaxMode,
		})
	}
}

// freshVisitor reports whether the visitor's id was made for this request
// (no cookie, or a refused one): such a visitor has nothing stored.
func freshVisitor(c echo.Context) bool {
	fresh, _ := c.Get(freshVisitorKey).(bool)
	return fresh
}

// overTLS reports whether the visitor reached us over HTTPS, directly or
// through a TLS-terminating proxy that says so.
func overTLS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// newVisitorID and validVisitorID take the form of every record id from
// the store (store.NewID, store.ValidID).
func newVisitorID() (string, error) { return store.NewID(), nil }

func validVisitorID(s string) bool { return store.ValidID(s) }

// knownVisitors remembers ids stored recently, so a returning visitor
// costs no database write per request; after visitorRefresh the next write
// refreshes the row's last-seen time (retention counts from it). It forgets
// everything when full; each visitor's next write then stores
// (idempotently) again.
type knownVisitors struct {
	mu  sync.Mutex
	ids map[string]time.Time
	max int
}

// visitorRefresh is how often a visitor's last-seen time is refreshed. It
// must stay well below the retention job's grace time for visitors with
// nothing stored, so that a row this cache vouches for is never deleted.
const visitorRefresh = time.Hour

func newKnownVisitors(max int) *knownVisitors {
	return &knownVisitors{ids: map[string]time.Time{}, max: max}
}

// recent reports whether id was stored less than visitorRefresh ago.
func (k *knownVisitors) recent(id string, now time.Time) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	at, ok := k.ids[id]
	return ok && now.Sub(at) < visitorRefresh
}

func (k *knownVisitors) add(id string, now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.ids) >= k.max {
		k.ids = map[string]time.Time{}
	}
	k.ids[id] = now
}

func (k *knownVisitors) forget(id string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.ids, id)
}

func unsafeMethod(m string) bool {
	return m != http.MethodGet && m != http.MethodHead && m != http.MethodOptions
}

// checkOrigin refuses cross-site writes: browsers send Sec-Fetch-Site and
// Origin on every POST, so a request from another site is recognised and
// refused with 403. Requests without either header (curl, scripts) are not
// from a browser and cannot carry a victim's cookie by accident.
func (h *Handler) checkOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if !unsafeMethod(req.Method) {
			return next(c)
		}
		if site := req.Header.Get("Sec-Fetch-Site"); site != "" {
			if site != "same-origin" && site != "none" {
				return refuse(http.StatusForbidden, "http.cross_site")
			}
			return next(c)
		}
		if origin := req.Header.Get("Origin"); origin != "" {
			u, err := url.Parse(origin)
			if err != nil || origin == "null" || u.Host != req.Host {
				return refuse(http.StatusForbidden, "http.cross_site")
			}
		}
		return next(c)
	}
}

// csrfToken derives the value of the hidden _csrf field from a secret
// the browser holds in an HttpOnly cookie: the visitor's own id. Another
// site cannot read the cookie, so it cannot compute the token, and the
// token does not reveal the id. It survives restarts and works across
// instances.
func csrfToken(secret string) string {
	if secret == "" {
		return ""
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("chesstutor csrf v1"))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// csrfCookie is the session cookie an earlier version handed to visitors
// without a visitor cookie; forget-me still clears one a browser holds.
const csrfCookie = "csrf"

// visitorKeptKey marks a request that stored a new visitor and handed
// out their cookie: the page it renders (a refused join, say) is theirs.
const visitorKeptKey = "visitor-kept"

// pageCSRF is the token the page's forms carry, bound to the visitor's id.
// A visitor who has stored nothing has no cookie and gets no token: no
// cookie is set until the first stored write (N8), and their forms rest on
// the browser's proof of origin (sameOriginBrowser) instead.
func (h *Handler) pageCSRF(c echo.Context) string {
	kept, _ := c.Get(visitorKeptKey).(bool)
	if visitorID(c) == "" || (freshVisitor(c) && !kept) {
		return ""
	}
	return csrfToken(visitorID(c))
}

// sameOriginBrowser reports whether a browser said that the request comes
// from this site's own pages: Sec-Fetch-Site "same-origin", or, from a
// browser without fetch metadata, an Origin naming this host. Every
// browser in use sends one of them on a POST; curl and scripts send
// neither, and cannot carry a victim's cookie by accident.
func sameOriginBrowser(req *http.Request) bool {
	if site := req.Header.Get("Sec-Fetch-Site"); site != "" {
		return site == "same-origin"
	}
	origin := req.Header.Get("Origin")
	if origin == "" || origin == "null" {
		return false
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == req.Host
}

// checkCSRF guards every form post outside /api (the JSON API relies on
// checkOrigin). A visitor with a cookie must send the token bound to it.
// A visitor without one has no token (no cookie is set before the first
// stored write), and their form is taken only when the browser proves it
// was sent from this site. Anything else is refused in words ("reload the
// page"): also the rare form served before another tab's first save.
func (h *Handler) checkCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if !unsafeMethod(req.Method) || isAPI(req.URL.Path) || visitorID(c) == "" {
			return next(c)
		}
		mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
		var err error
		if mt == "multipart/form-data" {
			err = req.ParseMultipartForm(h.limits.BodyBytes)
		} else {
			err = req.ParseForm()
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return refuse(http.StatusRequestEntityTooLarge, "http.form_too_large", "Limit", tooBig.Limit)
			}
			return refuse(http.StatusBadRequest, "http.form_unreadable")
		}
		got := req.PostFormValue("_csrf")
		var ok bool
		if freshVisitor(c) {
			ok = got == "" && sameOriginBrowser(req)
		} else {
			ok = got != "" && hmac.Equal([]byte(got), []byte(csrfToken(visitorID(c))))
		}
		if !ok {
			return refuse(http.StatusForbidden, "http.form_expired")
		}
		return next(c)
	}
}

// rateLimit caps /api requests per visitor, or per client address for a
// visitor without a cookie yet (each of whose requests has a new id), and
// answers 429 with Retry-After when the bucket is empty.
func (h *Handler) rateLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		key := visitorID(c)
		if key == "" || freshVisitor(c) {
			key = "ip:" + clientAddress(c)
		}
		if err := h.allow(c, h.apiLimiter, key, "error.status_429"); err != nil {
			return err
		}
		return next(c)
	}
}

// health answers 200 when the database answers, 503 otherwise.
func (h *Handler) health(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	c.Response().Header().Set("Cache-Control", "no-store")
	if err := h.store.Ping(ctx); err != nil {
		h.log.Error("health check failed", "err", err)
		const code = "http.database_down"
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"error": h.w(c).T(code), "code": code})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}
