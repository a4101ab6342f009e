//go:build full

package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"chesstutor/lessons"
)

// boardsJS reports, for every board on the page, how many data-square
// elements it holds and whether it carries a parsable-looking data-fen.
const boardsJS = `[...document.querySelectorAll("[data-board]")].map(b =>
  b.querySelectorAll("[data-square]").length + (b.getAttribute("data-fen") ? "" : " no-fen"))`

// TestLessonWalk reads lesson 1, then follows "next" twice, with
// JavaScript on and off, on a phone: every diagram is a full board (L1, L2, N5).
func TestLessonWalk(t *testing.T) {
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
			b.Open(srv.URL + "/learn")
			b.Do(chromedp.WaitVisible(chromedp.CSS(`.toc`)))
			if n := Eval[int](b, `document.querySelectorAll(".toc-item").length`); n != len(all) {
				t.Fatalf("table of contents lists %d lessons, want %d", n, len(all))
			}
			b.Do(chromedp.Click(chromedp.CSS(`.toc-item a[href="/learn/` + all[0].Slug + `"]`)))
			for i := 0; i < 3; i++ {
				l := all[i]
				b.Do(chromedp.WaitVisible(chromedp.CSS(`article[data-lesson="` + l.Slug + `"]`)))
				if h1 := Eval[string](b, `document.querySelector("h1").textContent.trim()`); h1 != l.Title {
					t.Errorf("lesson %d heading = %q, want %q", i+1, h1, l.Title)
				}
				boards := Eval[[]string](b, boardsJS)
				if want := l.Diagrams + len(l.Exercises); len(boards) != want || len(boards) < 2 {
					t.Errorf("lesson %s shows %d boards, want %d (at least 2)", l.Slug, len(boards), want)
				}
				for j, got := range boards {
					if got != "64" {
						t.Errorf("lesson %s board %d: %s data-square elements, want 64", l.Slug, j+1, got)
					}
				}
				if sw := Eval[int64](b, `document.documentElement.scrollWidth`); sw > Phone.Width {
					t.Errorf("lesson %s scrolls sideways on a phone (scrollWidth %d)", l.Slug, sw)
				}
				if i == 0 {
					checkBoardContract(t, b)
				}
				if i < 2 {
					// followLink, not a plain click: lesson.js may redraw
					// the page's exercise blocks while the click looks up
					// its node.
					followLink(t, b, `[data-nav="next"]`, `^/learn/`+all[i+1].Slug+`$`)
				}
			}
			if errs := b.ConsoleErrors(); len(errs) > 0 {
				t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
			}
		})
	}
}

// TestMarkLessonDone presses the lesson's Next button without JavaScript
// and sees the tick on /learn, also after a restart of the server (L5, L7).
func TestMarkLessonDone(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithoutJS())
	b.Open(srv.URL + "/learn/board")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-action="next-lesson"]`)))
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="next-lesson"]`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`article[data-lesson="setting-up"]`)))

	srv.Stop()
	srv.Start()
	b.Open(srv.URL + "/learn")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`.toc`)))
	if !Eval[bool](b, `document.querySelector('.toc-item[data-lesson="board"]').hasAttribute("data-done")`) {
		t.Error("lesson 1 is not ticked on /learn after Next and a restart")
	}
	if n := Eval[int](b, `document.querySelectorAll(".toc-item[data-done]").length`); n != 1 {
		t.Errorf("%d lessons ticked, want 1", n)
	}
}

// TestRulesPageAndPrint checks /rules and that printing hides navigation
// but keeps the diagrams (L6).
func TestRulesPageAndPrint(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t)
	b.Open(srv.URL + "/rules")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`article.rules [data-board]`)))
	b.Open(srv.URL + "/learn/rook")
	b.Do(chromedp.WaitVisible(chromedp.CSS(`article[data-lesson="rook"]`)))
	if _, err := chromedp.Call(b.Ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatalf("emulate print: %v", err)
	}
	if v := Eval[string](b, `getComputedStyle(document.querySelector(".site-header")).display`); v != "none" {
		t.Errorf("print: header display = %q, want none", v)
	}
	if v := Eval[string](b, `getComputedStyle(document.querySelector(".lesson-nav")).display`); v != "none" {
		t.Errorf("print: lesson navigation display = %q, want none", v)
	}
	if v := Eval[string](b, `getComputedStyle(document.querySelector("[data-board]")).display`); v == "none" {
		t.Error("print: diagrams are hidden")
	}
}
