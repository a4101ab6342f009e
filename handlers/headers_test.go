package handlers

import (
	"crypto/tls"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// cspDirectives parses a Content-Security-Policy header.
func cspDirectives(h string) map[string][]string {
	out := map[string][]string{}
	for _, part := range strings.Split(h, ";") {
		f := strings.Fields(part)
		if len(f) > 0 {
			out[strings.ToLower(f[0])] = f[1:]
		}
	}
	return out
}

var (
	inlineScript  = regexp.MustCompile(`(?is)<script\b([^>]*)>`)
	inlineHandler = regexp.MustCompile(`(?i)\son[a-z]+\s*=`)
	jsURL         = regexp.MustCompile(`(?i)(href|src|action)\s*=\s*["']?\s*javascript:`)
	leaks         = []string{"goroutine ", ".go:", "runtime/", "panic", "Echo", "echo/v4", "labstack", "go1.", "Go/1", "sqlite", "SQLITE", "sql:", "store:", "handlers:"}
)

// TestSecurityHeadersEverywhere checks, with the site in its default configuration,
// the headers of pages, JSON, assets and errors: a CSP without inline
// script and with frame-ancestors, nosniff, a Referrer-Policy, no version
// banner; and that no page carries inline script or event handlers (N2).
func TestSecurityHeadersEverywhere(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{logLevel: slog.LevelWarn})
	v := s.visitor(t)
	game := v.newGame(t, `{"mode":"friend"}`)
	ex := firstSquaresExercise(s.course)
	targets := []struct {
		path   string
		status int
	}{
		{"/", 200}, {"/learn", 200}, {"/learn/" + ex.Lesson, 200}, {"/learn/" + ex.Lesson + "/practice", 200},
		{"/practice", 200}, {"/rules", 200}, {"/quiz", 200}, {"/play", 200}, {"/play/" + game, 200}, {"/games", 200},
		{"/api/games/" + game, 200}, {"/healthz", 200}, {"/no/such/page", 404}, {"/api/no/such", 404},
		{"/api/games/" + strings.Repeat("0", 32), 404},
	}
	for _, tc := range targets {
		rec := v.do("GET", tc.path, "", "")
		if rec.Code != tc.status {
			t.Errorf("GET %s = %d, want %d", tc.path, rec.Code, tc.status)
			continue
		}
		checkSecurityHeaders(t, "GET "+tc.path, rec)
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			checkNoInlineScript(t, tc.path, rec.Body.String())
		}
	}
	// An asset, by the hashed URL the home page links to.
	home := v.do("GET", "/", "", "").Body.String()
	if m := regexp.MustCompile(`/assets/[^"]+\.css`).FindString(home); m == "" {
		t.Error("the home page links no stylesheet under /assets/")
	} else {
		rec := v.do("GET", m, "", "")
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s = %d", m, rec.Code)
		}
		checkSecurityHeaders(t, "GET "+m, rec)
	}
}

func checkSecurityHeaders(t *testing.T, what string, rec *httptest.ResponseRecorder) {
	t.Helper()
	h := rec.Header()
	csp := cspDirectives(h.Get("Content-Security-Policy"))
	if len(csp) == 0 {
		t.Errorf("%s: no Content-Security-Policy", what)
		return
	}
	script, ok := csp["script-src"]
	if !ok {
		script = csp["default-src"]
	}
	if strings.Join(script, " ") != "'self'" {
		t.Errorf("%s: script-src %v, want only 'self' (no inline script, no eval)", what, script)
	}
	if strings.Join(csp["default-src"], " ") != "'self'" {
		t.Errorf("%s: default-src %v, want 'self'", what, csp["default-src"])
	}
	if fa := strings.Join(csp["frame-ancestors"], " "); fa != "'none'" && fa != "'self'" {
		t.Errorf("%s: frame-ancestors %q, want 'none' or 'self'", what, fa)
	}
	for name, vals := range csp {
		for _, val := range vals {
			if strings.Contains(val, "unsafe-") || val == "*" || strings.HasPrefix(val, "http:") {
				t.Errorf("%s: CSP %s allows %s", what, name, val)
			}
		}
	}
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options %q, want nosniff", what, got)
	}
	switch rp := h.Get("Referrer-Policy"); rp {
	case "no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin":
	default:
		t.Errorf("%s: Referrer-Policy %q, want one that keeps paths off other sites", what, rp)
	}
	for _, banner := range []string{"Server", "X-Powered-By", "X-AspNet-Version"} {
		if v := h.Get(banner); v != "" {
			t.Errorf("%s: %s header %q gives away the software", what, banner, v)
		}
	}
}

