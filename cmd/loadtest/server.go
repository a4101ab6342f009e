package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"chesstutor/internal/pgtest"
)

// The servers under test: the real binary, started and measured.

// server is the site started for the run.
type server struct {
	cmd  *exec.Cmd
	url  string
	db   string // the database as given to -db
	done chan error
	err  error // the exit, once stopped
}

// startServers builds the site if needed, prepares the database cfg.DB
// names (rewriting cfg.DB to what the servers got, password-free for
// the report) and starts cfg.Instances servers on it. cleanup stops them
// and removes everything made.
func startServers(ctx context.Context, cfg *Config) (srvs []*server, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "chesstutor-loadtest")
	if err != nil {
		return nil, nil, err
	}
	var cluster *pgtest.Cluster
	stopAll := func() {
		for _, s := range srvs {
			s.stop()
		}
		if cluster != nil {
			cluster.Stop()
		}
		os.RemoveAll(dir)
	}
	defer func() {
		if err != nil {
			stopAll()
		}
	}()
	bin := cfg.Bin
	if bin == "" {
		bin = filepath.Join(dir, "chesstutor")
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, "chesstutor")
		if out, err := build.CombinedOutput(); err != nil {
			return nil, nil, fmt.Errorf("build the site (run loadtest inside the module): %v\n%s", err, out)
		}
	}
	var db string
	switch {
	case cfg.DB == "" || cfg.DB == "sqlite":
		if cfg.Instances > 1 {
			return nil, nil, errors.New("several instances need one shared PostgreSQL database: add -db postgres (or a postgres:// address)")
		}
		db, cfg.DB = filepath.Join(dir, "chess.db"), "sqlite"
	case cfg.DB == "postgres":
		// fsync on, as a real server runs, so the figures compare with
		// SQLite's synchronous=FULL.
		cluster, err = pgtest.Start(pgtest.Options{Durable: true, MaxConnections: 300})
		if err != nil {
			return nil, nil, err
		}
		if db, err = cluster.NewDatabase(ctx); err != nil {
			return nil, nil, err
		}
		cfg.DB = "postgres (throwaway cluster, fsync on)"
	case strings.HasPrefix(cfg.DB, "postgres://") || strings.HasPrefix(cfg.DB, "postgresql://"):
		db, cfg.DB = cfg.DB, "postgres (given address)"
	default:
		return nil, nil, fmt.Errorf("-db must be sqlite, postgres or a postgres:// address, not %q", cfg.DB)
	}
	for i := range cfg.Instances {
		s, err := startServer(bin, db, filepath.Join(dir, fmt.Sprintf("server-%d.log", i+1)), *cfg)
		if err != nil {
			return nil, nil, err
		}
		srvs = append(srvs, s)
	}
	return srvs, stopAll, nil
}

// startServer starts one site process on db and waits for /healthz.
func startServer(bin, db, logPath string, cfg Config) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	level := cfg.LogLevel
	if level == "" {
		level = "info"
	}
	// Loopback is the trusted proxy: each simulated person sends their own
	// address in X-Forwarded-For (see client.addr).
	args := append([]string{"-addr", addr, "-db", db, "-log-level", level, "-db-pool", strconv.Itoa(cfg.DBPool),
		"-trusted-proxy", "127.0.0.1"}, cfg.ServerArgs...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	s := &server{cmd: cmd, url: "http://" + addr, db: db, done: make(chan error, 1)}
	go func() {
		s.done <- cmd.Wait()
		logFile.Close()
	}()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get(s.url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case err := <-s.done:
			log, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("the server exited at start: %v\n%s", err, log)
		case <-time.After(50 * time.Millisecond):
		}
	}
	s.stop()
	return nil, fmt.Errorf("the server did not answer /healthz within 30 s")
}

// peakRSS reads the server's peak resident memory (VmHWM) in KiB.
func (s *server) peakRSS() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

// stop sends SIGTERM and waits for the exit; a second call returns the
// first one's result.
func (s *server) stop() error {
	if s.done == nil {
		return s.err
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case s.err = <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		s.err = fmt.Errorf("the server did not stop within 20 s of SIGTERM")
		<-s.done
	}
	s.done = nil
	return s.err
}
