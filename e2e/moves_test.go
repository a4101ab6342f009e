//go:build full

package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Browser tests of the "play the move" and "click the square" exercises
// (issue 15, X6, X7).

// moveSquare selects one square of the move exercise's board.
func moveSquare(sq string) chromedp.CSS {
	return chromedp.CSS(`[data-move-page] [data-board] [data-square="` + sq + `"]`)
}

// moveVerdict waits for a verdict and returns its kind and reason.
func moveVerdict(b *Browser) (string, string) {
	b.t.Helper()
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-result] [data-verdict]")))
	return Eval[string](b, `document.querySelector("[data-result] [data-verdict]").dataset.verdict`),
		Eval[string](b, `document.querySelector("[data-result] [data-reason]").textContent.trim()`)
}

// resetMove presses Try again and waits for the verdict to go.
func resetMove(b *Browser) {
	b.t.Helper()
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="reset"]`)),
		chromedp.WaitNotVisible(chromedp.CSS("[data-result]")))
}

func TestMoveExerciseMateInOne(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Viewport{Width: 375, Height: 740, Mobile: true}))
	b.Open(exerciseURL(srv, "checkmate", "mate-one-back-rank"))
	b.WaitScript("[data-move-page]")
	if Eval[bool](b, `!document.querySelector('[data-action="reset"]').hidden`) {
		t.Error("Try again shows before any move")
	}
	if got := Eval[string](b, `document.querySelector("[data-move-page]").dataset.exerciseKind + " " + document.querySelector("[data-move-page]").dataset.goal`); got != "move mate" {
		t.Fatalf("page hooks = %q, want %q", got, "move mate")
	}
	checkBoardContract(t, b)
	// The prompt, the whole board and the Try again button are on the
	// first screen (X8's layout rule, for this page too).
	if got := Eval[string](b, `(() => {
		const vh = innerHeight, r = (s) => document.querySelector(s).getBoundingClientRect();
		const bad = [];
		if (r("[data-prompt]").top < 0) bad.push("prompt");
		if (r("[data-move-page] [data-board]").bottom > vh) bad.push("board " + r("[data-move-page] [data-board]").bottom);
		return bad.join(" ");
	})()`); got != "" {
		t.Errorf("outside the first screen at 375×740: %s", got)
	}

	// Wrong: the rook goes to a7, which is not even check.
	b.Do(chromedp.Click(moveSquare("a1")))
	if got := Eval[string](b, `[...document.querySelectorAll('[data-move-page] .square.dest')].map(e => e.dataset.square).sort().join(" ")`); got != "a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1" {
		t.Errorf("destinations of the rook = %q, want a2…a8 and b1…f1", got)
	}
	b.Do(chromedp.Click(moveSquare("a7")))
	kind, reason := moveVerdict(b)
	if kind != "wrong" || !strings.Contains(reason, "not even in check") {
		t.Fatalf("Ra7: verdict %q, reason %q; want wrong, not even in check", kind, reason)
	}
	b.Screenshot("move-mate-wrong-375x740")
	resetMove(b)

	// Right: by keyboard. Focus the board, walk from the rook on a1 to a8.
	b.Do(chromedp.Focus(moveSquare("a1")), chromedp.KeyEvent(kb.Enter))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-square="a1"].selected`)))
	for range 7 {
		b.Do(chromedp.KeyEvent(kb.ArrowUp))
	}
	b.Do(chromedp.KeyEvent(kb.Enter))
	kind, reason = moveVerdict(b)
	if kind != "correct" || !strings.Contains(reason, "Checkmate") {
		t.Fatalf("Ra8: verdict %q, reason %q; want correct checkmate", kind, reason)
	}
	if got := Eval[string](b, `document.querySelector('[data-move-page] [data-board]').dataset.fen`); !strings.HasPrefix(got, "R5k1/") {
		t.Errorf("board after Ra8# shows %q", got)
	}
	b.Screenshot("move-mate-right-375x740")

	// The solve is stored: the lesson's list shows the tick.
	b.Open(exerciseURL(srv, "checkmate", "mate-one-back-rank"))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`.practice-list li.current .solved-tick`)))
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

