//go:build full

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
)

// Browser test of the undefended-pieces exercise (issue 36): marked by tap
// on a phone, by click on a laptop and by keyboard, graded right and
// wrong with reasons, and with the form alone.

func exSquare(sq string) chromedp.CSS {
	return chromedp.CSS(`[data-exercise-page] [data-board] [data-square="` + sq + `"]`)
}

func TestUndefendedExerciseAtBothSizes(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	ex, ok := course.Exercise("loose-rook-bishop")
	if !ok || ex.Kind != lessons.KindUndefended {
		t.Fatal("no undefended exercise loose-rook-bishop")
	}
	var answer []string
	for _, sq := range exercise.UndefendedAnswer(ex.Pos) {
		answer = append(answer, sq.String())
	}
	guarded := "" // a piece of the mover's that is guarded: a wrong mark
	for sq := chess.A1; sq <= chess.H8 && guarded == ""; sq++ {
		p := ex.Pos.PieceAt(sq)
		if p != chess.NoPiece && p.Color() == ex.Pos.Turn() && p.Type() != chess.King && ex.Pos.Attackers(sq, p.Color()) != 0 {
			guarded = sq.String()
		}
	}
	srv := newServer(t)
	for _, vp := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		size := fmt.Sprintf("%dx%d", vp.Width, vp.Height)
		t.Run(size, func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp))
			b.Open(exerciseURL(srv, ex.Lesson, ex.ID))
			b.WaitScript("[data-exercise-page]")
			checkBoardContract(t, b)
			if got := Eval[float64](b, `document.documentElement.scrollWidth - innerWidth`); got > 0 {
				t.Errorf("scrolls sideways by %.0f px", got)
			}
			// Wrong: one loose piece missed, one guarded piece marked.
			b.Do(chromedp.Click(exSquare(answer[0])), chromedp.Click(exSquare(guarded)))
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="wrong"]`)))
			text := Eval[string](b, `document.querySelector("[data-result]").textContent.replace(/\s+/g, " ")`)
			if !strings.Contains(text, "is defended by") || !strings.Contains(text, "is undefended") {
				t.Errorf("the wrong answer's reasons: %q", text)
			}
			b.WindowShot("undefended-wrong-" + size)
			// Try again keeps the right mark; the rest marked by keyboard
			// (arrow keys from the first mark, Space).
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="reset"]`)))
			for _, sq := range answer[1:] {
				b.Do(chromedp.Focus(exSquare(sq)), chromedp.KeyEvent(kb.Enter))
			}
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="correct"]`)))
			b.WindowShot("undefended-right-" + size)
			// Show answer marks exactly the loose pieces.
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="answer"]`)))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="answer"]`)))
			if got := Eval[string](b, `[...document.querySelectorAll("[data-exercise-page] [data-board] .dest")].map(e => e.dataset.square).sort().join(" ")`); got != strings.Join(answer, " ") {
				t.Errorf("the answer shows %q, want %q", got, strings.Join(answer, " "))
			}
		})
	}
	t.Run("without JavaScript", func(t *testing.T) {
		b := newBrowser(t, WithoutJS())
		b.Open(exerciseURL(srv, ex.Lesson, ex.ID))
		for _, sq := range answer {
			b.Do(chromedp.Click(exSquare(sq)))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-exercise-page] [data-board] [data-square="` + sq + `"].marked`)))
		}
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="correct"]`)))
	})
}
