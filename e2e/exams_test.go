//go:build full

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"chesstutor/chess"
	"chesstutor/exams"
	"chesstutor/lessons"
	"chesstutor/quiz"
)

// Browser test of the step exams and certificates (issue 36 point 4, L9):
// /learn in steps with their stars and exam state, an exam failed and then
// passed through its form, and the certificate with a name typed in the
// page, on screen at both sizes and in print preview.

func TestExamsStepsAndCertificate(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	step := exams.Steps(course)[0]
	srv := newServer(t)
	for _, vp := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		size := fmt.Sprintf("%dx%d", vp.Width, vp.Height)
		t.Run(size, func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp))
			noSideways := func(what string) {
				t.Helper()
				if got := Eval[float64](b, `document.documentElement.scrollWidth - innerWidth`); got > 0 {
					t.Errorf("%s at %s scrolls sideways by %.0f px", what, size, got)
				}
			}

			// A blank exam fails, says so and offers a retake.
			b.Open(srv.URL + "/exam/1")
			b.Do(chromedp.WaitVisible(chromedp.CSS("[data-exam]")))
			noSideways("the exam")
			b.Do(chromedp.Click(chromedp.CSS("[data-action=finish-exam]")))
			b.Do(chromedp.WaitVisible(chromedp.CSS("[data-exam-result=failed]")))
			if !Eval[bool](b, `!!document.querySelector("[data-action=retake]") && document.querySelector("[data-exam-summary]").getAttribute("aria-live") === "polite"`) {
				t.Error("a failed exam has no retake or its summary is not announced")
			}

			// A fresh exam answered right through its form passes.
			items := passExam(t, b, srv.URL, step, bank)
			if got := Eval[string](b, `document.querySelector("[data-exam]").dataset.score`); got != fmt.Sprintf("%d/%d", len(items), len(items)) {
				t.Errorf("all right scored %s", got)
			}
			noSideways("the exam result")
			b.WindowShot("exam-result-" + size)

			// /learn: four steps, their stars, step 1 passed.
			b.Open(srv.URL + "/learn")
			b.Do(chromedp.WaitVisible(chromedp.CSS("[data-step='4']")))
			if got := Eval[string](b, `[...document.querySelectorAll("[data-step]")].map(s => s.dataset.step + ":" + s.querySelector("[data-exam-state]").dataset.examState + ":" + !!s.querySelector("[data-step-stars]")).join(" ")`); got != "1:passed:true 2:open:true 3:open:true 4:open:true" {
				t.Errorf("the steps on /learn = %q", got)
			}
			noSideways("/learn")
			b.Do(chromedp.ScrollIntoView(chromedp.CSS("[data-step='1'] [data-exam-state]")))
			b.WindowShot("learn-steps-" + size)

			// The certificate: a name typed in the page, the date, the skills.
			b.Open(srv.URL + "/certificate/1")
			b.Do(chromedp.WaitVisible(chromedp.CSS("[data-certificate]")))
			b.Do(chromedp.SendKeys(chromedp.CSS("[data-certificate-name]"), "Alex"))
			if n := Eval[int](b, `document.querySelectorAll("[data-skills] li").length`); n < 3 {
				t.Errorf("the certificate lists %d skills", n)
			}
			if Eval[bool](b, `document.querySelector("[data-action=print]").hidden`) {
				t.Error("the print button stays hidden with JavaScript")
			}
			noSideways("the certificate")
		})
	}
	t.Run("print preview", func(t *testing.T) {
		// An A4 page is 794×1123 px at 96 dpi; Letter is 816×1056, so
		// the sheet must fit 794×1056 less the margins.
		b := newBrowser(t, WithViewport(Viewport{Width: 794, Height: 1056}))
		b.Open(srv.URL + "/certificate/1")
		b.Do(chromedp.WaitVisible(chromedp.CSS("[data-certificate-locked]")))
		// Pass the exam in this browser's own session first.
		passExam(t, b, srv.URL, step, bank)
		b.Open(srv.URL + "/certificate/1")
		b.Do(chromedp.WaitVisible(chromedp.CSS("[data-certificate]")))
		b.Do(chromedp.SendKeys(chromedp.CSS("[data-certificate-name]"), "Alex Morgan"))
		printMedia(t, b)
		got := Eval[string](b, `[
			getComputedStyle(document.querySelector(".site-header")).display,
			getComputedStyle(document.querySelector(".certificate-tools")).display,
			document.querySelector("[data-certificate-name]").value,
		].join("|")`)
		if got != "none|none|Alex Morgan" {
			t.Errorf("print (header, tools, name) = %q", got)
		}
		// One page: the whole document fits a Letter page's height less
		// 2×15 mm margins (≈ 943 px).
		if h := Eval[float64](b, `document.querySelector(".certificate-sheet").getBoundingClientRect().bottom + scrollY`); h > 943 {
			t.Errorf("the certificate prints %.0f px tall, more than one page", h)
		}
		b.WindowShot("certificate-print-preview-794x1056")
	})
}

// passExam opens the exam of step on srvURL, answers every item right
// through its form, finishes it, waits for the pass, and returns the
// items it answered.
func passExam(t *testing.T, b *Browser, srvURL string, step exams.Step, bank *quiz.Bank) []exams.Item {
	t.Helper()
	b.Open(fmt.Sprintf("%s/exam/%d", srvURL, step.N))
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-exam]")))
	ids := Eval[[]string](b, `[...document.querySelectorAll("[data-exam-item]")].map(li => li.dataset.examItem)`)
	items, err := exams.Read(step, bank, ids)
	if err != nil {
		t.Fatalf("the page's items %v: %v", ids, err)
	}
	fillExam(b, items)
	b.Do(chromedp.Click(chromedp.CSS("[data-action=finish-exam]")))
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-exam-result=passed]")))
	return items
}

// fillExam answers every item of the exam on the page with its key, as
// the exams package grades it: the options, the squares, the first right
// move, or the piece of each square of a setup item.
func fillExam(b *Browser, items []exams.Item) {
	b.t.Helper()
	for i, it := range items {
		key := exams.Grade(it, nil, chess.Letters{}).Key
		field := fmt.Sprintf("a%d", i+1)
		var js string
		switch it.Kind {
		case exams.Choice:
			k, _ := json.Marshal(key)
			js = fmt.Sprintf(`for (const v of %s) document.querySelector('input[name=%s][value="' + v + '"]').checked = true`, k, field)
		case exams.Move:
			js = fmt.Sprintf(`document.querySelector("input[name=%s]").value = %q`, field, key[0])
		case exams.Setup:
			for _, pair := range key {
				sq, piece, _ := strings.Cut(pair, "=")
				js += fmt.Sprintf(`document.querySelector("select[name=%s-%s]").value = %q;`, field, sq, piece)
			}
		default:
			js = fmt.Sprintf(`document.querySelector("input[name=%s]").value = %q`, field, strings.Join(key, " "))
		}
		Eval[any](b, "(() => {"+js+"; return null})()")
	}
}
