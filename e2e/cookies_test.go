//go:build full

package e2e

import (
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// cookieNames lists the names of the cookies the browser holds for the
// site, sorted.
func cookieNames(t *testing.T, b *Browser, srv *Server) []string {
	t.Helper()
	res, err := chromedp.Call(b.Ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{srv.URL + "/"}})
	if err != nil {
		t.Fatalf("read the cookies: %v", err)
	}
	var names []string
	for _, c := range res.Cookies {
		names = append(names, c.Name)
	}
	sort.Strings(names)
	return names
}

func hasCookie(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// TestForgetMeWithJavaScript: with scripts on, a fresh visitor reads the
// home page and a lesson and is given no visitor cookie; a tap on the
// right square of the lesson's exercise is the first thing kept, so the
// cookie comes then and /api/me shows the solve. After Forget me the
// cookie is gone and opening pages sets no cookie but the visitor's own
// choices (language, board, notation, sound). Issue 38, at 375×740 (touch) and 1280×800.
func TestForgetMeWithJavaScript(t *testing.T) {
	srv := newServer(t)
	for _, vp := range []struct {
		name string
		v    Viewport
	}{{"phone", Phone740}, {"laptop", Laptop800}} {
		t.Run(vp.name, func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp.v))
			b.Open(srv.URL + "/")
			b.Do(chromedp.WaitVisible(chromedp.CSS("main h1")))
			b.Open(srv.URL + "/learn/board")
			b.WaitScript(`[data-lesson-exercise="board-name-e4"]`)
			if got := cookieNames(t, b, srv); hasCookie(got, "visitor") {
				t.Fatalf("reading the home page and a lesson gave a visitor cookie: %v", got)
			}
			if me := evalAwait[string](t, b, `fetch("/api/me").then(r => r.text())`); strings.Contains(me, "board-name-e4") {
				t.Fatalf("/api/me shows the exercise before it was solved: %.300s", me)
			}

			click(b, inEx("board-name-e4", `[data-square="e4"]`))
			waitEval(t, b, "the right verdict", `!!document.querySelector('#ex-board-name-e4 [data-verdict="correct"]')`)
			var after []string
			for i := 0; i < 40; i++ {
				if after = cookieNames(t, b, srv); hasCookie(after, "visitor") {
					break
				}
				evalAwait[bool](t, b, `new Promise(r => setTimeout(() => r(true), 50))`)
			}
			if !hasCookie(after, "visitor") {
				t.Fatalf("solving an exercise gave no visitor cookie: %v", after)
			}
			me := evalAwait[string](t, b, `fetch("/api/me").then(r => r.text())`)
			if !strings.Contains(me, "board-name-e4") {
				t.Errorf("/api/me does not show the solved exercise: %.400s", me)
			}

			b.Open(srv.URL + "/privacy")
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-action="forget-me"]`)))
			click(b, `input[name=confirm]`)
			click(b, `[data-action="forget-me"]`)
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-privacy="forgotten"]`)))
			if got := cookieNames(t, b, srv); hasCookie(got, "visitor") {
				t.Errorf("after Forget me the visitor cookie is still there: %v", got)
			}
			for _, page := range []string{"/", "/learn/board", "/privacy"} {
				b.Open(srv.URL + page)
				b.Do(chromedp.WaitVisible(chromedp.CSS("main h1")))
				if got := cookieNames(t, b, srv); hasCookie(got, "visitor") {
					t.Errorf("opening %s after Forget me brought the visitor cookie back: %v", page, got)
				}
			}
			me = evalAwait[string](t, b, `fetch("/api/me").then(r => r.text())`)
			if strings.Contains(me, "board-name-e4") {
				t.Errorf("/api/me still shows the exercise after Forget me: %.400s", me)
			}
			if got := cookieNames(t, b, srv); hasCookie(got, "visitor") {
				t.Errorf("reading /api/me after Forget me gave a visitor cookie: %v", got)
			}
			for _, n := range cookieNames(t, b, srv) {
				if n != "lang" && n != "board" && n != "notation" && n != "sound" {
					t.Errorf("after Forget me an unexpected cookie %q is set", n)
				}
			}
		})
	}
}
