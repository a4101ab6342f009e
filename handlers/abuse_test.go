package handlers

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"chesstutor/store"
)

// cookieID returns the visitor id inside a signed cookie value.
func cookieID(value string) string {
	id, _, _ := strings.Cut(value, ".")
	return id
}

// countVisitors counts the stored visitor rows.
func (s *fullSite) countVisitors(t *testing.T) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+s.dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM visitors").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// from sends a cookieless request from a client address.
func (s *fullSite) from(addr, method, target, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.RemoteAddr = addr + ":40000"
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return s.serve(req)
}

// pages are the site's pages a crawler finds.
var crawlPages = []string{"/", "/learn", "/learn/board", "/learn/board/practice", "/practice", "/rules",
	"/quiz", "/play", "/games", "/privacy", "/api/me"}

// TestPageViewsStoreNothing: cookieless page views, and page views with
// the cookie they were handed, store no row (N8).
func TestPageViewsStoreNothing(t *testing.T) {
	s := newFullSite(t)
	for i := 0; i < 3; i++ {
		for _, p := range crawlPages {
			if rec := s.from("198.51.100.7", "GET", p, ""); rec.Code != http.StatusOK {
				t.Fatalf("GET %s = %d", p, rec.Code)
			}
		}
	}
	v := s.visitor(t)
	for _, p := range crawlPages {
		if rec := v.do("GET", p, "", ""); rec.Code != http.StatusOK {
			t.Fatalf("GET %s with a cookie = %d", p, rec.Code)
		}
	}
	if n := s.countVisitors(t); n != 0 {
		t.Fatalf("%d visitor rows after page views only, want 0", n)
	}
	// The first thing worth keeping stores the visitor.
	if rec := v.form("/learn/board/done", url.Values{}); rec.Code != http.StatusSeeOther {
		t.Fatalf("marking a lesson read = %d: %s", rec.Code, rec.Body)
	}
	if ok, err := s.st.VisitorExists(context.Background(), v.id); err != nil || !ok {
		t.Fatalf("the visitor is not stored after reading a lesson: %v, %v", ok, err)
	}
	// A cross-site post is refused before anything is stored.
	stranger := s.visitor(t)
	req := httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"mode":"friend"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.AddCookie(stranger.cookie)
	if rec := s.serve(req); rec.Code != http.StatusForbidden {
		t.Fatalf("cross-site post = %d, want 403", rec.Code)
	}
	if ok, _ := s.st.VisitorExists(context.Background(), stranger.id); ok {
		t.Fatal("a refused cross-site post stored its visitor")
	}
}

