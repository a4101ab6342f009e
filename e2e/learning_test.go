//go:build full

package e2e

// The learning path flows (issue 14): reading counts as progress (L7),
// practice and quiz boards fit the screen (X8), Try again keeps the right
// marks, a quiet celebration, the compact phone header, and screenshots of
// the pages for people to look at.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"chesstutor/lessons"
)

// fitSizes are the windows X8 names: two laptops and three phones.
var fitSizes = []Viewport{
	{Width: 1280, Height: 800},
	{Width: 1366, Height: 768},
	{Width: 390, Height: 844, Mobile: true},
	{Width: 375, Height: 740, Mobile: true},
	{Width: 375, Height: 667, Mobile: true},
}

// TestLessonsReadByNextButton reads lessons 1, 2 and 3 by their primary
// Next button, with JavaScript on and off: /learn then shows three done,
// and Continue (there and on the home page) opens lesson 4 (L7).
func TestLessonsReadByNextButton(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	all := course.Lessons()
	srv := newServer(t)
	for _, mode := range []struct {
		name string
		opts []BrowserOption
	}{
		{"js", []BrowserOption{WithViewport(Phone)}},
		{"nojs", []BrowserOption{WithViewport(Phone), WithoutJS()}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			b := newBrowser(t, mode.opts...)
			// A newcomer's first button opens lesson 1 itself.
			b.Open(srv.URL + "/")
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-action="start-learning"]`)))
			if got := Eval[string](b, `document.querySelector('[data-action="start-learning"]').textContent.trim()`); got != "Start the first lesson" {
				t.Errorf("a newcomer's first button says %q", got)
			}
			if Eval[bool](b, `document.body.textContent.includes("Practise")`) {
				t.Error(`the home page still spells "Practise"`)
			}
			followLink(t, b, `[data-action="start-learning"]`, `^/learn/`+all[0].Slug+`$`)
			for i := 0; i < 3; i++ {
				b.Do(chromedp.WaitVisible(chromedp.CSS(`article[data-lesson="` + all[i].Slug + `"]`)))
				want := "Next: " + all[i+1].Title
				if got := Eval[string](b, `document.querySelector('[data-action="next-lesson"]').textContent.trim()`); !strings.HasPrefix(got, want) {
					t.Errorf("lesson %d's primary button says %q, want %q", i+1, got, want)
				}
				if !Eval[bool](b, `document.querySelector('[data-action="next-lesson"]').classList.contains("button-primary")`) {
					t.Errorf("lesson %d: the Next button is not the primary button", i+1)
				}
				followLink(t, b, `[data-action="next-lesson"]`, `^/learn/`+all[i+1].Slug+`$`)
				b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-just-read="` + all[i].Slug + `"]`)))
			}
			// Posting lesson 3's form again (a reload, a double press)
			// changes nothing and lands on lesson 4 again.
			b.Open(srv.URL + "/learn/" + all[2].Slug)
			followLink(t, b, `[data-action="next-lesson"]`, `^/learn/`+all[3].Slug+`$`)

			b.Open(srv.URL + "/learn")
			b.Do(chromedp.WaitVisible(chromedp.CSS(`.toc`)))
			done := Eval[[]string](b, `[...document.querySelectorAll(".toc-item[data-done]")].map(e => e.dataset.lesson)`)
			if strings.Join(done, " ") != strings.Join([]string{all[0].Slug, all[1].Slug, all[2].Slug}, " ") {
				t.Errorf("/learn ticks %v, want the first three lessons", done)
			}
			if got := Eval[string](b, `document.querySelector(".course-progress").textContent`); !strings.Contains(got, "Lessons done: 3 of") {
				t.Errorf("/learn progress says %q, want 3 lessons done", got)
			}
			if mode.name == "js" {
				b.Screenshot("learn-after-three-375x812")
			}
			followLink(t, b, `.course-progress [data-action="continue"]`, `^/learn/`+all[3].Slug+`$`)

			// The home page agrees: Continue opens lesson 4, twice.
			b.Open(srv.URL + "/")
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-action="start-learning"]`)))
			want := "Continue: " + all[3].Title
			for _, sel := range []string{`[data-action="start-learning"]`, `.progress-panel [data-action="continue"]`} {
				if got := Eval[string](b, `document.querySelector('`+sel+`').textContent.trim()`); got != want {
					t.Errorf("home %s says %q, want %q", sel, got, want)
				}
			}
			if Eval[bool](b, `document.body.textContent.includes("You have not started yet")`) {
				t.Error("the home page says the visitor has not started")
			}
			followLink(t, b, `[data-action="start-learning"]`, `^/learn/`+all[3].Slug+`$`)
			if errs := b.ConsoleErrors(); len(errs) > 0 {
				t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
			}
		})
	}
}

// fitReport measures the elements X8 wants inside the window as the page
// loads: the prompt, the whole board and the button that finishes.
const fitReportJS = `((button) => {
  const out = [];
  const vw = innerWidth, vh = innerHeight;
  for (const [name, sel] of [["prompt", "h1"], ["board", "[data-board]"], ["button", button]]) {
    const el = document.querySelector(sel);
    if (!el) { out.push(name + " missing"); continue; }
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > vh + 0.5 || r.right > vw + 0.5) {
      out.push(name + " outside the " + vw + "x" + vh + " window: " + Math.round(r.left) + "," + Math.round(r.top) + " to " + Math.round(r.right) + "," + Math.round(r.bottom));
    }
  }
  const help = document.querySelector(".board-help");
  if (!help) out.push("no keyboard help");
  else {
    if (help.open) out.push("the keyboard help is open");
    const h = help.querySelector("summary").getBoundingClientRect().height;
    if (h > 30) out.push("the keyboard help's line is " + Math.round(h) + " px tall, more than one line");
  }
  return out;
})`

// TestBoardsFitTheScreen opens a practice page (the longest prompt in the
// course) and a quiz board question at each X8 size: the prompt, the whole
// board and Check / Send answer are in the window without scrolling, the
// keyboard help is one line, the piece asked about is tinted, and a
// phone's header is at most 56 px tall.
func TestBoardsFitTheScreen(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	// The squares exercise and the move exercise with the longest prompts,
	// and the first squares exercise (the piece asked about is tinted).
	var first, long, longMove *lessons.Exercise
	for _, ex := range course.Exercises() {
		switch {
		case ex.Kind == lessons.KindSquares && first == nil:
			first, long = ex, ex
		case ex.Kind == lessons.KindSquares && len(ex.Prompt) > len(long.Prompt):
			long = ex
		case ex.Kind == lessons.KindMove && (longMove == nil || len(ex.Prompt) > len(longMove.Prompt)):
			longMove = ex
		}
	}
	srv := newServer(t)
	for _, vp := range fitSizes {
		t.Run(fmt.Sprintf("%dx%d", vp.Width, vp.Height), func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp), WithTimeout(2*time.Minute))
			quizURL := findBoardQuestion(t, b, srv) // a round belongs to its visitor
			pages := []struct{ name, url, button string }{
				{"practice " + first.ID, exerciseURL(srv, first.Lesson, first.ID), `[data-action="check"]`},
				{"practice " + long.ID, exerciseURL(srv, long.Lesson, long.ID), `[data-action="check"]`},
				{"quiz board question", quizURL, `[data-action="answer"]`},
				{"move " + longMove.ID, exerciseURL(srv, longMove.Lesson, longMove.ID), `[data-action="next"]`},
				{"trainer", srv.URL + "/practice/squares", `[data-action="start"]`},
			}
			for _, p := range pages {
				b.Open(p.url)
				b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-board]`)))
				for _, problem := range Eval[[]string](b, fitReportJS+"("+jsString(p.button)+")") {
					t.Errorf("%s: %s", p.name, problem)
				}
				if sy := Eval[float64](b, `scrollY`); sy != 0 {
					t.Errorf("%s: the page opened scrolled to %.0f", p.name, sy)
				}
			}
			// The piece the exercise asks about is tinted, in words too.
			b.Open(exerciseURL(srv, first.Lesson, first.ID))
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-board]`)))
			from := first.From.String()
			if !Eval[bool](b, `document.querySelector('[data-square="`+from+`"]').classList.contains("subject")`) {
				t.Errorf("the square of the piece asked about (%s) is not tinted", from)
			}
			if got := Eval[string](b, `document.querySelector('[data-square="`+from+`"]').getAttribute("aria-label")`); !strings.Contains(got, "the piece asked about") {
				t.Errorf("%s aria-label = %q, want it to name the piece asked about", from, got)
			}
			if vp.Mobile {
				if h := Eval[float64](b, `document.querySelector(".site-header").getBoundingClientRect().height`); h > 56 {
					t.Errorf("the header is %.0f px tall on a %d px phone, want at most 56", h, vp.Width)
				}
			}
		})
	}
}

// findBoardQuestion starts quiz rounds as b's visitor until one has a
// question answered by clicking squares, and returns that question's URL.
func findBoardQuestion(t *testing.T, b *Browser, srv *Server) string {
	t.Helper()
	for round := 0; round < 5; round++ {
		b.Open(srv.URL + "/quiz")
		b.Do(chromedp.Click(chromedp.CSS(`[data-action="start-quiz"]`)))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz]`)))
		base := Eval[string](b, `location.origin + location.pathname`)
		for q := 1; q <= 10; q++ {
			u := fmt.Sprintf("%s?q=%d", base, q)
			b.Open(u)
			b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz]`)))
			if Eval[string](b, `document.querySelector("[data-quiz]").dataset.kind`) == "squares" {
				return u
			}
		}
	}
	t.Fatal("five quiz rounds without a board question")
	return ""
}

// TestTryAgainKeepsRightMarks marks two right squares and a wrong one,
// presses Check, then Try again: the right marks stay, the wrong one and
// the verdict go; Start over clears the rest. With JavaScript and without.
func TestTryAgainKeepsRightMarks(t *testing.T) {
	srv := newServer(t)
	for _, mode := range []struct {
		name string
		opts []BrowserOption
	}{{"js", nil}, {"nojs", []BrowserOption{WithoutJS()}}} {
		t.Run(mode.name, func(t *testing.T) {
			b := newBrowser(t, mode.opts...)
			b.Open(exerciseURL(srv, "rook", "rook-open-board")) // a rook on d4, empty board
			b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board][data-exercise]")))
			b.WaitScript("[data-exercise-page]")
			for _, sq := range []string{"d5", "a4", "e5"} { // e5 is wrong
				b.Do(chromedp.Click(squareSel(sq)))
				b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-square="` + sq + `"].marked`)))
			}
			if Eval[bool](b, `!document.querySelector('[data-action="reset"]').hidden`) {
				t.Error("Try again shows before any Check")
			}
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
			if v := verdict(b); v != "wrong" {
				t.Fatalf("verdict = %q, want wrong", v)
			}
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="reset"]`)))
			b.Do(chromedp.WaitNotVisible(chromedp.CSS(`[data-result]`)))
			if got := squaresWithClass(b, "marked"); got != "a4 d5" {
				t.Errorf("after Try again the marks are %q, want the right ones, %q", got, "a4 d5")
			}
			if got := squaresWithClass(b, "wrong") + squaresWithClass(b, "missed") + squaresWithClass(b, "correct"); got != "" {
				t.Errorf("after Try again these squares still show a verdict: %q", got)
			}
			b.Do(chromedp.Click(chromedp.CSS(`[data-action="restart"]`)))
			b.Do(chromedp.WaitNotPresent(chromedp.CSS(`[data-board] .marked`)))
			if got := squaresWithClass(b, "marked"); got != "" {
				t.Errorf("after Start over these squares are still marked: %q", got)
			}
		})
	}
}

// TestCelebrationRespectsReducedMotion solves an exercise: the verdict
// carries a tick that animates, and with prefers-reduced-motion it does
// not move at all.
func TestCelebrationRespectsReducedMotion(t *testing.T) {
	srv := newServer(t)
	for _, reduce := range []bool{false, true} {
		b := newBrowser(t)
		if reduce {
			media := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}
			if _, err := chromedp.Call(b.Ctx, emulation.SetEmulatedMedia, media); err != nil {
				t.Fatalf("emulate reduced motion: %v", err)
			}
		}
		b.Open(exerciseURL(srv, "en-passant", "en-passant-available"))
		b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board][data-exercise]")))
		b.WaitScript("[data-exercise-page]")
		b.Do(chromedp.Click(squareSel("d6")), chromedp.Click(squareSel("e6")), chromedp.Click(chromedp.CSS(`[data-action="check"]`)))
		if v := verdict(b); v != "correct" {
			t.Fatalf("verdict = %q, want correct", v)
		}
		anim := Eval[string](b, `getComputedStyle(document.querySelector("[data-result] .tick")).animationName`)
		if reduce && anim != "none" {
			t.Errorf("with prefers-reduced-motion the tick still animates (%s)", anim)
		}
		if !reduce && anim != "tick-pop" {
			t.Errorf("the solved exercise's tick does not animate (animation %q)", anim)
		}
		if !Eval[bool](b, `document.querySelector('[data-action="next"]').classList.contains("button-primary")`) {
			t.Error("after a right answer Next is not the primary button")
		}
	}
}

// TestQuizPolish: the keyboard help names the square where focus enters
// the board, and the score line never starts a line with a separator.
func TestQuizPolish(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Viewport{Width: 320, Height: 640, Mobile: true}))
	b.Open(findBoardQuestion(t, b, srv))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-board]`)))
	b.WaitScript("[data-quiz]")
	named := Eval[string](b, `document.querySelector("[data-start-square]").textContent`)
	if named != Eval[string](b, `document.querySelector("[data-board]").dataset.start`) {
		t.Errorf("the help names %s but the board starts elsewhere", named)
	}
	// Tab into the board: focus lands on the square the help names.
	focused := ""
	for i := 0; i < 40 && focused == ""; i++ {
		b.Do(chromedp.KeyEvent("\t"))
		focused = Eval[string](b, `document.activeElement.dataset.square || ""`)
	}
	if focused != named {
		t.Errorf("focus entered the board on %q, the help says %q", focused, named)
	}
	// Each visible line of the score line starts with words, not "·".
	starts := Eval[[]string](b, `(() => {
	  const spans = [...document.querySelectorAll(".quiz-progress > span")];
	  const out = [];
	  let top = null;
	  for (const s of spans) {
	    const r = s.getClientRects()[0];
	    if (top === null || r.top > top + 2) out.push(s.textContent.trim()[0]);
	    top = r.top;
	  }
	  return out;
	})()`)
	for _, c := range starts {
		if c == "·" {
			t.Errorf("a line of the score line starts with a stray dot: %v", starts)
		}
	}
}

