//go:build full

package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"chesstutor/chess"
)

// boardSnapshot is what the page contract (H2) exposes about one board.
type boardSnapshot struct {
	FEN     string            `json:"fen"`
	Squares []string          `json:"squares"`
	Pieces  map[string]string `json:"pieces"` // square -> "wK"
	Labels  map[string]string `json:"labels"` // square -> aria-label
}

const snapshotJS = `(() => {
  const b = document.querySelector("[data-board]");
  if (!b) return null;
  const out = {fen: b.getAttribute("data-fen"), squares: [], pieces: {}, labels: {}};
  for (const el of b.querySelectorAll("[data-square]")) {
    const sq = el.getAttribute("data-square");
    out.squares.push(sq);
    out.labels[sq] = el.getAttribute("aria-label") || "";
    const p = el.querySelector("[data-piece]");
    if (p) out.pieces[sq] = p.getAttribute("data-piece");
  }
  return out;
})()`

// checkBoardContract verifies H2 on the first board of the page against
// the rules package: 64 distinct squares, and exactly the pieces of the FEN.
func checkBoardContract(t *testing.T, b *Browser) boardSnapshot {
	t.Helper()
	raw := Eval[[]byte](b, snapshotJS)
	var snap boardSnapshot
	if err := json.Unmarshal(raw, &snap); err != nil || snap.FEN == "" {
		t.Fatalf("no board with data-board and data-fen on the page (%s, %v)", raw, err)
	}
	pos, err := chess.ParseFEN(snap.FEN)
	if err != nil {
		t.Fatalf("data-fen %q does not parse: %v", snap.FEN, err)
	}
	if len(snap.Squares) != 64 {
		t.Fatalf("board has %d data-square elements, want 64", len(snap.Squares))
	}
	seen := map[string]bool{}
	for _, name := range snap.Squares {
		seen[name] = true
		sq, err := chess.ParseSquare(name)
		if err != nil {
			t.Fatalf("bad data-square %q: %v", name, err)
		}
		want := ""
		if p := pos.PieceAt(sq); p != chess.NoPiece {
			want = p.String()
		}
		if got := snap.Pieces[name]; got != want {
			t.Errorf("square %s shows piece %q, FEN says %q", name, got, want)
		}
		if !strings.HasPrefix(snap.Labels[name], name+", ") {
			t.Errorf("square %s has aria-label %q, want it to start with the square name", name, snap.Labels[name])
		}
	}
	if len(seen) != 64 {
		t.Errorf("board has %d distinct squares, want 64", len(seen))
	}
	return snap
}

func TestHomeShowsBoardDiagram(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t)
	b.Open(srv.URL + "/")
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board]")))

	snap := checkBoardContract(t, b)
	if snap.Pieces["c4"] != "wB" {
		t.Errorf("home diagram: c4 holds %q, want the white bishop", snap.Pieces["c4"])
	}
	if got := snap.Labels["e1"]; got != "e1, white king" {
		t.Errorf("aria-label of e1 = %q, want %q", got, "e1, white king")
	}

	// The stylesheet loaded under its hashed URL and colours the squares.
	light := Eval[string](b, `getComputedStyle(document.querySelector('[data-square="h1"]')).backgroundColor`)
	if light != "rgb(240, 217, 181)" {
		t.Errorf("light square colour = %s, want rgb(240, 217, 181) (is site.css loaded?)", light)
	}
	// The piece sprite is on the page and the pieces draw at a real size.
	w := Eval[float64](b, `document.querySelector('[data-piece="wK"]').getBoundingClientRect().width`)
	if w < 24 {
		t.Errorf("white king is %.0f px wide, want a readable size", w)
	}
	if n := Eval[int](b, `document.querySelectorAll('symbol[id^="piece-"]').length`); n != 12 {
		t.Errorf("page has %d piece symbols, want 12", n)
	}
	// The path Learn → Practice → Quiz → Play is explained and linked.
	for _, href := range []string{"/learn", "/practice", "/quiz", "/play", "/games"} {
		if !Eval[bool](b, `!!document.querySelector('.site-header a[href="`+href+`"]')`) {
			t.Errorf("header lacks a link to %s", href)
		}
	}
	if cur := Eval[string](b, `document.querySelector('[aria-current="page"]').textContent.trim()`); cur != "Chess Steps" {
		t.Errorf("current section marked = %q, want the site name on the home page", cur)
	}
	// The visitor cookie is HttpOnly: scripts cannot read it.
	if c := Eval[string](b, `document.cookie`); strings.Contains(c, "visitor=") {
		t.Errorf("visitor cookie is readable from JavaScript: %q", c)
	}
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors (CSP violations included):\n%s", strings.Join(errs, "\n"))
	}
}

func TestHomeFitsNarrowPhones(t *testing.T) {
	srv := newServer(t)
	for _, vp := range []Viewport{Narrow, Phone} {
		b := newBrowser(t, WithViewport(vp))
		b.Open(srv.URL + "/")
		b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board]")))
		if sw := Eval[int64](b, `document.documentElement.scrollWidth`); sw > vp.Width {
			t.Errorf("at %d px the page scrolls sideways (scrollWidth %d)", vp.Width, sw)
		}
		// Header links are touch targets of at least 44 px.
		small := Eval[[]string](b, `[...document.querySelectorAll('.site-header a')]
			.filter(a => a.getBoundingClientRect().height < 44).map(a => a.textContent.trim())`)
		if len(small) > 0 {
			t.Errorf("at %d px these header links are under 44 px tall: %v", vp.Width, small)
		}
		bw := Eval[float64](b, `document.querySelector('[data-board]').getBoundingClientRect().width`)
		if bw < float64(vp.Width)*0.7 {
			t.Errorf("at %d px the board is only %.0f px wide", vp.Width, bw)
		}
	}
}

func TestPagesWorkWithoutJavaScript(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, WithoutJS())
	b.Open(srv.URL + "/")
	b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board]")))
	checkBoardContract(t, b)

	b.Open(srv.URL + "/no-such-page")
	b.Do(chromedp.WaitVisible(chromedp.CSS(".error-page")))
	title, err := chromedp.Run(b.Ctx, chromedp.Title())
	if err != nil || !strings.Contains(title, "not found") {
		t.Errorf("404 page title = %q, %v", title, err)
	}
}

func TestServerStopsCleanlyOnSIGTERM(t *testing.T) {
	srv := newServer(t)
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	srv.Stop()
	if !strings.Contains(srv.Logs(), "stopped cleanly") {
		t.Errorf("server log lacks the clean-stop line:\n%s", srv.Logs())
	}
	// It starts again on the same database (migrations are idempotent).
	srv.Start()
}

// TestScreenshots saves the home page at phone and desktop widths into
// e2e/screenshots for people to look at (README, reviews).
func TestScreenshots(t *testing.T) {
	srv := newServer(t)
	for _, c := range []struct {
		name string
		vp   Viewport
		dark bool
	}{{"home-375", Phone, false}, {"home-1280", Desktop, false}, {"home-375-dark", Phone, true}} {
		opts := []BrowserOption{WithViewport(c.vp)}
		if c.dark {
			opts = append(opts, WithDarkScheme())
		}
		b := newBrowser(t, opts...)
		b.Open(srv.URL + "/")
		b.Do(chromedp.WaitVisible(chromedp.CSS("[data-board]")))
		if b.Screenshot(c.name) == "" && shotsWanted() {
			t.Errorf("could not save screenshot %s", c.name)
		}
	}
}
