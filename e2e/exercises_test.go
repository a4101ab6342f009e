//go:build full

package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// exerciseURL is the practice page of one course exercise.
func exerciseURL(srv *Server, lesson, id string) string {
	return srv.URL + "/learn/" + lesson + "/practice?ex=" + id
}

// squareSel selects one square of the exercise board.
func squareSel(sq string) chromedp.CSS {
	return chromedp.CSS(`[data-board][data-exercise] [data-square="` + sq + `"]`)
}

// squaresWithClass lists the squares of the exercise board carrying cls.
func squaresWithClass(b *Browser, cls string) string {
	return Eval[string](b, `[...document.querySelectorAll('[data-board][data-exercise] [data-square].`+cls+`')]
		.map(el => el.dataset.square).sort().join(" ")`)
}

// verdict waits for the result and returns its kind (correct, wrong, …).
func verdict(b *Browser) string {
	b.t.Helper()
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-result] [data-verdict]")))
	return Eval[string](b, `document.querySelector("[data-result] [data-verdict]").dataset.verdict`)
}

func TestExerciseSolvedByClicking(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t)
	b.Open(exerciseURL(srv, "en-passant", "en-passant-available"))
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board][data-exercise]")))
	checkBoardContract(t, b)
	if got := Eval[string](b, `document.querySelector("[data-board]").dataset.exercise + " " + document.querySelector("[data-board]").dataset.from`); got != "en-passant-available e5" {
		t.Errorf("board data-exercise and data-from = %q, want %q", got, "en-passant-available e5")
	}
	url := Eval[string](b, `location.href`)

	b.Do(chromedp.Click(squareSel("d6")), chromedp.Click(squareSel("e6")), chromedp.Click(squareSel("e7")))
	if got := squaresWithClass(b, "marked"); got != "d6 e6 e7" {
		t.Fatalf("marked after three clicks = %q, want %q", got, "d6 e6 e7")
	}
	b.Do(chromedp.Click(squareSel("e7"))) // a second click takes the mark away
	if got := squaresWithClass(b, "marked"); got != "d6 e6" {
		t.Fatalf("marked after unmarking e7 = %q, want %q", got, "d6 e6")
	}
	if got := Eval[string](b, `document.querySelector('[data-square="d6"]').getAttribute("aria-label")`); !strings.Contains(got, "marked") {
		t.Errorf("d6 aria-label = %q, want it to say marked", got)
	}
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
	if v := verdict(b); v != "correct" {
		t.Fatalf("verdict = %q, want correct", v)
	}
	if got := squaresWithClass(b, "correct"); got != "d6 e6" {
		t.Errorf("squares shown correct = %q, want %q", got, "d6 e6")
	}
	if now := Eval[string](b, `location.href`); now != url {
		t.Errorf("the page reloaded or moved: %s -> %s", url, now)
	}
	b.Screenshot("exercise-correct-desktop")

	// The solve is stored: the overview shows a tick.
	b.Open(srv.URL + "/practice")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-exercise-item="en-passant-available"]`)))
	if !Eval[bool](b, `document.querySelector('[data-exercise-item="en-passant-available"]').classList.contains("solved")`) {
		t.Errorf("/practice does not tick the solved exercise")
	}
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

func TestExerciseWrongAnswerExplained(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Phone))
	b.Open(exerciseURL(srv, "en-passant", "en-passant-expired"))
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board][data-exercise]")))
	b.Do(chromedp.Click(squareSel("d6")), chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
	if v := verdict(b); v != "wrong" {
		t.Fatalf("verdict = %q, want wrong", v)
	}
	if got := squaresWithClass(b, "wrong"); got != "d6" {
		t.Errorf("wrong squares = %q, want d6", got)
	}
	if got := squaresWithClass(b, "missed"); got != "e6" {
		t.Errorf("missed squares = %q, want e6", got)
	}
	reason := Eval[string](b, `document.querySelector('[data-reason="d6"]').textContent`)
	if !strings.Contains(reason, "en passant is possible only right after") {
		t.Errorf("reason for d6 = %q, want the en passant timing rule", reason)
	}
	// The marks are shapes and words too, not colour alone (N4).
	if got := Eval[string](b, `document.querySelector('[data-square="e6"]').getAttribute("aria-label")`); !strings.Contains(got, "missed") {
		t.Errorf("e6 aria-label = %q, want it to say missed", got)
	}
	if got := Eval[string](b, `getComputedStyle(document.querySelector('[data-square="d6"]'), "::after").content`); !strings.Contains(got, "✕") {
		t.Errorf("wrong square marker content = %s, want a cross", got)
	}
	if sw := Eval[int64](b, `document.documentElement.scrollWidth`); sw > Phone.Width {
		t.Errorf("at %d px the page scrolls sideways (scrollWidth %d)", Phone.Width, sw)
	}
	b.Screenshot("exercise-wrong-phone")

	// Try again drops the wrong mark (d6, the only one) and the verdict in place.
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="reset"]`)))
	if got := squaresWithClass(b, "marked") + squaresWithClass(b, "missed") + squaresWithClass(b, "wrong"); got != "" {
		t.Errorf("after Try again these squares still carry marks: %q", got)
	}
	// Show answer marks exactly the legal destinations.
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="answer"]`)))
	if v := verdict(b); v != "answer" {
		t.Fatalf("verdict after Show answer = %q, want answer", v)
	}
	if got := squaresWithClass(b, "dest"); got != "e6" {
		t.Errorf("answer squares = %q, want e6", got)
	}
}

func TestExerciseWithoutJavaScript(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithoutJS())
	b.Open(exerciseURL(srv, "check", "check-king-escapes"))
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board][data-exercise]")))
	// Each click posts the form and the server re-renders with the mark.
	for i, sq := range []string{"d1", "d2", "f1", "f2", "e2"} {
		b.Do(chromedp.Click(squareSel(sq)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-square="` + sq + `"].marked`)))
		if n := len(strings.Fields(squaresWithClass(b, "marked"))); n != i+1 {
			t.Fatalf("after clicking %s, %d squares are marked, want %d", sq, n, i+1)
		}
	}
	b.Do(chromedp.Click(squareSel("e2"))) // unmark: e2 is still in check
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-square="e2"]:not(.marked)`)))
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
	if v := verdict(b); v != "correct" {
		t.Fatalf("verdict = %q, want correct (marked %q)", v, squaresWithClass(b, "marked"))
	}
	b.Open(srv.URL + "/practice")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-exercise-item="check-king-escapes"]`)))
	if !Eval[bool](b, `document.querySelector('[data-exercise-item="check-king-escapes"]').classList.contains("solved")`) {
		t.Errorf("/practice does not tick the exercise solved without JavaScript")
	}
	// A wrong answer without JavaScript lists its reasons too.
	b.Open(exerciseURL(srv, "check", "check-king-escapes"))
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board][data-exercise]")))
	b.Do(chromedp.Click(squareSel("e2")))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-square="e2"].marked`)))
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
	if v := verdict(b); v != "wrong" {
		t.Fatalf("verdict = %q, want wrong", v)
	}
	reason := Eval[string](b, `document.querySelector('[data-reason="e2"]').textContent`)
	if !strings.Contains(reason, "the king would be in check there") {
		t.Errorf("reason for e2 = %q", reason)
	}
}

func TestExerciseByKeyboardOnly(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t)
	b.Open(exerciseURL(srv, "en-passant", "en-passant-available"))
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board][data-exercise]")))
	// Tab until a square has the focus: the board has one tab stop, on the piece.
	focused := ""
	for i := 0; i < 40 && focused == ""; i++ {
		b.Do(chromedp.KeyEvent(kb.Tab))
		focused = Eval[string](b, `document.activeElement.dataset.square || ""`)
	}
	if focused != "e5" {
		t.Fatalf("keyboard focus entered the board on %q, want the piece's square e5", focused)
	}
	b.Do(chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(" "))        // e6
	b.Do(chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.Enter)) // d6
	if got := squaresWithClass(b, "marked"); got != "d6 e6" {
		t.Fatalf("marked with the keyboard = %q, want %q", got, "d6 e6")
	}
	// Tab leaves the board for the Check button.
	b.Do(chromedp.KeyEvent(kb.Tab))
	if got := Eval[string](b, `document.activeElement.dataset.action || ""`); got != "check" {
		t.Fatalf("after the board, Tab reaches %q, want the Check button", got)
	}
	b.Do(chromedp.KeyEvent(kb.Enter))
	if v := verdict(b); v != "correct" {
		t.Fatalf("verdict = %q, want correct", v)
	}
}