// firstScreen saves what the window shows as the page loads (no
// scrolling) as e2e/screenshots/<name>.png, beside the full-page shots.
func firstScreen(t *testing.T, b *Browser, name string) {
	t.Helper()
	b.WindowShot(name)
}

// TestLearningScreenshots saves the pages issue 14 asks people to look
// at, at 375×740 and 1280×800: a practice page, a quiz board question,
// /learn after three lessons and the new-game form.
func TestLearningScreenshots(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	all := course.Lessons()
	srv := newServer(t)
	for _, vp := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		size := fmt.Sprintf("%dx%d", vp.Width, vp.Height)
		b := newBrowser(t, WithViewport(vp), WithTimeout(2*time.Minute))
		b.Open(exerciseURL(srv, "rook", "rook-enemy-blockers"))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-board]`)))
		b.Screenshot("issue14-practice-" + size)
		firstScreen(t, b, "issue14-practice-"+size+"-first-screen")
		b.Open(findBoardQuestion(t, b, srv))
		b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-board]`)))
		b.Screenshot("issue14-quiz-board-" + size)
		firstScreen(t, b, "issue14-quiz-board-"+size+"-first-screen")
		b.Open(srv.URL + "/learn/" + all[0].Slug)
		for i := 0; i < 3; i++ {
			followLink(t, b, `[data-action="next-lesson"]`, `^/learn/`+all[i+1].Slug+`$`)
		}
		b.Open(srv.URL + "/learn")
		b.Do(chromedp.WaitVisible(chromedp.CSS(`.toc`)))
		b.Screenshot("issue14-learn-" + size)
		firstScreen(t, b, "issue14-learn-"+size+"-first-screen")
		b.Open(srv.URL + "/play")
		b.Do(chromedp.WaitVisible(chromedp.CSS(`form.new-game-form`)))
		formH := Eval[float64](b, `document.querySelector("form.new-game-form").getBoundingClientRect().bottom + scrollY`)
		t.Logf("%s: the new-game form ends %.0f px down the page (%.2f screens)", size, formH, formH/float64(vp.Height))
		if vp.Mobile && formH > 1.6*float64(vp.Height) {
			t.Errorf("at %s the new-game form is %.0f px long, more than about one and a half screens", size, formH)
		}
		b.Screenshot("issue14-newgame-" + size)
		firstScreen(t, b, "issue14-newgame-"+size+"-first-screen")
	}
}
