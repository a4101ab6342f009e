//go:build full

package e2e

// Browser tests of the game page a beginner expects (issue 13: G17–G22):
// the computer visibly thinks, everything fits the screen, the end keeps
// the final position in view, review, typed moves, sounds, material.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// viewShot saves what the window shows (not the full page) as
// e2e/screenshots/<name>.png, for people to look at.
func viewShot(t *testing.T, b *Browser, name string) {
	t.Helper()
	if !shotsWanted() {
		return
	}
	Eval[bool](b, `(window.scrollTo(0, 0), true)`) // as a visitor sees it: click() scrolls
	b.WindowShot(name)
}

// evalAwait evaluates a promise-returning expression.
func evalAwait[T any](t *testing.T, b *Browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %q: %v", expr, err)
	}
	return v
}

// thinkReport is what the page measured around one move against the
// computer: when the thinking state showed, and the largest clock jump.
type thinkReport struct {
	StatusMS   float64 `json:"status_ms"`   // ms from the move to "thinking" in the status
	ThinkingMS float64 `json:"thinking_ms"` // ... to data-thinking on the game root
	RunningMS  float64 `json:"running_ms"`  // ... to the computer's clock carrying data-running
	MaxJumpMS  float64 `json:"max_jump_ms"` // the largest unexplained change of a shown clock
	// MoveMS is how long the move's request took. The clocks switch on
	// screen at the click and the server switches them when the move
	// arrives, so the shown times are corrected by that much at most.
	MoveMS  float64 `json:"move_request_ms"`
	Samples int     `json:"samples"`
	Replied bool    `json:"replied"`
}

// moveAndWatch plays from-to by clicking, then watches every animation
// frame until the reply has been on screen for half a second: when the
// thinking state appears, and how each clock's shown time changes against
// the time that passed (a running clock may only count down as fast as the
// time goes; a stopped one may not move at all).
const moveAndWatch = `(async (from, to, computer) => {
  const q = (s) => document.querySelector(s);
  const clocks = ["white", "black"].map((c) => q('[data-clock="' + c + '"]'));
  const read = () => ({ t: performance.now(), ms: clocks.map((el) => Number(el.dataset.ms)), run: clocks.map((el) => el.hasAttribute("data-running")) });
  const r = { status_ms: -1, thinking_ms: -1, running_ms: -1, max_jump_ms: 0, samples: 0, replied: false };
  let prev = read();
  const look = (dt) => {
    if (r.status_ms < 0 && q("[data-status]").textContent.includes("thinking")) r.status_ms = dt;
    if (r.thinking_ms < 0 && q("[data-game]").hasAttribute("data-thinking")) r.thinking_ms = dt;
    if (r.running_ms < 0 && q('[data-clock="' + computer + '"]').hasAttribute("data-running")) r.running_ms = dt;
  };
  const t0 = performance.now();
  q('[data-square="' + from + '"]').click();
  q('[data-square="' + to + '"]').click();
  look(performance.now() - t0); // the page may show it in the click's own task
  let repliedAt = 0;
  while (performance.now() - t0 < 20000) {
    await new Promise((res) => requestAnimationFrame(res));
    const cur = read();
    look(cur.t - t0);
    for (let i = 0; i < 2; i++) {
      const change = cur.ms[i] - prev.ms[i];
      const allowed = (prev.run[i] || cur.run[i]) ? -(cur.t - prev.t) : 0;
      r.max_jump_ms = Math.max(r.max_jump_ms, Math.abs(change - allowed) - (prev.run[i] !== cur.run[i] ? (cur.t - prev.t) : 0));
    }
    prev = cur;
    r.samples++;
    if (!repliedAt && r.thinking_ms >= 0 && !q("[data-game]").hasAttribute("data-thinking")) repliedAt = performance.now();
    if (repliedAt && performance.now() - repliedAt > 500) { r.replied = true; break; }
  }
  const req = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/moves")).pop();
  r.move_request_ms = req ? req.duration : -1;
  return JSON.stringify(r);
})`