func TestMoveExerciseDesktopDragAndNoStalemate(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Viewport{Width: 1280, Height: 800}))
	b.Open(exerciseURL(srv, "stalemate", "no-stalemate-queen-corner"))
	b.WaitScript("[data-move-page]")
	if got := Eval[string](b, `document.querySelector("[data-move-page]").dataset.goal`); got != "no-stalemate" {
		t.Fatalf("data-goal = %q", got)
	}
	// Qf7 stalemates: wrong, and the reason says so.
	b.Do(chromedp.Click(moveSquare("f1")), chromedp.Click(moveSquare("f7")))
	kind, reason := moveVerdict(b)
	if kind != "wrong" || !strings.Contains(reason, "Stalemate!") || !strings.Contains(reason, "not in check") {
		t.Fatalf("Qf7: verdict %q, reason %q; want wrong with the stalemate reason", kind, reason)
	}
	// The wrong move is played for a moment, then taken back (issue 38).
	b.Screenshot("move-nostalemate-wrong-1280x800")
	waitEval(t, b, "the wrong move taken back", `document.querySelector('[data-move-page] [data-board]').dataset.fen.startsWith("7k/8/6K1/")`)
	// Drag the queen to f8: mate, which keeps the win.
	b.Do(chromedp.Click(moveSquare("f1"))) // a new try clears the old verdict
	b.Do(chromedp.Click(moveSquare("f1"))) // and unselects again
	dragSquare(b, "f1", "f8")
	kind, reason = moveVerdict(b)
	if kind != "correct" || !strings.Contains(reason, "Checkmate") {
		t.Fatalf("Qf8 dragged: verdict %q, reason %q", kind, reason)
	}
	b.Screenshot("move-nostalemate-right-1280x800")
}

// dragSquare drags a piece with the mouse from one square to another.
func dragSquare(b *Browser, from, to string) {
	b.t.Helper()
	_ = Eval[bool](b, `(() => {
		const sq = (n) => document.querySelector('[data-move-page] [data-board] [data-square="' + n + '"]');
		const c = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
		const [x1, y1] = c(sq("`+from+`")), [x2, y2] = c(sq("`+to+`"));
		const ev = (type, x, y, target) => target.dispatchEvent(new PointerEvent(type, {bubbles: true, clientX: x, clientY: y, button: 0, pointerType: "mouse", isPrimary: true}));
		ev("pointerdown", x1, y1, sq("`+from+`"));
		for (let i = 1; i <= 5; i++) ev("pointermove", x1 + (x2 - x1) * i / 5, y1 + (y2 - y1) * i / 5, window);
		ev("pointerup", x2, y2, window);
		return true;
	})()`)
}

func TestMoveExerciseMateInTwo(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t)
	b.Open(exerciseURL(srv, "checkmate", "mate-two-rook-ladder"))
	b.WaitScript("[data-move-page]")
	b.Do(chromedp.Click(moveSquare("b1")), chromedp.Click(moveSquare("b7")))
	kind, reason := moveVerdict(b)
	if kind != "correct" || !strings.Contains(reason, "computer answers") {
		t.Fatalf("Rb7: verdict %q, reason %q", kind, reason)
	}
	// The computer's defence is on the board: the king went to g8.
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-move-page] [data-square="g8"] [data-piece="bK"]`)))
	if got := Eval[string](b, `document.querySelector("[data-prompt]").textContent`); !strings.Contains(got, "Now give mate in one") {
		t.Errorf("prompt after the reply = %q", got)
	}
	b.Do(chromedp.Click(moveSquare("a2")), chromedp.Click(moveSquare("a8")))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-move-page] [data-square="a8"].correct [data-piece="wR"]`)))
	if _, reason := moveVerdict(b); !strings.Contains(reason, "Checkmate in two") {
		t.Errorf("second move reason = %q", reason)
	}
}

