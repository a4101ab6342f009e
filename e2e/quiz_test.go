//go:build full

package e2e

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"chesstutor/quiz"
	"chesstutor/words"
)

// answerQuestion answers the question on screen, right or on purpose wrong,
// using the key from the quiz package, and returns the question id.
func answerQuestion(t *testing.T, b *Browser, bank *quiz.Bank, wrong bool) string {
	t.Helper()
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz] [data-action="answer"]`)))
	b.WaitScript(`[data-quiz]`)
	id := Eval[string](b, `document.querySelector("[data-quiz]").dataset.question`)
	q, ok := bank.Question(id)
	if !ok {
		t.Fatalf("page shows unknown question %q", id)
	}
	key := q.Key()
	if q.Board() {
		marks := key
		if wrong {
			for _, sq := range []string{"h1", "a8", "h8"} {
				if !slices.Contains(key, sq) {
					marks = append(slices.Clone(key), sq)
					break
				}
			}
		}
		for _, sq := range marks {
			b.Do(chromedp.Click(chromedp.CSS(`[data-quiz] [data-board] [data-square="` + sq + `"]`)))
			// Without JavaScript each mark is a form post: wait for the
			// page that shows it before the next click.
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz] [data-board] [data-square="` + sq + `"].marked`)))
		}
		got := Eval[string](b, `[...document.querySelectorAll("[data-quiz] [data-square].marked")].map(e => e.dataset.square).sort().join(" ")`)
		want := slices.Clone(marks)
		slices.Sort(want)
		if got != strings.Join(want, " ") {
			t.Fatalf("%s: marked %q, want %q", id, got, strings.Join(want, " "))
		}
	} else {
		choose := key
		if wrong {
			for _, o := range q.Options {
				if !slices.Contains(key, o.ID) {
					choose = []string{o.ID}
					break
				}
			}
		}
		for _, opt := range choose {
			b.Do(chromedp.Click(chromedp.CSS(`[data-quiz] input[data-option="` + opt + `"]`)))
		}
	}
	b.Do(chromedp.Click(chromedp.CSS(`[data-quiz] [data-action="answer"]`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz-feedback] [data-verdict]`)))
	verdict := Eval[string](b, `document.querySelector("[data-quiz-feedback] [data-verdict]").dataset.verdict`)
	if want := map[bool]string{true: "wrong", false: "right"}[wrong]; verdict != want {
		t.Errorf("%s: verdict %q, want %q", id, verdict, want)
	}
	link := Eval[string](b, `document.querySelector("[data-quiz-feedback] [data-lesson-link]").getAttribute("href")`)
	if link != q.Lesson {
		t.Errorf("%s: lesson link %q, want %q", id, link, q.Lesson)
	}
	lang := Eval[string](b, `document.documentElement.lang`)
	if !strings.Contains(Eval[string](b, `document.querySelector("[data-quiz-feedback]").textContent`), q.Text(lang).Explanation) {
		t.Errorf("%s: the explanation is not shown", id)
	}
	return id
}

func TestQuizFullRoundWithOneMistake(t *testing.T) {
	requireE2E(t)
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t)
	b := newBrowser(t)
	b.Open(srv.URL + "/quiz")
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="start-quiz"]`)))

	var missed string
	for i := 1; i <= quiz.RoundSize; i++ {
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz-number]`)))
		if n := Eval[string](b, `document.querySelector("[data-quiz-number]").textContent`); n != strconv.Itoa(i) {
			t.Fatalf("question number %s, want %d", n, i)
		}
		url := Eval[string](b, `location.href`)
		id := answerQuestion(t, b, bank, i == 4)
		if i == 4 {
			missed = id
			b.Screenshot("quiz-wrong-answer")
		}
		if now := Eval[string](b, `location.href`); now != url {
			t.Errorf("answering reloaded the page: %s -> %s", url, now)
		}
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="next"]`)))
	}
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz-final-score]`)))
	if got := Eval[string](b, `document.querySelector("[data-quiz-final-score]").textContent`); got != "9" {
		t.Errorf("final score %s, want 9", got)
	}
	review := Eval[string](b, `[...document.querySelectorAll("[data-review]")].map(e => e.dataset.review).join(" ")`)
	if review != missed {
		t.Errorf("review lists %q, want the missed question %q", review, missed)
	}
	b.Screenshot("quiz-result")

	// The score is saved: /quiz lists it, and the missed question comes back next time.
	b.Open(srv.URL + "/quiz")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz-scores]`)))
	if got := Eval[string](b, `document.querySelector("[data-quiz-scores] li").textContent`); !strings.Contains(got, "9 of 10") {
		t.Errorf("/quiz scores show %q, want 9 of 10", got)
	}
	// The next round brings the missed question back, mixed with new ones
	// (issue 38): it is somewhere in the round, among others.
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="start-quiz"]`)))
	var next []string
	for i := 1; i <= quiz.RoundSize; i++ {
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz-number]`)))
		id := answerQuestion(t, b, bank, false)
		next = append(next, id)
		if id == missed {
			break
		}
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="next"]`)))
	}
	if next[len(next)-1] != missed {
		t.Errorf("the next round %v does not bring back the missed %s", next, missed)
	}
	t.Logf("the missed question came back as question %d of the next round", len(next))
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

func TestQuizWithoutJavaScript(t *testing.T) {
	requireE2E(t)
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t)
	b := newBrowser(t, WithoutJS())
	b.Open(srv.URL + "/quiz")
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="start-quiz"]`)))
	for i := 1; i <= 3; i++ {
		answerQuestion(t, b, bank, i == 2)
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="next"]`)))
	}
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz-number]`)))
	if n := Eval[string](b, `document.querySelector("[data-quiz-number]").textContent`); n != "4" {
		t.Errorf("after three answers the page shows question %s, want 4", n)
	}
}

// TestQuizInRussian answers in the browser in Russian: the script words the
// verdict and the answer line with the page's words (words.js), and the
// explanation is the Russian one.
func TestQuizInRussian(t *testing.T) {
	requireE2E(t)
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	ru := words.Default().For("ru")
	srv := newServer(t)
	b := newBrowser(t)
	b.Open(srv.URL + "/quiz?lang=ru")
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="start-quiz"]`)))
	for i := 1; i <= 2; i++ {
		wrong := i == 2
		answerQuestion(t, b, bank, wrong)
		verdict := Eval[string](b, `document.querySelector("[data-quiz-feedback] [data-verdict]").textContent`)
		want := map[bool]string{false: ru.T("quiz.js.right"), true: ru.T("quiz.js.not_quite")}[wrong]
		if strings.TrimSpace(verdict) != want {
			t.Errorf("question %d: verdict %q, want %q", i, verdict, want)
		}
		feedback := Eval[string](b, `document.querySelector("[data-quiz-feedback]").textContent`)
		if strings.Contains(feedback, "[") || (wrong && !strings.Contains(feedback, "Верный ответ:")) {
			t.Errorf("question %d: the feedback is not all Russian: %q", i, feedback)
		}
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="next"]`)))
	}
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}