func TestGamePageComputerThinksVisibly(t *testing.T) {
	s := newServer(t, Serial()) // it times the page's reaction in ms
	b := newBrowser(t, WithViewport(Viewport{Width: 1280, Height: 800}))
	startGame(t, b, s, `{mode: "computer", color: "white", level: 8, clock: "5+0"}`)
	gameWait(t, b, `document.querySelector("[data-status]").textContent.includes("Your move")`)
	// Before White's first move both clocks show the full time (point 8).
	if w, bl := clockText(b, "white"), clockText(b, "black"); w != "5:00" || bl != "5:00" {
		t.Errorf("before the first move the clocks show %s and %s, want 5:00 each", w, bl)
	}
	raw := evalAwait[string](t, b, moveAndWatch+`("e2", "e4", "black")`)
	var r thinkReport
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("thinking state: status after %.0f ms, data-thinking after %.0f ms, computer's clock running after %.0f ms; largest clock jump %.0f ms over %d frames (the move's request took %.0f ms)", r.StatusMS, r.ThinkingMS, r.RunningMS, r.MaxJumpMS, r.Samples, r.MoveMS)
	if !r.Replied {
		t.Fatal("the computer's reply never showed")
	}
	for what, ms := range map[string]float64{"the status": r.StatusMS, "data-thinking": r.ThinkingMS, "the computer's clock": r.RunningMS} {
		if ms < 0 || ms > 300 {
			t.Errorf("%s showed the computer thinking after %.0f ms, want within 300 ms", what, ms)
		}
	}
	if r.MaxJumpMS > 300+max(r.MoveMS, 0) {
		t.Errorf("a shown clock jumped by %.0f ms around the reply, want at most 300 ms (plus the %.0f ms the move's request took on a busy machine)", r.MaxJumpMS, r.MoveMS)
	}
	if st := statusText(b); !strings.Contains(st, "Your move") {
		t.Errorf("after the reply the status says %q", st)
	}
	if Eval[bool](b, `document.querySelector('[data-clock="black"]').hasAttribute("data-running")`) {
		t.Error("the computer's clock still runs after its reply")
	}

	// A tap on the board during the think says why nothing happens, and
	// Undo takes the move back at once, stopping the search. Once the
	// server has the move (it is in the list) the tap and Undo run in one
	// go, so a busy machine cannot let the reply land between them.
	Eval[bool](b, `(document.querySelector('[data-square="g1"]').click(), document.querySelector('[data-square="f3"]').click(), true)`)
	gameWait(t, b, `document.querySelectorAll("[data-movelist] .move").length === 3`)
	got := Eval[string](b, `(() => {
		const q = (s) => document.querySelector(s);
		if (!q("[data-game]").hasAttribute("data-thinking")) return "the reply came before the test could tap";
		q('[data-square="a2"]').click();
		if (!q("[data-status]").textContent.includes("as soon as it has played")) return "a tap during the think says: " + q("[data-status]").textContent;
		if (q('[data-action="undo"]').disabled) return "Undo is disabled while the computer thinks";
		q('[data-action="undo"]').click();
		return "";
	})()`)
	if got != "" {
		t.Fatal(got)
	}
	gameWait(t, b, `!document.querySelector("[data-game]").hasAttribute("data-thinking") && document.querySelectorAll("[data-movelist] .move").length === 2 && document.querySelector("[data-status]").textContent.includes("Your move")`)
	id := Eval[string](b, `document.querySelector("[data-game]").dataset.game`)
	if ply := evalAwait[int](t, b, `fetch("/api/games/`+id+`").then(r => r.json()).then(d => d.ply)`); ply != 2 {
		t.Errorf("after Undo during the think the server is at ply %d, want 2", ply)
	}
}

// pageBox is an element's box in the window.
type pageBox struct {
	Name                     string
	Left, Top, Right, Bottom float64
}

