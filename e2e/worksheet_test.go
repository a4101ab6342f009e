//go:build full

package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// Browser tests of the worksheets (issue 36, L10): 6 to 12 diagrams with a
// task line each, the answer key (data-answers) at the end, on screen at
// both sizes and in print preview.

func TestWorksheetOnScreenAndInPrint(t *testing.T) {
	srv := newServer(t)
	for _, vp := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		size := fmt.Sprintf("%dx%d", vp.Width, vp.Height)
		t.Run(size, func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp))
			for _, slug := range []string{"tactics", "rook", "lone-king"} {
				b.Open(srv.URL + "/learn/" + slug + "/worksheet")
				b.Do(chromedp.WaitVisible(chromedp.CSS("[data-worksheet]")))
				tasks := Eval[int](b, `document.querySelectorAll(".worksheet-task [data-board]").length`)
				answers := Eval[int](b, `document.querySelectorAll("[data-answers] [data-answer]").length`)
				if tasks < 6 || tasks > 12 || answers != tasks {
					t.Errorf("%s: %d diagrams and %d answers, want 6 to 12 of each", slug, tasks, answers)
				}
				if Eval[bool](b, `[...document.querySelectorAll("[data-answers] [data-answer]")].some(li => li.textContent.trim() === "")`) {
					t.Errorf("%s: an empty answer", slug)
				}
				if got := Eval[float64](b, `document.documentElement.scrollWidth - innerWidth`); got > 0 {
					t.Errorf("%s at %s: scrolls sideways by %.0f px", slug, size, got)
				}
			}
			checkBoardContract(t, b)
			if vp.Mobile {
				b.Screenshot("worksheet-" + size)
			}
		})
	}
	t.Run("print preview", func(t *testing.T) {
		// An A4 page is 794 px wide at 96 dpi.
		b := newBrowser(t, WithViewport(Viewport{Width: 794, Height: 1123}))
		b.Open(srv.URL + "/learn/tactics/worksheet")
		b.Do(chromedp.WaitVisible(chromedp.CSS("[data-worksheet]")))
		printMedia(t, b)
		got := Eval[string](b, `[
			getComputedStyle(document.querySelector(".site-header")).display,
			getComputedStyle(document.querySelector(".worksheet-tools")).display,
			getComputedStyle(document.querySelector("[data-answers]")).breakBefore,
			getComputedStyle(document.querySelector(".worksheet-tasks")).gridTemplateColumns.split(" ").length,
		].join(" ")`)
		if got != "none none page 3" {
			t.Errorf("print styles (header, tools, answers break, columns) = %q, want none none page 3", got)
		}
		b.Screenshot("worksheet-print-preview-794x1123")
	})
}

// printMedia makes the tab apply its print stylesheet, as print preview
// does.
func printMedia(t *testing.T, b *Browser) {
	t.Helper()
	if err := chromedp.Do(b.Ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	})); err != nil {
		t.Fatal(err)
	}
}
