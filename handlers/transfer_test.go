package handlers

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"chesstutor/transfer"
	"chesstutor/words"
)

// testClock is a clock a test moves by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// transferSite is a site on a clock the test moves, with room for the
// tests' tries of transfer codes unless limits say otherwise.
func transferSite(t *testing.T, l Limits) (*fullSite, *testClock) {
	t.Helper()
	clk := &testClock{t: time.Now()}
	l.APIRate, l.APIBurst = 1e6, 1e6
	return newSite(t, siteOptions{limits: l, logLevel: slog.LevelWarn, now: clk.now}), clk
}

// redeem posts a code to the API from addr ("" for the default address).
func (v *siteVisitor) redeem(code, addr string) *httptest.ResponseRecorder {
	body, _ := json.Marshal(map[string]string{"code": code})
	req := httptest.NewRequest(http.MethodPost, "/api/me/transfer/redeem", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if addr != "" {
		req.RemoteAddr = addr + ":40000"
	}
	req.AddCookie(v.cookie)
	return v.site.serve(req)
}

// wantRefused checks a JSON refusal's status and code.
func wantRefused(t *testing.T, rec *httptest.ResponseRecorder, status int, code, what string) {
	t.Helper()
	var out map[string]string
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	if rec.Code != status || out["code"] != code || out["error"] == "" {
		t.Errorf("%s = %d %s, want %d with code %s and a sentence", what, rec.Code, rec.Body, status, code)
	}
	if visitorCookieOf(rec) != nil && rec.Code != http.StatusOK {
		t.Errorf("%s set a visitor cookie", what)
	}
}

// TestTransferAPI: POST /api/me/transfer makes a code; redeeming it on
// another device (a good code) makes that device the same visitor, with
// the first one's data; a used, wrong, expired or malformed code is
// refused, and refusals store nothing (G28).
func TestTransferAPI(t *testing.T) {
	s, clk := transferSite(t, Limits{})
	ctx := context.Background()
	alice, bob := s.visitor(t), s.visitor(t)
	game := alice.newGame(t, `{"mode":"friend"}`)

	out := alice.api(t, http.MethodPost, "/api/me/transfer", `{}`, http.StatusCreated)
	code, _ := out["code"].(string)
	if n, ok := transfer.Normalize(code); !ok || n != code {
		t.Fatalf("code %q is not a code", code)
	}
	if u, _ := out["url"].(string); u != "http://example.com/continue?code="+code {
		t.Errorf("url %q, want the /continue link with the code", u)
	}
	exp, err := time.Parse(time.RFC3339, out["expires"].(string))
	if err != nil || exp.Sub(clk.now()) > transfer.Lifetime || transfer.Lifetime-exp.Sub(clk.now()) > time.Second {
		t.Errorf("expires %v (%v), want ten minutes from now", out["expires"], err)
	}
	if qr, _ := out["qr"].(string); qr != "/continue/qr.svg?code="+code {
		t.Errorf("qr %q", qr)
	}

	wrong := "ABCDEFGH"
	if wrong == code {
		wrong = "HGFEDCBA"
	}
	wantRefused(t, bob.redeem(wrong, ""), http.StatusNotFound, "transfer.refuse_unknown", "a wrong code")
	wantRefused(t, bob.redeem("ABC", ""), http.StatusBadRequest, "transfer.refuse_malformed", "a malformed code")
	if ok, _ := s.st.VisitorExists(ctx, bob.id); ok {
		t.Error("refused tries stored the visitor who tried")
	}

	// The good code, typed the way a child might.
	typed := strings.ToLower(code[:4] + " " + code[4:])
	rec := bob.redeem(typed, "")
	if rec.Code != http.StatusOK {
		t.Fatalf("redeem a good code = %d: %s", rec.Code, rec.Body)
	}
	ck := visitorCookieOf(rec)
	if ck == nil || cookieID(ck.Value) != alice.id || !ck.HttpOnly {
		t.Fatalf("redeem set cookie %+v, want Alice's id", ck)
	}
	if n := strings.Count(strings.Join(rec.Header().Values("Set-Cookie"), "\n"), visitorCookie+"="); n != 1 {
		t.Errorf("redeem set %d visitor cookies, want one", n)
	}
	bobNow := &siteVisitor{site: s, id: alice.id, cookie: ck}
	me := bobNow.api(t, http.MethodGet, "/api/me", "", http.StatusOK)
	if me["visitor"] != alice.id || !strings.Contains(mustJSON(t, me), game) {
		t.Errorf("the second device's data: %s; want Alice's, with her game", mustJSON(t, me))
	}
	if ok, _ := s.st.VisitorExists(ctx, bob.id); ok {
		t.Error("the second device's own id was stored")
	}

	// Used: a second device cannot use it again.
	carol := s.visitor(t)
	wantRefused(t, carol.redeem(code, ""), http.StatusNotFound, "transfer.refuse_unknown", "a used code")

	// Expired: ten minutes later a code is refused.
	late := alice.api(t, http.MethodPost, "/api/me/transfer", `{}`, http.StatusCreated)["code"].(string)
	clk.advance(transfer.Lifetime)
	wantRefused(t, carol.redeem(late, ""), http.StatusNotFound, "transfer.refuse_unknown", "an expired code")

	// A JSON body that is not {"code"} is refused like any other.
	if rec := carol.do(http.MethodPost, "/api/me/transfer/redeem", "application/json", `{"kode":"x"}`); rec.Code != http.StatusBadRequest {
		t.Errorf("an unknown field = %d, want 400", rec.Code)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTransferTriesLimitedPerAddress: tries of a code, right or wrong,
// are limited per client address (429 with Retry-After); another address
// still gets its own tries.
func TestTransferTriesLimitedPerAddress(t *testing.T) {
	s, _ := transferSite(t, Limits{TransferRate: 0.001, TransferBurst: 3})
	alice, bob := s.visitor(t), s.visitor(t)
	code := alice.api(t, http.MethodPost, "/api/me/transfer", `{}`, http.StatusCreated)["code"].(string)
	for i := range 3 {
		wantRefused(t, bob.redeem("ZZZZZZZZ", "198.51.100.7"), http.StatusNotFound, "transfer.refuse_unknown", "a wrong try")
		_ = i
	}
	rec := bob.redeem(code, "198.51.100.7")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("the fourth try = %d (Retry-After %q), want 429 with Retry-After", rec.Code, rec.Header().Get("Retry-After"))
	}
	wantRefused(t, rec, http.StatusTooManyRequests, "transfer.refuse_too_many", "the fourth try")
	// The form at /continue counts against the same allowance.
	form := url.Values{"code": {code}, "_csrf": {csrfToken(bob.id)}}
	req := httptest.NewRequest(http.MethodPost, "/continue", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = "198.51.100.7:40000"
	req.AddCookie(bob.cookie)
	if rec := s.serve(req); rec.Code != http.StatusTooManyRequests {
		t.Errorf("the form from the same address = %d, want 429", rec.Code)
	}
	// Another address is not held back, and the code still works there.
	if rec := bob.redeem(code, "203.0.113.50"); rec.Code != http.StatusOK {
		t.Errorf("the good code from another address = %d: %s", rec.Code, rec.Body)
	}
}

var codeAttr = regexp.MustCompile(`data-transfer-code="([A-Z0-9]+)"`)

// TestContinueWithoutJavaScript: the button on /learn and the privacy page
// posts a form that shows the code and its QR code; the /continue form
// takes it on the other device and welcomes it; a wrong code shows the
// form again with the reason, in the visitor's language.
func TestContinueWithoutJavaScript(t *testing.T) {
	s, _ := transferSite(t, Limits{})
	alice, bob := s.visitor(t), s.visitor(t)
	for _, page := range []string{"/learn", "/privacy"} {
		body := alice.do(http.MethodGet, page, "", "").Body.String()
		if !strings.Contains(body, `action="/continue/new"`) || !strings.Contains(body, `data-action="transfer"`) {
			t.Errorf("%s has no Continue on another device button", page)
		}
	}
	if !strings.Contains(alice.do(http.MethodGet, "/privacy", "", "").Body.String(), "scrambled form") {
		t.Error("the privacy page does not say how the codes are kept")
	}

	rec := alice.form("/continue/new", url.Values{})
	if rec.Code != http.StatusOK {
		t.Fatalf("POST /continue/new = %d: %s", rec.Code, rec.Body)
	}
	m := codeAttr.FindStringSubmatch(rec.Body.String())
	if m == nil {
		t.Fatalf("no code on the page: %s", rec.Body)
	}
	code := m[1]
	page := rec.Body.String()
	for _, want := range []string{code[:4] + "-" + code[4:], `src="/continue/qr.svg?code=` + code + `"`, "example.com/continue"} {
		if !strings.Contains(page, want) {
			t.Errorf("the code page lacks %q", want)
		}
	}
	if rec.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("the code page may be cached: %q", rec.Header().Get("Cache-Control"))
	}
	qr := alice.do(http.MethodGet, "/continue/qr.svg?code="+code, "", "")
	if qr.Code != http.StatusOK || qr.Header().Get("Content-Type") != "image/svg+xml" ||
		!strings.HasPrefix(qr.Body.String(), "<svg") || strings.Contains(qr.Body.String(), "href") {
		t.Errorf("the QR code: %d %q %.80s", qr.Code, qr.Header().Get("Content-Type"), qr.Body)
	}
	if qr := alice.do(http.MethodGet, "/continue/qr.svg?code=nope", "", ""); qr.Code != http.StatusBadRequest {
		t.Errorf("the QR code of a non-code = %d, want 400", qr.Code)
	}

	// The other device: the page with the code filled in (the QR code's link),
	// and no reason shown before a try.
	form := bob.do(http.MethodGet, "/continue?code="+code, "", "")
	if strings.Contains(form.Body.String(), "data-transfer-error") || strings.Contains(form.Body.String(), "aria-invalid") {
		t.Error("the form shows a reason before anything was tried")
	}
	if form.Code != http.StatusOK || !strings.Contains(form.Body.String(), `value="`+code[:4]+"-"+code[4:]+`"`) {
		t.Errorf("GET /continue?code= = %d, the code not filled in", form.Code)
	}
	wrong := bob.form("/continue", url.Values{"code": {"ZZZZ-ZZZZ"}})
	if wrong.Code != http.StatusNotFound || !strings.Contains(wrong.Body.String(), "data-transfer-error") ||
		!strings.Contains(wrong.Body.String(), `value="ZZZZ-ZZZZ"`) {
		t.Errorf("a wrong code in the form = %d, want 404 with the reason and the code kept", wrong.Code)
	}
	if bad := bob.form("/continue", url.Values{"code": {"??"}}); bad.Code != http.StatusBadRequest {
		t.Errorf("a malformed code in the form = %d, want 400", bad.Code)
	}
	done := bob.form("/continue", url.Values{"code": {code}})
	if done.Code != http.StatusSeeOther || done.Header().Get("Location") != "/continue?done=1" {
		t.Fatalf("the good code in the form = %d → %q", done.Code, done.Header().Get("Location"))
	}
	ck := visitorCookieOf(done)
	if ck == nil || cookieID(ck.Value) != alice.id {
		t.Fatalf("the form set cookie %+v, want Alice's", ck)
	}
	now := &siteVisitor{site: s, id: alice.id, cookie: ck}
	if welcome := now.do(http.MethodGet, "/continue?done=1", "", ""); !strings.Contains(welcome.Body.String(), "data-transfer-done") {
		t.Errorf("no welcome after the code worked: %s", welcome.Body)
	}
}

// TestContinueInSpanishAndRussian: the page and its refusals speak the
// visitor's language.
func TestContinueInSpanishAndRussian(t *testing.T) {
	s, _ := transferSite(t, Limits{})
	v := s.visitor(t)
	errorLine := regexp.MustCompile(`data-transfer-error>([^<]*)<`)
	for lang, want := range map[string][]string{
		"es": {"Escribe tu código", "Ese código no funciona. Puede que tenga una errata, que ya se haya usado o que tenga más de 10 minutos."},
		"ru": {"Введи свой код", "Этот код не подходит. Возможно, в нём опечатка, его уже использовали или прошло больше 10 минут."},
	} {
		values := url.Values{"code": {"ZZZZZZZZ"}, "_csrf": {csrfToken(v.id)}}
		req := httptest.NewRequest(http.MethodPost, "/continue", strings.NewReader(values.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.AddCookie(v.cookie)
		req.AddCookie(&http.Cookie{Name: langCookie, Value: lang})
		body := s.serve(req).Body.String()
		if !strings.Contains(body, want[0]) {
			t.Errorf("%s: the page lacks %q", lang, want[0])
		}
		if m := errorLine.FindStringSubmatch(body); m == nil || !strings.HasPrefix(m[1], want[1]) {
			t.Errorf("%s: the reason is %q, want it to start %q", lang, m, want[1])
		}
	}
	en := words.Default().For("en").T("transfer.refuse_unknown", "Count", 10)
	if !strings.Contains(en, "10 minutes") {
		t.Errorf("English refusal %q", en)
	}
}

// TestForgetMeDeletesPendingCodes: "Forget me" takes the visitor's
// pending code with everything else.
func TestForgetMeDeletesPendingCodes(t *testing.T) {
	s, _ := transferSite(t, Limits{})
	alice, bob := s.visitor(t), s.visitor(t)
	code := alice.api(t, http.MethodPost, "/api/me/transfer", `{}`, http.StatusCreated)["code"].(string)
	if rec := alice.do(http.MethodDelete, "/api/me", "", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("DELETE /api/me = %d", rec.Code)
	}
	wantRefused(t, bob.redeem(code, ""), http.StatusNotFound, "transfer.refuse_unknown", "the code of a forgotten visitor")
}
