//go:build full

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Browser tests of the setup exercises (issue 36, X10): pieces placed from
// the tray by tap on a phone, by drag on a laptop, by keyboard, and with
// the form alone.

const setupPage = "[data-setup-page]"

// trayPiece selects the first tray button holding code.
func trayPiece(code string) chromedp.CSS {
	return chromedp.CSS(`[data-tray] [data-tray-piece="` + code + `"]`)
}

func setupSquare(sq string) chromedp.CSS {
	return chromedp.CSS(`[data-setup-page] [data-board] [data-square="` + sq + `"]`)
}

// setupVerdict waits for a verdict and returns its kind and the text of
// the whole result.
func setupVerdict(b *Browser) (string, string) {
	b.t.Helper()
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-result] [data-verdict]")))
	return Eval[string](b, `document.querySelector("[data-result] [data-verdict]").dataset.verdict`),
		Eval[string](b, `document.querySelector("[data-result]").textContent.replace(/\s+/g, " ").trim()`)
}

// dragToSquare drags a tray piece onto a board square with the mouse.
func dragToSquare(b *Browser, code, sq string) {
	b.t.Helper()
	_ = Eval[bool](b, `(() => {
		const from = document.querySelector('[data-tray] [data-tray-piece="`+code+`"]');
		const to = document.querySelector('[data-setup-page] [data-board] [data-square="`+sq+`"]');
		const c = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
		const [x1, y1] = c(from), [x2, y2] = c(to);
		const ev = (type, x, y, target) => target.dispatchEvent(new PointerEvent(type, {bubbles: true, clientX: x, clientY: y, button: 0, pointerType: "mouse", isPrimary: true}));
		ev("pointerdown", x1, y1, from);
		for (let i = 1; i <= 5; i++) ev("pointermove", x1 + (x2 - x1) * i / 5, y1 + (y2 - y1) * i / 5, window);
		ev("pointerup", x2, y2, window);
		return true;
	})()`)
}

func TestSetupExerciseAtBothSizes(t *testing.T) {
	srv := newServer(t)
	for _, vp := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		size := fmt.Sprintf("%dx%d", vp.Width, vp.Height)
		t.Run(size, func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp))
			b.Open(exerciseURL(srv, "setting-up", "setup-kings-and-queens"))
			b.WaitScript(setupPage)
			if got := Eval[string](b, `document.querySelector("[data-setup-page] [data-board]").closest("[data-exercise-kind]").dataset.exerciseKind + " " + document.querySelector("[data-setup-page] [data-board]").dataset.exerciseKind`); got != "setup setup" {
				t.Fatalf("kind hooks = %q", got)
			}
			checkBoardContract(t, b)
			// The board, the tray and Check are on the first screen.
			if got := Eval[string](b, `(() => {
				const vh = innerHeight, r = (s) => document.querySelector(s).getBoundingClientRect();
				const bad = [];
				if (r("[data-setup-page] [data-board]").bottom > vh) bad.push("board");
				if (r("[data-tray]").bottom > vh) bad.push("tray");
				if (r('[data-action="check"]').bottom > vh) bad.push("check");
				return bad.join(" ");
			})()`); got != "" {
				t.Errorf("outside the first screen at %s: %s", size, got)
			}
			place := func(code, sq string) {
				if vp.Mobile {
					b.Do(chromedp.Click(trayPiece(code)), chromedp.Click(setupSquare(sq)))
				} else {
					dragToSquare(b, code, sq)
				}
				b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-setup-page] [data-square="` + sq + `"] [data-piece="` + code + `"]`)))
			}
			// The classic mistake: king and queen swapped.
			place("wK", "d1")
			place("wQ", "e1")
			if vp.Mobile {
				b.Screenshot("setup-tray-" + size)
			}
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
			kind, text := setupVerdict(b)
			if kind != "wrong" || !strings.Contains(text, "own colour") {
				t.Fatalf("swapped: verdict %q, %q", kind, text)
			}
			if got := Eval[string](b, `[...document.querySelectorAll("[data-setup-page] .square.wrong")].map(e => e.dataset.square).sort().join(" ")`); got != "d1 e1" {
				t.Errorf("wrong squares = %q, want d1 e1", got)
			}
			// Tap the placed pieces back into the tray, then place them right.
			b.Do(chromedp.Click(setupSquare("d1")), chromedp.Click(setupSquare("e1")))
			b.Do(chromedp.WaitVisible(trayPiece("wK")), chromedp.WaitVisible(trayPiece("wQ")))
			place("wQ", "d1")
			place("wK", "e1")
			// The black pair by keyboard: Enter on the tray piece, arrows to
			// its square, Enter.
			b.Do(chromedp.Focus(trayPiece("bQ")), chromedp.KeyEvent(kb.Enter))
			b.Do(chromedp.Focus(setupSquare("d7")), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-setup-page] [data-square="d8"] [data-piece="bQ"]`)))
			b.Do(chromedp.Focus(trayPiece("bK")), chromedp.KeyEvent(kb.Enter))
			b.Do(chromedp.Focus(setupSquare("d8")), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-setup-page] [data-square="e8"] [data-piece="bK"]`)))
			if !Eval[bool](b, `!document.querySelector("[data-tray-empty]").hidden`) {
				t.Error("the empty tray does not say so")
			}
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
			if kind, text := setupVerdict(b); kind != "correct" {
				t.Fatalf("right: verdict %q, %q", kind, text)
			}
			b.Screenshot("setup-correct-" + size)
		})
	}
	t.Run("without JavaScript", func(t *testing.T) {
		b := newBrowser(t, WithoutJS())
		b.Open(exerciseURL(srv, "setting-up", "setup-kings-and-queens"))
		for _, step := range [][2]string{{"wQ", "d1"}, {"wK", "e1"}, {"bQ", "d8"}, {"bK", "e8"}} {
			b.Do(chromedp.WaitVisible(chromedp.CSS(setupPage)))
			b.Do(chromedp.Click(trayPiece(step[0])))
			waitAcrossLoads(b, `location.search.includes("pick=`+step[0]+`") && document.readyState === "complete"`)
			b.Do(chromedp.Click(setupSquare(step[1])))
			waitAcrossLoads(b, `!location.search.includes("pick=") && document.readyState === "complete" && !!document.querySelector('[data-square="`+step[1]+`"] [data-piece="`+step[0]+`"]')`)
		}
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
		waitAcrossLoads(b, `location.search.includes("show=check") && document.readyState === "complete"`)
		if kind, text := setupVerdict(b); kind != "correct" {
			t.Fatalf("without JS: verdict %q, %q", kind, text)
		}
	})
}
