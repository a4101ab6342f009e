//go:build full

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"chesstutor/internal/testbin"
)

// apiClient is one visitor talking to the JSON API with its own cookie.
type apiClient struct {
	*testbin.Visitor
	t *testing.T
}

func newAPIClient(t *testing.T, s *Server) *apiClient {
	t.Helper()
	return &apiClient{Visitor: s.NewVisitor(t), t: t}
}

// gameState is the part of the H1 state the tests read.
type gameState = testbin.GameState

// do sends a request and returns the status and the decoded body.
func (c *apiClient) do(method, path string, body any) (int, gameState, []byte) {
	c.t.Helper()
	code, raw, err := c.Do(method, path, body)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	var st gameState
	json.Unmarshal(raw, &st)
	return code, st, raw
}

func (c *apiClient) must(status int, method, path string, body any) gameState {
	c.t.Helper()
	got, st, raw := c.do(method, path, body)
	if got != status {
		c.t.Fatalf("%s %s %v: status %d, want %d: %s", method, path, body, got, status, raw)
	}
	return st
}

func (c *apiClient) create(body map[string]any) gameState {
	c.t.Helper()
	return c.must(http.StatusCreated, "POST", "/api/games", body)
}

func (c *apiClient) play(st gameState, moves ...string) gameState {
	c.t.Helper()
	for _, m := range moves {
		st = c.must(http.StatusOK, "POST", "/api/games/"+st.ID+"/moves", map[string]any{"san": m, "ply": st.Ply})
	}
	return st
}

