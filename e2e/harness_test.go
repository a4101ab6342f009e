//go:build full

// Package e2e drives the real site in Debian's Chromium with chromedp: it
// builds the binary, starts it on a free port with a temporary database and
// checks pages as a visitor sees them.
//
// go test -short skips them, and so does CHESS_E2E=0 (for example on a machine without
// Chromium); otherwise they run, and a missing browser is a failure.
// CHROMIUM overrides the browser path (default /usr/bin/chromium).
package e2e

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"chesstutor/internal/pgtest"
	"chesstutor/internal/testbin"
)

// Viewport sizes the tests use.
var (
	Phone   = Viewport{Width: 375, Height: 812, Mobile: true}
	Narrow  = Viewport{Width: 320, Height: 640, Mobile: true}
	Desktop = Viewport{Width: 1280, Height: 900}
)

// Viewport is a browser window size.
type Viewport struct {
	Width, Height int64
	Mobile        bool
}

// requireE2E skips the test when CHESS_E2E=0 or under go test -short.
func requireE2E(t *testing.T) {
	t.Helper()
	testbin.SkipShort(t)
	if os.Getenv("CHESS_E2E") == "0" {
		t.Skip("browser tests skipped because CHESS_E2E=0")
	}
}

// TestMain runs the browser tests four at a time unless -parallel is
// given, removes the binary the run built, stops the shared Chromium, and
// stops the PostgreSQL cluster if a test started one
// (remote_failover_test.go). Most of a browser test is waiting (for the computer's think, a clock, an animation, a poll), so
// four at a time on two cores take about half the wall time of one at a
// time; the few tests that measure a delay on the page's clock ask to run
// alone (Serial) and run first, before the parallel ones start.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		flag.Set("test.parallel", "4")
	}
	code := pgtest.Main(m)
	stopChromium()
	testbin.Cleanup()
	os.Exit(code)
}

// parallel marks a test to run beside the others, once.
var parallel sync.Map // *testing.T → true

func runParallel(t *testing.T) {
	if _, already := parallel.LoadOrStore(t, true); !already {
		t.Parallel()
	}
}

// Server is the real binary on a free local port (the harness e2e shares
// with faults): URL, DB, Start, Stop, Kill, Logs.
type Server = testbin.Server

// ServerOption changes how newServer starts the site.
type ServerOption func(*testbin.Options, *serverConfig)

type serverConfig struct{ serial bool }

// Serial runs the test alone, not beside the others: for a test that
// measures how soon the page shows something (a few hundred ms), which a
// busy neighbour would blur.
func Serial() ServerOption { return func(_ *testbin.Options, c *serverConfig) { c.serial = true } }

// WithEnv adds environment variables such as "CHESS_API_RATE=5".
func WithEnv(kv ...string) ServerOption {
	return func(o *testbin.Options, _ *serverConfig) { o.Env = append(o.Env, kv...) }
}

// newServer starts the site with a fresh temporary database and stops it
// (SIGTERM) when the test ends. The server log is printed if the test
// fails. The test runs beside the others (TestMain) unless Serial is given.
func newServer(t *testing.T, opts ...ServerOption) *Server {
	t.Helper()
	requireE2E(t)
	o := testbin.Options{Env: []string{"CHESS_API_RATE=1000", "CHESS_API_BURST=1000"}}
	var cfg serverConfig
	for _, f := range opts {
		f(&o, &cfg)
	}
	if !cfg.serial {
		runParallel(t)
	}
	return testbin.Start(t, o)
}

// Phone740 is the phone of issue 38's walk (375×740, touch); Laptop800 the
// laptop every page is also checked at.
var (
	Phone740  = Viewport{Width: 375, Height: 740, Mobile: true}
	Laptop800 = Viewport{Width: 1280, Height: 800}
)

// screen is a named window size, for subtests.
type screen struct {
	name string
	v    Viewport
}

// siteLanguages are the languages every page is checked in.
var siteLanguages = []string{"en", "es", "ru"}

// eachScreenAndLanguage runs check as subtests named like "phone-es": on a
// phone and a laptop (DESIGN.md), in every language the site speaks. Each
// check opens its own tab at sc.v.
func eachScreenAndLanguage(t *testing.T, check func(t *testing.T, sc screen, lang string)) {
	t.Helper()
	for _, sc := range []screen{{"phone", Phone740}, {"laptop", Laptop800}} {
		for _, lang := range siteLanguages {
			t.Run(sc.name+"-"+lang, func(t *testing.T) { check(t, sc, lang) })
		}
	}
}

