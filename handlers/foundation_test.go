package handlers

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"chesstutor/public"
)

// foundation is the full site with a few test-only routes, to exercise
// the middleware without depending on features.
type foundation struct {
	*fullSite
}

func newFoundation(t *testing.T, limits Limits) *foundation {
	t.Helper()
	s := newSite(t, siteOptions{limits: limits})
	api := s.e.Group("/api/test", s.h.rateLimit)
	api.POST("/echo", func(c echo.Context) error {
		var body struct {
			Move string `json:"move"`
			Ply  int    `json:"ply"`
		}
		if err := bindJSON(c, &body); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, body)
	})
	api.GET("/ping", func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]string{"ok": "yes"}) })
	s.e.POST("/test-form", func(c echo.Context) error { return c.String(http.StatusOK, "form accepted") })
	s.e.GET("/test-panic", func(c echo.Context) error { panic("secret internal detail") })
	return &foundation{s}
}

func (f *foundation) do(req *http.Request) *httptest.ResponseRecorder { return f.serve(req) }

func jsonBody(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("body is not JSON: %v: %q", err, rec.Body.String())
	}
	return m
}

// wantJSONError checks the H1 error shape: exactly {"error": "<sentence>"}.
func wantJSONError(t *testing.T, rec *httptest.ResponseRecorder, status int) string {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status = %d, want %d (body %q)", rec.Code, status, rec.Body.String())
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	m := jsonBody(t, rec)
	msg, ok := m["error"].(string)
	code, _ := m["code"].(string)
	if !ok || len(m) != 2 || len(msg) < 10 || code == "" {
		t.Errorf("error body = %v, want exactly {\"error\": \"a sentence\", \"code\": \"a code\"}", m)
	}
	return msg
}

