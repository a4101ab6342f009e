//go:build full

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// classShot saves a full-page screenshot under $CLASSES_SHOTS (the
// closing note's pictures) when it is set, and under e2e/screenshots.
func classShot(t *testing.T, b *Browser, name string) {
	t.Helper()
	path := b.Screenshot(name)
	dir := os.Getenv("CLASSES_SHOTS")
	if dir == "" || path == "" {
		return
	}
	if buf, err := os.ReadFile(path); err == nil {
		_ = os.MkdirAll(dir, 0o755)
		_ = os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644)
	}
}

// TestClassroom (issue 33): a teacher on a laptop makes a class, prints
// its join sheet and gives homework; three pupils in their own browsers
// (two phones and a laptop) join — one with the QR code's link, one by
// typing the code loosely, one after a refused nickname — and each does
// something different. The teacher's dashboard, refreshing itself, shows
// what each did, and the pupil who did the homework sees it ticked on
// her home page. Every page is audited with axe-core and fits its window.
func TestClassroom(t *testing.T) {
	srv := newServer(t)
	script := axeScript(t)
	laptop, phone := Viewport{Width: 1280, Height: 800}, Viewport{Width: 375, Height: 740, Mobile: true}
	audit := func(b *Browser, what string) {
		t.Helper()
		for _, v := range runAxe(t, b, script) {
			if v.Impact == "serious" || v.Impact == "critical" {
				t.Errorf("axe on %s: %s [%s] on %d element(s)", what, v.ID, v.Impact, len(v.Nodes))
			}
		}
	}

	teacher := newBrowser(t, WithViewport(laptop), WithTimeout(3*time.Minute))
	teacher.Open(srv.URL + "/")
	followLink(t, teacher, `[data-classes-offer] a[href="/teach"]`, `^/teach$`)
	audit(teacher, "/teach")
	teacher.Do(chromedp.SendKeys(`#class-name`, "Tuesday chess club"))
	followLink(t, teacher, `[data-action="create-class"]`, `^/teach/[A-Za-z0-9_-]{24}$`)
	dashboardURL := Eval[string](teacher, `location.href.split("?")[0]`)
	code := Eval[string](teacher, `document.querySelector("strong[data-join-code]").textContent`)
	if len(code) != 6 || strings.ContainsAny(code, "01OIL") {
		t.Fatalf("join code %q", code)
	}
	if !Eval[bool](teacher, `!document.querySelector('[data-action="copy-link"]').hidden && document.querySelector("[data-teacher-link]").open`) {
		t.Error("a new class should show its teacher link open, with a copy button")
	}
	if got := Eval[string](teacher, `document.querySelector("[data-teacher-url]").value`); got != dashboardURL {
		t.Errorf("the teacher link to copy is %q, want %q", got, dashboardURL)
	}
	audit(teacher, "the new class's dashboard")
	fits(t, teacher, laptop)

	// The join sheet, as it prints.
	teacher.Open(dashboardURL + "/sheet")
	gameWait(t, teacher, `(() => { const img = document.querySelector(".sheet-qr"); return img && img.complete && img.naturalWidth > 100; })()`)
	audit(teacher, "the join sheet")
	media := func(m string) {
		t.Helper()
		if _, err := chromedp.Call(teacher.Ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m}); err != nil {
			t.Fatal(err)
		}
	}
	media("print")
	if Eval[bool](teacher, `getComputedStyle(document.querySelector(".site-header")).display !== "none"`) {
		t.Error("the join sheet prints the site's header")
	}
	classShot(t, teacher, "classes-join-sheet-print")
	media("")

	// Homework: the first lesson, due in a week.
	teacher.Open(dashboardURL)
	teacher.Do(chromedp.WaitVisible(chromedp.CSS(`[data-homework-form]`)))
	click(teacher, `[data-homework-form] input[name=lesson][value="board"]`)
	followLink(t, teacher, `[data-action="give-homework"]`, `^/teach/`)
	teacher.Do(chromedp.WaitVisible(chromedp.CSS(`[data-class-homework]`)))

	// Ana, on a phone, scans the QR code: /join with the code filled in.
	ana := newBrowser(t, WithViewport(phone), WithTimeout(3*time.Minute))
	ana.Open(srv.URL + "/join?code=" + code)
	if got := Eval[string](ana, `document.querySelector("[data-join-code]").value`); got != code {
		t.Errorf("the QR code's link filled in %q", got)
	}
	audit(ana, "/join")
	fits(t, ana, phone)
	ana.Do(chromedp.SendKeys(`[data-join-nickname]`, "Ana"))
	followLink(t, ana, `[data-action="join-class"]`, `^/join$`)
	ana.Do(chromedp.WaitVisible(chromedp.CSS(`[data-joined]`)))
	// She reads the first lesson to the end (its Next button records it).
	ana.Open(srv.URL + "/learn/board")
	click(ana, `form[action$="/done"] button[type=submit]`)
	gameWait(t, ana, `location.pathname === "/learn/setting-up" && document.readyState === "complete"`)

	// Ben, on a laptop, finds "Join a class" on the home page and types
	// the code the way a child copies it.
	ben := newBrowser(t, WithViewport(laptop), WithTimeout(3*time.Minute))
	ben.Open(srv.URL + "/")
	followLink(t, ben, `[data-classes-offer] a[href="/join"]`, `^/join$`)
	ben.Do(chromedp.SendKeys(`[data-join-code]`, strings.ToLower(code[:3])+"-"+code[3:]),
		chromedp.SendKeys(`[data-join-nickname]`, "Ben"))
	followLink(t, ben, `[data-action="join-class"]`, `^/join$`)
	ben.Do(chromedp.WaitVisible(chromedp.CSS(`[data-joined]`)))
	// He solves a rook exercise on its board: every square, then Check.
	ben.Open(srv.URL + "/learn/rook/practice")
	ben.Do(chromedp.WaitVisible(chromedp.CSS(`[data-exercise][data-board]`)))
	answer, err := chromedp.Run(ben.Ctx, chromedp.Evaluate[[]string](`(async () => {
		const id = document.querySelector("[data-exercise]").dataset.exercise;
		const r = await fetch("/api/exercises/" + id + "/check", {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"squares":[]}'});
		return (await r.json()).answer; })()`, chromedp.EvalAwaitPromise))
	if err != nil || len(answer) == 0 {
		t.Fatalf("the exercise's answer: %v %v", answer, err)
	}
	for _, sq := range answer {
		clickSquare(ben, sq)
	}
	click(ben, `[data-action="check"]`)
	gameWait(t, ben, `!!document.querySelector('[data-verdict="correct"]')`)

	// Cleo, on a phone, first picks a nickname that is taken, then misses
	// one exercise again and again.
	cleo := newBrowser(t, WithViewport(phone), WithTimeout(3*time.Minute))
	cleo.Open(srv.URL + "/join?code=" + code)
	cleo.Do(chromedp.SendKeys(`[data-join-nickname]`, "ana"))
	click(cleo, `[data-action="join-class"]`)
	cleo.Do(chromedp.WaitVisible(chromedp.CSS(`[data-join-error]`)))
	if Eval[string](cleo, `document.querySelector("[data-join-nickname]").getAttribute("aria-invalid")`) != "true" {
		t.Error("the refused nickname's field is not marked invalid")
	}
	Eval[bool](cleo, `(() => { document.querySelector("[data-join-nickname]").value = ""; return true; })()`)
	cleo.Do(chromedp.SendKeys(`[data-join-nickname]`, "Cleo"))
	followLink(t, cleo, `[data-action="join-class"]`, `^/join$`)
	cleo.Do(chromedp.WaitVisible(chromedp.CSS(`[data-joined]`)))
	cleo.Open(srv.URL + "/learn/rook/practice")
	cleo.Do(chromedp.WaitVisible(chromedp.CSS(`[data-exercise][data-board]`)))
	for range 5 {
		click(cleo, `[data-action="check"]`) // nothing marked: wrong
		gameWait(t, cleo, `!!document.querySelector('[data-verdict="wrong"]')`)
		Eval[bool](cleo, `(() => { document.querySelector('[data-verdict="wrong"]').remove(); return true; })()`)
	}

	// The teacher's dashboard, left open, shows all three by itself.
	gameWait(t, teacher, `document.querySelectorAll("[data-student]").length === 3`)
	row := func(nick string) string {
		return `[...document.querySelectorAll("[data-student]")].find(r => r.querySelector("[data-col=nickname]").textContent.trim().startsWith(` + jsString(nick) + `))`
	}
	cell := func(nick, col string) string {
		return Eval[string](teacher, row(nick)+`.querySelector("[data-col=`+col+`]").textContent.trim()`)
	}
	if got := cell("Ana", "lessons"); got != "1" {
		t.Errorf("Ana's lessons = %q, want 1", got)
	}
	if got := cell("Ana", "homework"); got != "1" {
		t.Errorf("Ana's homework done = %q, want 1", got)
	}
	if got := cell("Ben", "squares"); got != "1" {
		t.Errorf("Ben's square exercises = %q, want 1", got)
	}
	if got := cell("Ben", "lessons"); got != "0" {
		t.Errorf("Ben's lessons = %q, want 0", got)
	}
	// Stars as /learn counts them: Ben's exercise after one wrong try;
	// Cleo's only wrong tries earn none. Nobody has tried a puzzle yet.
	if got := cell("Ben", "stars"); got != "2" {
		t.Errorf("Ben's stars = %q, want 2 (solved after one wrong try)", got)
	}
	if got := cell("Cleo", "stars"); got != "0" {
		t.Errorf("Cleo's stars = %q, want 0", got)
	}
	if got, rating := cell("Ana", "puzzles"), cell("Ana", "rating"); got != "0 / 0" || rating != "–" {
		t.Errorf("Ana's puzzles = %q, rating %q; want 0 / 0 and –", got, rating)
	}
	gameWait(t, teacher, row("Cleo")+`.hasAttribute("data-stuck")`)
	if !strings.Contains(Eval[string](teacher, `document.querySelector("[data-done-by]").textContent`), "Ana") {
		t.Error("the homework does not say Ana is done")
	}
	audit(teacher, "the dashboard with a class")
	classShot(t, teacher, "classes-dashboard")

	// Ana's home page: "Homework from Tuesday chess club", ticked.
	ana.Open(srv.URL + "/")
	ana.Do(chromedp.WaitVisible(chromedp.CSS(`[data-homework][data-done]`)))
	if !strings.Contains(Eval[string](ana, `document.querySelector("[data-homework]").textContent`), "Tuesday chess club") {
		t.Error("Ana's home page does not name the class of her homework")
	}
	if body := Eval[string](ana, `document.body.innerText`); strings.Contains(body, "Ben") || strings.Contains(body, "Cleo") {
		t.Error("Ana's home page shows another pupil's nickname")
	}
	audit(ana, "a pupil's home page with homework")
	fits(t, ana, phone)
	classShot(t, ana, "classes-pupil-home")

	for _, b := range []*Browser{teacher, ana, ben, cleo} {
		for _, e := range b.ConsoleErrors() {
			if !strings.Contains(e, "409 (Conflict)") { // Cleo's refused nickname: the page's own status
				t.Errorf("console error: %s", e)
			}
		}
	}
}