// shotsWanted says whether the tests save the screenshots people look at
// (CHESS_SHOTS set, see README): encoding a full page as PNG costs about a
// second on a busy machine, and a run of the suite takes a hundred of
// them. A failing test saves its screenshot always.
func shotsWanted() bool { return os.Getenv("CHESS_SHOTS") != "" }

// Browser is one tab of the shared headless Chromium, in a browser context
// of its own (cookies and storage as a fresh profile's), for one test.
type Browser struct {
	Ctx  context.Context // a chromedp context with the test's deadline
	base context.Context // the same tab without the deadline (for failure screenshots)
	t    *testing.T

	noJS    bool        // scripts are switched off in this tab
	discard atomic.Bool // close the tab at the end instead of reusing it

	mu       sync.Mutex
	messages []string // console errors, exceptions, CSP violations
}

// WaitScript waits until the page module on sel has set itself up (it sets
// data-ready), so a click after a form navigation is not handled by the
// plain form before the script has attached. Without JavaScript it returns
// at once.
func (b *Browser) WaitScript(sel string) {
	b.t.Helper()
	if b.noJS {
		return
	}
	b.Do(chromedp.WaitVisible(chromedp.CSS(sel + "[data-ready]")))
}

// BrowserOption changes how newBrowser sets up the tab.
type BrowserOption func(*browserConfig)

type browserConfig struct {
	viewport Viewport
	noJS     bool
	dark     bool
	timeout  time.Duration
}

// WithViewport sets the window size (default Desktop).
func WithViewport(v Viewport) BrowserOption { return func(c *browserConfig) { c.viewport = v } }

// WithoutJS disables JavaScript in the tab, to test the no-script pages (N5).
func WithoutJS() BrowserOption { return func(c *browserConfig) { c.noJS = true } }

// WithDarkScheme makes the page see prefers-color-scheme: dark.
func WithDarkScheme() BrowserOption { return func(c *browserConfig) { c.dark = true } }

// WithTimeout bounds the whole test's browser work (default 90 s).
func WithTimeout(d time.Duration) BrowserOption { return func(c *browserConfig) { c.timeout = d } }

// chromium is the one Chromium process the package's tests share: each
// test gets its own browser context in it (newBrowser), with its own
// cookies, storage and cache, as a fresh profile had, and its own window.
// Starting a Chromium costs about two seconds of CPU and the suite opens a
// few hundred tabs; a browser context costs next to nothing.
var chromium struct {
	once   sync.Once
	ctx    context.Context // the browser's first tab; new contexts derive from it
	cancel func()          // stops the browser (TestMain)
	err    error
}