func TestGameAPIEndpoints(t *testing.T) {
	s := newServer(t)
	c := newAPIClient(t, s)

	// A fool's mate ends 0-1 by checkmate; nothing moves after the end.
	st := c.play(c.create(map[string]any{"mode": "friend"}), "f3", "e5", "g4", "Qh4#")
	if st.Status != "checkmate" || st.Result != "0-1" || st.Reason != "Black wins by checkmate" {
		t.Fatalf("fool's mate: %+v", st)
	}
	id := st.ID
	c.must(http.StatusConflict, "POST", "/api/games/"+id+"/moves", map[string]any{"move": "e2e4", "ply": 4})
	c.must(http.StatusConflict, "POST", "/api/games/"+id+"/undo", map[string]any{"ply": 4})

	// PGN: an attachment with the Seven Tag Roster and the result.
	res, err := c.HTTP.Get(s.URL + "/api/games/" + id + "/pgn")
	if err != nil {
		t.Fatal(err)
	}
	pgn, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
		t.Errorf("PGN Content-Disposition %q, want an attachment", cd)
	}
	for _, tag := range []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"} {
		if !strings.Contains(string(pgn), "["+tag+" ") {
			t.Errorf("PGN lacks the %s tag:\n%s", tag, pgn)
		}
	}
	if !strings.Contains(string(pgn), "1. f3 e5 2. g4 Qh4#") || !strings.HasSuffix(strings.TrimSpace(string(pgn)), "0-1") {
		t.Errorf("PGN moves or result wrong:\n%s", pgn)
	}

	// Errors: 400 malformed, 422 illegal, 409 stale, 404 unknown or another visitor's.
	g := c.create(map[string]any{"mode": "friend", "clock": "5+0", "pass_screen": false})
	path := "/api/games/" + g.ID
	c.must(http.StatusBadRequest, "POST", path+"/moves", map[string]any{"move": "e2", "ply": 0})
	c.must(http.StatusBadRequest, "POST", path+"/moves", map[string]any{"move": "e2e4"})
	c.must(http.StatusBadRequest, "POST", path+"/moves", map[string]any{"move": "e2e4", "ply": "zero"})
	c.must(http.StatusBadRequest, "POST", "/api/games", map[string]any{"mode": "friend", "clock": "1+0"})
	c.must(http.StatusBadRequest, "POST", "/api/games", map[string]any{"mode": "friend", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"})
	c.must(http.StatusUnprocessableEntity, "POST", path+"/moves", map[string]any{"move": "e2e5", "ply": 0})
	c.must(http.StatusUnprocessableEntity, "POST", path+"/moves", map[string]any{"san": "Ke2", "ply": 0})
	g = c.must(http.StatusOK, "POST", path+"/moves", map[string]any{"move": "e2e4", "ply": 0})
	c.must(http.StatusConflict, "POST", path+"/moves", map[string]any{"move": "e7e5", "ply": 0})
	c.must(http.StatusNotFound, "GET", "/api/games/0123456789abcdef0123456789abcdef", nil)
	other := newAPIClient(t, s)
	other.must(http.StatusNotFound, "GET", path, nil)
	other.must(http.StatusNotFound, "POST", path+"/moves", map[string]any{"move": "e7e5", "ply": 1})

	// Every other endpoint, in turn.
	if g.Running != "black" || g.Clocks == nil {
		t.Fatalf("after 1. e4 the black clock should run: %+v", g)
	}
	g = c.must(http.StatusOK, "POST", path+"/pause", map[string]any{"ply": 1})
	if g.Running != "" {
		t.Errorf("pause: running %q", g.Running)
	}
	g = c.must(http.StatusOK, "POST", path+"/resume", map[string]any{"ply": 1})
	if g.Running != "black" {
		t.Errorf("resume: running %q", g.Running)
	}
	c.must(http.StatusConflict, "POST", path+"/flag", map[string]any{"ply": 1})
	g = c.must(http.StatusOK, "POST", path+"/draw", map[string]any{"ply": 1})
	if g.DrawOffer != "black" {
		t.Errorf("draw offer: %q", g.DrawOffer)
	}
	g = c.must(http.StatusOK, "POST", path+"/draw/decline", map[string]any{"ply": 1})
	if g.DrawOffer != "" || g.Status != "active" {
		t.Errorf("decline: %+v", g)
	}
	g = c.must(http.StatusOK, "POST", path+"/undo", map[string]any{"ply": 1})
	if g.Ply != 0 || (*g.Clocks)["white"] != 300000 || (*g.Clocks)["black"] != 300000 {
		t.Errorf("undo: ply %d clocks %v, want 0 and both 5:00", g.Ply, *g.Clocks)
	}
	c.must(http.StatusOK, "POST", path+"/draw", map[string]any{"ply": 0})
	g = c.must(http.StatusOK, "POST", path+"/draw/accept", map[string]any{"ply": 0})
	if g.Status != "agreement" || g.Result != "1/2-1/2" {
		t.Errorf("accept: %+v", g)
	}
	r := c.play(c.create(map[string]any{"mode": "friend"}), "e4")
	r = c.must(http.StatusOK, "POST", "/api/games/"+r.ID+"/resign", map[string]any{"ply": 1})
	if r.Result != "1-0" || r.Status != "resignation" {
		t.Errorf("resign: %+v", r)
	}
	// The computer: it answers the move, and declines a draw when level early on.
	cg := c.create(map[string]any{"mode": "computer", "color": "white", "level": 1})
	cg = c.must(http.StatusOK, "POST", "/api/games/"+cg.ID+"/moves", map[string]any{"move": "e2e4", "ply": 0})
	if cg.Ply != 2 || cg.Turn != "white" {
		t.Fatalf("the computer did not reply: %+v", cg)
	}
	cg = c.must(http.StatusOK, "POST", "/api/games/"+cg.ID+"/draw", map[string]any{"ply": 2})
	if cg.Status != "active" || !strings.Contains(cg.Message, "declines") {
		t.Errorf("computer draw answer: %+v", cg)
	}
	cg = c.must(http.StatusOK, "POST", "/api/games/"+cg.ID+"/reply", map[string]any{"ply": 2})
	if cg.Ply != 2 {
		t.Errorf("reply when nothing is missing changed the game: %+v", cg)
	}
}

// TestGameAPIParallelSamePly sends 20 moves with the same ply at once:
// exactly one may win (N3).
func TestGameAPIParallelSamePly(t *testing.T) {
	s := newServer(t)
	c := newAPIClient(t, s)
	g := c.create(map[string]any{"mode": "friend"})
	moves := []string{"e2e4", "d2d4", "g1f3", "c2c4", "b1c3"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _, _ := c.do("POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": moves[i%len(moves)], "ply": 0})
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[200] != 1 || codes[409] != 19 {
		t.Fatalf("status counts %v, want one 200 and nineteen 409", codes)
	}
	st := c.must(http.StatusOK, "GET", "/api/games/"+g.ID, nil)
	if st.Ply != 1 || len(st.UCI) != 1 {
		t.Fatalf("after the race: ply %d moves %v", st.Ply, st.UCI)
	}
}

// TestGameSurvivesSIGKILL plays moves, kills the server with SIGKILL,
// restarts it on the same database and finds every acknowledged move (N3).
func TestGameSurvivesSIGKILL(t *testing.T) {
	s := newServer(t)
	c := newAPIClient(t, s)
	g := c.create(map[string]any{"mode": "friend", "clock": "10+0"})
	sans := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"}
	g = c.play(g, sans...)
	acked := g.UCI
	s.Kill()
	s.Start()
	got := c.must(http.StatusOK, "GET", "/api/games/"+g.ID, nil)
	if strings.Join(got.UCI, " ") != strings.Join(acked, " ") || got.FEN != g.FEN {
		t.Fatalf("after SIGKILL: moves %v fen %s, want %v %s", got.UCI, got.FEN, acked, g.FEN)
	}
	// Play goes on from there.
	c.play(got, "Be7")
}

// --- browser tests ---

// gameWait polls a JavaScript condition until it holds.
func gameWait(t *testing.T, b *Browser, expr string) {
	t.Helper()
	journeyWait(t, b, "the page", expr, 20*time.Second)
}

// reviewFinished waits for the review page to show a finished review.
// A review runs on the analysis engine (Stockfish where the machine has
// it) beside the whole browser suite, so under CI's load it may take a
// minute where a quiet machine takes two seconds (it failed CI once at
// 20 s).
func reviewFinished(t *testing.T, b *Browser) {
	t.Helper()
	journeyWait(t, b, "the finished review", `document.querySelector("[data-review-root]").dataset.pending === "false"`, 2*time.Minute)
}

// click scrolls the element to the middle of the window (clear of the
// sticky header) and clicks it like a person would.
func click(b *Browser, sel string) {
	b.t.Helper()
	js, _ := json.Marshal(sel)
	Eval[bool](b, `(() => { const el = document.querySelector(`+string(js)+`); if (el) el.scrollIntoView({block: "center", inline: "center"}); return true; })()`)
	if os.Getenv("GAMES_DEBUG") != "" {
		b.t.Logf("click %s: %s", sel, Eval[string](b, `(() => { const el = document.querySelector(`+string(js)+`); const r = el.getBoundingClientRect(); const at = document.elementFromPoint(r.x + r.width/2, r.y + r.height/2); return JSON.stringify([r.x, r.y, r.width, window.scrollY, innerHeight, at && at.outerHTML.slice(0, 80)]); })()`))
	}
	b.Do(chromedp.Click(sel))
}

func clickSquare(b *Browser, sq string) { click(b, `[data-square="`+sq+`"]`) }

// startGame creates a game as the browser's visitor and opens its page.
// The request is sent from the page the tab shows when that is one of the
// site's (the visitor's cookie goes with it), else from /play.
func startGame(t *testing.T, b *Browser, s *Server, body string) string {
	t.Helper()
	if origin, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`document.readyState === "complete" ? location.origin : ""`)); err != nil || origin != s.URL {
		b.Open(s.URL + "/play")
	}
	id, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(`+body+`)}).then(r => r.json()).then(d => d.id || d.error)`, chromedp.EvalAwaitPromise))
	if err != nil || len(id) != 32 {
		t.Fatalf("create game: %q %v", id, err)
	}
	b.Open(s.URL + "/play/" + id)
	gameWait(t, b, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
	return id
}

const passShown = `!document.querySelector("[data-pass-screen]").hidden`

func statusText(b *Browser) string {
	return Eval[string](b, `document.querySelector("[data-status]").textContent`)
}

func TestBrowserFriendGameToCheckmate(t *testing.T) {
	s := newServer(t)
	for _, vp := range []struct {
		name string
		v    Viewport
	}{{"phone", Phone}, {"desktop", Desktop}} {
		t.Run(vp.name, func(t *testing.T) {
			b := newBrowser(t, WithViewport(vp.v))
			b.Open(s.URL + "/play")
			click(b, `input[name="mode"][value="friend"]`)
			click(b, `input[name="clock"][value="10+0"]`)
			b.Screenshot("play-form-" + vp.name)
			click(b, `form.new-game-form button[type="submit"]`)
			// Before White's first move there is nothing to hand over (issue 38).
			gameWait(t, b, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
			if Eval[bool](b, passShown) {
				t.Error("the pass screen shows before White's first move")
			}
			for i, mv := range [][2]string{{"f2", "f3"}, {"e7", "e5"}, {"g2", "g4"}, {"d8", "h4"}} {
				if i > 0 {
					click(b, "[data-pass-screen] button")
					gameWait(t, b, `document.querySelector("[data-pass-screen]").hidden`)
				}
				clickSquare(b, mv[0])
				gameWait(t, b, `document.querySelector('[data-square="`+mv[0]+`"]').classList.contains("selected") && document.querySelector('[data-square="`+mv[1]+`"]').classList.contains("dest")`)
				if i == 0 {
					// Clicking the selected piece again deselects it (no touch-move).
					clickSquare(b, mv[0])
					gameWait(t, b, `document.querySelectorAll(".selected, .dest").length === 0`)
					clickSquare(b, mv[0])
				}
				if i == 2 {
					b.Screenshot("game-selected-" + vp.name)
				}
				clickSquare(b, mv[1])
				if i < 3 {
					gameWait(t, b, passShown)
					if i == 0 {
						if got := Eval[string](b, `document.querySelector(".pass-screen-title").textContent`); got != "Black to move — click or tap to continue" {
							t.Errorf("pass screen says %q", got)
						}
						wantClock := Eval[bool](b, `!document.querySelector('[data-clock="black"]').classList.contains("running")`)
						if !wantClock {
							t.Error("the clock runs behind the pass screen")
						}
					}
				}
			}
			gameWait(t, b, `!document.querySelector("[data-end-banner]").hidden`)
			if st := statusText(b); !strings.Contains(st, "Black wins by checkmate") {
				t.Errorf("status %q", st)
			}
			// Between friends the result card speaks by colour.
			if got := Eval[string](b, `document.querySelector("[data-result-card] .end-title").textContent`); got != "Black wins by checkmate." {
				t.Errorf("the result card says %q, want Black wins by checkmate.", got)
			}
			if !Eval[bool](b, `document.querySelector('[data-square="e1"]').classList.contains("check") && document.querySelector('[data-square="h4"]').classList.contains("last-move")`) {
				t.Error("check or last move not highlighted")
			}
			if ml := Eval[string](b, `Array.from(document.querySelectorAll("[data-movelist] li")).map(li => li.textContent.replace(/\s+/g, " ").trim()).join(" ")`); ml != "1. f3 e5 2. g4 ♕h4#" {
				// Figurines are the default notation (issue 31).
				t.Errorf("move list %q", ml)
			}
			b.Screenshot("game-checkmate-" + vp.name)
			// Review steps back through the moves; the card's Review link
			// leads to the review page.
			if href := Eval[string](b, `document.querySelector('[data-result-card] [data-action="review"]').getAttribute("href")`); !strings.HasSuffix(href, "/review") {
				t.Errorf("the Review link goes to %q", href)
			}
			click(b, `[data-review-step="start"]`)
			gameWait(t, b, `document.querySelector("[data-board]").dataset.fen.startsWith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")`)
			click(b, `[data-review-step="next"]`)
			gameWait(t, b, `document.querySelector('[data-square="f3"] [data-piece="wP"]') !== null`)
		})
	}
}

