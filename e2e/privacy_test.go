//go:build full

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPrivacyWithoutJavaScript: with JavaScript off, a visitor who read a
// lesson finds the privacy page from the footer, sees that something is
// kept, is stopped by the tick box, then forgets themselves; the page
// confirms and their progress is gone. The page is audited with axe-core
// and photographed at phone and laptop sizes.
func TestPrivacyWithoutJavaScript(t *testing.T) {
	srv := newServer(t)
	// axe-core needs JavaScript: audit in a browser that runs it, light and dark.
	script := axeScript(t)
	for _, dark := range []bool{false, true} {
		opts := []BrowserOption{WithTimeout(2 * time.Minute)}
		if dark {
			opts = append(opts, WithDarkScheme())
		}
		b := newBrowser(t, opts...)
		b.Open(srv.URL + "/privacy")
		b.Do(chromedp.WaitVisible(chromedp.CSS("main h1")))
		for _, v := range runAxe(t, b, script) {
			if v.Impact == "serious" || v.Impact == "critical" {
				t.Errorf("axe (dark %v): %s [%s] on %d element(s)", dark, v.ID, v.Impact, len(v.Nodes))
			}
		}
		if dark {
			b.Screenshot("privacy-dark-1280")
		}
	}
	for _, vp := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 390, Height: 844, Mobile: true}, {Width: 1366, Height: 768}} {
		t.Run(fmt.Sprint(vp.Width), func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp), WithoutJS(), WithTimeout(2*time.Minute))
			b.Open(srv.URL + "/learn/board")
			// The lesson's primary Next button records it as read (a form).
			b.Do(chromedp.Click(chromedp.CSS(`form[action$="/done"] button[type=submit]`)))
			// Wait for the post's redirect to the next lesson, so the
			// footer click cannot cut the form post short.
			gameWait(t, b, `location.pathname === "/learn/setting-up" && document.readyState === "complete"`)
			b.Do(chromedp.Click(chromedp.CSS(`footer a[href="/privacy"]`)))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-action="forget-me"]`)))
			body := Eval[string](b, `document.querySelector("main").innerText`)
			for _, want := range []string{"a year", "30 days", "Get a file with everything kept about you"} {
				if !strings.Contains(body, want) {
					t.Errorf("privacy page lacks %q", want)
				}
			}
			if sw := Eval[int64](b, `document.documentElement.scrollWidth`); sw > vp.Width {
				t.Errorf("the privacy page scrolls sideways at %d px (%d)", vp.Width, sw)
			}
			if vp.Mobile {
				small := Eval[[]string](b, `[...document.querySelectorAll("main button, main label")]
					.filter(e => e.getBoundingClientRect().height < 43.5).map(e => e.textContent.trim().slice(0, 30))`)
				if len(small) > 0 {
					t.Errorf("touch targets under 44 px: %v", small)
				}
			}
			b.Screenshot(fmt.Sprintf("privacy-%d", vp.Width))
			if vp.Width != 375 {
				return
			}

			// The tick box is required; without it the browser would refuse
			// to send, so remove the requirement to see the server's answer.
			Eval[bool](b, `document.querySelector('input[name=confirm]').required = false`)
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="forget-me"]`)))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`#forget-confirm-needed`)))
			b.Do(chromedp.Click(chromedp.CSS(`input[name=confirm]`)))
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="forget-me"]`)))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-privacy="forgotten"]`)))
			b.Screenshot("privacy-forgotten-375")
			if txt := Eval[string](b, `document.querySelector("main").innerText`); !strings.Contains(txt, "Nothing is kept about you yet") {
				t.Errorf("after forgetting, the page does not say nothing is kept: %.300s", txt)
			}
			// The lesson is no longer marked read.
			b.Open(srv.URL + "/learn")
			b.Do(chromedp.WaitVisible(chromedp.CSS("main h1")))
			if n := Eval[int](b, `document.querySelectorAll(".lesson-badge, [data-done=true], [data-lesson-done]").length`); n != 0 {
				t.Errorf("after forgetting, %d lessons still show as done", n)
			}
		})
	}
}

// TestAbandonedGamePage: starting a 21st unfinished game closes the least
// recently played one; its page says why, offers no move, and the game
// list shows it as closed, not in progress.
func TestAbandonedGamePage(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Viewport{Width: 375, Height: 740, Mobile: true}))
	first := startGame(t, b, srv, `{mode: "friend", pass_screen: false}`)
	for i := 0; i < 20; i++ {
		got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"mode":"friend"}'}).then(r => String(r.status))`, chromedp.EvalAwaitPromise))
		if err != nil || got != "201" {
			t.Fatalf("game %d: status %s, %v", i+2, got, err)
		}
	}
	b.Open(srv.URL + "/play/" + first)
	gameWait(t, b, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
	if st := statusText(b); !strings.Contains(st, "closed") {
		t.Errorf("the abandoned game's status line says %q", st)
	}
	b.Screenshot("game-abandoned-375")
	b.Open(srv.URL + "/games")
	b.Do(chromedp.WaitVisible(chromedp.CSS("main h1")))
	row := Eval[string](b, `document.querySelector('[data-game-row="`+first+`"]').innerText`)
	if !strings.Contains(row, "closed") || strings.Contains(row, "In progress") {
		t.Errorf("the games list shows the abandoned game as %q", row)
	}
}
