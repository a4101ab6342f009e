package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The board colour form stores a cookie, sends the visitor back to a page
// of this site only, and refuses values outside the list (N4).
func TestBoardThemeForm(t *testing.T) {
	t.Parallel()
	site := newFullSite(t)
	v := site.visitor(t)

	rec := v.form("/settings/board", url.Values{"board": {"contrast"}, "back": {"/learn/rook?x=1"}})
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/learn/rook?x=1" {
		t.Fatalf("save = %d to %q, want 303 to /learn/rook?x=1", rec.Code, rec.Header().Get("Location"))
	}
	theme := cookieOf(rec, boardCookie)
	if theme == nil || theme.Value != "contrast" || !theme.HttpOnly || theme.SameSite != http.SameSiteLaxMode {
		t.Fatalf("board cookie = %+v", theme)
	}

	req := httpGet("/learn/rook", v, theme)
	page := site.serve(req)
	if !strings.Contains(page.Body.String(), `<html lang="en" class="board-contrast">`) {
		t.Error("the layout does not put the saved theme on <html>")
	}
	if !strings.Contains(page.Body.String(), `<option value="contrast" selected>`) {
		t.Error("the footer form does not show the saved choice")
	}

	for _, back := range []string{"https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", ""} {
		rec := v.form("/settings/board", url.Values{"board": {"classic"}, "back": {back}})
		if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || loc != "/" {
			t.Errorf("back=%q: %d to %q, want 303 to /", back, rec.Code, loc)
		}
	}
	if rec := v.form("/settings/board", url.Values{"board": {"purple"}}); rec.Code != http.StatusBadRequest {
		t.Errorf("unknown theme = %d, want 400", rec.Code)
	}
	// A forged cookie value is ignored.
	page = site.serve(httpGet("/", v, &http.Cookie{Name: boardCookie, Value: `x" onload="`}))
	if strings.Contains(page.Body.String(), "board-x") || !strings.Contains(page.Body.String(), `<html lang="en">`) {
		t.Error("an unknown cookie value reached the page")
	}
}

// Pages answer with an ETag and revalidate; an unchanged page is a 304.
// Live game pages are never stored.
func TestPagesRevalidateWithETag(t *testing.T) {
	t.Parallel()
	site := newFullSite(t)
	v := site.visitor(t)
	first := site.serve(httpGet("/learn/rook", v))
	etag := first.Header().Get("ETag")
	if first.Code != http.StatusOK || etag == "" || first.Header().Get("Cache-Control") != "private, no-cache" {
		t.Fatalf("page = %d, ETag %q, Cache-Control %q", first.Code, etag, first.Header().Get("Cache-Control"))
	}
	req := httpGet("/learn/rook", v)
	req.Header.Set("If-None-Match", etag)
	if again := site.serve(req); again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Errorf("revalidation = %d with %d bytes, want 304 and no body", again.Code, again.Body.Len())
	}
	id := v.newGame(t, `{"mode":"friend"}`)
	game := site.serve(httpGet("/play/"+id, v))
	if game.Code != http.StatusOK || game.Header().Get("Cache-Control") != "no-store" || game.Header().Get("ETag") != "" {
		t.Errorf("game page = %d, Cache-Control %q, ETag %q; want no-store", game.Code, game.Header().Get("Cache-Control"), game.Header().Get("ETag"))
	}
}

func httpGet(target string, v *siteVisitor, extra ...*http.Cookie) *http.Request {
	req, _ := http.NewRequest(http.MethodGet, target, nil)
	req.AddCookie(v.cookie)
	for _, ck := range extra {
		req.AddCookie(ck)
	}
	return req
}
