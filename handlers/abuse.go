package handlers

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/limits"
)

// Abuse resistance (N8): a page view stores nothing, the visitor's row is
// written at their first write, and what strangers can make the server do
// is limited per client address as well as per visitor.

// clientAddress is the key of the per-address limits: the address the
// connection came from, or the client's address in X-Forwarded-For when
// the connection came from a trusted proxy (Echo's IPExtractor, set by
// Register from Limits.TrustedProxies). An IPv6 address counts by its /64
// network, the block one household or one host is given.
func clientAddress(c echo.Context) string {
	ip := net.ParseIP(c.RealIP())
	if ip == nil {
		return c.RealIP()
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.String()
}

// allow takes a token for key, or returns 429 with Retry-After and the
// words of the catalogue key why.
func (h *Handler) allow(c echo.Context, l *limits.Limiter, key, why string) error {
	ok, wait := l.Allow(key, h.now())
	if ok {
		return nil
	}
	c.Response().Header().Set("Retry-After", strconv.Itoa(limits.RetryAfterSeconds(wait)))
	return refuse(http.StatusTooManyRequests, why)
}

// limitPages gives every client address a generous allowance of page and
// API reads; assets and /healthz are not counted.
func (h *Handler) limitPages(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if unsafeMethod(req.Method) || strings.HasPrefix(req.URL.Path, "/assets/") ||
			req.URL.Path == "/healthz" || req.URL.Path == "/favicon.ico" {
			return next(c)
		}
		if err := h.allow(c, h.pageLimiter, clientAddress(c), "http.too_many_pages"); err != nil {
			return err
		}
		return next(c)
	}
}

// storesNothing are the writes that keep nothing about the visitor, so
// they never create a visitor row. Redeeming a transfer code makes the
// device another, stored visitor: its own id is dropped, not stored.
func storesNothing(c echo.Context) bool {
	p := c.Request().URL.Path
	return p == "/settings/board" || p == "/settings/notation" || p == "/api/me" || strings.HasPrefix(p, "/privacy/") ||
		p == "/continue" || p == "/api/me/transfer/redeem"
}

// keepVisitor stores the visitor's row before the first write that keeps
// something (a lesson read, an exercise solved, a quiz round or answer, a
// game, anything a later feature posts), and refreshes its last-seen time
// at most every visitorRefresh. A visitor without a cookie gets it here,
// with the row (identifyVisitor). It runs after the origin and CSRF checks,
// so a refused cross-site post stores nothing. Creating a visitor is
// limited per client address; starting a game is too.
func (h *Handler) keepVisitor(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		id := visitorID(c)
		if !unsafeMethod(req.Method) || id == "" || storesNothing(c) {
			return next(c)
		}
		if isNewGame(req) {
			if err := h.allow(c, h.gameLimiter, clientAddress(c), "http.too_many_games"); err != nil {
				return err
			}
		}
		now := h.now()
		if h.visitors.recent(id, now) {
			return next(c)
		}
		ctx := req.Context()
		known := false
		if !freshVisitor(c) {
			var err error
			if known, err = h.store.VisitorExists(ctx, id); err != nil {
				return fmt.Errorf("handlers: look up visitor: %w", err)
			}
		}
		if !known {
			if err := h.allow(c, h.newVisitorLimiter, clientAddress(c), "http.too_many_visitors"); err != nil {
				return err
			}
		}
		if err := h.store.EnsureVisitor(ctx, id); err != nil {
			return fmt.Errorf("handlers: store visitor: %w", err)
		}
		h.visitors.add(id, now)
		if freshVisitor(c) {
			// The first stored write: from now on the visitor is kept,
			// and a page this request renders carries their token.
			h.setVisitorCookie(c, id)
			c.Set(visitorKeptKey, true)
		}
		return next(c)
	}
}

// isNewGame reports whether the request starts a game (the API or the
// new-game form).
func isNewGame(req *http.Request) bool {
	return req.Method == http.MethodPost && (req.URL.Path == "/api/games" || req.URL.Path == "/play")
}

// visitorStored reports whether id has a row, trusting the cache of
// recently stored visitors first.
func (h *Handler) visitorStored(ctx context.Context, id string) (bool, error) {
	if h.visitors.recent(id, h.now()) {
		return true, nil
	}
	return h.store.VisitorExists(ctx, id)
}

// ipExtractor reads the client's address from the connection, or from
// X-Forwarded-For only when the connection comes from a trusted proxy.
func (h *Handler) ipExtractor() echo.IPExtractor {
	if len(h.limits.TrustedProxies) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range h.limits.TrustedProxies {
		opts = append(opts, echo.TrustIPRange(proxyRange(p)))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// proxyRange reads an IP or CIDR; New has checked it with ParseProxies.
func proxyRange(s string) *net.IPNet {
	_, n, err := ParseProxy(s)
	if err != nil {
		panic(err)
	}
	return n
}

// ParseProxy reads a trusted proxy given as an IP ("10.0.0.5") or a
// network ("10.0.0.0/8").
func ParseProxy(s string) (net.IP, *net.IPNet, error) {
	s = strings.TrimSpace(s)
	if ip, n, err := net.ParseCIDR(s); err == nil {
		return ip, n, nil
	}
	ip := net.ParseIP(s)
	if ip == nil {
		return nil, nil, fmt.Errorf("trusted proxy %q is not an IP address or network", s)
	}
	bits := 32
	if ip.To4() == nil {
		bits = 128
	}
	return ip, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}, nil
}
