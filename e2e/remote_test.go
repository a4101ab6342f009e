//go:build full

package e2e

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// A friend on another device (G24–G26): two browsers, each its own
// visitor, play one game from two phones; a third watches.

// windowPNG is what the window shows, as a picture.
func windowPNG(t *testing.T, b *Browser) image.Image {
	t.Helper()
	Eval[bool](b, `(window.scrollTo(0, 0), true)`)
	buf, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return img
}

// sideBySide saves the windows of several browsers next to each other as
// e2e/screenshots/<name>.png: two phones on one table.
func sideBySide(t *testing.T, name string, bs ...*Browser) {
	t.Helper()
	const gap = 24
	var imgs []image.Image
	w, h := gap, 0
	for _, b := range bs {
		img := windowPNG(t, b)
		imgs = append(imgs, img)
		w += img.Bounds().Dx() + gap
		h = max(h, img.Bounds().Dy())
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h+2*gap))
	draw.Draw(out, out.Bounds(), &image.Uniform{color.RGBA{0x55, 0x55, 0x55, 0xff}}, image.Point{}, draw.Src)
	x := gap
	for _, img := range imgs {
		draw.Draw(out, image.Rect(x, gap, x+img.Bounds().Dx(), gap+img.Bounds().Dy()), img, img.Bounds().Min, draw.Src)
		x += img.Bounds().Dx() + gap
	}
	os.MkdirAll("screenshots", 0o755)
	f, err := os.Create(filepath.Join("screenshots", name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, out); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot saved: e2e/screenshots/%s.png", name)
}

// pieceOn is a condition: the piece (wP, bQ, …) stands on the square.
func pieceOn(sq, piece string) string {
	return `document.querySelector('[data-square="` + sq + `"] [data-piece="` + piece + `"]') !== null`
}

// tapMove taps a piece and its destination like a person.
func tapMove(t *testing.T, b *Browser, from, to string) {
	t.Helper()
	gameWait(t, b, `!document.querySelector("[data-game]").hasAttribute("data-busy")`)
	clickSquare(b, from)
	gameWait(t, b, `document.querySelector('[data-square="`+to+`"]').classList.contains("dest")`)
	clickSquare(b, to)
}

func playerName(b *Browser, where string) string {
	return Eval[string](b, `document.querySelector('[data-player="`+where+`"] .game-player-name').textContent`)
}