func TestGamePageFitsTheScreen(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t, WithViewport(Viewport{Width: 1280, Height: 800}))
	id := startGame(t, b, s, `{mode: "computer", color: "white", level: 1, clock: "10+0"}`)
	sizes := []Viewport{
		{Width: 1280, Height: 800}, {Width: 1366, Height: 768}, {Width: 1440, Height: 900},
		{Width: 768, Height: 1024, Mobile: true}, {Width: 390, Height: 844, Mobile: true},
		{Width: 375, Height: 740, Mobile: true}, {Width: 375, Height: 667, Mobile: true},
	}
	const boxes = `JSON.stringify([...document.querySelectorAll(SEL)].map((el) => { const r = el.getBoundingClientRect(); return {Name: el.dataset.clock || el.dataset.action || el.className, Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom}; }))`
	outside := func(v Viewport, sel string) []string {
		var list []pageBox
		json.Unmarshal([]byte(Eval[string](b, strings.Replace(boxes, "SEL", "'"+sel+"'", 1))), &list)
		if len(list) == 0 {
			return []string{sel + " (not found)"}
		}
		var out []string
		for _, x := range list {
			if x.Left < -0.5 || x.Top < -0.5 || x.Right > float64(v.Width)+0.5 || x.Bottom > float64(v.Height)+0.5 || x.Right-x.Left < 1 {
				out = append(out, fmt.Sprintf("%s at (%.0f,%.0f)-(%.0f,%.0f)", x.Name, x.Left, x.Top, x.Right, x.Bottom))
			}
		}
		return out
	}
	for _, v := range sizes {
		name := fmt.Sprintf("%dx%d", v.Width, v.Height)
		opts := []chromedp.EmulateViewportOption{}
		if v.Mobile {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		b.Do(chromedp.EmulateViewport(v.Width, v.Height, opts...))
		b.Open(s.URL + "/play/" + id)
		gameWait(t, b, `document.querySelector('[data-clock="white"] .clock-time').textContent !== "–:––" && document.querySelector(".game-player-name").textContent !== ""`)
		var bad []string
		for _, sel := range []string{"[data-board]", ".game-player-name", "[data-clock]"} {
			bad = append(bad, outside(v, sel)...)
		}
		if v.Width < 900 {
			// Phones and tablets: the bar of main buttons right under the board.
			bad = append(bad, outside(v, `.game-actions > [data-action], [data-action="more"]`)...)
		}
		if len(bad) > 0 {
			t.Errorf("%s: outside the window without scrolling: %s", name, strings.Join(bad, "; "))
		}
		if w := Eval[float64](b, `document.documentElement.scrollWidth`); w > float64(v.Width)+0.5 {
			t.Errorf("%s: the page is %.0f px wide, it scrolls sideways", name, w)
		}
		size := Eval[float64](b, `document.querySelector("[data-board]").getBoundingClientRect().width`)
		t.Logf("%s: board %.0f px", name, size)
		if size < 280 {
			t.Errorf("%s: the board is only %.0f px", name, size)
		}
		// Opened where the page is (at its top), as a visitor would.
		Eval[bool](b, `(window.scrollTo(0, 0), document.querySelector('[data-action="more"]').click(), true)`)
		gameWait(t, b, `!document.querySelector(".more-menu").hidden`)
		if bad := outside(v, ".more-menu"); len(bad) > 0 {
			t.Errorf("%s: the More menu opens outside the window: %s", name, strings.Join(bad, "; "))
		}
		if name == "375x740" || name == "1280x800" || name == "375x667" || name == "768x1024" {
			viewShot(t, b, "gamepage-more-open-"+name)
		}
		b.Do(chromedp.KeyEvent(kb.Escape))
		gameWait(t, b, `document.querySelector(".more-menu").hidden`)
	}
}

// lostGameFEN: White (the visitor) to move; whatever White plays, Black
// mates with Qg2#.
const lostGameFEN = "7k/8/8/8/8/7b/P4q2/7K w - - 0 1"

