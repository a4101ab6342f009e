//go:build full

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestFirstGameLevelZero (C6): the new-game form offers level 0, "First
// game", on a row of its own above levels 1-8, with its description and
// rating when chosen; a game against it starts from the form and the
// computer answers a move. Photographed at phone and laptop sizes.
func TestFirstGameLevelZero(t *testing.T) {
	srv := newServer(t)
	for _, vp := range continueViewports {
		t.Run(fmt.Sprint(vp.Width), func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp), WithTimeout(2*time.Minute))
			b.Open(srv.URL + "/play")
			b.Do(chromedp.WaitVisible(chromedp.CSS(`label.level-choice:has(input[value="0"])`)))
			numbers := Eval[[]string](b, `[...document.querySelectorAll('input[name="level"]')].map(e => e.value)`)
			if strings.Join(numbers, ",") != "0,1,2,3,4,5,6,7,8" {
				t.Errorf("the form offers levels %v, want 0 to 8", numbers)
			}
			if def := Eval[string](b, `document.querySelector('input[name="level"]:checked').value`); def != "1" {
				t.Errorf("the form's default level is %s, want 1 as before", def)
			}
			// Level 0 has the first row to itself.
			rows := Eval[[]float64](b, `(() => { const l = [...document.querySelectorAll(".level-choice")].map(e => e.getBoundingClientRect());
				return [l[0].top, l[1].top, l[0].width, l[1].width]; })()`)
			if rows[1] <= rows[0] || rows[2] < 1.5*rows[3] {
				t.Errorf("level 0 does not have a row of its own: %v", rows)
			}
			click(b, `label.level-choice:has(input[value="0"])`)
			desc := Eval[string](b, `(() => { const d = document.getElementById("level-desc-0"); return getComputedStyle(d).display === "none" ? "" : d.textContent; })()`)
			if !strings.Contains(desc, "no plan yet") || !strings.Contains(desc, "Rated about 450") {
				t.Errorf("level 0's description when chosen: %q", desc)
			}
			fits(t, b, vp)
			b.Screenshot(fmt.Sprintf("first-game-form-%d", vp.Width))

			click(b, `input[name="color"][value="white"]`)
			click(b, `input[name="clock"][value="none"]`)
			followLink(t, b, `form.new-game-form button[type="submit"]`, `^/play/[0-9a-f]{32}$`)
			gameWait(t, b, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
			if title := Eval[string](b, `document.querySelector("main h1, .game h1, h1").textContent`); !strings.Contains(title, "level 0") {
				t.Errorf("the game's heading is %q, want it to name level 0", title)
			}
			playClickedMove(t, b, "e2", "e4")
			gameWait(t, b, `document.querySelectorAll("[data-movelist] .move").length === 2 && document.querySelector("[data-board]").dataset.fen.split(" ")[1] === "w"`)
			b.Screenshot(fmt.Sprintf("first-game-%d", vp.Width))
			if errs := b.ConsoleErrors(); len(errs) > 0 {
				t.Errorf("console errors: %v", errs)
			}
		})
	}
}