// TestBrowserRemoteGameToMate: the host makes an invite (link and QR
// code), a friend on another phone takes the black seat, and they play
// to mate by taps, each move arriving on the other phone by itself; a
// watch link shows the game read-only, and the players see it watched.
func TestBrowserRemoteGameToMate(t *testing.T) {
	s := newServer(t)
	host := newBrowser(t, WithViewport(Phone))
	friend := newBrowser(t, WithViewport(Phone))

	host.Open(s.URL + "/play")
	click(host, `input[name="mode"][value="remote"]`)
	if Eval[bool](host, `document.querySelector(".levels").hidden !== true || document.querySelector('input[name="color"]').closest("fieldset").hidden`) {
		t.Error("the form for a friend on another device shows the levels or hides the colour")
	}
	click(host, `input[name="color"][value="white"]`)
	click(host, `input[name="clock"][value="10+0"]`)
	click(host, `form.new-game-form button[type="submit"]`)
	gameWait(t, host, `(() => { const i = document.querySelector("[data-invite]"); const q = document.querySelector("[data-invite-qr]"); return i && !i.hidden && q.complete && q.naturalWidth > 0; })()`)
	gameWait(t, host, `document.querySelector("[data-status]").textContent.includes("Waiting for your friend")`)
	viewShot(t, host, "remote-invite-phone")
	invite := Eval[string](host, `document.querySelector("[data-invite-link]").value`)
	watch := Eval[string](host, `document.querySelector("[data-watch-link]").value`)
	if !strings.Contains(invite, "/join/") || !strings.Contains(watch, "/watch/") {
		t.Fatalf("links: %q %q", invite, watch)
	}

	friend.Open(invite)
	click(friend, `[data-action="join"]`)
	gameWait(t, friend, `document.querySelectorAll("[data-board] button[data-square]").length === 64 && document.querySelector("[data-status]").textContent.includes("friend")`)
	// Each sees their own colour at the bottom.
	gameWait(t, host, `document.querySelector("[data-invite]").hidden`)
	if got, want := playerName(friend, "bottom")+"/"+playerName(friend, "top"), "You/Your friend"; got != want {
		t.Errorf("the friend's names: %q, want %q", got, want)
	}
	if !Eval[bool](friend, `(() => { const a = document.querySelector('[data-square="e8"]').getBoundingClientRect(), b = document.querySelector('[data-square="e1"]').getBoundingClientRect(); return a.top > b.top; })()`) {
		t.Error("Black's board is not turned: e8 is not at the bottom")
	}

	// Out of turn the friend's pieces do not move.
	clickSquare(friend, "e7")
	if Eval[bool](friend, `document.querySelectorAll(".dest").length > 0`) {
		t.Error("Black could pick a piece on White's move")
	}

	moves := []struct {
		who, other *Browser
		from, to   string
		piece      string
	}{
		{host, friend, "f2", "f3", "wP"},
		{friend, host, "e7", "e5", "bP"},
		{host, friend, "g2", "g4", "wP"},
	}
	for _, m := range moves {
		tapMove(t, m.who, m.from, m.to)
		gameWait(t, m.other, pieceOn(m.to, m.piece))
	}

	// A coach opens the watch link: read-only, live, and counted.
	coach := newBrowser(t, WithViewport(Phone))
	coach.Open(watch)
	gameWait(t, coach, pieceOn("g4", "wP")+` && document.querySelector("[data-game]").hasAttribute("data-watching")`)
	gameWait(t, host, `document.querySelector("[data-remote-line]").textContent.includes("1 person is watching")`)
	clickSquare(coach, "d8")
	if Eval[bool](coach, `document.querySelectorAll(".selected, .dest").length > 0 || getComputedStyle(document.querySelector(".game-actions")).display !== "none"`) {
		t.Error("the watcher can pick a piece or sees the players' buttons")
	}
	gameWait(t, friend, `document.querySelector("[data-status]").textContent.includes("Your move")`)
	sideBySide(t, "remote-two-phones", host, friend)

	tapMove(t, friend, "d8", "h4")
	for _, b := range []*Browser{host, friend, coach} {
		gameWait(t, b, `!document.querySelector("[data-result-card]").hidden`)
		if got := Eval[string](b, `document.querySelector("[data-result-card] .end-title").textContent`); !strings.Contains(got, "Black wins by checkmate") {
			t.Errorf("the result card says %q", got)
		}
	}
	viewShot(t, coach, "remote-watch-phone")
	sideBySide(t, "remote-mate-two-phones", host, friend)
	for _, b := range []*Browser{host, friend, coach} {
		if msgs := b.ConsoleErrors(); len(msgs) > 0 {
			t.Errorf("console errors: %v", msgs)
		}
	}
}

// TestBrowserRemoteReconnectAndPolling: a page reloaded mid-game picks
// the game up where it stands and follows it again; a browser without
// event streams follows it by polling.
func TestBrowserRemoteReconnectAndPolling(t *testing.T) {
	s := newServer(t)
	host := newBrowser(t, WithViewport(Desktop))
	friend := newBrowser(t, WithViewport(Phone))
	// The friend's browser has no EventSource: the page must poll. The
	// script stays with the tab, so no later test gets it.
	friend.Discard()
	if _, err := chromedp.Call(friend.Ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: `delete window.EventSource; window.EventSource = undefined;`}); err != nil {
		t.Fatal(err)
	}
	id := startGame(t, host, s, `{"mode":"remote","color":"black","clock":"none"}`)
	friend.Open(s.URL + "/join/" + id)
	click(friend, `[data-action="join"]`)
	gameWait(t, friend, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
	gameWait(t, friend, `document.querySelector("[data-remote-line]").textContent.includes("checked every few seconds")`)
	gameWait(t, host, `document.querySelector("[data-invite]").hidden`)

	tapMove(t, friend, "e2", "e4") // the friend plays White here
	gameWait(t, host, pieceOn("e4", "wP"))
	tapMove(t, host, "c7", "c5")
	gameWait(t, friend, pieceOn("c5", "bP")) // by polling

	// The host's page goes away and comes back mid-game.
	host.Open(s.URL + "/play")
	tapMove(t, friend, "g1", "f3")
	host.Open(s.URL + "/play/" + id)
	gameWait(t, host, pieceOn("f3", "wN"))
	tapMove(t, host, "d7", "d6")
	gameWait(t, friend, pieceOn("d6", "bP"))
	tapMove(t, friend, "d2", "d4")
	gameWait(t, host, pieceOn("d4", "wP")) // the reopened page follows again

	// Undo asks; the other side answers.
	click(host, `[data-action="undo"]`)
	gameWait(t, friend, `!document.querySelector("[data-takeback]").hidden`)
	click(friend, `[data-action="accept-takeback"]`)
	gameWait(t, host, pieceOn("d7", "bP")+` && `+pieceOn("f3", "wN")+` && document.querySelector('[data-square="d4"] [data-piece]') === null`)
}