func TestGamePageResultCardAndReview(t *testing.T) {
	s := newServer(t)
	for _, v := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		name := fmt.Sprintf("%dx%d", v.Width, v.Height)
		t.Run(name, func(t *testing.T) {
			b := newBrowser(t, WithViewport(v))
			startGame(t, b, s, `{mode: "computer", color: "white", level: 8, fen: "`+lostGameFEN+`"}`)
			gameWait(t, b, `document.querySelector("[data-status]").textContent.includes("Your move")`)
			clickSquare(b, "a2")
			clickSquare(b, "a3")
			gameWait(t, b, `!document.querySelector("[data-result-card]").hidden`)
			if got := Eval[string](b, `document.querySelector("[data-result-card] .end-title").textContent`); got != "You lost by checkmate." {
				t.Errorf("the result card says %q, want You lost by checkmate.", got)
			}
			// The card keeps the final position in view: at the board's
			// centre is the board, and the card's box does not overlap it.
			if !Eval[bool](b, `(() => { const r = document.querySelector("[data-board]").getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return at !== null && document.querySelector("[data-board]").contains(at); })()`) {
				t.Error("something covers the centre of the board at the end")
			}
			if Eval[bool](b, `(() => { const a = document.querySelector("[data-board]").getBoundingClientRect(), c = document.querySelector("[data-result-card]").getBoundingClientRect(); return c.left < a.right && c.right > a.left && c.top < a.bottom && c.bottom > a.top; })()`) {
				t.Error("the result card overlaps the board")
			}
			for _, a := range []string{"rematch", "new-game", "download-pgn", "review"} {
				if !Eval[bool](b, `document.querySelector('[data-result-card] [data-action="`+a+`"]') !== null`) {
					t.Errorf("the result card has no %s", a)
				}
			}
			viewShot(t, b, "gamepage-lost-"+name)

			// Review: the icons are drawn, a click on a move shows the
			// position after it, the arrow keys step.
			if n := Eval[int](b, `[...document.querySelectorAll("[data-review-step] svg")].filter((s) => s.getBoundingClientRect().width > 8).length`); n != 4 {
				t.Errorf("%d review buttons show their icon, want 4", n)
			}
			positions := evalAwait[[]string](t, b, `fetch("/api/games/" + document.querySelector("[data-game]").dataset.game).then(r => r.json()).then(d => d.positions)`)
			fen := func() string { return Eval[string](b, `document.querySelector("[data-board]").dataset.fen`) }
			click(b, `[data-movelist] button[data-ply="1"]`)
			gameWait(t, b, `document.querySelector("[data-board]").dataset.fen === `+jsString(positions[1]))
			Eval[bool](b, `(document.activeElement.blur(), true)`)
			b.Do(chromedp.KeyEvent(kb.ArrowLeft))
			gameWait(t, b, `document.querySelector("[data-board]").dataset.fen === `+jsString(positions[0]))
			b.Do(chromedp.KeyEvent(kb.End))
			gameWait(t, b, `document.querySelector("[data-board]").dataset.fen === `+jsString(positions[2]))
			b.Do(chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.ArrowRight))
			gameWait(t, b, `document.querySelector("[data-board]").dataset.fen === `+jsString(positions[1]))
			click(b, `[data-review-step="last"]`)
			if got := fen(); got != positions[2] {
				t.Errorf("after Last the board shows %s", got)
			}
		})
	}
}

func TestGamePageClearsStaleMessages(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t)
	startGame(t, b, s, `{mode: "computer", color: "white", level: 1, fen: "r3k2r/pp6/8/8/8/8/8/R3K3 w - - 0 10"}`)
	gameWait(t, b, `document.querySelector("[data-status]").textContent.includes("Your move")`)
	click(b, `[data-action="offer-draw"]`)
	gameWait(t, b, `document.querySelector("[data-status]").textContent.includes("declines")`)
	if st := statusText(b); !strings.Contains(st, "pawns ahead") {
		t.Errorf("the computer's answer %q does not speak in pawns", st)
	}
	click(b, `[data-action="resign"]`)
	click(b, `[data-action="confirm-resign"]`)
	gameWait(t, b, `!document.querySelector("[data-result-card]").hidden`)
	if st := statusText(b); strings.Contains(st, "declines") || !strings.Contains(st, "resigned") {
		t.Errorf("after resigning the status says %q", st)
	}
}