func TestBrowserPromotionAndCastling(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t)
	startGame(t, b, s, `{mode: "friend", pass_screen: false, fen: "k7/4P3/8/8/8/8/8/4K2R w K - 0 1"}`)
	clickSquare(b, "e7")
	clickSquare(b, "e8")
	gameWait(t, b, `!document.querySelector("[data-promotion]").hidden`)
	b.Screenshot("game-promotion-picker")
	click(b, `[data-action="cancel-promotion"]`)
	gameWait(t, b, `document.querySelector("[data-promotion]").hidden`)
	if !Eval[bool](b, `document.querySelector('[data-square="e7"] [data-piece="wP"]') !== null && document.querySelector('[data-square="e8"] [data-piece]') === null`) {
		t.Fatal("cancelling the promotion did not put the pawn back")
	}
	// Castling: drag the king two squares; the rook follows.
	Eval[bool](b, `(document.querySelector("[data-board]").scrollIntoView({block: "center"}), true)`)
	b.Do(chromedp.DragAndDrop(`[data-square="e1"]`, `[data-square="g1"]`))
	gameWait(t, b, `document.querySelector('[data-square="g1"] [data-piece="wK"]') !== null && document.querySelector('[data-square="f1"] [data-piece="wR"]') !== null && document.querySelector("[data-board]").dataset.fen.includes(" b ")`)
	if ml := Eval[string](b, `document.querySelector("[data-movelist]").textContent`); !strings.Contains(ml, "O-O") {
		t.Errorf("move list %q lacks O-O", ml)
	}
	clickSquare(b, "a8")
	clickSquare(b, "b7")
	gameWait(t, b, `document.querySelector("[data-board]").dataset.fen.includes(" w ")`)
	clickSquare(b, "e7")
	clickSquare(b, "e8")
	gameWait(t, b, `!document.querySelector("[data-promotion]").hidden`)
	b.Do(chromedp.KeyEvent("n"))
	gameWait(t, b, `document.querySelector('[data-square="e8"] [data-piece="wN"]') !== null && document.querySelector("[data-board]").dataset.fen.includes(" b ")`)
	if ml := Eval[string](b, `document.querySelector("[data-movelist]").textContent`); !strings.Contains(ml, "e8=♘") {
		t.Errorf("move list %q lacks e8=♘ (figurines are the default notation)", ml)
	}
}