func TestHomePage(t *testing.T) {
	f := newFoundation(t, Limits{})
	rec := f.do(httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET / = %d", rec.Code)
	}
	body := rec.Body.String()
	for _, want := range []string{
		"<title>Learn chess, one step at a time",
		`data-board data-fen="r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"`,
		`href="/learn"`, `href="/practice"`, `href="/quiz"`, `href="/play"`, `href="/games"`,
		`href="` + public.URL("css/site.css") + `"`,
		`id="piece-wK"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, " style=") {
		t.Error("home page has inline script or style, which the CSP blocks")
	}
}

func TestSecurityHeaders(t *testing.T) {
	f := newFoundation(t, Limits{})
	for _, path := range []string{"/", "/api/nope", "/nope", "/healthz"} {
		rec := f.do(httptest.NewRequest(http.MethodGet, path, nil))
		h := rec.Header()
		if got := h.Get("Content-Security-Policy"); got != contentSecurityPolicy {
			t.Errorf("%s: CSP = %q", path, got)
		}
		if !strings.Contains(contentSecurityPolicy, "script-src 'self'") || strings.Contains(contentSecurityPolicy, "unsafe-inline") {
			t.Errorf("CSP allows inline script: %q", contentSecurityPolicy)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: missing secure headers: %v", path, h)
		}
	}
}

// pageToken reads the _csrf field a rendered page carries.
func pageToken(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	m := regexp.MustCompile(`name="_csrf" value="([0-9a-f]*)"`).FindStringSubmatch(rec.Body.String())
	if m == nil {
		t.Fatalf("the page carries no _csrf field")
	}
	return m[1]
}

// firstWrite reads the home page without cookies and posts its first
// stored write (a lesson read) with the page's form as a browser sends
// it: no token (a visitor who has stored nothing has none) and the
// browser's word that the post comes from this site.
func (f *foundation) firstWrite(t *testing.T, tls bool) (page, post *httptest.ResponseRecorder) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	if tls {
		req.Header.Set("X-Forwarded-Proto", "https")
	}
	page = f.do(req)
	if cks := page.Result().Cookies(); len(cks) != 0 {
		t.Fatalf("a page view by a visitor who stored nothing set cookies: %v", cks)
	}
	if tok := pageToken(t, page); tok != "" {
		t.Fatalf("the page of a visitor without a cookie carries a token %q", tok)
	}
	body := url.Values{"_csrf": {""}}.Encode()
	req = httptest.NewRequest(http.MethodPost, "/learn/board/done", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if tls {
		req.Header.Set("X-Forwarded-Proto", "https")
	}
	post = f.do(req)
	if post.Code != http.StatusSeeOther {
		t.Fatalf("first write = %d, want 303: %s", post.Code, post.Body)
	}
	return page, post
}

func TestVisitorCookie(t *testing.T) {
	f := newFoundation(t, Limits{})
	ctx := context.Background()

	// A page view sets no cookie at all and stores nothing (N8).
	f.do(httptest.NewRequest(http.MethodGet, "/", nil))
	if f.countVisitors(t) != 0 {
		t.Error("a page view stored a visitor")
	}
	page, post := f.firstWrite(t, false)
	if ck := visitorCookieOf(page); ck != nil {
		t.Fatalf("a page view set a visitor cookie %q", ck.Value)
	}
	if n := f.countVisitors(t); n != 1 {
		t.Errorf("%d visitors stored after one page view and one write, want 1", n)
	}
	// The first stored write hands out the visitor cookie.
	c := visitorCookieOf(post)
	if c == nil {
		t.Fatal("the first stored write set no visitor cookie")
	}
	// The cookie is the id and its signature (N2, N8).
	if !regexp.MustCompile(`^[0-9a-f]{32}\.[0-9a-f]{32}$`).MatchString(c.Value) {
		t.Errorf("visitor cookie %q is not 128 bits of hex and a signature", c.Value)
	}
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure || c.Path != "/" || c.MaxAge != visitorMaxAge {
		t.Errorf("cookie flags: HttpOnly=%v SameSite=%v Secure=%v Path=%q MaxAge=%d; want HttpOnly, Lax, not Secure over plain HTTP, /, 400 days",
			c.HttpOnly, c.SameSite, c.Secure, c.Path, c.MaxAge)
	}
	if ok, err := f.st.VisitorExists(ctx, cookieID(c.Value)); err != nil || !ok {
		t.Errorf("the first write did not store its visitor: %v, %v", ok, err)
	}

	// A returning visitor keeps the id: no new cookie of either kind.
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.AddCookie(c)
	again := f.do(req)
	if ck := visitorCookieOf(again); ck != nil {
		t.Errorf("returning visitor got a new cookie %q", ck.Value)
	}
	if cks := again.Result().Cookies(); len(cks) != 0 {
		t.Errorf("a returning visitor's page view set cookies: %v", cks)
	}

	// A forged or malformed id is dropped, and a page view still sets no
	// visitor cookie.
	req = httptest.NewRequest(http.MethodGet, "/", nil)
	req.AddCookie(&http.Cookie{Name: visitorCookie, Value: "../../etc/passwd"})
	if nc := visitorCookieOf(f.do(req)); nc != nil {
		t.Errorf("a malformed visitor id got a cookie %q on a page view", nc.Value)
	}

	// Behind a TLS-terminating proxy, the cookie is Secure.
	_, post = f.firstWrite(t, true)
	if sc := visitorCookieOf(post); sc == nil || !sc.Secure {
		t.Errorf("visitor cookie over https is not Secure: %+v", sc)
	}

	// Two first writes get different ids.
	_, a := f.firstWrite(t, false)
	_, b := f.firstWrite(t, false)
	if visitorCookieOf(a).Value == visitorCookieOf(b).Value {
		t.Error("two visitors got the same id")
	}
}

func TestNotFound(t *testing.T) {
	f := newFoundation(t, Limits{})

	rec := f.do(httptest.NewRequest(http.MethodGet, "/no/such/page", nil))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("status = %d, want 404", rec.Code)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type = %q, want HTML", ct)
	}
	if body := rec.Body.String(); !strings.Contains(body, "We could not find that page") || !strings.Contains(body, `class="site-header"`) {
		t.Errorf("404 page is not the styled page: %.300s", body)
	}

	msg := wantJSONError(t, f.do(httptest.NewRequest(http.MethodGet, "/api/no/such/thing", nil)), http.StatusNotFound)
	if strings.Contains(msg, "Not Found") {
		t.Errorf("404 message is the bare status text: %q", msg)
	}
}

func TestPanicShowsPlain500(t *testing.T) {
	f := newFoundation(t, Limits{})
	rec := f.do(httptest.NewRequest(http.MethodGet, "/test-panic", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status = %d, want 500", rec.Code)
	}
	body := rec.Body.String()
	if strings.Contains(body, "secret internal detail") || strings.Contains(body, "goroutine") || strings.Contains(body, ".go:") {
		t.Errorf("500 page leaks internals: %.500s", body)
	}
	if !strings.Contains(body, "Something went wrong on our side") {
		t.Errorf("500 page lacks its sentence")
	}
	if logs := f.log.String(); !strings.Contains(logs, "secret internal detail") || !strings.Contains(logs, "goroutine") {
		t.Errorf("panic and stack not logged: %s", logs)
	}
}

func postJSON(path, body string, hdr map[string]string) *http.Request {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return req
}

func TestCrossOriginJSONPostRefused(t *testing.T) {
	f := newFoundation(t, Limits{})
	body := `{"move":"e2e4","ply":0}`
	cases := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"same origin", map[string]string{"Origin": "http://example.com", "Sec-Fetch-Site": "same-origin"}, 200},
		{"same origin, Origin only", map[string]string{"Origin": "http://example.com"}, 200},
		{"no browser headers (curl)", nil, 200},
		{"cross site", map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, 403},
		{"same site, other origin", map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		{"other Origin, no Sec-Fetch-Site", map[string]string{"Origin": "https://evil.example"}, 403},
		{"null Origin", map[string]string{"Origin": "null"}, 403},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := f.do(postJSON("/api/test/echo", body, c.hdr))
			if c.want == 200 {
				if rec.Code != 200 {
					t.Fatalf("status = %d, want 200 (%s)", rec.Code, rec.Body.String())
				}
				return
			}
			wantJSONError(t, rec, c.want)
		})
	}
}

func TestBodyLimitAndJSONErrors(t *testing.T) {
	f := newFoundation(t, Limits{BodyBytes: 1024})
	big := `{"move":"` + strings.Repeat("a", 5000) + `"}`

	// Announced length over the limit: refused before reading.
	msg := wantJSONError(t, f.do(postJSON("/api/test/echo", big, nil)), http.StatusRequestEntityTooLarge)
	if !strings.Contains(msg, "1024") {
		t.Errorf("413 message does not name the limit: %q", msg)
	}
	// Unannounced length (chunked): refused while decoding.
	req := postJSON("/api/test/echo", big, nil)
	req.ContentLength = -1
	wantJSONError(t, f.do(req), http.StatusRequestEntityTooLarge)

	cases := []struct {
		name, body, ct string
		status         int
		code           string // the stable code
		mention        string // a part of the English words
	}{
		{"broken JSON", `{"move":`, "application/json", 400, "http.json_truncated", "JSON"},
		{"bad JSON", `{"move":e2e4}`, "application/json", 400, "http.json_syntax", "byte 9"},
		{"empty body", ``, "application/json", 400, "http.json_empty", "empty"},
		{"wrong type", `{"ply":"three"}`, "application/json", 400, "http.json_field_type", `"ply" should be a whole number, not a string`},
		{"unknown field", `{"mvoe":"e2e4"}`, "application/json", 400, "http.json_unknown_field", "mvoe"},
		{"two values", `{"ply":1}{"ply":2}`, "application/json", 400, "http.json_more_values", "more than one"},
		{"not JSON", `move=e2e4`, "text/plain", 415, "http.json_content_type", "JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := postJSON("/api/test/echo", c.body, nil)
			req.Header.Set("Content-Type", c.ct)
			rec := f.do(req)
			msg := wantJSONError(t, rec, c.status)
			if code := jsonBody(t, rec)["code"]; code != c.code {
				t.Errorf("code %v, want %s", code, c.code)
			}
			if !strings.Contains(msg, c.mention) {
				t.Errorf("message %q does not mention %q", msg, c.mention)
			}
		})
	}
}

func TestFormPostNeedsCSRFToken(t *testing.T) {
	f := newFoundation(t, Limits{})
	ck := f.newCookie()
	// The page carries the token for this visitor's forms.
	token := csrfToken(cookieID(ck.Value))
	if token == "" || token == csrfToken("ffffffffffffffffffffffffffffffff") {
		t.Fatal("csrf token is empty or not tied to the visitor")
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.AddCookie(ck)
	if got := pageToken(t, f.do(req)); got != token {
		t.Fatalf("the page's token %q, want the visitor's %q", got, token)
	}

	post := func(values url.Values, cookies ...*http.Cookie) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/test-form", strings.NewReader(values.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for _, c := range cookies {
			req.AddCookie(c)
		}
		return f.do(req)
	}
	if rec := post(url.Values{"x": {"1"}}, ck); rec.Code != http.StatusForbidden {
		t.Errorf("form without _csrf: status %d, want 403", rec.Code)
	}
	if rec := post(url.Values{"_csrf": {"0000"}}, ck); rec.Code != http.StatusForbidden {
		t.Errorf("form with a wrong _csrf: status %d, want 403", rec.Code)
	}
	if rec := post(url.Values{"_csrf": {token}}, ck); rec.Code != http.StatusOK {
		t.Errorf("form with the right _csrf: status %d, want 200 (%s)", rec.Code, rec.Body.String())
	}
	if rec := post(url.Values{"_csrf": {token}, "pad": {strings.Repeat("x", 20000)}}, ck); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized form: status %d, want 413", rec.Code)
	}

	// A visitor without a cookie gets no token (and no cookie): the form
	// is taken on the browser's word that it was sent from this site, never
	// on a wrong token.
	page := f.do(httptest.NewRequest(http.MethodGet, "/", nil))
	if cks := page.Result().Cookies(); len(cks) != 0 || pageToken(t, page) != "" {
		t.Fatalf("a page for a visitor without a cookie: cookies %v, token %q", cks, pageToken(t, page))
	}
	postAs := func(token string, headers map[string]string, cookies ...*http.Cookie) int {
		req := httptest.NewRequest(http.MethodPost, "/test-form", strings.NewReader(url.Values{"_csrf": {token}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		for _, c := range cookies {
			req.AddCookie(c)
		}
		return f.do(req).Code
	}
	same := map[string]string{"Sec-Fetch-Site": "same-origin"}
	for _, c := range []struct {
		name    string
		token   string
		headers map[string]string
		cookies []*http.Cookie
		want    int
	}{
		{"no token, from this site", "", same, nil, http.StatusOK},
		{"no token, Origin of this site (no fetch metadata)", "", map[string]string{"Origin": "http://example.com"}, nil, http.StatusOK},
		{"no token, no word from a browser", "", nil, nil, http.StatusForbidden},
		{"no token, from another site", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, nil, http.StatusForbidden},
		{"no token, Origin of another site", "", map[string]string{"Origin": "http://evil.example"}, nil, http.StatusForbidden},
		{"a made-up token, from this site", csrfToken(strings.Repeat("ab", 16)), same, nil, http.StatusForbidden},
		// A visitor with a cookie needs its token, even from this site.
		{"no token with the visitor cookie, from this site", "", same, []*http.Cookie{ck}, http.StatusForbidden},
		{"no token with the visitor cookie, no word from a browser", "", nil, []*http.Cookie{ck}, http.StatusForbidden},
		{"another visitor's token with this cookie", csrfToken(strings.Repeat("cd", 16)), same, []*http.Cookie{ck}, http.StatusForbidden},
	} {
		if got := postAs(c.token, c.headers, c.cookies...); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
}

func TestAPIRateLimit(t *testing.T) {
	f := newFoundation(t, Limits{APIRate: 0.001, APIBurst: 3})
	ck := f.newCookie()
	get := func(c *http.Cookie) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/api/test/ping", nil)
		if c != nil {
			req.AddCookie(c)
		}
		return f.do(req)
	}
	for i := 0; i < 3; i++ {
		if rec := get(ck); rec.Code != http.StatusOK {
			t.Fatalf("request %d within the burst: status %d", i+1, rec.Code)
		}
	}
	rec := get(ck)
	wantJSONError(t, rec, http.StatusTooManyRequests)
	if rec.Header().Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	// Another visitor has its own bucket.
	other := f.newCookie()
	if rec := get(other); rec.Code != http.StatusOK {
		t.Errorf("another visitor was limited too: %d", rec.Code)
	}
	// Pages are not rate limited.
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.AddCookie(ck)
	if rec := f.do(req); rec.Code != http.StatusOK {
		t.Errorf("home page after the API limit: %d", rec.Code)
	}
}

func TestHealthz(t *testing.T) {
	f := newFoundation(t, Limits{})
	if rec := f.do(httptest.NewRequest(http.MethodGet, "/healthz", nil)); rec.Code != http.StatusOK {
		t.Fatalf("healthz = %d", rec.Code)
	}
	f.st.Close()
	rec := f.do(httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("healthz with the database closed = %d, want 503", rec.Code)
	}
}

func TestAssets(t *testing.T) {
	f := newFoundation(t, Limits{})
	cases := []struct {
		path, ct, cache string
		status          int
	}{
		{public.URL("css/site.css"), "text/css", "immutable", 200},
		{public.URL("js/board.js"), "text/javascript", "immutable", 200},
		{public.URL("icons/favicon.svg"), "image/svg+xml", "immutable", 200},
		{"/assets/0123456789ab/css/site.css", "text/css", "no-cache", 200},
		{public.URL("css/nope.css"), "", "", 404},
		{"/assets/" + public.Version + "/../embed.go", "", "", 404},
		{"/assets/" + public.Version + "/%2e%2e/embed.go", "", "", 404},
	}
	for _, c := range cases {
		rec := f.do(httptest.NewRequest(http.MethodGet, c.path, nil))
		if rec.Code != c.status {
			t.Errorf("%s: status %d, want %d", c.path, rec.Code, c.status)
			continue
		}
		if c.status != 200 {
			continue
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, c.ct) {
			t.Errorf("%s: Content-Type %q, want %s", c.path, ct, c.ct)
		}
		if cc := rec.Header().Get("Cache-Control"); !strings.Contains(cc, c.cache) {
			t.Errorf("%s: Cache-Control %q, want %s", c.path, cc, c.cache)
		}
		if visitorCookieOf(rec) != nil {
			t.Errorf("%s: static file set a visitor cookie", c.path)
		}
	}
	req := httptest.NewRequest(http.MethodGet, public.URL("css/site.css"), nil)
	req.Header.Set("Accept-Encoding", "gzip")
	if rec := f.do(req); rec.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("site.css is not gzipped for a client that accepts gzip")
	}
}

func TestHeadAnswersLikeGet(t *testing.T) {
	f := newFoundation(t, Limits{})
	srv := httptest.NewServer(f.e)
	defer srv.Close()
	for _, path := range []string{"/", "/healthz", public.URL("css/site.css")} {
		resp, err := http.Head(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || n != 0 {
			t.Errorf("HEAD %s = %d with %d body bytes, want 200 and none", path, resp.StatusCode, n)
		}
	}
}

func TestSectionFor(t *testing.T) {
	cases := map[string]string{
		"/": "home", "/learn": "learn", "/learn/rook": "learn", "/learn/rook/practice": "practice",
		"/practice": "practice", "/rules": "learn", "/quiz": "quiz", "/play": "play", "/play/abc": "play",
		"/games": "games", "/nope": "",
	}
	for path, want := range cases {
		if got := sectionFor(path); got != want {
			t.Errorf("sectionFor(%q) = %q, want %q", path, got, want)
		}
	}
}
