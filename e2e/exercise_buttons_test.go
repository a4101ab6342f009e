//go:build full

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// buttonRows measures the rows the visible buttons of the exercise take:
// the number of distinct top offsets (to the pixel) of the buttons of
// .exercise-actions that are shown, and how many buttons are shown.
func buttonRows(b *Browser) (rows, buttons int) {
	b.t.Helper()
	got := Eval[[]int](b, `(() => {
		const shown = [...document.querySelectorAll(".exercise-actions .button")].filter(el => {
			const r = el.getBoundingClientRect();
			return !el.hidden && r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
		});
		const tops = new Set(shown.map(el => Math.round(el.getBoundingClientRect().top + scrollY)));
		return [tops.size, shown.length];
	})()`)
	return got[0], got[1]
}

// TestExerciseButtonsTwoRows: on the practice page of a square exercise
// and of a move exercise, in English, Spanish and Russian, the exercise's
// buttons take at most two rows, both before an answer and after a wrong
// one has added Try again (issue 38), at 375×740 (touch) and 1280×800.
func TestExerciseButtonsTwoRows(t *testing.T) {
	srv := newServer(t)
	eachScreenAndLanguage(t, func(t *testing.T, sc screen, lang string) {
		b := newBrowser(t, WithViewport(sc.v))
		check := func(page, when string, wantButtons int) {
			t.Helper()
			rows, n := buttonRows(b)
			if n != wantButtons {
				t.Errorf("%s, %s: %d buttons shown, want %d", page, when, n, wantButtons)
			}
			if rows > 2 {
				t.Errorf("%s, %s: the %d buttons take %d rows, want at most 2", page, when, n, rows)
			}
		}

		// Squares: Check, Start over, Show the answer, Next; a
		// wrong Check adds Try again.
		b.Open(srv.URL + "/learn/rook/practice?ex=rook-open-board&lang=" + lang)
		b.WaitScript("[data-exercise-page]")
		check("squares", "at first", 4)
		click(b, `[data-board] [data-square="e5"]`)
		click(b, `[data-action="check"]`)
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="wrong"]`)))
		check("squares", "after a wrong Check", 5)
		windowShot(t, b, "exercise-buttons-squares-"+sc.name+"-"+lang)

		// Move: Hint, Show the answer, Next; a wrong move adds
		// Try again. Rxd6 takes a pawn the c7 pawn guards.
		b.Open(srv.URL + "/learn/capturing/practice?ex=capture-free-knight&lang=" + lang)
		b.WaitScript("[data-move-page]")
		check("move", "at first", 3)
		click(b, `[data-board] [data-square="d3"]`)
		gameWait(t, b, `document.querySelector('[data-board] [data-square="d3"]').classList.contains("selected")`)
		click(b, `[data-board] [data-square="d6"]`)
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="wrong"]`)))
		gameWait(t, b, `!document.querySelector('[data-action="reset"]').hidden`)
		check("move", "after a wrong move", 4)
		windowShot(t, b, "exercise-buttons-move-"+sc.name+"-"+lang)
	})
}
