//go:build full

package e2e

// Keyboard-only journeys (issue 10, N4, G3, G4): no mouse event anywhere,
// only key presses, as someone who cannot use a pointer plays.

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"chesstutor/quiz"
)

// focusedSquare is the data-square of the focused element, or "".
func focusedSquare(b *Browser) string {
	return Eval[string](b, `(document.activeElement && document.activeElement.dataset.square) || ""`)
}

// tabUntil presses Tab until the focused element matches the CSS selector.
func tabUntil(t *testing.T, b *Browser, sel string) {
	t.Helper()
	for i := 0; i < 60; i++ {
		if Eval[bool](b, `document.activeElement !== null && document.activeElement.matches(`+"`"+sel+"`"+`)`) {
			return
		}
		b.Do(chromedp.KeyEvent(kb.Tab))
	}
	t.Fatalf("Tab never reached %s", sel)
}

// arrowTo moves the board focus from the focused square to target with
// arrow keys, for a board with White at the bottom.
func arrowTo(t *testing.T, b *Browser, target string) {
	t.Helper()
	from := focusedSquare(b)
	if from == "" {
		t.Fatalf("no square has the focus (want to move to %s)", target)
	}
	df := int(target[0]) - int(from[0])
	dr := int(target[1]) - int(from[1])
	press := func(key string, n int) {
		for ; n > 0; n-- {
			b.Do(chromedp.KeyEvent(key))
		}
	}
	if df > 0 {
		press(kb.ArrowRight, df)
	} else {
		press(kb.ArrowLeft, -df)
	}
	if dr > 0 {
		press(kb.ArrowUp, dr)
	} else {
		press(kb.ArrowDown, -dr)
	}
	if got := focusedSquare(b); got != target {
		t.Fatalf("arrows from %s led to %q, want %s", from, got, target)
	}
}

// keyMove plays from-to with arrows and Enter on the game page.
func keyMove(t *testing.T, b *Browser, from, to string) {
	t.Helper()
	arrowTo(t, b, from)
	b.Do(chromedp.KeyEvent(kb.Enter))
	gameWait(t, b, `document.querySelector('[data-square="`+from+`"]').classList.contains("selected")`)
	arrowTo(t, b, to)
	b.Do(chromedp.KeyEvent(kb.Enter))
}

func TestKeyboardFoolsMate(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t)
	startGame(t, b, s, `{mode: "friend", pass_screen: false, turn_board: false}`)
	tabUntil(t, b, `[data-board] [data-square]`)
	if sq := focusedSquare(b); sq != "e2" {
		t.Errorf("the board's tab stop is %q, want e2 for White", sq)
	}
	// Escape cancels a selection.
	arrowTo(t, b, "g2")
	b.Do(chromedp.KeyEvent(kb.Enter))
	gameWait(t, b, `document.querySelector('[data-square="g2"]').classList.contains("selected")`)
	b.Do(chromedp.KeyEvent(kb.Escape))
	gameWait(t, b, `document.querySelectorAll("[data-board] .selected, [data-board] .dest").length === 0`)

	keyMove(t, b, "f2", "f3")
	gameWait(t, b, `document.querySelector("[data-board]").dataset.fen.includes(" b ")`)
	if sq := focusedSquare(b); sq == "" {
		t.Error("after the move no square has the focus")
	}
	gameWait(t, b, `document.getElementById("announcer").textContent.startsWith("White played pawn to f3")`)
	keyMove(t, b, "e7", "e5")
	gameWait(t, b, `document.querySelector("[data-board]").dataset.fen.includes(" w ")`)
	keyMove(t, b, "g2", "g4")
	gameWait(t, b, `document.querySelector("[data-board]").dataset.fen.includes(" b ")`)
	// The mate is typed in the move box.
	tabUntil(t, b, `input[name="san"], [data-san-form] input`)
	b.Do(chromedp.KeyEvent("Qh4#"), chromedp.KeyEvent(kb.Enter))
	gameWait(t, b, `!document.querySelector("[data-end-banner]").hidden`)
	if st := statusText(b); !strings.Contains(st, "Black wins by checkmate") {
		t.Errorf("status %q", st)
	}
	gameWait(t, b, `document.getElementById("announcer").textContent.startsWith("Black played queen to h4, checkmate")`)
}

