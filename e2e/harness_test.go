// Package e2e drives the real site in Debian's Chromium with chromedp: it
// builds the binary, starts it on a free port with a temporary database and
// checks pages as a visitor sees them.
//
// Set CHESS_E2E=0 to skip these tests (for example on a machine without
// Chromium); otherwise they run, and a missing browser is a failure.
// CHROMIUM overrides the browser path (default /usr/bin/chromium).
package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
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

// requireE2E skips the test when CHESS_E2E=0.
func requireE2E(t *testing.T) {
	t.Helper()
	if os.Getenv("CHESS_E2E") == "0" {
		t.Skip("browser tests skipped because CHESS_E2E=0")
	}
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds the site once per test run and returns its path.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "chesstutor-e2e-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "chesstutor")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = ".." // the module root
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// Server is the real binary running on a free local port.
type Server struct {
	URL  string // http://127.0.0.1:port
	DB   string // database file
	Addr string
	Env  []string // extra environment for restarts

	t    *testing.T
	cmd  *exec.Cmd
	logs *syncBuffer
	done chan struct{}
}

// ServerOption changes how newServer starts the site.
type ServerOption func(*Server)

// WithEnv adds environment variables such as "CHESS_API_RATE=5".
func WithEnv(kv ...string) ServerOption {
	return func(s *Server) { s.Env = append(s.Env, kv...) }
}

// newServer starts the site with a fresh temporary database and stops it
// (SIGTERM) when the test ends. The server log is printed if the test fails.
func newServer(t *testing.T, opts ...ServerOption) *Server {
	t.Helper()
	requireE2E(t)
	s := &Server{
		t:   t,
		DB:  filepath.Join(t.TempDir(), "chess.db"),
		Env: []string{"CHESS_API_RATE=1000", "CHESS_API_BURST=1000"},
	}
	for _, o := range opts {
		o(s)
	}
	s.Addr = freeAddr(t)
	s.URL = "http://" + s.Addr
	s.Start()
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("server log:\n%s", s.Logs())
		}
	})
	return s
}

// Start starts the binary (again) on the same address and database and
// waits until /healthz answers.
func (s *Server) Start() {
	t := s.t
	t.Helper()
	s.logs = &syncBuffer{}
	s.cmd = exec.Command(binary(t), "-addr", s.Addr, "-db", s.DB, "-log-level", "info")
	s.cmd.Env = append(os.Environ(), s.Env...)
	s.cmd.Stdout = s.logs
	s.cmd.Stderr = s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start server: %v", err)
	}
	s.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) {
		cmd.Wait()
		close(done)
	}(s.cmd, s.done)

	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			t.Fatalf("server exited at start:\n%s", s.logs.String())
		default:
		}
		resp, err := http.Get(s.URL + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("server did not answer /healthz within 20 s:\n%s", s.logs.String())
}

// Stop sends SIGTERM and waits for a clean exit (SIGKILL after 15 s).
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	select {
	case <-s.done:
		return
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		s.t.Errorf("server did not stop within 15 s of SIGTERM")
		s.cmd.Process.Kill()
		<-s.done
	}
}

// Kill stops the server with SIGKILL, as a crash would.
func (s *Server) Kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.done
}

// Logs returns what the server wrote so far.
func (s *Server) Logs() string { return s.logs.String() }

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Browser is one headless Chromium with a fresh profile and one tab.
type Browser struct {
	Ctx  context.Context // a chromedp context with the test's deadline
	base context.Context // the same tab without the deadline (for failure screenshots)
	t    *testing.T

	noJS bool // scripts are switched off in this tab

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

// newBrowser starts Chromium with the project's flags and a fresh
// --user-data-dir. When the test fails it saves a screenshot to
// e2e/screenshots/<test>.png and prints the console errors.
func newBrowser(t *testing.T, opts ...BrowserOption) *Browser {
	t.Helper()
	requireE2E(t)
	cfg := browserConfig{viewport: Desktop, timeout: 90 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	execPath := os.Getenv("CHROMIUM")
	if execPath == "" {
		execPath = "/usr/bin/chromium"
	}
	if _, err := os.Stat(execPath); err != nil {
		t.Fatalf("Chromium not found at %s (install it with apt-get install chromium, or set CHESS_E2E=0 to skip): %v", execPath, err)
	}
	allocOpts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(execPath),
		chromedp.UserDataDir(t.TempDir()),
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
		chromedp.WindowSize(int(cfg.viewport.Width), int(cfg.viewport.Height)),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), allocOpts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	b := &Browser{t: t, noJS: cfg.noJS}
	// Start the browser without a deadline (a deadline on the first call
	// would bound the browser's life), then bound the test's work.
	if err := chromedp.Do(ctx); err != nil {
		cancelCtx()
		cancelAlloc()
		t.Fatalf("start Chromium: %v", err)
	}
	tctx, cancelT := context.WithTimeout(ctx, cfg.timeout)
	b.Ctx = tctx
	b.base = ctx
	t.Cleanup(func() {
		cancelT()
		cancelCtx()
		cancelAlloc()
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
		b.Screenshot(sanitize(t.Name()) + "-failure")
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

// Screenshot saves a full-page PNG as e2e/screenshots/<name>.png and
// returns its path ("" when it could not be taken).
func (b *Browser) Screenshot(name string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.base, 15*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100 = PNG; lower values give JPEG
	if err != nil {
		// A click may have started a navigation: give the new page a moment.
		time.Sleep(700 * time.Millisecond)
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