// TestSignedCookies: forged, tampered and never-issued ids are refused
// without a lookup; a key in rotation still verifies and the cookie is
// signed again with the new key; a cookie from before signing keeps
// working when its visitor is stored (N2).
func TestSignedCookies(t *testing.T) {
	s := newFullSite(t)
	owner := s.visitor(t)
	game := owner.newGame(t, `{"mode":"friend"}`)
	withCookie := func(h *Handler, value string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/games/"+game, nil)
		req.AddCookie(&http.Cookie{Name: visitorCookie, Value: value})
		rec := httptest.NewRecorder()
		s.e.ServeHTTP(rec, req)
		return rec
	}
	other := cookieSigner{keys: [][]byte{[]byte("another site's key, 32 bytes....")}}
	mac := strings.TrimPrefix(owner.cookie.Value, owner.id+".")
	flipped := []byte(mac)
	flipped[0] ^= 1
	for name, value := range map[string]string{
		"signed with another key": other.sign(owner.id),
		"tampered signature":      owner.id + "." + string(flipped),
		"signature of another id": strings.Repeat("0", 32) + "." + mac,
		"no signature, no row":    strings.Repeat("1", 32),
	} {
		rec := withCookie(s.h, value)
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s: GET the owner's game = %d, want 404", name, rec.Code)
		}
		// The refused id is dropped; a read hands out no new cookie
		// (the first stored write will).
		if ck := visitorCookieOf(rec); ck != nil {
			t.Errorf("%s: a read set a visitor cookie %q", name, ck.Value)
		}
	}
	// A cookie from before signing: the id is stored, so it is kept and
	// signed.
	rec := withCookie(s.h, owner.id)
	if rec.Code != http.StatusOK {
		t.Fatalf("an unsigned cookie of a stored visitor = %d, want 200", rec.Code)
	}
	if ck := visitorCookieOf(rec); ck == nil || ck.Value != owner.cookie.Value {
		t.Errorf("an unsigned cookie was not signed again: %+v", ck)
	}

	// Rotation: the old key still verifies; the reply re-signs.
	oldKey := s.h.cookies.keys[0]
	s.h.cookies = cookieSigner{keys: [][]byte{[]byte("the new key, also 32 bytes......"), oldKey}}
	rec = withCookie(s.h, owner.cookie.Value)
	if rec.Code != http.StatusOK {
		t.Fatalf("a cookie signed by the previous key = %d, want 200", rec.Code)
	}
	ck := visitorCookieOf(rec)
	if ck == nil || cookieID(ck.Value) != owner.id || ck.Value == owner.cookie.Value {
		t.Fatalf("the cookie was not signed again with the new key: %+v", ck)
	}
	if got := withCookie(s.h, ck.Value); got.Code != http.StatusOK || visitorCookieOf(got) != nil {
		t.Errorf("the re-signed cookie = %d (new cookie %v), want 200 and no new cookie", got.Code, visitorCookieOf(got) != nil)
	}
}

// limited builds a site with small per-address limits.
func limited(t *testing.T, l Limits) *fullSite {
	t.Helper()
	l.APIRate, l.APIBurst = 1e6, 1e6
	return newSite(t, siteOptions{limits: l, logLevel: slog.LevelWarn})
}

func wantTooMany(t *testing.T, rec *httptest.ResponseRecorder, what string) {
	t.Helper()
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("%s = %d, want 429: %s", what, rec.Code, rec.Body)
	}
	if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s < 1 {
		t.Errorf("%s: Retry-After %q, want whole seconds", what, rec.Header().Get("Retry-After"))
	}
	if !strings.Contains(rec.Body.String(), "Please wait") {
		t.Errorf("%s: no sentence a person reads: %s", what, rec.Body)
	}
}

