//go:build full

package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFriendGameWithNames: on /play two friends type their names, Anna
// and Борис, into the form; the game page names them beside the board
// and in the status line, the pass screen after White's first move tells
// Борис it is his turn by name, and the PGN the page links to carries the
// names in its White and Black tags. Issue 38, at 375×740 (touch) and
// 1280×800.
func TestFriendGameWithNames(t *testing.T) {
	srv := newServer(t)
	for _, vp := range []struct {
		name string
		v    Viewport
	}{{"phone", Phone740}, {"laptop", Laptop800}} {
		t.Run(vp.name, func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp.v))
			b.Open(srv.URL + "/play")
			click(b, `input[name="mode"][value="friend"]`)
			if !Eval[bool](b, `document.querySelector('input[name="pass_screen"]').checked`) {
				click(b, `input[name="pass_screen"]`)
			}
			click(b, `input[name="white_name"]`)
			b.Do(chromedp.SendKeys(chromedp.CSS(`input[name="white_name"]`), "Anna"))
			click(b, `input[name="black_name"]`)
			b.Do(chromedp.SendKeys(chromedp.CSS(`input[name="black_name"]`), "Борис"))
			if got := Eval[string](b, `document.querySelector('input[name="white_name"]').value + "|" + document.querySelector('input[name="black_name"]').value`); got != "Anna|Борис" {
				t.Fatalf("the name fields hold %q", got)
			}
			click(b, `form.new-game-form button[type="submit"]`)
			gameWait(t, b, `location.pathname.startsWith("/play/") && document.querySelectorAll("[data-board] button[data-square]").length === 64`)

			players := Eval[string](b, `[...document.querySelectorAll("[data-player] .game-player-name")].map(e => e.textContent.trim()).sort().join(" | ")`)
			if players != "Anna (white) | Борис (black)" {
				t.Errorf("the players beside the board are %q, want Anna (white) and Борис (black)", players)
			}
			if st := statusText(b); !strings.Contains(st, "Anna to move.") {
				t.Errorf("before the first move the status says %q, want Anna to move.", st)
			}
			viewShot(t, b, "names-game-"+vp.name)

			clickSquare(b, "e2")
			gameWait(t, b, `document.querySelector('[data-square="e2"]').classList.contains("selected")`)
			clickSquare(b, "e4")
			gameWait(t, b, passShown)
			if got := Eval[string](b, `document.querySelector(".pass-screen-title").textContent`); got != "Борис to move — click or tap to continue" {
				t.Errorf("the pass screen says %q, want Борис to move — click or tap to continue", got)
			}
			viewShot(t, b, "names-pass-"+vp.name)
			click(b, "[data-pass-screen] button")
			gameWait(t, b, `document.querySelector("[data-pass-screen]").hidden`)
			if st := statusText(b); !strings.Contains(st, "Борис to move.") {
				t.Errorf("after the pass screen the status says %q, want Борис to move.", st)
			}

			href := Eval[string](b, `document.querySelector('[data-action="download-pgn"]').getAttribute("href")`)
			if !strings.HasPrefix(href, "/api/games/") || !strings.HasSuffix(href, "/pgn") {
				t.Fatalf("the PGN link goes to %q", href)
			}
			pgn := evalAwait[string](t, b, `fetch(`+"`"+href+"`"+`).then(r => r.text())`)
			for _, want := range []string{`[White "Anna"]`, `[Black "Борис"]`, "1. e4"} {
				if !strings.Contains(pgn, want) {
					t.Errorf("the PGN lacks %s:\n%s", want, pgn)
				}
			}
		})
	}
}
