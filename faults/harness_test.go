// Package faults starts the real chesstutor binary and breaks things under
// it: SIGKILL in the middle of a burst of moves, SIGTERM with requests in
// flight, a database that turns read-only and a disk that fills up (N3).
//
// The tests need no browser. The read-only and disk-full cases need the
// rights to run chattr or mount a small tmpfs (root in a container is
// enough); without them they skip and say why, and the handler-level test
// in handlers/storefault_test.go still covers the 503 mapping.
package faults

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
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"chesstutor/internal/pgtest"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// TestMain removes the built binary after the run, and stops the
// throwaway PostgreSQL cluster if a test started one.
func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// binary builds the site once per test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "chesstutor-faults-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "chesstutor")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// server is the real binary on a free loopback port.
type server struct {
	t    *testing.T
	DB   string
	Addr string
	URL  string
	Env  []string

	cmd     *exec.Cmd
	logs    *syncBuffer
	done    chan struct{}
	exitErr error
}

// newServer starts the site on db (a fresh one when db is "") and stops it
// with SIGTERM when the test ends.
func newServer(t *testing.T, db string, env ...string) *server {
	t.Helper()
	if db == "" {
		db = filepath.Join(t.TempDir(), "chess.db")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &server{t: t, DB: db, Addr: addr, URL: "http://" + addr,
		Env: append([]string{"CHESS_API_RATE=10000", "CHESS_API_BURST=10000"}, env...)}
	s.start()
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("server log (last 4 KB):\n%s", tail(s.logs.String(), 4096))
		}
	})
	return s
}

// start runs the binary (again) on the same address and database and waits
// for /healthz.
func (s *server) start() {
	t := s.t
	t.Helper()
	s.logs = &syncBuffer{}
	s.cmd = exec.Command(binary(t), "-addr", s.Addr, "-db", s.DB, "-log-level", "warn")
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
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			t.Fatalf("server exited at start: %v\n%s", s.exitErr, s.logs.String())
		default:
		}
		if res, err := http.Get(s.URL + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Fatalf("server did not answer /healthz within 30 s:\n%s", s.logs.String())
}

// kill stops the server with SIGKILL, as a crash or the OOM killer would.
func (s *server) kill() {
	s.cmd.Process.Kill()
	<-s.done
}

// stop sends SIGTERM and returns the exit error (nil means exit status 0).
func (s *server) stop() error {
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

// visitor is one browser: its own cookie jar, so its own visitor id and
// its own rate-limit bucket.
type visitor struct {
	base string
	http *http.Client
}

func newVisitor(t *testing.T, s *server) *visitor {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &visitor{base: s.URL, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// state is the part of the H1 game state these tests read.
type state struct {
	ID     string   `json:"id"`
	FEN    string   `json:"fen"`
	Ply    int      `json:"ply"`
	Moves  []string `json:"moves"`
	UCI    []string `json:"uci"`
	Legal  []string `json:"legal"`
	Status string   `json:"status"`
	Error  string   `json:"error"`
}

// do sends a JSON request; a transport error (server gone) is returned,
// not fatal, because the fault tests provoke exactly that.
func (v *visitor) do(method, path string, body any) (int, state, []byte, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, state{}, nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, v.base+path, r)
	if err != nil {
		return 0, state{}, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := v.http.Do(req)
	if err != nil {
		return 0, state{}, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, state{}, raw, err
	}
	var st state
	json.Unmarshal(raw, &st) // error bodies and PGN are not states; callers check the status
	return res.StatusCode, st, raw, nil
}

// must is do for the set-up steps: anything but the wanted status fails.
func (v *visitor) must(t *testing.T, want int, method, path string, body any) state {
	t.Helper()
	code, st, raw, err := v.do(method, path, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if code != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, code, want, raw)
	}
	return st
}

func newFriendGame(t *testing.T, v *visitor) state {
	t.Helper()
	return v.must(t, http.StatusCreated, "POST", "/api/games",
		map[string]any{"mode": "friend", "clock": "none", "pass_screen": false})
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

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// hasPrefix reports whether list starts with prefix.
func hasPrefix(list, prefix []string) bool {
	return len(list) >= len(prefix) && strings.Join(list[:len(prefix)], " ") == strings.Join(prefix, " ")
}