// sharedChromium starts the shared browser on first use.
func sharedChromium() (context.Context, error) {
	chromium.once.Do(func() {
		execPath := os.Getenv("CHROMIUM")
		if execPath == "" {
			execPath = "/usr/bin/chromium"
		}
		if _, err := os.Stat(execPath); err != nil {
			chromium.err = fmt.Errorf("Chromium not found at %s (install it with apt-get install chromium, or set CHESS_E2E=0 to skip): %v", execPath, err)
			return
		}
		profile, err := os.MkdirTemp("", "chesstutor-chromium-")
		if err != nil {
			chromium.err = err
			return
		}
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(execPath),
			chromedp.UserDataDir(profile),
			chromedp.Flag("headless", true),
			chromedp.Flag("no-sandbox", true),
			chromedp.Flag("disable-gpu", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("no-first-run", true),
			chromedp.Flag("no-default-browser-check", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("hide-scrollbars", true),
			// Tabs of tests running side by side are never throttled as
			// background ones.
			chromedp.Flag("disable-background-timer-throttling", true),
			chromedp.Flag("disable-backgrounding-occluded-windows", true),
			chromedp.Flag("disable-renderer-backgrounding", true),
			chromedp.WindowSize(int(Desktop.Width), int(Desktop.Height)),
		)
		ctx, cancelCtx := chromedp.NewContext(allocCtx)
		// Started without a deadline: a deadline on the first call would
		// bound the browser's life.
		if err := chromedp.Do(ctx); err != nil {
			cancelCtx()
			cancelAlloc()
			os.RemoveAll(profile)
			chromium.err = fmt.Errorf("start Chromium: %v", err)
			return
		}
		chromium.ctx = ctx
		chromium.cancel = func() {
			cancelCtx()
			cancelAlloc()
			os.RemoveAll(profile)
		}
	})
	return chromium.ctx, chromium.err
}

// stopChromium stops the shared browser if a test started it.
func stopChromium() {
	if chromium.cancel != nil {
		chromium.cancel()
	}
}

// tabs holds the tabs of tests that ended, ready for the next test. A new
// tab costs Chromium a renderer process: about 1.6 s of CPU against 0.75 s
// for opening a page in a tab already open, and the suite opens some three
// hundred. A tab comes back only from a test that passed and did not
// change it in ways newBrowser does not set again (Discard), and only
// after resetTab has cleared what a new tab would not have.
var tabs struct {
	mu   sync.Mutex
	idle []*tab
}

// maxIdleTabs bounds the pool; more tabs than tests run at once are never
// needed.
const maxIdleTabs = 8

// tab is one Chromium tab in a browser context of its own.
type tab struct {
	ctx   context.Context // the tab's chromedp context, without a deadline
	close func()          // closes the tab and its browser context
}

// takeTab returns an idle tab, or opens one.
func takeTab(parent context.Context) (*tab, error) {
	tabs.mu.Lock()
	if n := len(tabs.idle); n > 0 {
		tb := tabs.idle[n-1]
		tabs.idle = tabs.idle[:n-1]
		tabs.mu.Unlock()
		return tb, nil
	}
	tabs.mu.Unlock()
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	// Open the tab without a deadline (a deadline on the first call would
	// bound the tab's life).
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("open a tab in Chromium: %v", err)
	}
	// The window of a test running beside others is not the focused one:
	// the page behaves as focused all the same, as in a browser of its own.
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		cancel()
		return nil, fmt.Errorf("emulate focus: %v", err)
	}
	return &tab{ctx: ctx, close: cancel}, nil
}

// releaseTab resets the tab and keeps it for the next test, or closes it
// when it cannot be reset or the pool is full.
func releaseTab(tb *tab) {
	if err := resetTab(tb); err != nil {
		tb.close()
		return
	}
	tabs.mu.Lock()
	defer tabs.mu.Unlock()
	if len(tabs.idle) >= maxIdleTabs {
		tb.close()
		return
	}
	tabs.idle = append(tabs.idle, tb)
}

// resetTab makes a used tab what a new one is to the next test: a blank
// page with no history, no cookies or stored data for the sites it
// visited, no media, script or viewport emulation, and the mouse away
// from the page (so nothing shows as hovered). Each test's server has a
// port of its own, so pages of two tests never share an origin, but
// cookies ignore ports and are cleared all the same.
func resetTab(tb *tab) error {
	ctx, cancel := context.WithTimeout(tb.ctx, 10*time.Second)
	defer cancel()
	id := chromedp.FromContext(tb.ctx).BrowserContextID
	if id == "" {
		return fmt.Errorf("the tab has no browser context of its own")
	}
	history, err := chromedp.Call(ctx, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return err
	}
	origins := map[string]bool{}
	for _, e := range history.Entries {
		if u, err := url.Parse(e.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			origins[u.Scheme+"://"+u.Host] = true
		}
	}
	for o := range origins {
		if _, err := chromedp.Call(ctx, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: o, StorageTypes: "all"}); err != nil {
			return err
		}
	}
	if err := errors.Join(
		errOf(chromedp.CallBrowser(ctx, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: id})),
		errOf(chromedp.Call(ctx, page.ResetNavigationHistory, cdp.Empty{})),
		errOf(chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})),
		errOf(chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: false})),
		errOf(chromedp.Call(ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{})),
		errOf(chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: false})),
		errOf(chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: -1, Y: -1})),
	); err != nil {
		return err
	}
	// The cookies really are gone (a tab keeps its browser context).
	cookies, err := chromedp.CallBrowser(ctx, storage.GetCookies, storage.GetCookiesParams{BrowserContextID: id})
	if err != nil {
		return err
	}
	if len(cookies.Cookies) > 0 {
		return fmt.Errorf("%d cookies left after clearing", len(cookies.Cookies))
	}
	return nil
}

// errOf keeps the error of a CDP call whose result is not needed.
func errOf[R any](_ R, err error) error { return err }

// Discard closes the tab when the test ends instead of handing it to the
// next test. Call it after changing the tab in a way resetTab does not
// undo (scripts added to every new document, for example).
func (b *Browser) Discard() { b.discard.Store(true) }

