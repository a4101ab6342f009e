//go:build full

package e2e

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"chesstutor/chess"
	"chesstutor/puzzles"
)

// Browser tests of the puzzles (issue 34, P3, P5, P6): a wrong move is
// answered, explained and taken back; the solution is played with the
// keyboard; the streak counts; the page works without JavaScript.

// twoMovePuzzle is a shipped puzzle whose solution has two of the
// solver's moves, else the first puzzle.
func twoMovePuzzle(t *testing.T) *puzzles.Puzzle {
	t.Helper()
	all := puzzles.Shipped().All()
	for _, p := range all {
		if p.SolverMoves() == 2 && !p.Solution[0].IsPromotion() && !p.Solution[2].IsPromotion() {
			return p
		}
	}
	return all[0]
}

func wrongFirstMove(t *testing.T, p *puzzles.Puzzle) chess.Move {
	t.Helper()
	pos := p.Start()
	for _, m := range pos.LegalMoves() {
		if m != p.Solution[0] && !m.IsPromotion() && !pos.Play(m).IsCheckmate() {
			return m
		}
	}
	t.Fatalf("puzzle %s has no wrong move", p.ID)
	return chess.NoMove
}

// pressSquares plays a move with the keyboard: focus the piece's square,
// Enter, focus the destination, Enter.
func pressSquares(b *Browser, m chess.Move) {
	b.t.Helper()
	for _, sq := range []string{m.From().String(), m.To().String()} {
		_ = Eval[bool](b, `(document.querySelector('[data-puzzle-page] [data-square="`+sq+`"]').focus(), true)`)
		b.Do(chromedp.KeyEvent(kb.Enter))
	}
}

func placement(fen string) string { return strings.Fields(fen)[0] }

// waitFEN waits until the board shows pos.
func waitFEN(b *Browser, pos *chess.Position) {
	b.t.Helper()
	if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](`document.querySelector("[data-board]").dataset.fen.split(" ")[0] === "`+placement(pos.FEN())+`"`)); err != nil {
		b.t.Fatalf("waiting for the board to show %s: %v", pos.FEN(), err)
	}
}

func TestPuzzleWrongTryAndKeyboardSolve(t *testing.T) {
	srv := newServer(t)
	p := twoMovePuzzle(t)
	for _, vp := range []struct {
		name string
		v    Viewport
	}{{"375x740", Viewport{Width: 375, Height: 740, Mobile: true}}, {"1280x800", Viewport{Width: 1280, Height: 800}}} {
		b := newBrowser(t, WithViewport(vp.v))
		b.Open(srv.URL + "/puzzles/" + p.ID)
		b.WaitScript("[data-puzzle-page]")
		// The board and its buttons are in view as the page loads.
		if !Eval[bool](b, `document.querySelector("[data-board]").getBoundingClientRect().bottom <= window.innerHeight`) {
			t.Errorf("%s: the board does not fit the first screen", vp.name)
		}
		b.Screenshot("puzzle-" + vp.name)
		bad := wrongFirstMove(t, p)
		b.Do(chromedp.Click(chromedp.CSS(`[data-puzzle-page] [data-square="` + bad.From().String() + `"]`)))
		b.Do(chromedp.Click(chromedp.CSS(`[data-puzzle-page] [data-square="` + bad.To().String() + `"]`)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="wrong"]`)))
		b.Screenshot("puzzle-wrong-" + vp.name)
		text := Eval[string](b, `document.querySelector("[data-result]").textContent`)
		if !strings.Contains(text, "Not this one.") || !strings.Contains(text, "your opponent") {
			t.Errorf("%s: the wrong try says %q", vp.name, text)
		}
		// The move is taken back and the explanation stays.
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-puzzle-page][data-taken-back]`)))
		if got := Eval[string](b, `document.querySelector("[data-board]").dataset.fen`); placement(got) != placement(p.Start().FEN()) {
			t.Errorf("%s: after the take-back the board shows %s, want %s", vp.name, got, p.Start().FEN())
		}
		if got := Eval[string](b, `document.querySelector("[data-result]").textContent`); !strings.Contains(got, "your opponent") {
			t.Errorf("%s: the explanation went away with the take-back: %q", vp.name, got)
		}
		// Now the solution, with the keyboard.
		for ply := 0; ply < p.Plies(); ply += 2 {
			pressSquares(b, p.Solution[ply])
			if ply+2 < p.Plies() {
				b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="correct"]`)))
				waitFEN(b, p.Position(ply+2))
			}
		}
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-puzzle-page][data-solved]`)))
		if got := Eval[string](b, `document.querySelector("[data-result]").textContent`); !strings.Contains(got, "Solved!") {
			t.Errorf("%s: after the last move the page says %q", vp.name, got)
		}
		if errs := b.ConsoleErrors(); len(errs) > 0 {
			t.Errorf("%s: console errors: %v", vp.name, errs)
		}
	}
}

func TestPuzzleStreakInTheBrowser(t *testing.T) {
	srv := newServer(t)
	for _, vp := range []struct {
		name string
		v    Viewport
	}{{"375x740", Viewport{Width: 375, Height: 740, Mobile: true}}, {"1280x800", Viewport{Width: 1280, Height: 800}}} {
		b := newBrowser(t, WithViewport(vp.v))
		b.Open(srv.URL + "/puzzles/streak")
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="start-streak"]`)))
		for solved := 0; solved < 2; solved++ {
			b.WaitScript("[data-puzzle-page]")
			id := Eval[string](b, `document.querySelector("[data-puzzle-page]").dataset.id`)
			p, err := puzzles.Shipped().Get(id)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < p.Plies(); ply += 2 {
				waitFEN(b, p.Position(ply))
				pressSquares(b, p.Solution[ply])
			}
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-puzzle-page][data-solved]`)))
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="next"]`)))
		}
		b.WaitScript("[data-puzzle-page]")
		if got := Eval[string](b, `document.querySelector("[data-streak]").dataset.streak`); got != "2" {
			t.Errorf("%s: after two puzzles the streak shows %q", vp.name, got)
		}
		b.Screenshot("puzzle-streak-" + vp.name)
	}
}

func TestPuzzleWithoutJavaScript(t *testing.T) {
	srv := newServer(t)
	p := twoMovePuzzle(t)
	b := newBrowser(t, WithoutJS(), WithViewport(Viewport{Width: 375, Height: 740, Mobile: true}))
	b.Open(srv.URL + "/puzzles/" + p.ID + "?lang=es")
	bad := wrongFirstMove(t, p)
	b.Do(chromedp.Click(chromedp.CSS(`[data-square="` + bad.From().String() + `"]`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-square="` + bad.From().String() + `"].selected`)))
	b.Do(chromedp.Click(chromedp.CSS(`[data-square="` + bad.To().String() + `"]`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-verdict="wrong"]`)))
	b.Screenshot("puzzle-wrong-nojs-es")
	if got := Eval[string](b, `document.querySelector("[data-result]").textContent`); !strings.Contains(got, "Esta no es.") {
		t.Errorf("the Spanish page without JavaScript says %q", got)
	}
	href := Eval[string](b, `document.querySelector("[data-action=take-back]").getAttribute("href")`)
	u, err := url.Parse(href)
	if err != nil || u.Query().Get("wrong") != "" {
		t.Errorf("the take-back link %q keeps the wrong move", href)
	}
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="take-back"]`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-square="` + p.Solution[0].From().String() + `"]`)))
	if got := Eval[string](b, `document.querySelector("[data-board]").dataset.fen`); placement(got) != placement(p.Start().FEN()) {
		t.Errorf("after the take-back the board shows %s", got)
	}
}