func TestKeyboardPromotion(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t)
	startGame(t, b, s, `{mode: "friend", pass_screen: false, fen: "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"}`)
	tabUntil(t, b, `[data-board] [data-square]`)
	keyMove(t, b, "e7", "e8")
	gameWait(t, b, `!document.querySelector("[data-promotion]").hidden`)
	if got := Eval[string](b, `document.activeElement.getAttribute("data-promote") || ""`); got != "q" {
		t.Errorf("the picker opened with focus on %q, want the queen", got)
	}
	// Escape puts the pawn back and the focus on its square.
	b.Do(chromedp.KeyEvent(kb.Escape))
	gameWait(t, b, `document.querySelector("[data-promotion]").hidden`)
	if !Eval[bool](b, `document.querySelector('[data-square="e7"] [data-piece="wP"]') !== null`) {
		t.Fatal("Escape did not put the pawn back")
	}
	if sq := focusedSquare(b); sq != "e7" {
		t.Errorf("after Escape the focus is on %q, want e7", sq)
	}
	keyMove(t, b, "e7", "e8")
	gameWait(t, b, `!document.querySelector("[data-promotion]").hidden`)
	b.Do(chromedp.KeyEvent("r"))
	gameWait(t, b, `document.querySelector('[data-square="e8"] [data-piece="wR"]') !== null && document.querySelector("[data-board]").dataset.fen.includes(" b ")`)
	if ml := Eval[string](b, `document.querySelector("[data-movelist]").textContent`); !strings.Contains(ml, "e8=♖") {
		t.Errorf("move list %q lacks e8=♖ (figurines are the default notation)", ml)
	}
	gameWait(t, b, `document.getElementById("announcer").textContent.startsWith("White played pawn to e8 and promoted to a rook, check")`)
}

func TestKeyboardQuizQuestion(t *testing.T) {
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t)
	b := newBrowser(t)
	b.Open(s.URL + "/quiz")
	tabUntil(t, b, `[data-action="start-quiz"]`)
	b.Do(chromedp.KeyEvent(kb.Enter))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz] [data-action="answer"]`)))
	b.WaitScript(`[data-quiz]`)
	id := Eval[string](b, `document.querySelector("[data-quiz]").dataset.question`)
	q, ok := bank.Question(id)
	if !ok {
		t.Fatalf("unknown question %q", id)
	}
	key := q.Key()
	if q.Board() {
		named := Eval[string](b, `document.querySelector("[data-start-square]").textContent`)
		tabUntil(t, b, `[data-quiz] [data-board] [data-square]`)
		if sq := focusedSquare(b); sq != named {
			t.Errorf("the board's tab stop is %q; the help text says %s", sq, named)
		}
		for _, sq := range key {
			arrowTo(t, b, sq)
			b.Do(chromedp.KeyEvent(" "))
		}
	} else {
		tabUntil(t, b, `[data-quiz] input[data-option]`)
		if Eval[string](b, `document.activeElement.type`) == "radio" {
			for i := 0; i < 10 && Eval[string](b, `document.activeElement.dataset.option`) != key[0]; i++ {
				b.Do(chromedp.KeyEvent(kb.ArrowDown))
			}
			b.Do(chromedp.KeyEvent(" ")) // the focused radio is checked (arrows already check it)
		} else {
			for i := 0; i < 10; i++ {
				opt := Eval[string](b, `document.activeElement.dataset.option || ""`)
				if opt == "" {
					break
				}
				if slices.Contains(key, opt) {
					b.Do(chromedp.KeyEvent(" "))
				}
				b.Do(chromedp.KeyEvent(kb.Tab))
			}
		}
	}
	tabUntil(t, b, `[data-quiz] [data-action="answer"]`)
	b.Do(chromedp.KeyEvent(kb.Enter))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz-feedback] [data-verdict]`)))
	if v := Eval[string](b, `document.querySelector("[data-quiz-feedback] [data-verdict]").dataset.verdict`); v != "right" {
		t.Errorf("%s answered by keyboard: verdict %q, want right", id, v)
	}
	gameWait(t, b, `document.getElementById("announcer").textContent.length > 0`)
}
