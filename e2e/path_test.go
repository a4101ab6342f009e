package e2e

import (
	"regexp"
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
	for _, vp := range []struct {
		name string
		v    Viewport
	}{{"phone", Phone740}, {"laptop", Laptop800}} {
		for _, lang := range []string{"en", "es", "ru"} {
			t.Run(vp.name+"-"+lang, func(t *testing.T) {
				b := newBrowser(t, WithViewport(vp.v))
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
	}
}
