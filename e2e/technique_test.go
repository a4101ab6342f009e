//go:build full

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
)

// Browser tests of the mate technique (issue 36, X9): the lone king is
// mated against the computer's defence within the move limit, with and
// without JavaScript, on a phone and on a laptop.

// techniqueGame plays an exercise to mate with the grader's first right
// move each time and returns the learner's moves (UCI) and one wrong
// first move.
func techniqueGame(t *testing.T, id string) (moves []string, wrong string) {
	t.Helper()
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	ex, ok := course.Exercise(id)
	if !ok {
		t.Fatalf("no exercise %s", id)
	}
	task := ex.Task()
	var line []chess.Move
	pos := ex.Pos
	for range ex.Limit {
		var at exercise.Attempt
		for _, m := range pos.LegalMoves() {
			if a, err := task.Try(line, m.UCI()); err == nil && a.Verdict.Correct {
				at = a
				moves = append(moves, m.UCI())
				break
			}
			if wrong == "" && len(line) == 0 {
				wrong = m.UCI()
			}
		}
		if at.Verdict.Solved {
			return moves, wrong
		}
		line, pos = at.Line, at.After
	}
	t.Fatalf("%s: no mate within %d moves", id, ex.Limit)
	return nil, ""
}

func TestMateTechniqueAtBothSizes(t *testing.T) {
	const id = "technique-rook-waiting"
	moves, wrong := techniqueGame(t, id)
	srv := newServer(t)
	for _, vp := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		size := fmt.Sprintf("%dx%d", vp.Width, vp.Height)
		t.Run(size, func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp))
			b.Open(exerciseURL(srv, "lone-king", id))
			b.WaitScript("[data-move-page]")
			if got := Eval[string](b, `document.querySelector("[data-move-page]").dataset.goal + " " + document.querySelector("[data-move-page] [data-board]").dataset.limit`); got != "mate-technique 3" {
				t.Fatalf("hooks = %q, want goal mate-technique and limit 3", got)
			}
			if got := Eval[float64](b, `document.querySelector("[data-move-page] [data-board]").getBoundingClientRect().bottom - innerHeight`); got > 0 {
				t.Errorf("the board ends %.0f px below the first screen", got)
			}
			b.Do(chromedp.Click(moveSquare(wrong[:2])), chromedp.Click(moveSquare(wrong[2:4])))
			if kind, reason := moveVerdict(b); kind != "wrong" || reason == "" {
				t.Errorf("%s: verdict %q, reason %q; want wrong with a reason", wrong, kind, reason)
			}
			resetMove(b)
			reason := ""
			for i, m := range moves {
				fen := Eval[string](b, `document.querySelector("[data-move-page] [data-board]").dataset.fen`)
				b.Do(chromedp.Click(moveSquare(m[:2])), chromedp.Click(moveSquare(m[2:4])))
				// The last verdict stays on screen until the new one comes.
				if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](`(document.querySelector("[data-result] [data-reason]") || {}).textContent?.trim() !== `+jsString(reason))); err != nil {
					t.Fatalf("move %d: no new verdict: %v", i+1, err)
				}
				var kind string
				kind, reason = moveVerdict(b)
				if kind != "correct" {
					t.Fatalf("move %d %s: verdict %q, reason %q", i+1, m, kind, reason)
				}
				if i < len(moves)-1 {
					if !strings.Contains(reason, "The computer answers") {
						t.Errorf("move %d: reason %q does not give the computer's answer", i+1, reason)
					}
					prompt := Eval[string](b, `document.querySelector("[data-prompt]").textContent`)
					if !strings.Contains(prompt, fmt.Sprintf("%d move", len(moves)-1-i)) && !strings.Contains(prompt, "moves left") {
						t.Errorf("move %d: the prompt %q does not count the moves left", i+1, prompt)
					}
					if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](`document.querySelector("[data-move-page] [data-board]").dataset.fen !== `+jsString(fen))); err != nil {
						t.Fatalf("move %d: the board never showed the reply: %v", i+1, err)
					}
				} else if !strings.Contains(reason, "Checkmate") {
					t.Errorf("last move %s: reason %q, want checkmate", m, reason)
				}
			}
			b.Screenshot("technique-mated-" + size)
		})
	}
	t.Run("without JavaScript", func(t *testing.T) {
		b := newBrowser(t, WithoutJS())
		b.Open(exerciseURL(srv, "lone-king", id))
		for i, m := range moves {
			b.Do(chromedp.WaitVisible(chromedp.CSS("[data-move-page]")))
			b.Do(chromedp.Click(moveSquare(m[:2])))
			// Each click posts the form and loads the next page: wait for
			// the page that shows the selection before the second click.
			waitAcrossLoads(b, `location.search.includes("sel=`+m[:2]+`") && document.readyState === "complete" && !!document.querySelector('[data-square="`+m[:2]+`"].selected')`)
			b.Do(chromedp.Click(moveSquare(m[2:4])))
			waitAcrossLoads(b, `location.search.includes("tried=`+m+`") && document.readyState === "complete"`)
			kind, reason := moveVerdict(b)
			if kind != "correct" {
				t.Fatalf("move %d %s without JS: verdict %q, reason %q", i+1, m, kind, reason)
			}
			if i == len(moves)-1 && !strings.Contains(reason, "Checkmate") {
				t.Errorf("last move without JS: %q", reason)
			}
		}
	})
}

// waitAcrossLoads waits until expr is true in the tab, asking again when
// a page load interrupts the question (each click of a form without
// JavaScript loads a page).
func waitAcrossLoads(b *Browser, expr string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, 30*time.Second)
	defer cancel()
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if ctx.Err() != nil {
			url, _ := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`location.href`))
			b.t.Fatalf("waiting for %s at %s: %v", expr, url, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
