//go:build full

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chesstutor/chess"
	"chesstutor/lessons"
)

// lessonScreens is how many window heights lesson 1 may take on a phone
// (it took 10.2 before its exercises shared one live board, issue 38).
const lessonScreens = 8.0

// inEx is a selector inside one lesson exercise's section.
func inEx(id, sel string) string { return `#ex-` + id + ` ` + sel }

// waitEval polls a JavaScript condition for up to 10 seconds.
func waitEval(t *testing.T, b *Browser, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !Eval[bool](b, expr) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s (%s)", what, expr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// firstMoveExercise is the course's first "play the move" exercise with a
// one-move goal whose right move is no promotion, and a wrong legal move
// that is no promotion either.
func firstMoveExercise(t *testing.T, course *lessons.Course, goal string) (*lessons.Exercise, chess.Move, chess.Move) {
	t.Helper()
	for _, ex := range course.Exercises() {
		if ex.Kind != lessons.KindMove || string(ex.Goal) != goal {
			continue
		}
		task := ex.Task()
		right := task.RightMoves()
		if len(right) == 0 || right[0].IsPromotion() {
			continue
		}
		for _, m := range ex.Pos.LegalMoves() {
			if !m.IsPromotion() && !task.JudgeMove(m).Correct {
				return ex, right[0], m
			}
		}
	}
	t.Fatalf("no %s exercise in the course", goal)
	return nil, chess.NoMove, chess.NoMove
}

// TestLessonBoardsAreLive walks the exercises inside lessons as a child
// does, on a phone and a laptop, in English, Spanish and Russian (L12,
// issue 38 point 1): lesson 1 asks for squares on one live board that
// answers in place; a "mark the squares" board takes taps and Check; a
// "play the move" board takes a wrong move back, gives a hint, and marks
// the mated king. "Solve it" still leads to the practice page.
func TestLessonBoardsAreLive(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	var squaresEx *lessons.Exercise
	for _, ex := range course.Exercises() {
		if ex.Kind == lessons.KindSquares {
			squaresEx = ex
			break
		}
	}
	mateEx, mate, wrong := firstMoveExercise(t, course, "mate")
	srv := newServer(t)
	eachScreenAndLanguage(t, func(t *testing.T, sc screen, lang string) {
		b := newBrowser(t, WithViewport(sc.v))
		b.Open(srv.URL + "/learn/board?lang=" + lang)
		b.WaitScript(`[data-lesson-exercise="board-name-e4"]`)
		screens := Eval[float64](b, `document.documentElement.scrollHeight / innerHeight`)
		t.Logf("lesson 1 is %.2f screens high at %dx%d in %s", screens, sc.v.Width, sc.v.Height, lang)
		if sc.v.Mobile && screens > lessonScreens {
			t.Errorf("lesson 1 is %.2f screens high on a phone, want at most %.0f", screens, lessonScreens)
		}
		// Five square names, one board: only the first shows.
		if n := Eval[int](b, `[...document.querySelectorAll("[data-exercise-series] [data-lesson-exercise]")].filter(s => !s.hidden).length`); n != 1 {
			t.Errorf("%d square-name boards show at once, want 1", n)
		}
		count := Eval[string](b, `document.querySelector("#ex-board-name-e4 .series-count").textContent`)
		if lang != "en" && strings.Contains(count, "square") {
			t.Errorf("the series count is in English in %s: %q", lang, count)
		}
		// A wrong square is explained and marked; the right one is ticked.
		b.Do(chromedp.Click(chromedp.CSS(inEx("board-name-e4", `[data-square="e5"]`))))
		waitEval(t, b, "the wrong verdict", `!!document.querySelector('#ex-board-name-e4 [data-verdict="wrong"]')`)
		if !Eval[bool](b, `document.querySelector('#ex-board-name-e4 [data-square="e4"]').classList.contains("missed")`) {
			t.Errorf("after a wrong square the asked one (e4) is not marked missed")
		}
		if sc.name == "phone" && lang == "en" {
			windowShot(t, b, "lesson1-wrong-square-phone-"+lang)
		}
		b.Do(chromedp.Click(chromedp.CSS(inEx("board-name-e4", `[data-square="e4"]`))))
		waitEval(t, b, "the right verdict", `!!document.querySelector('#ex-board-name-e4 [data-verdict="correct"]')`)
		if !Eval[bool](b, `document.querySelector('#ex-board-name-e4 [data-square="e4"]').classList.contains("correct")`) {
			t.Errorf("the right square is not marked correct")
		}
		if Eval[bool](b, `!document.querySelector('#ex-board-name-e4 [data-action="reset"]').hidden`) {
			t.Errorf("Try again shows beside a right answer")
		}
		if Eval[bool](b, `(() => { const r = document.querySelector('#ex-board-name-e4 [data-board]').getBoundingClientRect(); return r.top < 0 || r.bottom > innerHeight })()`) {
			t.Errorf("the board left the window after the answer")
		}
		windowShot(t, b, "lesson1-right-square-"+sc.name+"-"+lang)
		// The next square takes the board's place.
		b.Do(chromedp.Click(chromedp.CSS(inEx("board-name-e4", `[data-action="next-square"]`))))
		waitEval(t, b, "the second square", `!document.querySelector("#ex-board-name-a8").hidden && document.querySelector("#ex-board-name-e4").hidden`)
		b.Do(chromedp.Click(chromedp.CSS(inEx("board-name-a8", `[data-square="a8"]`))))
		waitEval(t, b, "the second verdict", `!!document.querySelector('#ex-board-name-a8 [data-verdict="correct"]')`)

		// A "mark the squares" exercise answers in its lesson.
		b.Open(srv.URL + "/learn/" + squaresEx.Lesson + "?lang=" + lang)
		b.WaitScript(`[data-lesson-exercise="` + squaresEx.ID + `"]`)
		center(b, squaresEx.ID)
		for _, sq := range squaresEx.Pos.Destinations(squaresEx.From) {
			b.Do(chromedp.Click(chromedp.CSS(inEx(squaresEx.ID, `[data-square="`+sq.String()+`"]`))))
		}
		b.Do(chromedp.Click(chromedp.CSS(inEx(squaresEx.ID, `[data-action="check"]`))))
		waitEval(t, b, "the squares verdict", `!!document.querySelector('#ex-`+squaresEx.ID+` [data-verdict="correct"]')`)

		// A "play the move" exercise: a wrong move is played, explained
		// and taken back; a hint marks a piece; the mate marks the king.
		b.Open(srv.URL + "/learn/" + mateEx.Lesson + "?lang=" + lang)
		b.WaitScript(`[data-lesson-exercise="` + mateEx.ID + `"]`)
		center(b, mateEx.ID)
		board := inEx(mateEx.ID, `[data-board]`)
		start := Eval[string](b, `document.querySelector('`+board+`').dataset.fen`)
		b.Do(chromedp.Click(chromedp.CSS(inEx(mateEx.ID, `[data-square="`+wrong.From().String()+`"]`))),
			chromedp.Click(chromedp.CSS(inEx(mateEx.ID, `[data-square="`+wrong.To().String()+`"]`))))
		waitEval(t, b, "the wrong move on the board", `document.querySelector('`+board+`').dataset.fen === "`+ex(mateEx.Pos.Play(wrong).FEN())+`"`)
		if v := Eval[string](b, `document.querySelector('#ex-`+mateEx.ID+` [data-verdict]').dataset.verdict`); v != "wrong" {
			t.Errorf("verdict after a wrong move = %q, want wrong", v)
		}
		// Before the notation lesson the move is named in words beside its notation.
		if played := Eval[string](b, `document.querySelector('#ex-`+mateEx.ID+` .move-played').textContent`); !strings.Contains(played, "(") {
			t.Errorf("the wrong move is shown as %q, want words beside the notation", played)
		}
		if sc.name == "phone" {
			windowShot(t, b, "lesson-move-wrong-played-"+sc.name+"-"+lang)
		}
		waitEval(t, b, "the wrong move taken back", `document.querySelector('`+board+`').dataset.fen === "`+ex(start)+`"`)
		if reason := Eval[string](b, `document.querySelector('#ex-`+mateEx.ID+` [data-reason]').textContent`); reason == "" {
			t.Errorf("the wrong move is taken back without its explanation")
		}
		b.Do(chromedp.Click(chromedp.CSS(inEx(mateEx.ID, `[data-action="hint"]`))))
		waitEval(t, b, "the hint", `!!document.querySelector('`+board+` .square.hint')`)
		b.Do(chromedp.Click(chromedp.CSS(inEx(mateEx.ID, `[data-square="`+mate.From().String()+`"]`))),
			chromedp.Click(chromedp.CSS(inEx(mateEx.ID, `[data-square="`+mate.To().String()+`"]`))))
		waitEval(t, b, "the mate", `!!document.querySelector('#ex-`+mateEx.ID+` [data-verdict="correct"]')`)
		after := mateEx.Pos.Play(mate)
		king := after.KingSquare(after.Turn()).String()
		if !Eval[bool](b, `document.querySelector('`+board+` [data-square="`+king+`"]').classList.contains("check")`) {
			t.Errorf("the mated king on %s is not marked", king)
		}
		if got := Eval[string](b, `[...document.querySelectorAll('`+board+` .last-move')].map(e => e.dataset.square).sort().join(" ")`); got != sorted(mate.From().String(), mate.To().String()) {
			t.Errorf("the mating move's squares = %q, want %s and %s", got, mate.From(), mate.To())
		}
		windowShot(t, b, "lesson-move-mate-"+sc.name+"-"+lang)
		if href := Eval[string](b, `document.querySelector('#ex-`+mateEx.ID+` [data-action="practice"]').getAttribute("href")`); href != mateEx.PracticeURL() {
			t.Errorf("Solve it leads to %q, want %q", href, mateEx.PracticeURL())
		}
		if errs := b.ConsoleErrors(); len(errs) > 0 {
			t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
		}
	})
}

// windowShot saves what the window shows now, where the learner has
// scrolled to, as e2e/screenshots/<name>.png when CHESS_SHOTS is set
// (shotsWanted).
func windowShot(t *testing.T, b *Browser, name string) {
	t.Helper()
	if !shotsWanted() {
		return
	}
	buf, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	os.MkdirAll("screenshots", 0o755)
	path := filepath.Join("screenshots", name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	t.Logf("screenshot saved: e2e/%s", path)
}

// center scrolls an exercise's board to the middle of the window, as a
// learner does before tapping (the sticky header covers the top edge).
func center(b *Browser, id string) {
	Eval[bool](b, `(document.querySelector("#ex-`+id+` [data-board]").scrollIntoView({block: "center"}), true)`)
}

// ex escapes a string for a double-quoted JavaScript literal.
func ex(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }

func sorted(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return a + " " + b
}

// TestLessonBoardWithoutJavaScript taps a lesson's board with scripts off:
// the tap opens the exercise's practice page with that square tried.
func TestLessonBoardWithoutJavaScript(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Phone740), WithoutJS())
	b.Open(srv.URL + "/learn/board")
	b.Do(chromedp.Click(chromedp.CSS(inEx("board-name-e4", `[data-square="e4"]`))))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-verdict="correct"]`)))
	if u := Eval[string](b, `location.pathname + location.search`); !strings.HasPrefix(u, "/learn/board/practice?ex=board-name-e4") {
		t.Errorf("a tap without JavaScript led to %s", u)
	}
}

// TestGreenButtonsReadOn follows the primary buttons from lesson 1's last
// exercise, on a phone and a laptop, in English, Spanish and Russian (L12,
// issue 38 point 2): the Next after it opens lesson 2 to read, not its
// practice; once lesson 2 is read by its own Next, lesson 1's last
// exercise leads to lesson 2's practice.
func TestGreenButtonsReadOn(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	first, second := course.Lessons()[0], course.Lessons()[1]
	last := first.Exercises[len(first.Exercises)-1]
	srv := newServer(t)
	eachScreenAndLanguage(t, func(t *testing.T, sc screen, lang string) {
		b := newBrowser(t, WithViewport(sc.v))
		b.Open(srv.URL + last.PracticeURL() + "&lang=" + lang)
		b.WaitScript(`[data-move-page]`)
		b.Do(chromedp.Click(chromedp.CSS(`[data-board] [data-square="` + last.Target.String() + `"]`)))
		waitEval(t, b, "the solve", `document.querySelector('[data-action="next"]').classList.contains("button-primary")`)
		if !Eval[bool](b, `!document.querySelector('[data-list-exercise="`+last.ID+`"] [data-solved-tick]').hidden`) {
			t.Errorf("the exercise list does not tick the solved exercise")
		}
		if sc.name == "phone" {
			windowShot(t, b, "last-exercise-next-"+sc.name+"-"+lang)
		}
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="next"]`)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`article[data-lesson="` + second.Slug + `"]`)))
		// Lesson 2 read by its own green button …
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="next-lesson"]`)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`article[data-lesson="` + second.Next.Slug + `"]`)))
		// … so lesson 1's last exercise now leads to lesson 2's practice.
		b.Open(srv.URL + last.PracticeURL() + "&lang=" + lang)
		if got, want := Eval[string](b, `document.querySelector('[data-action="next"]').getAttribute("href")`), second.Exercises[0].PracticeURL(); got != want {
			t.Errorf("Next once lesson 2 is read = %q, want %q", got, want)
		}
	})
}
