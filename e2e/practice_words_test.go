//go:build full

package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/words"
)

// The practice scripts speak the page's language (issue 31): they hold no
// sentences, only the words the page hands them, so what exercise.js,
// move-exercise.js and trainer.js write must be the catalogue's words in
// Russian and Spanish, and fit a phone.

func TestPracticeScriptsInRussian(t *testing.T) {
	ru := words.Default().For("ru")
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Phone))

	// A square exercise: one wrong mark, one missed square.
	b.Open(exerciseURL(srv, "en-passant", "en-passant-expired") + "&lang=ru")
	b.WaitScript("[data-exercise-page]")
	b.Do(chromedp.Click(squareSel("d6")), chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
	if v := verdict(b); v != "wrong" {
		t.Fatalf("verdict = %q, want wrong", v)
	}
	counts := ru.T("exercise.js.count_both", "Missed", ru.T("exercise.js.count_missed", "Count", 1), "Wrong", ru.T("exercise.js.count_wrong", "Count", 1))
	if got, want := Eval[string](b, `document.querySelector("[data-result] [data-verdict]").textContent`), ru.T("exercise.js.not_quite", "Counts", counts); got != want {
		t.Errorf("verdict text\n got %q\nwant %q", got, want)
	}
	if got := Eval[string](b, `document.querySelector('[data-reason="d6"]').textContent`); !strings.HasPrefix(got, "d6 (лишнее): взять на проходе можно только сразу после того") {
		t.Errorf("reason for d6 = %q", got)
	}
	if wide := wideInMain(b, Phone.Width); wide != "" {
		t.Errorf("at %d px these overflow the Russian page: %s", Phone.Width, wide)
	}
	b.Screenshot("exercise-wrong-ru-375")
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="reset"]`)), chromedp.WaitNotVisible(chromedp.CSS("[data-result]")))
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="answer"]`)))
	if v := verdict(b); v != "answer" {
		t.Fatalf("verdict after Show answer = %q", v)
	}
	if got, want := Eval[string](b, `document.querySelector("[data-result] [data-verdict]").textContent`),
		ru.T("exercise.js.answer", "Piece", ru.T("piece.the_pawn"), "Squares", "e6"); got != want {
		t.Errorf("answer text\n got %q\nwant %q", got, want)
	}

	// A move exercise: a wrong move gets the verdict and the server's reason.
	b.Open(exerciseURL(srv, "checkmate", "mate-one-back-rank") + "&lang=ru")
	b.WaitScript("[data-move-page]")
	b.Do(chromedp.Click(moveSquare("a1")), chromedp.Click(moveSquare("a7")))
	kind, reason := moveVerdict(b)
	if kind != "wrong" || !strings.HasPrefix(reason, "После ♖a7 (ладья идёт на a7) чёрный король на g8 даже не под шахом") {
		t.Errorf("Ra7: verdict %q, reason %q", kind, reason)
	}
	if got := Eval[string](b, `document.querySelector("[data-result] [data-verdict]").textContent`); !strings.HasPrefix(got, ru.T("exercise.move_js.not_this_time")) {
		t.Errorf("verdict line %q", got)
	}
	if wide := wideInMain(b, Phone.Width); wide != "" {
		t.Errorf("at %d px these overflow the Russian move page: %s", Phone.Width, wide)
	}
	b.Screenshot("move-wrong-ru-375")
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// wideInMain lists the elements of the page's content (<main>) that reach
// past width px: the longer Russian and Spanish words must wrap. (The
// header's menu is the layout's, checked with the layout.)
func wideInMain(b *Browser, width int64) string {
	return Eval[string](b, `[...document.querySelectorAll("main *")]
		.filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.right > `+strconv.FormatInt(width, 10)+` + 1; })
		.slice(0, 5).map((el) => el.tagName + "." + el.className).join(", ")`)
}

// TestTrainerInSpanish checks that trainer.js builds the same Spanish
// sentence for a wrong click as the server's exercise.FindSquare.
func TestTrainerInSpanish(t *testing.T) {
	es := words.Default().For("es")
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Phone))
	b.Open(srv.URL + "/practice/squares?lang=es")
	b.WaitScript("[data-trainer]")
	_ = Eval[bool](b, `(document.querySelector("[data-trainer]").dataset.seconds = "20", true)`)
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="start"]`)))
	target := waitTarget(b, "")
	if got := Eval[string](b, `document.querySelector('[data-action="start"]').textContent`); got != es.T("trainer.js.start_again") {
		t.Errorf("Start reads %q after starting", got)
	}
	wrong := "a1"
	if target == "a1" {
		wrong = "h8"
	}
	b.Do(chromedp.Click(chromedp.CSS(`[data-trainer-board] [data-square="` + wrong + `"]`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-result] [data-verdict="wrong"]`)))
	tsq, _ := chess.ParseSquare(target)
	wsq, _ := chess.ParseSquare(wrong)
	want := es.Msg(exercise.FindSquare(tsq, wsq).Reason)
	if got := Eval[string](b, `document.querySelector("[data-result]").textContent`); got != want {
		t.Errorf("wrong click\n got %q\nwant %q (the server's words)", got, want)
	}
	if wide := wideInMain(b, Phone.Width); wide != "" {
		t.Errorf("at %d px these overflow the Spanish trainer: %s", Phone.Width, wide)
	}
	b.Screenshot("trainer-wrong-es-375")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-trainer][data-finished]`)))
	n := Eval[int](b, `Number(document.querySelector("[data-trainer]").dataset.finished)`)
	if got := Eval[string](b, `document.querySelector('[data-verdict="done"]').textContent`); !strings.HasPrefix(got, es.T("trainer.js.done", "Count", n)) {
		t.Errorf("end of round %q", got)
	}
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}