func TestGamePageTypedMoves(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t, WithViewport(Viewport{Width: 390, Height: 844, Mobile: true}))
	castle := "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	promote := "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
	for _, tc := range []struct{ fen, typed, want string }{
		// The move list shows figurines by default (N9).
		{"", "nf3", "♘f3"}, {"", "Nf3", "♘f3"}, {"", "e2e4", "e4"}, {"", "e2-e4", "e4"},
		{castle, "0-0", "O-O"}, {castle, "O-O", "O-O"}, {promote, "e8q", "e8=♕"}, {promote, "e8=Q", "e8=♕"},
	} {
		fen := ""
		if tc.fen != "" {
			fen = `, fen: "` + tc.fen + `"`
		}
		startGame(t, b, s, `{mode: "friend", pass_screen: false`+fen+`}`)
		b.Do(chromedp.SendKeys("[data-san-input]", tc.typed+"\r"))
		gameWait(t, b, `document.querySelectorAll("[data-movelist] .move").length === 1 || document.querySelector("[data-san-error]").textContent !== ""`)
		if got := Eval[string](b, `document.querySelector("[data-movelist] .move")?.textContent || document.querySelector("[data-san-error]").textContent`); got != tc.want {
			t.Errorf("typed %q: got %q, want %s", tc.typed, got, tc.want)
		}
	}
	// An ambiguous move is refused next to the field, which keeps the text.
	startGame(t, b, s, `{mode: "friend", pass_screen: false, fen: "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"}`)
	b.Do(chromedp.SendKeys("[data-san-input]", "Nd2\r"))
	gameWait(t, b, `document.querySelector("[data-san-error]").textContent !== ""`)
	if got := Eval[string](b, `document.querySelector("[data-san-error]").textContent`); !strings.Contains(got, "more than one move") || !strings.Contains(got, "Nbd2") {
		t.Errorf("the refusal says %q, want it to say the move is ambiguous and name Nbd2", got)
	}
	if got := Eval[string](b, `document.querySelector("[data-san-input]").value`); got != "Nd2" {
		t.Errorf("after the refusal the field holds %q, want Nd2", got)
	}
	if n := Eval[int](b, `document.querySelectorAll("[data-movelist] .move").length`); n != 0 {
		t.Errorf("a refused move is in the move list")
	}
	// Text that is no move at all says so.
	b.Do(chromedp.SendKeys("[data-san-input]", "x\r"))
	gameWait(t, b, `document.querySelector("[data-san-error]").textContent.includes("not a move")`)

	// Typing while the pass screen shows dismisses it: the player has the
	// device. The first pass screen comes after White's first move.
	startGame(t, b, s, `{mode: "friend", pass_screen: true}`)
	Eval[bool](b, `(document.querySelector("[data-san-input]").focus(), true)`)
	b.Do(chromedp.SendKeys("[data-san-input]", "e4\r"))
	gameWait(t, b, passShown)
	Eval[bool](b, `(document.querySelector("[data-san-input]").focus(), true)`)
	b.Do(chromedp.SendKeys("[data-san-input]", "e5\r"))
	gameWait(t, b, `document.querySelectorAll("[data-movelist] .move").length === 2`)
}