// TestBrowserRemoteLanguages: the invite, the join page and the watch view
// in Spanish and Russian, on a laptop and a phone: every word comes from
// the catalogue (no [key] left) and the invite's QR code is in view.
func TestBrowserRemoteLanguages(t *testing.T) {
	s := newServer(t)
	for _, tc := range []struct {
		lang string
		vp   Viewport
		name string
	}{{"es", Desktop, "desktop"}, {"ru", Phone, "phone"}} {
		t.Run(tc.lang, func(t *testing.T) {
			host := newBrowser(t, WithViewport(tc.vp))
			friend := newBrowser(t, WithViewport(tc.vp))
			host.Open(s.URL + "/play?lang=" + tc.lang)
			id := startGame(t, host, s, `{"mode":"remote","color":"black","clock":"5+0"}`)
			gameWait(t, host, `(() => { const q = document.querySelector("[data-invite-qr]"); return q.complete && q.naturalWidth > 0; })()`)
			if Eval[bool](host, `(() => { const r = document.querySelector("[data-invite-qr]").getBoundingClientRect(); return r.bottom > innerHeight || r.top < 0; })()`) {
				t.Error("the QR code is not in view as the page opens")
			}
			viewShot(t, host, "remote-invite-"+tc.lang+"-"+tc.name)
			friend.Open(s.URL + "/join/" + id + "?lang=" + tc.lang)
			viewShot(t, friend, "remote-join-"+tc.lang+"-"+tc.name)
			click(friend, `[data-action="join"]`)
			gameWait(t, friend, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
			gameWait(t, host, `document.querySelector("[data-invite]").hidden`)
			watch := Eval[string](host, `document.querySelector("[data-watch-link]").value`)
			tapMove(t, friend, "e2", "e4")
			gameWait(t, host, pieceOn("e4", "wP"))
			coach := newBrowser(t, WithViewport(tc.vp))
			coach.Open(watch + "?lang=" + tc.lang)
			gameWait(t, coach, pieceOn("e4", "wP"))
			gameWait(t, host, `document.querySelector("[data-remote-line]").textContent.trim() !== ""`)
			viewShot(t, coach, "remote-watch-"+tc.lang+"-"+tc.name)
			viewShot(t, host, "remote-game-"+tc.lang+"-"+tc.name)
			for _, b := range []*Browser{host, friend, coach} {
				if text := Eval[string](b, `document.querySelector("main, body").innerText`); strings.Contains(text, "[") && strings.Contains(text, "_") {
					t.Errorf("a word is missing on a page: %.300q", text)
				}
			}
		})
	}
}

// TestBrowserRemoteAccessibility: axe finds nothing serious on the
// invite, the join page, a game under way with a takeback question
// waiting, and the watch view.
func TestBrowserRemoteAccessibility(t *testing.T) {
	script := axeScript(t)
	s := newServer(t)
	host := newBrowser(t, WithTimeout(3*time.Minute))
	friend := newBrowser(t)
	audit := func(name string, b *Browser) {
		t.Helper()
		for _, v := range runAxe(t, b, script) {
			if v.Impact == "serious" || v.Impact == "critical" {
				t.Errorf("%s: %s [%s]: %s", name, v.ID, v.Impact, v.Help)
			}
		}
	}
	id := startGame(t, host, s, `{"mode":"remote","color":"white","clock":"5+0"}`)
	gameWait(t, host, `document.querySelector("[data-status]").textContent.includes("Waiting")`)
	audit("invite", host)
	friend.Open(s.URL + "/join/" + id)
	audit("join page", friend)
	click(friend, `[data-action="join"]`)
	gameWait(t, friend, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
	gameWait(t, host, `document.querySelector("[data-invite]").hidden`)
	tapMove(t, host, "d2", "d4")
	gameWait(t, friend, pieceOn("d4", "wP"))
	click(host, `[data-action="undo"]`)
	gameWait(t, friend, `!document.querySelector("[data-takeback]").hidden`)
	audit("takeback question", friend)
	watch := Eval[string](host, `document.querySelector("[data-watch-link]").value`)
	coach := newBrowser(t)
	coach.Open(watch)
	gameWait(t, coach, pieceOn("d4", "wP"))
	audit("watch view", coach)
}
