//go:build full

package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"chesstutor/words"
)

// Browser tests of issue 38's smaller points that a learner meets on the
// home page and the quiz, on a phone (375×740) and a laptop (1280×800),
// in English, Spanish and Russian.

// sanRe finds a move written in notation: "Nf3", "♘f3", "3.Bc4", "Cf3".
var sanRe = regexp.MustCompile(`[KQRBNСКЛФ♔♕♖♗♘♚♛♜♝♞][a-h][1-8]|\d\.\s?[a-hKQRBN♘♗]`)

// TestHomeSpeaksToBeginners: the Practice card names every kind of
// practice (the catalogue's words in each language), and the first
// diagram's caption speaks words, not notation.
func TestHomeSpeaksToBeginners(t *testing.T) {
	srv := newServer(t)
	cat := words.Default()
	eachScreenAndLanguage(t, func(t *testing.T, sc screen, lang string) {
		b := newBrowser(t, WithViewport(sc.v))
		b.Open(srv.URL + "/?lang=" + lang)
		b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board]")))
		card := Eval[string](b, `document.querySelector('.step a[href="/practice"]').closest(".step").querySelector("p").textContent`)
		if want := cat.For(lang).T("home.step_practice"); card != want {
			t.Errorf("the Practice card says %q, want %q", card, want)
		}
		if lang == "en" && !regexp.MustCompile(`mark.*play the move.*find squares`).MatchString(card) {
			t.Errorf("the Practice card does not name every kind of practice: %q", card)
		}
		caption := Eval[string](b, `document.querySelector(".hero-board figcaption, figure figcaption").textContent`)
		if sanRe.MatchString(caption) {
			t.Errorf("the first caption is written in notation: %q", caption)
		}
	})
}

// TestMyDataReadablePage: the privacy page's "Read it on a page" shows the
// visitor's data with dates as dates and moves as moves, fitting the
// window's width (wide tables scroll inside their box).
func TestMyDataReadablePage(t *testing.T) {
	srv := newServer(t)
	eachScreenAndLanguage(t, func(t *testing.T, sc screen, lang string) {
		b := newBrowser(t, WithViewport(sc.v))
		b.Open(srv.URL + "/privacy?lang=" + lang)
		if _, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`(async () => {
  const post = (url, body) => fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)}).then(r => r.json());
  const g = await post("/api/games", {mode: "friend"});
  await post("/api/games/" + g.id + "/moves", {move: "e2e4", ply: 0});
  await post("/api/games/" + g.id + "/moves", {move: "e7e5", ply: 1});
  return g.id;
})()`, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		b.Open(srv.URL + "/privacy")
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="read-my-data"]`)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-my-data] [data-table="games"]`)))
		games := Eval[string](b, `document.querySelector('[data-table="games"]').textContent`)
		if !strings.Contains(games, "1. e4 e5") {
			t.Errorf("the games table does not show the moves as moves: %.300s", games)
		}
		if regexp.MustCompile(`\b1[0-9]{12}\b`).MatchString(games) {
			t.Errorf("the games table shows a time as milliseconds: %.300s", games)
		}
		if sw := Eval[int64](b, `document.documentElement.scrollWidth`); sw > sc.v.Width {
			t.Errorf("the page scrolls sideways (scrollWidth %d)", sw)
		}
		windowShot(t, b, "my-data-"+sc.name+"-"+lang)
	})
}

// TestWrongCheckKeepsTheBoard: after a wrong Check on a "mark the
// squares" practice page the board stays in the window with its marks, a
// one-line verdict shows beside it, and the reasons follow below (issue
// 38). English says "click or tap" where both apply.
func TestWrongCheckKeepsTheBoard(t *testing.T) {
	srv := newServer(t)
	eachScreenAndLanguage(t, func(t *testing.T, sc screen, lang string) {
		b := newBrowser(t, WithViewport(sc.v))
		b.Open(srv.URL + "/learn/rook/practice?ex=rook-open-board&lang=" + lang)
		b.WaitScript("[data-exercise-page]")
		if lang == "en" {
			if help := Eval[string](b, `document.querySelector(".board-help summary").textContent`); !strings.Contains(help, "Click or tap") {
				t.Errorf("the help says %q, want click or tap", help)
			}
		}
		// Two right squares and two wrong ones: several reasons.
		for _, sq := range []string{"d5", "d6", "e5", "c3"} {
			b.Do(chromedp.Click(chromedp.CSS(`[data-board] [data-square="` + sq + `"]`)))
		}
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="wrong"]`)))
		if Eval[bool](b, `(() => { const r = document.querySelector("[data-board]").getBoundingClientRect(); return r.top < 0 || r.bottom > innerHeight + 1 })()`) {
			t.Errorf("the board left the window after a wrong Check")
		}
		if !Eval[bool](b, `document.querySelector('[data-square="e5"]').classList.contains("wrong") && document.querySelector('[data-square="d5"]').classList.contains("correct")`) {
			t.Errorf("the marks are not on the board after Check")
		}
		if Eval[bool](b, `(() => { const s = document.querySelector("[data-summary]"); const r = s.getBoundingClientRect(); return s.hidden || r.bottom > innerHeight || r.top < 0 })()`) {
			t.Errorf("no one-line verdict in view beside the board")
		}
		if n := Eval[int](b, `document.querySelectorAll("[data-reasons] li").length`); n < 3 {
			t.Errorf("%d reasons below the board, want one for each missed or wrong square", n)
		}
		windowShot(t, b, "wrong-check-"+sc.name+"-"+lang)
	})
}
