//go:build full

package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// tabState is what a page can see of the tab it runs in and that a test
// may change: it must be the same in a reused tab as in a new one.
type tabState struct {
	Width, Height int
	Touch         int
	Dark, Print   bool
	Motion        bool
	Hovered       int
	History       int
	Cookie        string
	Scripts       bool
}

const tabStateJS = `({
	Width: innerWidth, Height: innerHeight, Touch: navigator.maxTouchPoints,
	Dark: matchMedia("(prefers-color-scheme: dark)").matches, Print: matchMedia("print").matches,
	Motion: matchMedia("(prefers-reduced-motion: reduce)").matches,
	Hovered: document.querySelectorAll("body :hover").length, History: history.length,
	Cookie: document.cookie,
})`

// TestReusedTabIsLikeNew changes everything about a tab that the tests
// change, resets it as a passed test's tab is reset, and compares what a
// page sees in it with what it sees in a new tab.
func TestReusedTabIsLikeNew(t *testing.T) {
	requireE2E(t)
	runParallel(t)
	s := newServer(t)
	parent, err := sharedChromium()
	if err != nil {
		t.Fatal(err)
	}
	look := func(ctx context.Context) tabState {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(s.URL+"/puzzles")); err != nil {
			t.Fatal(err)
		}
		st, err := chromedp.Run(ctx, chromedp.Evaluate[tabState](tabStateJS))
		if err != nil {
			t.Fatal(err)
		}
		// The puzzle page's module marks its board ready.
		for deadline := time.Now().Add(5 * time.Second); !st.Scripts && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			st.Scripts, _ = chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("[data-ready]") !== null`))
		}
		return st
	}
	fresh, closeFresh := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	defer closeFresh()
	want := look(fresh)

	tb, err := takeTab(parent)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.close()
	ctx := tb.ctx
	dirty := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	dirty("viewport", chromedp.Do(ctx, chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile, chromedp.EmulateTouch)))
	_, err = chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print", Features: []*emulation.MediaFeature{
		{Name: "prefers-color-scheme", Value: "dark"}, {Name: "prefers-reduced-motion", Value: "reduce"}}})
	dirty("media", err)
	dirty("open", chromedp.Do(ctx, chromedp.Navigate(s.URL+"/"), chromedp.Navigate(s.URL+"/learn")))
	_, err = chromedp.Call(ctx, network.SetCookies, network.SetCookiesParams{Cookies: []*network.CookieParam{{Name: "left", Value: "over", URL: s.URL}}})
	dirty("cookie", err)
	at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("main a").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`))
	dirty("find a link", err)
	_, err = chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: at[0], Y: at[1]})
	dirty("mouse", err)
	_, err = chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	dirty("scripts", err)

	if err := resetTab(tb); err != nil {
		t.Fatalf("reset: %v", err)
	}
	if got := look(ctx); got != want {
		t.Errorf("a reused tab shows a page\n%+v\nwhere a new tab shows\n%+v", got, want)
	}
}
