//go:build full

package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Browser tests of the square-name trainer (issue 15, X7). The round's
// length is read from data-seconds when Start is pressed; the tests
// shorten it so a round ends without a 30-second wait.

func trainerTarget(b *Browser) string {
	return Eval[string](b, `document.querySelector("[data-trainer]").dataset.target || ""`)
}

// waitTarget waits until a target other than prev is showing.
func waitTarget(b *Browser, prev string) string {
	b.t.Helper()
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-trainer][data-target]:not([data-target="` + prev + `"])`)))
	return trainerTarget(b)
}

func TestTrainerRoundByClicking(t *testing.T) {
	srv := newServer(t)
	for _, vp := range []struct {
		name string
		v    Viewport
	}{{"375x740", Viewport{Width: 375, Height: 740, Mobile: true}}, {"1280x800", Viewport{Width: 1280, Height: 800}}} {
		b := newBrowser(t, WithViewport(vp.v))
		b.Open(srv.URL + "/practice")
		b.Do(chromedp.Click(chromedp.CSS(`[data-trainer-link]`)))
		b.WaitScript("[data-trainer]")
		b.Screenshot("trainer-start-" + vp.name)
		_ = Eval[bool](b, `(document.querySelector("[data-trainer]").dataset.seconds = "20", true)`)
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="start"]`)))
		target := waitTarget(b, "")
		if got := Eval[string](b, `document.querySelector("[data-target-name]").textContent`); got != target {
			t.Errorf("the page names %q, the target is %q", got, target)
		}
		const boardBox = `JSON.stringify(document.querySelector("[data-trainer-board]").getBoundingClientRect())`
		box := Eval[string](b, boardBox)
		// Ten right answers: the score grows to two digits, the board stays put.
		for i := 0; i < 10; i++ {
			b.Do(chromedp.Click(chromedp.CSS(`[data-trainer-board] [data-square="` + target + `"]`)))
			target = waitTarget(b, target)
		}
		if now := Eval[string](b, boardBox); now != box {
			t.Errorf("the board moved during the round: %s, then %s", box, now)
		}
		// A wrong click: no point, the square is marked and explained, and
		// the round goes on with a new square (issue 38).
		wrong := "a1"
		if target == "a1" {
			wrong = "h8"
		}
		missed := target
		b.Do(chromedp.Click(chromedp.CSS(`[data-trainer-board] [data-square="` + wrong + `"]`)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="wrong"]`)))
		if got := Eval[string](b, `document.querySelector("[data-result]").textContent`); !strings.Contains(got, "That is "+wrong+", not "+missed) {
			t.Errorf("wrong click reason = %q", got)
		}
		target = waitTarget(b, missed)
		if !Eval[bool](b, `document.querySelector('[data-trainer-board] [data-square="`+wrong+`"]').classList.contains("wrong") && document.querySelector('[data-trainer-board] [data-square="`+missed+`"]').classList.contains("missed")`) {
			t.Errorf("the wrong square and the missed one are not marked")
		}
		if now := Eval[string](b, boardBox); now != box {
			t.Errorf("the board moved after a wrong answer: %s, then %s", box, now)
		}
		if vp.name == "375x740" {
			b.Screenshot("trainer-running-" + vp.name)
		} else {
			b.Screenshot("trainer-running-" + vp.name)
		}
		if got := Eval[string](b, `document.querySelector("[data-score]").textContent`); got != "10" {
			t.Errorf("score = %s, want 10", got)
		}
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-trainer][data-finished]`)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="done"]`)))
		if got := Eval[string](b, `document.querySelector("[data-best]").textContent`); got != "10" {
			t.Errorf("best after the round = %q, want 10", got)
		}
		// At the end the clock shows 0 and Start again is the primary button.
		if got := Eval[string](b, `document.querySelector("[data-time]").textContent`); got != "0" {
			t.Errorf("the clock shows %q at the end, want 0", got)
		}
		if !Eval[bool](b, `document.querySelector('[data-action="start"]').classList.contains("button-primary")`) {
			t.Errorf("Start again is not the highlighted button after the round")
		}
		windowShot(t, b, "trainer-end-"+vp.name)
		// The best is stored for the visitor.
		b.Open(srv.URL + "/practice/squares")
		if got := Eval[string](b, `document.querySelector("[data-best]").textContent`); got != "10" {
			t.Errorf("best after a reload = %q, want 10", got)
		}
		if errs := b.ConsoleErrors(); len(errs) > 0 {
			t.Errorf("console errors: %v", errs)
		}
	}
}

func TestTrainerRoundByKeyboard(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t)
	// Find mode, Black's view: arrow keys move in screen directions.
	b.Open(srv.URL + "/practice/squares?view=black&mode=find")
	b.WaitScript("[data-trainer]")
	_ = Eval[bool](b, `(document.querySelector("[data-trainer]").dataset.seconds = "60", true)`)
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="start"]`)))
	target := waitTarget(b, "")
	for i := 0; i < 2; i++ {
		at := Eval[string](b, `document.activeElement.dataset.square || ""`)
		if at == "" {
			b.Do(chromedp.Focus(chromedp.CSS(`[data-trainer-board] [data-square][tabindex="0"]`)))
			at = Eval[string](b, `document.activeElement.dataset.square`)
		}
		// From Black's side, the a-file is on the right and rank 1 at the top.
		df := int(target[0]) - int(at[0])
		dr := int(target[1]) - int(at[1])
		var keys []string
		for ; df > 0; df-- {
			keys = append(keys, kb.ArrowLeft)
		}
		for ; df < 0; df++ {
			keys = append(keys, kb.ArrowRight)
		}
		for ; dr > 0; dr-- {
			keys = append(keys, kb.ArrowDown)
		}
		for ; dr < 0; dr++ {
			keys = append(keys, kb.ArrowUp)
		}
		for _, k := range keys {
			b.Do(chromedp.KeyEvent(k))
		}
		if got := Eval[string](b, `document.activeElement.dataset.square`); got != target {
			t.Fatalf("arrows led to %s, want %s", got, target)
		}
		b.Do(chromedp.KeyEvent(kb.Enter))
		target = waitTarget(b, target)
	}
	if got := Eval[string](b, `document.querySelector("[data-score]").textContent`); got != "2" {
		t.Errorf("score after two keyboard answers = %s", got)
	}

	// Name mode: a square is marked; type its name and press Enter.
	b.Open(srv.URL + "/practice/squares?view=white&mode=name")
	b.WaitScript("[data-trainer]")
	_ = Eval[bool](b, `(document.querySelector("[data-trainer]").dataset.seconds = "5", true)`)
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="start"]`)))
	target = waitTarget(b, "")
	if got := Eval[string](b, `document.querySelector(".square.target").dataset.square`); got != target {
		t.Fatalf("marked square %s, target %s", got, target)
	}
	for i := 0; i < 3; i++ {
		b.Do(chromedp.SendKeys(chromedp.CSS(`[data-answer]`), target+kb.Enter))
		target = waitTarget(b, target)
	}
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-trainer][data-finished]`)))
	if got := Eval[string](b, `document.querySelector("[data-trainer]").dataset.finished`); got != strconv.Itoa(3) {
		t.Errorf("name mode score = %s, want 3", got)
	}
}

func TestTrainerWithoutJS(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithoutJS())
	b.Open(srv.URL + "/practice/squares")
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="start"]`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-trainer][data-running]`)))
	target := trainerTarget(b)
	b.Do(chromedp.Click(chromedp.CSS(`[data-trainer-board] [data-square="` + target + `"]`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="correct"]`)))
	if got := Eval[string](b, `document.querySelector("[data-score]").textContent`); got != "1" {
		t.Errorf("score after one right click = %s", got)
	}
}