func checkNoInlineScript(t *testing.T, path, body string) {
	t.Helper()
	for _, m := range inlineScript.FindAllStringSubmatch(body, -1) {
		if !strings.Contains(m[1], "src=") {
			t.Errorf("%s: inline <script%s> (the CSP would block it)", path, m[1])
		}
	}
	if m := inlineHandler.FindString(body); m != "" {
		t.Errorf("%s: inline event handler %q (the CSP would block it)", path, m)
	}
	if m := jsURL.FindString(body); m != "" {
		t.Errorf("%s: javascript: URL %q", path, m)
	}
	if strings.Contains(body, ` style="`) {
		t.Errorf("%s: a style attribute (the CSP blocks inline style)", path)
	}
}

// TestVisitorCookieFlags checks the cookie: HttpOnly, SameSite=Lax, the
// whole site, long-lived, Secure behind TLS and not over plain HTTP (N2).
func TestVisitorCookieFlags(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{logLevel: slog.LevelWarn})
	for _, tlsOn := range []bool{false, true} {
		// The cookie comes with the first stored write (a game).
		req := httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"mode":"friend"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		if tlsOn {
			req.TLS = &tls.ConnectionState{}
		}
		rec := s.serve(req)
		ck := visitorCookieOf(rec)
		if ck == nil {
			t.Fatalf("TLS %v: no visitor cookie", tlsOn)
		}
		if !ck.HttpOnly {
			t.Errorf("TLS %v: cookie not HttpOnly", tlsOn)
		}
		if ck.SameSite != http.SameSiteLaxMode {
			t.Errorf("TLS %v: SameSite %v, want Lax", tlsOn, ck.SameSite)
		}
		if ck.Path != "/" {
			t.Errorf("TLS %v: cookie path %q, want /", tlsOn, ck.Path)
		}
		if ck.MaxAge < 30*24*60*60 {
			t.Errorf("TLS %v: cookie Max-Age %d s; progress should outlive a month", tlsOn, ck.MaxAge)
		}
		if ck.Secure != tlsOn {
			t.Errorf("TLS %v: cookie Secure = %v", tlsOn, ck.Secure)
		}
		if ck.Domain != "" {
			t.Errorf("TLS %v: cookie Domain %q widens it to other hosts", tlsOn, ck.Domain)
		}
	}
}

// TestErrorPagesRevealNothing provokes 4xx and a real 5xx (the database
// closed under the site) and checks the pages and JSON errors carry a
// sentence for a person and no stack trace, error detail or version.
func TestErrorPagesRevealNothing(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{logLevel: slog.LevelWarn})
	v := s.visitor(t)
	check := func(what string, rec *httptest.ResponseRecorder, status int) {
		t.Helper()
		if rec.Code != status {
			t.Errorf("%s = %d, want %d: %.200s", what, rec.Code, status, rec.Body)
		}
		body := rec.Body.String()
		for _, leak := range leaks {
			if strings.Contains(body, leak) {
				t.Errorf("%s: the error reveals %q: %.300s", what, leak, body)
			}
		}
		if len(strings.TrimSpace(body)) < 20 {
			t.Errorf("%s: no message for the visitor: %q", what, body)
		}
		checkSecurityHeaders(t, what, rec)
	}
	check("404 page", v.do("GET", "/nowhere", "", ""), 404)
	check("405 page", v.form("/rules", url.Values{}), 405)
	check("413 API", v.do("POST", "/api/games", "application/json", `{"mode":"`+big+`"}`), 413)
	check("403 form", v.do("POST", "/play", "application/x-www-form-urlencoded", "mode=friend"), 403)
	check("cross-site API", func() *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"mode":"friend"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.AddCookie(v.cookie)
		return s.serve(req)
	}(), 403)

	// A real server error: the database goes away.
	s.st.Close()
	check("500 page", v.do("GET", "/practice", "", ""), 500)
	check("500 API", v.do("POST", "/api/games", "application/json", `{"mode":"friend"}`), 500)
	if !strings.Contains(s.log.String(), "request failed") {
		t.Errorf("the 500 was not logged for the operator")
	}
}