// TestAnonymousWritesLimitedPerAddress: cookieless game creation from one
// address stops at the allowance with 429 + Retry-After; another address
// is not affected; X-Forwarded-For counts only from a trusted proxy.
func TestAnonymousWritesLimitedPerAddress(t *testing.T) {
	s := limited(t, Limits{VisitorRate: 0.001, VisitorBurst: 5, GameRate: 0.001, GameBurst: 100})
	for i := 0; i < 5; i++ {
		if rec := s.from("203.0.113.9", "POST", "/api/games", `{"mode":"friend"}`); rec.Code != http.StatusCreated {
			t.Fatalf("game %d = %d: %s", i+1, rec.Code, rec.Body)
		}
	}
	wantTooMany(t, s.from("203.0.113.9", "POST", "/api/games", `{"mode":"friend"}`), "the sixth new visitor")
	// A forged X-Forwarded-For from a client that is not a proxy changes nothing.
	req := httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"mode":"friend"}`))
	req.RemoteAddr = "203.0.113.9:1"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", "192.0.2.77")
	wantTooMany(t, s.serve(req), "a new visitor with a forged X-Forwarded-For")
	if rec := s.from("203.0.113.10", "POST", "/api/games", `{"mode":"friend"}`); rec.Code != http.StatusCreated {
		t.Fatalf("another address = %d, want 201", rec.Code)
	}
	if n := s.countVisitors(t); n != 6 {
		t.Fatalf("%d visitors stored, want the allowance 5 and 1 from the other address", n)
	}

	// Games per address, for a visitor with a cookie.
	g := limited(t, Limits{GameRate: 0.001, GameBurst: 3})
	v := g.visitor(t)
	for i := 0; i < 3; i++ {
		v.newGame(t, `{"mode":"friend"}`)
	}
	wantTooMany(t, v.do("POST", "/api/games", "application/json", `{"mode":"friend"}`), "the fourth game")
	// Moves in a game are not games started.
	v.api(t, "GET", "/api/me", "", http.StatusOK)

	// Behind a trusted proxy, each client behind it has its own allowance.
	p := limited(t, Limits{VisitorRate: 0.001, VisitorBurst: 1, TrustedProxies: []string{"10.0.0.0/8"}})
	for i, client := range []string{"192.0.2.1", "192.0.2.2"} {
		req := httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"mode":"friend"}`))
		req.RemoteAddr = "10.1.2.3:5555"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", client)
		if rec := p.serve(req); rec.Code != http.StatusCreated {
			t.Fatalf("client %d behind the proxy = %d, want 201", i+1, rec.Code)
		}
	}
	req = httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"mode":"friend"}`))
	req.RemoteAddr = "10.1.2.3:5555"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", "192.0.2.1")
	wantTooMany(t, p.serve(req), "the first client behind the proxy again")
}

// TestPagesLimitedPerAddress: pages have a (generous) per-address limit
// too, answered with the styled page, Retry-After and a sentence.
func TestPagesLimitedPerAddress(t *testing.T) {
	s := limited(t, Limits{PageRate: 0.001, PageBurst: 4})
	for i := 0; i < 4; i++ {
		if rec := s.from("198.51.100.1", "GET", "/learn", ""); rec.Code != http.StatusOK {
			t.Fatalf("page %d = %d", i+1, rec.Code)
		}
	}
	rec := s.from("198.51.100.1", "GET", "/learn", "")
	wantTooMany(t, rec, "the fifth page")
	if !strings.Contains(rec.Header().Get("Content-Type"), "text/html") {
		t.Errorf("a refused page is %q, want the HTML error page", rec.Header().Get("Content-Type"))
	}
	// Assets are not pages.
	if rec := s.from("198.51.100.1", "GET", "/healthz", ""); rec.Code != http.StatusOK {
		t.Errorf("/healthz from a limited address = %d", rec.Code)
	}
}

// TestClassroomBehindOneAddress: with the default limits, 30 children
// behind one school address each open a few pages and start a game within
// a minute; nobody is refused (N8).
func TestClassroomBehindOneAddress(t *testing.T) {
	s := newSite(t, siteOptions{logLevel: slog.LevelWarn}) // the defaults, as main.go runs
	for child := 0; child < 30; child++ {
		var cookie *http.Cookie
		for _, p := range []string{"/", "/learn", "/learn/board", "/play", "/play"} {
			req := httptest.NewRequest("GET", p, nil) // RemoteAddr 192.0.2.1 for everyone
			if cookie != nil {
				req.AddCookie(cookie)
			}
			rec := s.serve(req)
			if rec.Code != http.StatusOK {
				t.Fatalf("child %d: GET %s = %d", child+1, p, rec.Code)
			}
			if ck := visitorCookieOf(rec); ck != nil {
				t.Fatalf("child %d: GET %s set a visitor cookie", child+1, p)
			}
		}
		// Starting the game is the first stored write: it hands out the cookie.
		req := httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"mode":"computer","level":1,"color":"white"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		rec := s.serve(req)
		cookie = visitorCookieOf(rec)
		if rec.Code != http.StatusCreated || cookie == nil {
			t.Fatalf("child %d: POST /api/games = %d, cookie %v: %s", child+1, rec.Code, cookie, rec.Body)
		}
		var game struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &game); err != nil {
			t.Fatal(err)
		}
		v := &siteVisitor{site: s, id: cookieID(cookie.Value), cookie: cookie}
		id := game.ID
		v.api(t, "POST", "/api/games/"+id+"/moves", `{"move":"e2e4","ply":0}`, http.StatusOK)
	}
	if n := s.countVisitors(t); n != 30 {
		t.Fatalf("%d visitors stored, want 30", n)
	}
}

// TestLimiterMemoryStaysFlat: thousands of fake cookies and one address
// leave the limiters holding a handful of keys.
func TestLimiterMemoryStaysFlat(t *testing.T) {
	s := newFullSite(t)
	for i := 0; i < 5000; i++ {
		req := httptest.NewRequest("POST", "/api/games/"+strings.Repeat("0f", 16)+"/moves", strings.NewReader(`{"move":"e2e4","ply":0}`))
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(&http.Cookie{Name: visitorCookie, Value: strconv.Itoa(i) + strings.Repeat("a", 31) + ".x"})
		s.serve(req)
	}
	h := s.h
	if n := h.apiLimiter.Len() + h.pageLimiter.Len() + h.newVisitorLimiter.Len() + h.gameLimiter.Len(); n > 4 {
		t.Fatalf("limiters hold %d keys after 5000 fake cookies from one address, want a few", n)
	}
}

// TestDownloadAndForgetMe: GET /api/me and the download form give what is
// stored; DELETE /api/me and the forget form delete every row of the
// visitor and clear the cookie; another visitor keeps everything.
func TestDownloadAndForgetMe(t *testing.T) {
	s := newFullSite(t)
	ctx := context.Background()
	fill := func(v *siteVisitor) string {
		if rec := v.form("/learn/board/done", url.Values{}); rec.Code != http.StatusSeeOther {
			t.Fatalf("lesson done = %d", rec.Code)
		}
		v.startQuiz(t)
		return v.newGame(t, `{"mode":"friend"}`)
	}
	alice, bob := s.visitor(t), s.visitor(t)
	aliceGame, bobGame := fill(alice), fill(bob)

	var got myData
	if err := json.Unmarshal(alice.do("GET", "/api/me", "", "").Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	stored, err := s.st.ExportVisitor(ctx, alice.id)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(stored.Tables)
	gotJSON, _ := json.Marshal(got.Tables)
	if got.Visitor != alice.id || string(gotJSON) != string(wantJSON) {
		t.Fatalf("GET /api/me = %s\nwant what is stored: %s", gotJSON, wantJSON)
	}
	if !strings.Contains(string(gotJSON), aliceGame) || strings.Contains(string(gotJSON), bobGame) {
		t.Fatalf("GET /api/me does not hold exactly Alice's game: %s", gotJSON)
	}
	rec := alice.form("/privacy/download", url.Values{})
	if rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Content-Disposition"), "attachment") {
		t.Fatalf("download form = %d %q", rec.Code, rec.Header().Get("Content-Disposition"))
	}
	var file myData
	if err := json.Unmarshal(rec.Body.Bytes(), &file); err != nil {
		t.Fatalf("the download is not JSON: %v", err)
	}
	if fileJSON, _ := json.Marshal(file.Tables); string(fileJSON) != string(wantJSON) {
		t.Fatalf("the downloaded file differs from what is stored")
	}

	// The form without its tick deletes nothing.
	if rec := alice.form("/privacy/forget", url.Values{}); rec.Code != http.StatusBadRequest ||
		!strings.Contains(rec.Body.String(), "Nothing was deleted") {
		t.Fatalf("forget without the tick = %d", rec.Code)
	}
	if ok, _ := s.st.VisitorExists(ctx, alice.id); !ok {
		t.Fatal("forget without the tick deleted the visitor")
	}
	rec = alice.form("/privacy/forget", url.Values{"confirm": {"yes"}})
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/privacy?forgotten=1" {
		t.Fatalf("forget form = %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	if ck := visitorCookieOf(rec); ck == nil || ck.MaxAge >= 0 {
		t.Fatalf("forget did not clear the cookie: %+v", ck)
	}
	if _, err := s.st.ExportVisitor(ctx, alice.id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Alice's rows after forgetting: %v", err)
	}
	if dump := s.snapshot(t); strings.Contains(dump, alice.id) || strings.Contains(dump, aliceGame) || !strings.Contains(dump, bobGame) {
		t.Fatalf("after forgetting Alice the database still names her, or lost Bob:\n%s", dump)
	}
	page := alice.do("GET", "/privacy?forgotten=1", "", "")
	if !strings.Contains(page.Body.String(), "has been deleted") {
		t.Errorf("the privacy page does not confirm the deletion")
	}

	// The API: 204, cookie cleared, nothing of Bob left.
	rec = bob.do("DELETE", "/api/me", "", "")
	if rec.Code != http.StatusNoContent {
		t.Fatalf("DELETE /api/me = %d", rec.Code)
	}
	if ck := visitorCookieOf(rec); ck == nil || ck.MaxAge >= 0 {
		t.Fatalf("DELETE /api/me did not clear the cookie")
	}
	if dump := s.snapshot(t); strings.Contains(dump, bob.id) || strings.Contains(dump, bobGame) {
		t.Fatalf("after DELETE /api/me the database still names Bob:\n%s", dump)
	}
	if n := s.countVisitors(t); n != 0 {
		t.Fatalf("%d visitors left", n)
	}
	// A cross-site DELETE is refused.
	carol := s.visitor(t)
	carol.newGame(t, `{"mode":"friend"}`)
	req := httptest.NewRequest("DELETE", "/api/me", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.AddCookie(carol.cookie)
	if rec := s.serve(req); rec.Code != http.StatusForbidden {
		t.Fatalf("cross-site DELETE /api/me = %d, want 403", rec.Code)
	}
}

// TestPrivacyPage: linked from every page's footer; says how long things
// are kept, with the form fields the forms need.
func TestPrivacyPage(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	home := v.do("GET", "/", "", "").Body.String()
	if !strings.Contains(home, `href="/privacy"`) {
		t.Fatal("the footer does not link the privacy page")
	}
	body := v.do("GET", "/privacy", "", "").Body.String()
	for _, want := range []string{"a year", "30 days", "20", `action="/privacy/download"`, `action="/privacy/forget"`,
		`name="_csrf"`, `name="confirm"`, "Nothing is kept about you yet"} {
		if !strings.Contains(body, want) {
			t.Errorf("privacy page lacks %q", want)
		}
	}
	v.newGame(t, `{"mode":"friend"}`)
	if body := v.do("GET", "/privacy", "", "").Body.String(); strings.Contains(body, "Nothing is kept about you yet") {
		t.Error("the privacy page says nothing is kept after a game was stored")
	}
}

// TestForgottenElsewhereAsksToReload: a visitor forgotten by another
// instance (here: straight in the store) while this one still trusts its
// cached id gets a 409 with a sentence, not a 500, and the next write
// stores the visitor afresh (N8, issue 18).
func TestForgottenElsewhereAsksToReload(t *testing.T) {
	s := newFullSite(t)
	ctx := context.Background()
	v := s.visitor(t)
	if rec := v.form("/learn/board/done", url.Values{}); rec.Code != http.StatusSeeOther {
		t.Fatalf("lesson done = %d", rec.Code)
	}
	if err := s.st.ForgetVisitor(ctx, v.id); err != nil {
		t.Fatal(err)
	}
	rec := v.form("/learn/setting-up/done", url.Values{})
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "Reload the page") {
		t.Fatalf("write after a forget elsewhere = %d: %s", rec.Code, rec.Body.String())
	}
	if rec := v.form("/learn/setting-up/done", url.Values{}); rec.Code != http.StatusSeeOther {
		t.Fatalf("the next write = %d, want the visitor stored afresh", rec.Code)
	}
	if ok, err := s.st.VisitorExists(ctx, v.id); err != nil || !ok {
		t.Fatalf("visitor stored again: %v, %v", ok, err)
	}
}