func clockText(b *Browser, c string) string {
	return Eval[string](b, `document.querySelector('[data-clock="`+c+`"] .clock-time').textContent`)
}

func TestBrowserUndoRestoresClocksAndReload(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t, WithViewport(Phone))
	id := startGame(t, b, s, `{mode: "friend", clock: "5+0", pass_screen: false}`)
	serverClock := func(c string) int64 {
		t.Helper()
		v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[int64](`fetch("/api/games/`+id+`").then(r => r.json()).then(d => d.clocks.`+c+`)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// The clocks show the full time until White's first move (G6).
	time.Sleep(1200 * time.Millisecond)
	if got := clockText(b, "white"); got != "5:00" || Eval[bool](b, `document.querySelector(".clock.running") !== null`) {
		t.Errorf("before the first move White's clock shows %s (running: %v), want a stopped 5:00", got, Eval[bool](b, `document.querySelector(".clock.running") !== null`))
	}
	if got := serverClock("white"); got != 300000 {
		t.Errorf("before the first move the server has %d ms for White, want 300000", got)
	}
	clickSquare(b, "e2")
	clickSquare(b, "e4")
	gameWait(t, b, `document.querySelector('[data-clock="black"]').classList.contains("running")`)
	// Wait until Black's clock shows two seconds used (4:57 or less).
	gameWait(t, b, `document.querySelector('[data-clock="black"] .clock-time').textContent <= "4:57"`)
	clickSquare(b, "e7")
	clickSquare(b, "e5")
	gameWait(t, b, `document.querySelector('[data-clock="white"]').classList.contains("running") && document.querySelector("[data-board]").dataset.fen.includes(" w ")`)
	blackMS := serverClock("black")
	if blackMS > 298000 {
		t.Fatalf("Black's clock did not run: %d ms", blackMS)
	}
	gameWait(t, b, `document.querySelector('[data-clock="white"] .clock-time').textContent <= "4:57"`)
	clickSquare(b, "g1")
	clickSquare(b, "f3")
	gameWait(t, b, `document.querySelector('[data-clock="black"]').classList.contains("running") && document.querySelector("[data-board]").dataset.fen.includes(" b ")`)
	if got := serverClock("white"); got > 298000 {
		t.Fatalf("White's clock did not run: %d ms", got)
	}
	click(b, `[data-action="undo"]`)
	gameWait(t, b, `document.querySelector("[data-board]").dataset.fen.includes(" w ") && document.querySelectorAll("[data-movelist] .move").length === 2`)
	// Both clocks are back to what they showed when 1...e5 was first on
	// the board: White's thinking time is given back, Black's stays.
	if got := serverClock("black"); got != blackMS {
		t.Errorf("after undo Black has %d ms, want %d", got, blackMS)
	}
	if got := serverClock("white"); got < 299000 {
		t.Errorf("after undo White has %d ms, want about 300000", got)
	}
	// The shown clock matches the server's to the second it shows (the
	// text captured before the undo may have ticked on while Black's clock
	// ran after 2.Nf3, so it is no yardstick on a busy machine).
	if got := clockText(b, "black"); clockMS(t, got) > blackMS+1000 || clockMS(t, got) < blackMS-1000 {
		t.Errorf("after undo Black's clock shows %s, but the server has %d ms", got, blackMS)
	}
	whiteText := clockText(b, "white")
	b.Screenshot("game-clocks-phone")

	// Reload mid-game: same position, same move list, same stopped clock.
	fen := Eval[string](b, `document.querySelector("[data-board]").dataset.fen`)
	b.Do(chromedp.Reload())
	gameWait(t, b, `document.querySelectorAll("[data-board] button[data-square]").length === 64 && document.querySelector('[data-clock="white"] .clock-time').textContent !== "–:––"`)
	if got := Eval[string](b, `document.querySelector("[data-board]").dataset.fen`); got != fen {
		t.Errorf("after reload the board shows %s, want %s", got, fen)
	}
	if got := clockText(b, "white"); clockMS(t, got) > clockMS(t, whiteText) || clockMS(t, whiteText)-clockMS(t, got) > 5000 {
		t.Errorf("after reload White's clock shows %s, want about %s", got, whiteText)
	}
	if n := Eval[int](b, `document.querySelectorAll("[data-movelist] .move").length`); n != 2 {
		t.Errorf("after reload the move list has %d moves, want 1", n)
	}
}

func TestBrowserDrawOfferDeclined(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t)
	startGame(t, b, s, `{mode: "friend", pass_screen: false, clock: "10+0"}`)
	// Keyboard play: Enter selects the focused square, the arrow keys walk
	// the board, Enter again moves.
	Eval[bool](b, `(document.querySelector('[data-square="d2"]').focus(), true)`)
	b.Do(chromedp.KeyEvent("\r"))
	gameWait(t, b, `document.querySelector('[data-square="d2"]').classList.contains("selected")`)
	b.Do(chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowUp))
	gameWait(t, b, `document.activeElement && document.activeElement.dataset.square === "d4"`)
	b.Do(chromedp.KeyEvent("\r"))
	gameWait(t, b, `document.querySelector("[data-board]").dataset.fen.includes(" b ")`)
	click(b, `[data-action="offer-draw"]`)
	gameWait(t, b, `document.querySelector('[data-dialog="draw"]').open`)
	// The dialog pauses the clocks.
	gameWait(t, b, `!document.querySelector('[data-clock="black"]').classList.contains("running")`)
	b.Screenshot("game-draw-offer")
	click(b, `[data-action="decline-draw"]`)
	gameWait(t, b, `!document.querySelector('[data-dialog="draw"]').open && document.querySelector('[data-clock="black"]').classList.contains("running")`)
	if st := statusText(b); !strings.Contains(st, "declined") || !strings.Contains(st, "Black to move") {
		t.Errorf("status after declining: %q", st)
	}
}

func TestBrowserFlagFalls(t *testing.T) {
	// 5+0 shortened a hundredfold: three seconds each.
	s := newServer(t, WithEnv("CHESS_TEST_CLOCK_SCALE=0.01"))
	b := newBrowser(t)
	startGame(t, b, s, `{mode: "friend", pass_screen: false, clock: "5+0"}`)
	// The clocks start with White's first move; then Black's runs out.
	clickSquare(b, "e2")
	clickSquare(b, "e4")
	gameWait(t, b, `document.querySelector('[data-clock="black"]').classList.contains("low")`)
	gameWait(t, b, `document.querySelector("[data-status]").textContent.includes("White wins on time")`)
	if got := clockText(b, "black"); got != "0:00.0" {
		t.Errorf("Black's clock shows %s, want 0:00.0", got)
	}
	b.Screenshot("game-flag")
}

func TestBrowserGameListAndNoScript(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t)
	id := startGame(t, b, s, `{mode: "friend", pass_screen: false}`)
	clickSquare(b, "e2")
	clickSquare(b, "e4")
	gameWait(t, b, `document.querySelector("[data-board]").dataset.fen.includes(" b ")`)
	b.Open(s.URL + "/games")
	if !Eval[bool](b, fmt.Sprintf(`document.querySelector('[data-game-row="%s"] a[href="/play/%s"]') !== null`, id, id)) {
		t.Fatal("the game list does not link to the game")
	}
	b.Screenshot("games-list")

	// Without JavaScript the new-game form still works (a plain form
	// post), and the game page shows the position and says that playing
	// needs JavaScript.
	nb := newBrowser(t, WithoutJS())
	nb.Open(s.URL + "/play")
	click(nb, `input[name="mode"][value="friend"]`)
	click(nb, `form.new-game-form button[type="submit"]`)
	gameWait(t, nb, `location.pathname.startsWith("/play/") && document.querySelectorAll("[data-board] [data-square]").length === 64`)
	if !Eval[bool](nb, `document.body.innerText.includes("Games need JavaScript")`) {
		t.Error("the game page does not say that games need JavaScript")
	}
	nb.Screenshot("game-nojs")
}

func TestBrowserComputerGame(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t, WithViewport(Phone))
	startGame(t, b, s, `{mode: "computer", color: "black", level: 1}`)
	// The computer opened as White; the board shows Black at the bottom.
	gameWait(t, b, `document.querySelectorAll("[data-movelist] .move").length === 1 && document.querySelector("[data-board]").dataset.orientation === "black"`)
	if st := statusText(b); !strings.Contains(st, "Your move") {
		t.Errorf("status %q, want it to say it is your move", st)
	}
	// Typed SAN: a move for Black that is legal after any first move.
	b.Do(chromedp.SendKeys("#san-input", "Nf6"))
	click(b, `[data-san-form] button[type="submit"]`)
	gameWait(t, b, `document.querySelectorAll("[data-movelist] .move").length === 3 && document.querySelector("[data-status]").textContent.includes("Your move")`)
	// Undo goes back to before your move, taking the reply back too.
	click(b, `[data-action="undo"]`)
	gameWait(t, b, `document.querySelectorAll("[data-movelist] .move").length === 1`)
	b.Screenshot("game-computer-phone")
}

// TestBrowserFriendDrawOfferHandOver: with the pass screen, a draw offer
// goes through the hand-over before the other player answers, and "Draw
// by agreement" is said once on the result card (issue 38), on a phone and
// a laptop, in English, Spanish and Russian.
func TestBrowserFriendDrawOfferHandOver(t *testing.T) {
	s := newServer(t)
	eachScreenAndLanguage(t, func(t *testing.T, sc screen, lang string) {
		b := newBrowser(t, WithViewport(sc.v))
		b.Open(s.URL + "/play?lang=" + lang)
		startGame(t, b, s, `{mode: "friend", pass_screen: true, clock: "10+0"}`)
		if Eval[bool](b, passShown) {
			t.Error("the pass screen shows before White's first move")
		}
		clickSquare(b, "e2")
		clickSquare(b, "e4")
		gameWait(t, b, passShown)
		click(b, "[data-pass-screen] button")
		gameWait(t, b, `document.querySelector("[data-pass-screen]").hidden`)
		// Black offers a draw: the device goes back to White first.
		click(b, `[data-action="offer-draw"]`)
		gameWait(t, b, passShown)
		if Eval[bool](b, `document.querySelector('[data-dialog="draw"]').open`) {
			t.Error("the draw dialog opened before the hand-over")
		}
		title := Eval[string](b, `document.querySelector(".pass-screen-title").textContent`)
		if lang == "en" && title != "White: Black offers a draw — click or tap to answer" {
			t.Errorf("pass screen says %q", title)
		}
		if lang != "en" && strings.Contains(title, "offers") {
			t.Errorf("pass screen in %s says %q", lang, title)
		}
		windowShot(t, b, "friend-draw-handover-"+sc.name+"-"+lang)
		click(b, "[data-pass-screen] button")
		gameWait(t, b, `document.querySelector('[data-dialog="draw"]').open`)
		click(b, `[data-action="accept-draw"]`)
		gameWait(t, b, `!document.querySelector("[data-result-card]").hidden`)
		card := Eval[string](b, `document.querySelector("[data-result-card]").textContent`)
		head := Eval[string](b, `document.querySelector("[data-result-card] .end-title").textContent.replace(/\.$/, "")`)
		if n := strings.Count(card, head); n != 1 {
			t.Errorf("the result card says %q %d times: %q", head, n, card)
		}
		if errs := b.ConsoleErrors(); len(errs) > 0 {
			t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
		}
	})
}

// TestMyGamesShowsTimeout: a game whose clock ran out while nobody had it
// open is listed as finished, with its result, without opening it (issue
// 38), on a phone and a laptop, in English, Spanish and Russian.
func TestMyGamesShowsTimeout(t *testing.T) {
	// 5+0 shortened a hundredfold: three seconds each.
	s := newServer(t, WithEnv("CHESS_TEST_CLOCK_SCALE=0.01"))
	eachScreenAndLanguage(t, func(t *testing.T, sc screen, lang string) {
		t.Parallel() // each waits three seconds for a clock: together
		b := newBrowser(t, WithViewport(sc.v))
		b.Open(s.URL + "/games?lang=" + lang)
		id, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`(async () => {
  const post = (url, body) => fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)}).then(r => r.json());
  const g = await post("/api/games", {mode: "friend", pass_screen: false, clock: "5+0"});
  await post("/api/games/" + g.id + "/moves", {move: "e2e4", ply: 0});
  return g.id;
})()`, chromedp.EvalAwaitPromise))
		if err != nil || len(id) != 32 {
			t.Fatalf("create and move: %q %v", id, err)
		}
		time.Sleep(3500 * time.Millisecond) // Black's three seconds run out
		b.Open(s.URL + "/games")
		row := `document.querySelector('[data-game-row="` + id + `"]')`
		if Eval[bool](b, row+`.querySelector(".tag") !== null`) {
			t.Errorf("the game whose clock ran out is listed as in progress: %s", Eval[string](b, row+`.textContent`))
		}
		if got := Eval[string](b, row+`.querySelector("strong").textContent`); got != "1-0" {
			t.Errorf("the listed result is %q, want 1-0", got)
		}
		if lang != "en" && sc.v.Mobile {
			if label := Eval[string](b, `getComputedStyle(document.querySelector('[data-game-row="`+id+`"] td[data-label]'), "::before").content`); strings.Contains(label, "Moves") {
				t.Errorf("the phone card labels the moves in English: %s", label)
			}
		}
		windowShot(t, b, "my-games-timeout-"+sc.name+"-"+lang)
	})
}