// newBrowser gives the test a tab in a browser context of its own (a
// fresh profile's cookies and storage: a new tab, or one a passed test
// left and resetTab cleared) and hands it on when the test ends. When the
// test fails it saves a screenshot to e2e/screenshots/<test>.png, prints
// the console errors and closes the tab.
func newBrowser(t *testing.T, opts ...BrowserOption) *Browser {
	t.Helper()
	requireE2E(t)
	cfg := browserConfig{viewport: Desktop, timeout: 90 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	parent, err := sharedChromium()
	if err != nil {
		t.Fatal(err)
	}
	tb, err := takeTab(parent)
	if err != nil {
		t.Fatal(err)
	}
	// The test's own contexts: ending them ends its console collector and
	// nothing else of the tab.
	ctx, cancelCtx := context.WithCancel(tb.ctx)
	tctx, cancelT := context.WithTimeout(ctx, cfg.timeout)
	b := &Browser{t: t, noJS: cfg.noJS, Ctx: tctx, base: ctx}
	t.Cleanup(func() {
		cancelT()
		cancelCtx()
		if t.Failed() || b.discard.Load() {
			tb.close()
			return
		}
		releaseTab(tb)
	})

	go b.collectConsole(ctx)
	vpOpts := []chromedp.EmulateViewportOption{}
	if cfg.viewport.Mobile {
		vpOpts = append(vpOpts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	b.Do(chromedp.EmulateViewport(cfg.viewport.Width, cfg.viewport.Height, vpOpts...))
	if cfg.noJS {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatalf("disable JavaScript: %v", err)
		}
	}
	if cfg.dark {
		media := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, media); err != nil {
			t.Fatalf("emulate dark scheme: %v", err)
		}
	}
	// Registered last, so it runs first: the tab is still open.
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		b.saveScreenshot(sanitize(t.Name()) + "-failure")
		if msgs := b.ConsoleErrors(); len(msgs) > 0 {
			t.Logf("browser console errors:\n%s", strings.Join(msgs, "\n"))
		}
	})
	return b
}

func (b *Browser) collectConsole(ctx context.Context) {
	for m, err := range chromedp.Console(ctx) {
		if err != nil {
			return
		}
		if m.Type == chromedp.ConsoleError || m.IsException() {
			b.mu.Lock()
			b.messages = append(b.messages, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line+1))
			b.mu.Unlock()
		}
	}
}

// ConsoleErrors returns the console errors, uncaught exceptions and CSP
// violations seen so far.
func (b *Browser) ConsoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.messages...)
}

// Do runs actions and fails the test on error.
func (b *Browser) Do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.Ctx, actions...); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
}

// Open navigates to url and waits for the page to load.
func (b *Browser) Open(url string) {
	b.t.Helper()
	b.Do(chromedp.Navigate(url))
}

// Eval evaluates a JavaScript expression and decodes its value into T;
// the test fails on error.
func Eval[T any](b *Browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluate %q: %v", expr, err)
	}
	return v
}

// WindowShot saves what the window shows (not the whole page) as
// e2e/screenshots/<name>.png when CHESS_SHOTS is set, and returns its path.
func (b *Browser) WindowShot(name string) string {
	b.t.Helper()
	if !shotsWanted() {
		return ""
	}
	buf, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.MkdirAll("screenshots", 0o755)
	}
	path := filepath.Join("screenshots", name+".png")
	if err == nil {
		err = os.WriteFile(path, buf, 0o644)
	}
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	return path
}

// Screenshot saves a full-page PNG as e2e/screenshots/<name>.png when
// CHESS_SHOTS is set (shotsWanted) and returns its path ("" when none was
// taken).
func (b *Browser) Screenshot(name string) string {
	b.t.Helper()
	if !shotsWanted() {
		return ""
	}
	return b.saveScreenshot(name)
}

func (b *Browser) saveScreenshot(name string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.base, 15*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100 = PNG; lower values give JPEG
	if err != nil {
		// A click may have started a navigation: wait for the new page.
		for ctx.Err() == nil {
			// A poll does not survive a navigation: then it starts again.
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.readyState === "complete"`, chromedp.WithPollingTimeout(3*time.Second))); err == nil {
				break
			}
		}
		buf, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
	}
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	if err := os.MkdirAll("screenshots", 0o755); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	path := filepath.Join("screenshots", name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	b.t.Logf("screenshot saved: e2e/%s", path)
	return path
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

func sanitize(s string) string { return unsafeName.ReplaceAllString(s, "_") }