func TestMoveExerciseWithoutJS(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithoutJS())
	b.Open(exerciseURL(srv, "promotion", "promote-play-simple"))
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-move-page]")))
	// Each click posts the form: select the pawn, then its square, then
	// the piece it becomes.
	b.Do(chromedp.Click(moveSquare("b7")))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-square="b7"].selected`)))
	b.Do(chromedp.Click(moveSquare("b8")))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-promote] button[value="b7b8n"]`)))
	b.Do(chromedp.Click(chromedp.CSS(`[data-promote] button[value="b7b8n"]`)))
	kind, reason := moveVerdict(b)
	if kind != "wrong" || !strings.Contains(reason, "queen") {
		t.Fatalf("b8=N: verdict %q, reason %q", kind, reason)
	}
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="reset"]`)))
	b.Do(chromedp.WaitNotPresent(chromedp.CSS(`[data-result] [data-verdict]`)))
	b.Do(chromedp.Click(moveSquare("b7")))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-square="b7"].selected`)))
	b.Do(chromedp.Click(moveSquare("b8")))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-promote] button[value="b7b8q"]`)))
	b.Do(chromedp.Click(chromedp.CSS(`[data-promote] button[value="b7b8q"]`)))
	if kind, reason := moveVerdict(b); kind != "correct" {
		t.Fatalf("b8=Q: verdict %q, reason %q", kind, reason)
	}

	// A square-name exercise without JavaScript: one click, one post.
	b.Open(exerciseURL(srv, "board", "board-name-e4"))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-move-page][data-exercise-kind="name"]`)))
	b.Do(chromedp.Click(moveSquare("d4")))
	kind, reason = moveVerdict(b)
	if kind != "wrong" || !strings.Contains(reason, "That is d4, not e4") {
		t.Fatalf("clicking d4 for e4: verdict %q, reason %q", kind, reason)
	}
	b.Do(chromedp.Click(moveSquare("e4")))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-verdict="correct"]`)))
}

// TestContentScreenshots checks the new diagram signs and the lesson's
// move blocks, and saves screenshots of them for review.
func TestContentScreenshots(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Viewport{Width: 375, Height: 740, Mobile: true}))
	b.Open(srv.URL + "/learn/king")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`.overlay-forbidden`)))
	if n := Eval[float64](b, `document.querySelectorAll('.overlay-forbidden').length`); n < 5 {
		t.Errorf("lesson 6 shows %v forbidden crosses, want at least 5", n)
	}
	if got := Eval[string](b, `document.querySelector('.square.forbidden').getAttribute("aria-label")`); !strings.Contains(got, "may not go here") {
		t.Errorf("a forbidden square's label = %q", got)
	}
	if Eval[float64](b, `document.querySelectorAll('.overlay-attack').length`) == 0 {
		t.Error("lesson 6 shows no line of attack")
	}
	_ = Eval[bool](b, `(document.querySelector('.overlay-forbidden').closest('[data-board]').scrollIntoView(), true)`)
	viewportShot(b, "lesson-king-signs-375x740")
	b.Open(srv.URL + "/learn/checkmate")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-board][data-exercise-kind="move"][data-goal="mate"]`)))
	if n := Eval[float64](b, `document.querySelectorAll('[data-play-fen]').length`); n != 2 {
		t.Errorf("the checkmate lesson has %v Play this position links, want 2", n)
	}
	href := Eval[string](b, `document.querySelector('[data-play-fen]').getAttribute("href")`)
	_ = Eval[bool](b, `(document.querySelector('[data-exercise-kind="move"]').scrollIntoView(), true)`)
	viewportShot(b, "lesson-checkmate-move-block-375x740")
	b.Open(srv.URL + href)
	b.Do(chromedp.WaitReady(chromedp.CSS(`input[name="fen"]`)))
	if got := Eval[string](b, `document.querySelector('input[name="fen"]').value`); got != "8/8/8/4k3/8/8/8/3QK3 w - - 0 1" {
		t.Errorf("Play this position opens the new-game form with FEN %q", got)
	}
	b.Open(srv.URL + "/glossary")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`dl`)))
	b.Screenshot("glossary-375x740")
}

// viewportShot saves what the window shows (not the whole page) as
// e2e/screenshots/<name>.png.
func viewportShot(b *Browser, name string) {
	b.t.Helper()
	b.WindowShot(name)
}
