// Package testbin is the one harness for tests that run the real
// chesstutor binary (the browser tests in e2e/ and the fault tests in
// faults/): it builds the binary once per test process, starts it on a
// free loopback port with its own database, waits until /healthz answers
// and stops it when the test ends.
//
// These tests are slow, so they are skipped under go test -short; a plain
// go test ./... (as .ci/run does) runs them.
package testbin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// SkipShort skips t under go test -short.
func SkipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the real binary: skipped under -short")
	}
}

var (
	buildOnce sync.Once
	binDir    string
	binPath   string
	buildErr  error
)

// Binary builds the site once per test process and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "chesstutor-testbin")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "chesstutor")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = moduleRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// Cleanup removes the built binary; call it from TestMain after m.Run.
func Cleanup() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}

// moduleRoot is the directory of go.mod, two levels above this file.
func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Options say how to start the binary.
type Options struct {
	DB       string   // database file; "" makes a fresh one in t.TempDir()
	Env      []string // extra environment, such as "CHESS_API_RATE=5"
	LogLevel string   // -log-level; default "info"
}

// Server is the real binary running on a free local port.
type Server struct {
	URL  string // http://127.0.0.1:port
	Addr string
	DB   string
	Env  []string // the extra environment, kept for restarts

	t        testing.TB
	logLevel string
	cmd      *exec.Cmd
	logs     *SyncBuffer
	done     chan struct{}
	exitErr  error
}

// Start starts the binary on a free port and stops it (SIGTERM) when the
// test ends; the server's log is printed if the test failed. Under -short
// the test is skipped.
func Start(t testing.TB, opt Options) *Server {
	t.Helper()
	SkipShort(t)
	s := &Server{t: t, DB: opt.DB, Env: opt.Env, logLevel: opt.LogLevel}
	if s.DB == "" {
		s.DB = filepath.Join(t.TempDir(), "chess.db")
	}
	if s.logLevel == "" {
		s.logLevel = "info"
	}
	s.Addr = freeAddr(t)
	s.URL = "http://" + s.Addr
	s.Start()
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("server log (last 8 KB):\n%s", tail(s.Logs(), 8192))
		}
	})
	return s
}

// Start runs the binary (again) on the same address and database and
// waits until /healthz answers.
func (s *Server) Start() {
	t := s.t
	t.Helper()
	s.logs = &SyncBuffer{}
	s.cmd = exec.Command(Binary(t), "-addr", s.Addr, "-db", s.DB, "-log-level", s.logLevel)
	s.cmd.Env = append(os.Environ(), s.Env...)
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start server: %v", err)
	}
	done := make(chan struct{})
	s.done = done
	go func(cmd *exec.Cmd) {
		s.exitErr = cmd.Wait()
		close(done)
	}(s.cmd)
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		if res, err := client.Get(s.URL + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-done:
			t.Fatalf("server exited at start: %v\n%s", s.exitErr, s.logs.String())
		case <-tick.C:
		}
	}
	t.Fatalf("server did not answer /healthz within 30 s:\n%s", s.logs.String())
}

// Stop sends SIGTERM, waits for the exit (SIGKILL after 20 s) and returns
// the exit error: nil means a clean exit with status 0.
func (s *Server) Stop() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	select {
	case <-s.done:
		return s.exitErr
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.t.Errorf("server did not stop within 20 s of SIGTERM")
		s.cmd.Process.Kill()
		<-s.done
	}
	return s.exitErr
}

// Kill stops the server with SIGKILL, as a crash or the OOM killer would.
func (s *Server) Kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.done
}

// Logs returns what the server wrote since it last started.
func (s *Server) Logs() string { return s.logs.String() }

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// GameState is the part of the API's game state (H1) the tests read.
type GameState struct {
	ID        string            `json:"id"`
	FEN       string            `json:"fen"`
	Turn      string            `json:"turn"`
	Ply       int               `json:"ply"`
	Moves     []string          `json:"moves"`
	UCI       []string          `json:"uci"`
	Legal     []string          `json:"legal"`
	Status    string            `json:"status"`
	Result    string            `json:"result"`
	Reason    string            `json:"reason"`
	Cause     string            `json:"cause"`
	Clocks    *map[string]int64 `json:"clocks"`
	Running   string            `json:"running"`
	DrawOffer string            `json:"draw_offer"`
	Message   string            `json:"message"`
	Error     string            `json:"error"`
}

// SyncBuffer is a log sink safe for concurrent writers.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// Visitor is one browser without the browser: its own cookie jar, so its
// own visitor id and rate-limit bucket, talking JSON to the server.
type Visitor struct {
	URL  string       // the server's base URL
	HTTP *http.Client // with the visitor's cookies
}

// NewVisitor returns a visitor with no cookies yet.
func (s *Server) NewVisitor(t testing.TB) *Visitor {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &Visitor{URL: s.URL, HTTP: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// Do sends body as JSON (no body when nil) and returns the status and the
// answer's bytes. A transport error (the server gone) is returned, not
// fatal: the fault tests provoke exactly that.
func (v *Visitor) Do(method, path string, body any) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, v.URL+path, r)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := v.HTTP.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, raw, err
}