func TestGamePageSoundsAndSwitch(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t)
	startGame(t, b, s, `{mode: "friend", pass_screen: false}`)
	sounds := Eval[map[string]string](b, `JSON.parse(document.querySelector("[data-game]").dataset.facts).sounds`)
	total := 0
	for _, name := range []string{"move", "capture", "check", "end", "lowtime"} {
		url, ok := sounds[name]
		if !ok {
			t.Errorf("no %s sound on the page", name)
			continue
		}
		resp, err := http.Get(s.URL + url)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		buf := make([]byte, 4096)
		for {
			k, err := resp.Body.Read(buf)
			n += int64(k)
			if err != nil {
				break
			}
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "audio/wav" {
			t.Errorf("%s: %d %s", url, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		total += int(n)
	}
	t.Logf("sounds: %d bytes in all", total)
	if total > 30*1024 {
		t.Errorf("the sounds take %d bytes, over 30 KB", total)
	}
	wavs := `performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wav")).length`
	if n := Eval[int](b, wavs); n != 0 {
		t.Errorf("%d sounds loaded before any gesture", n)
	}
	clickSquare(b, "e2")
	clickSquare(b, "e4")
	gameWait(t, b, wavs+` > 0`)

	// The switch in More, remembered across a reload.
	click(b, `[data-action="more"]`)
	click(b, `[data-action="toggle-sound"]`)
	gameWait(t, b, `document.querySelector('[data-action="toggle-sound"]').getAttribute("aria-pressed") === "false"`)
	b.Do(chromedp.Reload())
	gameWait(t, b, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
	if got := Eval[string](b, `document.querySelector('[data-action="toggle-sound"]').getAttribute("aria-pressed") + " " + document.querySelector('[data-action="toggle-sound"]').textContent`); got != "false Sound: off" {
		t.Errorf("after a reload the switch is %q, want off", got)
	}
}

func TestGamePageMaterial(t *testing.T) {
	s := newServer(t)
	for _, v := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		name := fmt.Sprintf("%dx%d", v.Width, v.Height)
		t.Run(name, func(t *testing.T) {
			b := newBrowser(t, WithViewport(v))
			// Black's queen hangs on h4; the computer (level 1) plays Black.
			startGame(t, b, s, `{mode: "computer", color: "white", level: 1, clock: "10+0", fen: "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"}`)
			gameWait(t, b, `document.querySelector("[data-status]").textContent.includes("Your move")`)
			if got := Eval[string](b, `document.querySelector('[data-material="white"]').textContent + "|" + document.querySelector('[data-material="black"]').textContent`); got != "|" {
				t.Errorf("before any capture the material shows %q", got)
			}
			clickSquare(b, "f3")
			clickSquare(b, "h4")
			gameWait(t, b, `document.querySelector("[data-status]").textContent.includes("Your move") && document.querySelectorAll("[data-movelist] .move").length === 2`)
			if !Eval[bool](b, `document.querySelector('[data-material="white"] [data-piece="bQ"]') !== null`) {
				t.Error("White's captured queen is not shown beside White")
			}
			lead := Eval[string](b, `document.querySelector('[data-material="white"] .material-lead')?.textContent || ""`)
			want := Eval[string](b, `(() => { const f = document.querySelector("[data-board]").dataset.fen.split(" ")[0]; const v = {P:1,N:3,B:3,R:5,Q:9}; let d = 0; for (const ch of f) { const u = ch.toUpperCase(); if (v[u]) d += ch === u ? v[u] : -v[u]; } return d > 0 ? "+" + d : ""; })()`)
			if lead != want || lead == "" {
				t.Errorf("White's lead shows %q, want %q", lead, want)
			}
			if !Eval[bool](b, `(() => { const r = document.querySelector('[data-material="white"]').getBoundingClientRect(); return r.width > 0 && r.bottom <= innerHeight && r.top >= 0; })()`) {
				t.Error("White's material is not in view")
			}
			viewShot(t, b, "gamepage-capture-"+name)
		})
	}
}

// TestGamePageThinkingScreenshot takes the phone picture of the visitor's
// move while the computer thinks (the desktop one is taken above).
func TestGamePageThinkingScreenshot(t *testing.T) {
	s := newServer(t, Serial()) // it must catch a think of a few hundred ms
	for _, v := range []Viewport{{Width: 375, Height: 740, Mobile: true}, {Width: 1280, Height: 800}} {
		b := newBrowser(t, WithViewport(v))
		startGame(t, b, s, `{mode: "computer", color: "white", level: 8, clock: "5+0"}`)
		gameWait(t, b, `document.querySelector("[data-status]").textContent.includes("Your move")`)
		Eval[bool](b, `(document.querySelector('[data-square="e2"]').click(), document.querySelector('[data-square="e4"]').click(), true)`)
		gameWait(t, b, `document.querySelector("[data-game]").hasAttribute("data-thinking")`)
		start := time.Now()
		viewShot(t, b, fmt.Sprintf("gamepage-thinking-%dx%d", v.Width, v.Height))
		t.Logf("screenshot taken %v after the thinking state showed", time.Since(start).Round(time.Millisecond))
		gameWait(t, b, `!document.querySelector("[data-game]").hasAttribute("data-thinking")`)
	}
}

// TestGamePageInRussian opens a game against the computer through a
// ?lang=ru link on a phone and plays a capture: the status line, the move
// said to screen readers and the labels of the board, clocks and material
// are Russian, and no English word shows anywhere on the page (issue 31).
func TestGamePageInRussian(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t, WithViewport(Viewport{Width: 375, Height: 740, Mobile: true}))
	// Black's queen hangs on h4; the computer (level 1) plays Black.
	id := startGame(t, b, s, `{mode: "computer", color: "white", level: 1, clock: "5+0", fen: "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"}`)
	b.Open(s.URL + "/play/" + id + "?lang=ru")
	gameWait(t, b, `document.documentElement.lang === "ru" && document.querySelector("[data-status]").textContent === "Твой ход."`)
	// Every text the page says to screen readers, as it changes.
	Eval[bool](b, `(window.said = [], new MutationObserver(() => {
		const a = document.getElementById("announcer");
		if (a && a.textContent && window.said[window.said.length - 1] !== a.textContent) window.said.push(a.textContent);
	}).observe(document.body, {childList: true, subtree: true, characterData: true}), true)`)
	clickSquare(b, "f3")
	clickSquare(b, "h4")
	gameWait(t, b, `document.querySelectorAll("[data-movelist] .move").length === 2 && !document.querySelector("[data-game]").hasAttribute("data-thinking") && window.said.some((s) => s.startsWith("Чёрные: "))`)

	if st := statusText(b); st != "Твой ход." {
		t.Errorf("status %q, want %q", st, "Твой ход.")
	}
	said := Eval[[]string](b, `window.said`)
	if len(said) == 0 || !strings.HasPrefix(said[0], "Белые: конь бьёт на h4. ") {
		t.Errorf("the move was said as %q, want it to start with %q", said, "Белые: конь бьёт на h4. ")
	}
	labels := Eval[map[string]string](b, `({
		board: document.querySelector("[data-board]").getAttribute("aria-label"),
		clock: document.querySelector('[data-clock="white"]').getAttribute("aria-label"),
		material: document.querySelector('[data-material="white"]').getAttribute("aria-label"),
	})`)
	for what, want := range map[string]string{"board": "Шахматная доска, внизу белые, ход белых", "clock": "Часы белых: ", "material": "Взято: ферзь"} {
		if !strings.HasPrefix(labels[what], want) {
			t.Errorf("the %s's label is %q, want it to start with %q", what, labels[what], want)
		}
	}

	english := regexp.MustCompile(`(?i)\b(move|white|black|check|clock|you)\b`)
	text := Eval[string](b, `document.body.innerText`)
	for _, s := range append([]string{text}, append(said, labels["board"], labels["clock"], labels["material"])...) {
		if found := english.FindAllString(s, -1); len(found) > 0 {
			t.Errorf("English words %q on the Russian page in:\n%s", found, s)
		}
	}
	// The longer Russian words stay inside the phone's width.
	if w := Eval[float64](b, `document.documentElement.scrollWidth`); w > 375.5 {
		wide := Eval[[]string](b, `(window.scrollTo(0, 0), [...document.body.querySelectorAll("*")].filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < -0.5 || r.right > 375.5); }).map((e) => e.className + ": " + e.textContent.trim().slice(0, 30)))`)
		t.Errorf("the Russian game page is %.0f px wide, it scrolls sideways; sticking out: %q", w, wide)
	}
	viewShot(t, b, "gamepage-ru-375x740")
}
