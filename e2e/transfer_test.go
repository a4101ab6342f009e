//go:build full

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// continueViewports are the sizes issue 38 asks every point to be shown at.
var continueViewports = []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}}

// TestContinueOnAnotherDevice (G28): on one device a child reads a lesson,
// presses "Continue on another device" on /learn and gets a code and its
// QR code; a second browser, with its own cookies, types the code (on the
// phone) or opens the QR code's link (on the laptop), is welcomed, and
// shows the same progress. The used code is then refused. Both pages are
// audited with axe-core and fit the window.
func TestContinueOnAnotherDevice(t *testing.T) {
	srv := newServer(t)
	script := axeScript(t)
	for _, vp := range continueViewports {
		t.Run(fmt.Sprint(vp.Width), func(t *testing.T) {
			first := newBrowser(t, WithViewport(vp), WithTimeout(2*time.Minute))
			first.Open(srv.URL + "/learn/board")
			click(first, `form[action$="/done"] button[type=submit]`)
			gameWait(t, first, `location.pathname === "/learn/setting-up" && document.readyState === "complete"`)
			first.Open(srv.URL + "/learn")
			first.Do(chromedp.WaitVisible(chromedp.CSS(`[data-lesson="board"][data-done]`)))
			before := Eval[string](first, `location.href`)
			click(first, `[data-transfer-offer] [data-action="transfer"]`)
			gameWait(t, first, `location.href !== `+jsString(before)+` && document.readyState === "complete" && !!document.querySelector("[data-transfer-code]")`)
			code := Eval[string](first, `document.querySelector("[data-transfer-code]").dataset.transferCode`)
			if len(code) != 8 {
				t.Fatalf("the page shows code %q", code)
			}
			gameWait(t, first, `(() => { const img = document.querySelector("[data-transfer-qr]"); return img.complete && img.naturalWidth > 100; })()`)
			fits(t, first, vp)
			for _, v := range runAxe(t, first, script) {
				if v.Impact == "serious" || v.Impact == "critical" {
					t.Errorf("axe on the code page: %s [%s] on %d element(s)", v.ID, v.Impact, len(v.Nodes))
				}
			}
			first.Screenshot(fmt.Sprintf("continue-code-%d", vp.Width))

			second := newBrowser(t, WithViewport(vp), WithTimeout(2*time.Minute))
			if vp.Mobile {
				// Typed by hand, the way a child copies it: small letters, a space.
				second.Open(srv.URL + "/learn")
				followLink(t, second, `[data-transfer-offer] a[href="/continue"]`, `^/continue$`)
				second.Do(chromedp.WaitVisible(chromedp.CSS(`[data-transfer-input]`)))
				for _, v := range runAxe(t, second, script) {
					if v.Impact == "serious" || v.Impact == "critical" {
						t.Errorf("axe on the form: %s [%s] on %d element(s)", v.ID, v.Impact, len(v.Nodes))
					}
				}
				second.Do(chromedp.SendKeys(`[data-transfer-input]`, strings.ToLower(code[:4]+" "+code[4:])))
				second.Screenshot(fmt.Sprintf("continue-type-%d", vp.Width))
			} else {
				// The QR code's link opens the form with the code filled in.
				second.Open(srv.URL + "/continue?code=" + code)
				second.Do(chromedp.WaitVisible(chromedp.CSS(`[data-transfer-input]`)))
				if got := Eval[string](second, `document.querySelector("[data-transfer-input]").value`); got != code[:4]+"-"+code[4:] {
					t.Errorf("the QR code's link filled in %q", got)
				}
			}
			fits(t, second, vp)
			followLink(t, second, `[data-action="redeem"]`, `^/continue$`)
			second.Do(chromedp.WaitVisible(chromedp.CSS(`[data-transfer-done]`)))
			second.Screenshot(fmt.Sprintf("continue-done-%d", vp.Width))

			// The second device now shows the first one's progress.
			followLink(t, second, `[data-transfer-done] a[href="/learn"]`, `^/learn$`)
			second.Do(chromedp.WaitVisible(chromedp.CSS(`[data-lesson="board"][data-done]`)))

			if errs := append(first.ConsoleErrors(), second.ConsoleErrors()...); len(errs) > 0 {
				t.Errorf("console errors: %v", errs)
			}

			// The code worked once: a third try is refused with the reason
			// (a 404 page, which the console reports).
			second.Open(srv.URL + "/continue")
			second.Do(chromedp.SendKeys(`[data-transfer-input]`, code))
			click(second, `[data-action="redeem"]`)
			second.Do(chromedp.WaitVisible(chromedp.CSS(`[data-transfer-error]`)))
			if msg := Eval[string](second, `document.querySelector("[data-transfer-error]").textContent`); !strings.Contains(msg, "does not work") {
				t.Errorf("a used code says %q", msg)
			}
			if vp.Mobile {
				second.Screenshot(fmt.Sprintf("continue-used-%d", vp.Width))
			}
		})
	}
}

// fits checks the page does not scroll sideways and, on a phone, that its
// buttons, text fields and level choices are at least 44 px tall.
func fits(t *testing.T, b *Browser, vp Viewport) {
	t.Helper()
	if sw := Eval[int64](b, `document.documentElement.scrollWidth`); sw > vp.Width {
		t.Errorf("%s scrolls sideways at %d px (%d)", Eval[string](b, `location.pathname`), vp.Width, sw)
	}
	if vp.Mobile {
		// Only what is shown is a target: the friend game's name fields
		// are hidden until that mode is chosen.
		small := Eval[[]string](b, `[...document.querySelectorAll("main button, main input[type=text], main .button, main .level-choice")]
			.filter(e => e.getClientRects().length > 0 && e.getBoundingClientRect().height < 43.5).map(e => e.outerHTML.slice(0, 60))`)
		if len(small) > 0 {
			t.Errorf("touch targets under 44 px: %v", small)
		}
	}
}
