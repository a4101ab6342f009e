//go:build full

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Browser tests of the goals of issue 36 (X9): defending and the four
// simple tactics, each on a phone and on a laptop. A wrong move gets the
// grader's reason and leaves the board; the right move is praised with
// the tactic's name.

func TestTacticExercisesAtBothSizes(t *testing.T) {
	cases := []struct {
		lesson, id, goal string
		wrong            [2]string
		wrongSays        string
		right            [2]string
		rightSays        string
	}{
		{"defending", "defend-move-knight", "defend", [2]string{"g1", "f1"}, "can take your knight on d4", [2]string{"d4", "f3"}, "Well defended"},
		{"tactics", "fork-knight-king-rook", "fork", [2]string{"b5", "d6"}, "attacks only the king on e8", [2]string{"b5", "c7"}, "A fork!"},
		{"tactics", "pin-bishop-knight-king", "pin", [2]string{"f1", "d3"}, "pins nothing", [2]string{"f1", "b5"}, "A pin!"},
		{"tactics", "skewer-bishop-king-rook", "skewer", [2]string{"f1", "c4"}, "Not safe", [2]string{"f1", "g2"}, "A skewer!"},
		{"tactics", "discovered-bishop-check", "discovered-attack", [2]string{"e2", "d3"}, "only one threat", [2]string{"e2", "c4"}, "A discovered attack!"},
	}
	srv := newServer(t)
	for _, vp := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		size := fmt.Sprintf("%dx%d", vp.Width, vp.Height)
		t.Run(size, func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp))
			for _, c := range cases {
				b.Open(exerciseURL(srv, c.lesson, c.id))
				b.WaitScript("[data-move-page]")
				if got := Eval[string](b, `document.querySelector("[data-move-page]").dataset.goal`); got != c.goal {
					t.Fatalf("%s: data-goal = %q, want %q", c.id, got, c.goal)
				}
				if got := Eval[float64](b, `document.querySelector("[data-move-page] [data-board]").getBoundingClientRect().bottom - innerHeight`); got > 0 {
					t.Errorf("%s at %s: the board ends %.0f px below the first screen", c.id, size, got)
				}
				b.Do(chromedp.Click(moveSquare(c.wrong[0])), chromedp.Click(moveSquare(c.wrong[1])))
				kind, reason := moveVerdict(b)
				if kind != "wrong" || !strings.Contains(reason, c.wrongSays) {
					t.Errorf("%s %s-%s: verdict %q, reason %q; want wrong, saying %q", c.id, c.wrong[0], c.wrong[1], kind, reason, c.wrongSays)
				}
				resetMove(b)
				b.Do(chromedp.Click(moveSquare(c.right[0])), chromedp.Click(moveSquare(c.right[1])))
				kind, reason = moveVerdict(b)
				if kind != "correct" || !strings.Contains(reason, c.rightSays) {
					t.Errorf("%s %s-%s: verdict %q, reason %q; want correct, saying %q", c.id, c.right[0], c.right[1], kind, reason, c.rightSays)
				}
				if c.goal == "fork" {
					b.Screenshot("tactic-fork-right-" + size)
				}
			}
			// Each was solved after one wrong try: two stars each (X11),
			// shown on /learn per lesson and for the course.
			b.Open(srv.URL + "/learn")
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-lesson="tactics"] [data-stars]`)))
			if got := Eval[string](b, `document.querySelector('[data-lesson="tactics"] [data-stars]').dataset.stars + " " + document.querySelector('[data-lesson="defending"] [data-stars]').dataset.stars + " " + document.querySelector('.stars-total').dataset.stars`); got != "8 2 10" {
				t.Errorf("stars on /learn (tactics, defending, course) = %q, want 8 2 10", got)
			}
			_ = Eval[bool](b, `(document.querySelector('[data-lesson="defending"]').scrollIntoView({block: "center"}), true)`)
			b.Screenshot("learn-stars-" + size)
		})
	}
}
