//go:build full

package e2e

// Accessibility, phones and page weight for every main page (issue 10,
// N4, N5): an axe-core audit in both colour schemes, no sideways scrolling
// at 320 px, touch targets, the compressed JS+CSS budget, and screenshots
// at four widths for people to look at.

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chesstutor/exams"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/quiz"
)

// axeScript is axe-core's browser bundle, installed by `npm ci` at the
// module root (package.json). It is test-only: the site never serves it.
func axeScript(t *testing.T) string {
	t.Helper()
	requireE2E(t) // first: under -short or CHESS_E2E=0 nothing of npm is needed
	path := filepath.Join("..", "node_modules", "axe-core", "axe.min.js")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("axe-core is missing (%v): run `npm ci` in the repository root first (.ci/run does it), or set CHESS_E2E=0 to skip the browser tests", err)
	}
	return string(src)
}

// mainPage is one page every visitor meets, by name and URL.
type mainPage struct {
	Name, URL string
	Ready     string // a CSS selector that is visible once the page is drawn
}

// mainPages returns the site's main pages. The quiz question and the game
// page belong to the browser's visitor, so they are created through b.
func mainPages(t *testing.T, b *Browser, srv *Server) []mainPage {
	t.Helper()
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	ex := course.Exercises()[0]
	var squares *lessons.Exercise // the first "click every square" exercise
	for _, e := range course.Exercises() {
		if e.Kind == lessons.KindSquares {
			squares = e
			break
		}
	}
	var fork *lessons.Exercise
	for _, e := range course.Exercises() {
		if e.Goal == exercise.GoalFork {
			fork = e
			break
		}
	}
	pages := []mainPage{
		{"home", srv.URL + "/", "[data-board]"},
		{"learn", srv.URL + "/learn", "main h1"},
		{"lesson", srv.URL + "/learn/" + course.Lessons()[2].Slug, "[data-board]"},
		{"practice", exerciseURL(srv, ex.Lesson, ex.ID), "[data-board][data-exercise]"},
		{"practice-squares", exerciseURL(srv, squares.Lesson, squares.ID), "[data-board][data-exercise]"},
		{"practice-list", srv.URL + "/practice", "main h1"},
		{"rules", srv.URL + "/rules", "main h1"},
		{"quiz", srv.URL + "/quiz", `[data-action="start-quiz"]`},
		{"play", srv.URL + "/play", "form.new-game-form"},
		{"privacy", srv.URL + "/privacy", "main h1"},
		{"practice-move", exerciseURL(srv, "checkmate", "mate-two-rook-ladder"), `[data-move-page][data-ready]`},
		{"trainer", srv.URL + "/practice/squares", `[data-trainer][data-ready]`},
		{"glossary", srv.URL + "/glossary", "main h1"},
		{"puzzle", srv.URL + "/puzzles/daily", `[data-puzzle-page][data-ready]`},
		{"puzzle-streak", srv.URL + "/puzzles/streak", `[data-action="start-streak"]`},
		// Issue 36: the setup tray, the mate technique, the worksheet.
		{"practice-setup", exerciseURL(srv, "setting-up", "setup-white-pieces"), `[data-setup-page][data-ready]`},
		{"practice-technique", exerciseURL(srv, "lone-king", "technique-rook-edge"), `[data-move-page][data-ready]`},
		{"worksheet", srv.URL + "/learn/tactics/worksheet", "[data-worksheet]"},
		// Issue 36's last gaps: the undefended pieces, a tactic, the exams.
		{"practice-undefended", exerciseURL(srv, "defending", "loose-rook-bishop"), "[data-exercise-page][data-ready]"},
		{"practice-fork", exerciseURL(srv, fork.Lesson, fork.ID), `[data-move-page][data-ready]`},
		{"exam-1", srv.URL + "/exam/1", "[data-exam]"},
		{"exam-4", srv.URL + "/exam/4", "[data-exam]"},
	}
	// The certificate of step 4, once this visitor passed its exam.
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	passExam(t, b, srv.URL, exams.Steps(course)[3], bank)
	pages = append(pages, mainPage{"certificate", srv.URL + "/certificate/4", "[data-certificate]"})
	// A quiz round: the start button posts a form and lands on question 1.
	b.Open(srv.URL + "/quiz")
	b.Do(chromedp.Click(chromedp.CSS(`[data-action="start-quiz"]`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`[data-quiz] [data-action="answer"]`)))
	pages = append(pages, mainPage{"quiz-question", Eval[string](b, `location.href`), `[data-quiz]`})
	// A friend game two moves in, so the move list and clocks have content.
	id := startGame(t, b, srv, `{mode: "friend", pass_screen: false, clock: "5+0"}`)
	for i, mv := range []string{"e2e4", "e7e5"} {
		_, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch("/api/games/%s/moves", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({move: %q, ply: %d})}).then(r => r.text())`, id, mv, i), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("play %s: %v", mv, err)
		}
	}
	pages = append(pages,
		mainPage{"game", srv.URL + "/play/" + id, "[data-board] button[data-square]"},
		mainPage{"games", srv.URL + "/games", "main h1"},
	)
	return pages
}

// axeViolation is one failed axe rule with the elements it failed on.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// runAxe injects axe-core into the open page and returns its violations.
func runAxe(t *testing.T, b *Browser, script string) []axeViolation {
	t.Helper()
	if _, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](script+";true")); err != nil {
		t.Fatalf("inject axe-core: %v", err)
	}
	raw, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("run axe-core: %v", err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		t.Fatalf("axe-core answer: %v", err)
	}
	return vs
}

// TestAccessibilityAudit runs axe-core on the main pages in the light and
// dark schemes: no serious or critical violation may remain. Lesser ones
// are logged so they stay visible.
func TestAccessibilityAudit(t *testing.T) {
	script := axeScript(t)
	srv := newServer(t)
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			opts := []BrowserOption{WithTimeout(3 * time.Minute)}
			if scheme == "dark" {
				opts = append(opts, WithDarkScheme())
			}
			b := newBrowser(t, opts...)
			for _, p := range mainPages(t, b, srv) {
				if !auditPages[p.Name] {
					continue
				}
				b.Open(p.URL)
				b.Do(chromedp.WaitVisible(chromedp.CSS(p.Ready)))
				for _, v := range runAxe(t, b, script) {
					var where []string
					for _, n := range v.Nodes {
						where = append(where, fmt.Sprint(n.Target))
					}
					msg := fmt.Sprintf("%s (%s): %s [%s] on %d element(s): %s", p.Name, scheme, v.ID, v.Impact, len(v.Nodes), strings.Join(where, " "))
					if v.Impact == "serious" || v.Impact == "critical" {
						t.Errorf("%s\n  %s", msg, v.Help)
						if len(v.Nodes) > 0 {
							t.Logf("  first: %s", v.Nodes[0].Summary)
						}
					} else {
						t.Logf("minor: %s", msg)
					}
				}
			}
		})
	}
}

// auditPages are the pages the issue names for the audit; the others get
// the layout checks below.
var auditPages = map[string]bool{"home": true, "lesson": true, "practice": true, "practice-squares": true, "learn": true, "quiz-question": true, "game": true, "quiz": true, "play": true, "privacy": true}

// loadedAssets lists the CSS and JS files the open page loaded (module
// imports included), from the browser's resource timing.
func loadedAssets(b *Browser) []string {
	return Eval[[]string](b, `[...new Set(performance.getEntriesByType("resource").map(e => e.name)
		.filter(n => /\.(css|js)(\?|$)/.test(n)))].sort()`)
}

// gzipSize fetches url asking for gzip, as a browser does, and returns the
// bytes on the wire; an asset the server sends uncompressed is compressed
// here at the default level so the budget still counts compressed bytes.
func gzipSize(t *testing.T, url string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatalf("fetch %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("fetch %s: %d %v", url, resp.StatusCode, err)
	}
	if resp.Header.Get("Content-Encoding") == "gzip" {
		return len(body)
	}
	var buf strings.Builder
	zw := gzip.NewWriter(&buf)
	zw.Write(body)
	zw.Close()
	return buf.Len()
}

// pageBudget is the most JS+CSS, gzip-compressed, a page may load (N5).
const pageBudget = 60 * 1024

// TestPageWeight sums the compressed size of the JS and CSS each main
// page loads and fails above the budget.
func TestPageWeight(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithTimeout(2*time.Minute))
	for _, p := range mainPages(t, b, srv) {
		b.Open(p.URL)
		b.Do(chromedp.WaitVisible(chromedp.CSS(p.Ready)))
		total := 0
		var parts []string
		for _, u := range loadedAssets(b) {
			n := gzipSize(t, u)
			total += n
			parts = append(parts, fmt.Sprintf("%s %d", u[strings.LastIndex(u, "/")+1:], n))
		}
		t.Logf("%-14s %6d bytes of JS+CSS gzip (%s)", p.Name, total, strings.Join(parts, ", "))
		if total == 0 {
			t.Errorf("%s: no CSS or JS seen; the measurement is broken", p.Name)
		}
		if total > pageBudget {
			t.Errorf("%s loads %d bytes of compressed JS+CSS, over the %d budget", p.Name, total, pageBudget)
		}
	}
}

// Widths for the layout checks: the narrowest phone, a common phone, a
// tablet and a desktop.
var layoutWidths = []Viewport{
	Narrow,
	Phone,
	{Width: 768, Height: 1024, Mobile: true},
	Desktop,
}

// TestLayoutAtEveryWidth opens every main page at 320, 375, 768 and 1280
// px: no page scrolls sideways, buttons and form controls outside the board
// are at least 44 px tall on touch screens, the game board fills a phone's
// width. Screenshots go to $TMPDIR/chesstutor-shots for people to look at.
//
// The page layouts are CSS (media queries on the width) plus the game
// page's resize handler, so a page loaded at 320 px is checked at 375 and
// 768 by resizing the touch-screen window, as a phone turned sideways
// does; the desktop width, without touch, loads the page again. One tab
// and one set of pages serve all four widths.
func TestLayoutAtEveryWidth(t *testing.T) {
	srv := newServer(t)
	shots := filepath.Join(os.TempDir(), "chesstutor-shots")
	os.MkdirAll(shots, 0o755)
	b := newBrowser(t, WithViewport(layoutWidths[0]), WithTimeout(4*time.Minute))
	for _, p := range mainPages(t, b, srv) {
		t.Run(p.Name, func(t *testing.T) {
			for i, vp := range layoutWidths {
				setViewport(t, b, vp)
				if i == 0 || vp.Mobile != layoutWidths[i-1].Mobile {
					b.Open(p.URL)
					b.Do(chromedp.WaitVisible(chromedp.CSS(p.Ready)))
				}
				checkLayout(t, b, p, vp)
				if !shotsWanted() {
					continue
				}
				shot, err := chromedp.Run(b.Ctx, chromedp.FullScreenshot(100))
				if err == nil {
					os.WriteFile(filepath.Join(shots, fmt.Sprintf("%s-%d.png", p.Name, vp.Width)), shot, 0o644)
				}
			}
		})
	}
	t.Logf("screenshots in %s", shots)
}

// setViewport gives the tab vp's size (and touch for a mobile one) and
// waits until the page has laid itself out at that width: the window's
// resize handlers have run by the next animation frame.
func setViewport(t *testing.T, b *Browser, vp Viewport) {
	t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if vp.Mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	b.Do(chromedp.EmulateViewport(vp.Width, vp.Height, opts...))
	if w := evalAwait[int64](t, b, `new Promise((r) => requestAnimationFrame(() => r(innerWidth)))`); w != vp.Width {
		t.Fatalf("the window is %d px wide after resizing to %d", w, vp.Width)
	}
}

// checkLayout checks the open page at width vp (TestLayoutAtEveryWidth).
func checkLayout(t *testing.T, b *Browser, p mainPage, vp Viewport) {
	t.Helper()
	if sw := Eval[int64](b, `document.documentElement.scrollWidth`); sw > vp.Width {
		wide := Eval[[]string](b, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 5).map(e => e.tagName + "." + e.className)`)
		t.Errorf("%s at %d px scrolls sideways (scrollWidth %d): %v", p.Name, vp.Width, sw, wide)
	}
	if vp.Mobile {
		small := Eval[[]string](b, `[...document.querySelectorAll("main button, main input[type=submit], main select, main input[type=text], main label:has(input[type=radio]), main label:has(input[type=checkbox]), .site-header a")]
			.filter(e => !e.closest("[data-board]") && e.offsetParent !== null && !e.closest("[hidden]"))
			.filter(e => { const r = e.getBoundingClientRect(); return r.height < 43.5 || r.width < 43.5 })
			.slice(0, 8).map(e => (e.textContent.trim() || e.getAttribute("aria-label") || e.name || e.tagName).slice(0, 30) + " " + Math.round(e.getBoundingClientRect().width) + "x" + Math.round(e.getBoundingClientRect().height))`)
		if len(small) > 0 {
			t.Errorf("%s at %d px: touch targets under 44 px: %v", p.Name, vp.Width, small)
		}
	}
	// A link to a part of the page never shows it under the sticky header
	// (WCAG 2.4.11).
	if msg := evalAwait[string](t, b, anchorUnderHeaderJS); msg != "" {
		t.Errorf("%s at %d px: %s", p.Name, vp.Width, msg)
	}
	if p.Name == "game" && vp.Width <= 375 {
		if bw := Eval[float64](b, `document.querySelector("[data-board]").getBoundingClientRect().width`); bw < float64(vp.Width)-24 {
			t.Errorf("game board at %d px is %.0f px wide; it should fill the width", vp.Width, bw)
		}
	}
}

// anchorUnderHeaderJS follows a link to a part of the page (as
// "/learn#step-3-title" or a review's "#review-board" do): it picks the
// first element of main with an id that starts below the window and can
// be scrolled to the top, goes to its #id, and says where it landed if the
// sticky site header covers it; "" when it does not, or when the page has
// no such element. It leaves the page at its top, without the #id.
const anchorUnderHeaderJS = `new Promise((done) => {
	const page = document.documentElement.scrollHeight;
	const el = [...document.querySelectorAll("main [id]")].find((e) => {
		const top = e.getBoundingClientRect().top + scrollY;
		return e.offsetParent !== null && top > innerHeight && page - top > innerHeight;
	});
	if (!el) { done(""); return; }
	location.hash = el.id;
	requestAnimationFrame(() => {
		const top = el.getBoundingClientRect().top;
		const header = document.querySelector(".site-header").getBoundingClientRect().bottom;
		const msg = top < header - 0.5 ? "#" + el.id + " shown at " + Math.round(top) + " px, under the header (its bottom at " + Math.round(header) + " px)" : "";
		history.replaceState(null, "", location.pathname + location.search);
		scrollTo(0, 0);
		requestAnimationFrame(() => done(msg));
	});
})`

// TestBoardThemeWithoutJavaScript chooses the high-contrast board with the
// footer form, JavaScript off: the choice is a cookie the layout turns into
// a class on <html>, the squares change colour, and "Like my device"
// forgets it.
func TestBoardThemeWithoutJavaScript(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithoutJS(), WithViewport(Narrow))
	b.Open(srv.URL + "/learn/rook")
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board]")))
	before := Eval[string](b, `getComputedStyle(document.querySelector("[data-board] .square.dark")).backgroundColor`)
	b.Do(chromedp.SetValue(chromedp.CSS(`#board-theme`), "contrast"))
	b.Do(chromedp.Click(chromedp.CSS(`.board-theme-form button`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`html.board-contrast [data-board]`)))
	if loc := Eval[string](b, `location.pathname`); loc != "/learn/rook" {
		t.Errorf("after saving, the page is %s, want back on /learn/rook", loc)
	}
	after := Eval[string](b, `getComputedStyle(document.querySelector("[data-board] .square.dark")).backgroundColor`)
	if after == before {
		t.Errorf("high contrast did not change the dark squares (%s)", after)
	}
	if got := Eval[string](b, `document.querySelector("#board-theme").value`); got != "contrast" {
		t.Errorf("the form shows %q after saving, want contrast", got)
	}
	b.Do(chromedp.SetValue(chromedp.CSS(`#board-theme`), "auto"))
	b.Do(chromedp.Click(chromedp.CSS(`.board-theme-form button`)))
	b.Do(chromedp.WaitVisible(chromedp.CSS(`html:not(.board-contrast) [data-board]`)))
	if got := Eval[string](b, `document.documentElement.className`); got != "" {
		t.Errorf("after choosing the device setting <html> has class %q", got)
	}
}
