// Package pgtest starts a throwaway PostgreSQL cluster for tests and the
// load test: initdb in a temporary folder, postgres on a free loopback
// port through pg_ctl (no system service), one empty database per caller,
// and everything stopped and removed at the end.
//
// Tests call DSN(t); the package's TestMain calls Main(m) so the cluster,
// started at most once per test binary, is stopped when the tests end:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// Under go test -short, and with CHESS_PG=0, DSN skips the test with a
// message saying so (the short suite needs nothing but Go). Otherwise a
// machine without PostgreSQL fails the test with the package to install,
// so a CI run can never skip the PostgreSQL tests silently. The binaries
// are found in $CHESS_PG_BIN, /usr/lib/postgresql/<newest>/bin or $PATH.
// initdb refuses to run as root, so as root the cluster runs as the user
// nobody, in a folder it owns.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Install names what to install when PostgreSQL is missing.
const Install = "PostgreSQL is not installed: install it (Debian/Ubuntu: apt-get install postgresql; the tests need initdb, pg_ctl and postgres), point CHESS_PG_BIN at its bin folder, or set CHESS_PG=0 to skip the PostgreSQL tests"

// Options tune a cluster.
type Options struct {
	// Durable keeps fsync on, as a production server runs; tests leave it
	// off (a killed site process loses nothing either way: only a machine
	// crash would), the load test turns it on for fair figures.
	Durable bool
	// MaxConnections is the server's max_connections; zero means 200.
	MaxConnections int
}

// Cluster is one running throwaway PostgreSQL server.
type Cluster struct {
	settings []string // postgres -c options, kept for Resume
	dir      string   // removed by Stop
	bin      string
	port     int
	runAs    *user.User // nil: the current user
	dbs      atomic.Int64
	logPath  string

	templates sync.Map // name → *template
}

// template is a database prepared once and copied by CopyDatabase.
type template struct {
	once sync.Once
	name string
	err  error
}

// Enabled reports whether PostgreSQL tests should run (CHESS_PG is not 0).
func Enabled() bool { return os.Getenv("CHESS_PG") != "0" }

// FindBin returns the folder holding initdb, pg_ctl and postgres.
func FindBin() (string, error) {
	var cands []string
	if d := os.Getenv("CHESS_PG_BIN"); d != "" {
		cands = append(cands, d)
	}
	vers, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(vers, func(i, j int) bool { return pgVersion(vers[i]) > pgVersion(vers[j]) })
	cands = append(cands, vers...)
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		cands = append(cands, filepath.Dir(p))
	}
	for _, d := range cands {
		ok := true
		for _, b := range []string{"initdb", "pg_ctl", "postgres"} {
			if _, err := os.Stat(filepath.Join(d, b)); err != nil {
				ok = false
			}
		}
		if ok {
			return d, nil
		}
	}
	return "", errors.New(Install)
}

func pgVersion(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// Start initialises a cluster in a new temporary folder and starts it on a
// free loopback port.
func Start(opt Options) (*Cluster, error) {
	bin, err := FindBin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "chess-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, bin: bin, logPath: filepath.Join(dir, "postgres.log")}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("pgtest: running as root and there is no user nobody to run PostgreSQL as: %w", err)
		}
		c.runAs = u
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	maxConns := opt.MaxConnections
	if maxConns <= 0 {
		maxConns = 200
	}
	settings := []string{
		"-c listen_addresses=127.0.0.1",
		"-c unix_socket_directories=" + dir,
		"-c max_connections=" + strconv.Itoa(maxConns),
		"-c shared_buffers=64MB",
	}
	if !opt.Durable {
		settings = append(settings, "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off")
	}
	// A port can be taken between choosing it and the server binding it;
	// try a few.
	var lastErr error
	for range 5 {
		c.port, err = freePort()
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		c.settings = settings
		out, err := c.startServer()
		if err == nil {
			return c, nil
		}
		log, _ := os.ReadFile(c.logPath)
		lastErr = fmt.Errorf("pgtest: pg_ctl start: %v\n%s\n%s", err, out, tail(string(log), 2000))
		// On a starved machine pg_ctl can stop waiting while the server
		// is still starting; stop it, or the next try finds its lock file.
		c.run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

func (c *Cluster) startServer() ([]byte, error) {
	return c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-l", c.logPath, "-w", "-t", "180",
		"-o", "-p "+strconv.Itoa(c.port)+" "+strings.Join(c.settings, " "), "start")
}

// Pause stops the server (fast shutdown: sessions are cut off) and keeps
// its data, as a database outage would; Resume starts it again on the
// same port.
func (c *Cluster) Pause() error {
	if out, err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "fast", "-w", "stop"); err != nil {
		return fmt.Errorf("pgtest: pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// Resume starts a paused server again on the same port.
func (c *Cluster) Resume() error {
	if out, err := c.startServer(); err != nil {
		return fmt.Errorf("pgtest: pg_ctl start: %v\n%s\n%s", err, out, c.Log())
	}
	return nil
}

// run runs one of the PostgreSQL programs, as nobody when we are root.
func (c *Cluster) run(prog string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(c.bin, prog), args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "TZ=UTC")
	if c.runAs != nil {
		uid, _ := strconv.Atoi(c.runAs.Uid)
		gid, _ := strconv.Atoi(c.runAs.Gid)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	}
	return cmd.CombinedOutput()
}

// Port is the loopback port the server listens on.
func (c *Cluster) Port() int { return c.port }

// AdminDSN is the address of the cluster's postgres database as its superuser.
func (c *Cluster) AdminDSN() string { return c.dsn("postgres") }

func (c *Cluster) dsn(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// NewDatabase creates an empty database and returns its DSN.
func (c *Cluster) NewDatabase(ctx context.Context) (string, error) {
	name, err := c.createDatabase(ctx, "")
	if err != nil {
		return "", err
	}
	return c.dsn(name), nil
}

// createDatabase creates a database, a copy of template if one is named,
// and returns its name.
func (c *Cluster) createDatabase(ctx context.Context, template string) (string, error) {
	name := fmt.Sprintf("chess_%d_%d", os.Getpid(), c.dbs.Add(1))
	conn, err := pgx.Connect(ctx, c.AdminDSN())
	if err != nil {
		return "", fmt.Errorf("pgtest: connect: %w", err)
	}
	defer conn.Close(ctx)
	create := "CREATE DATABASE " + name
	if template != "" {
		create += " TEMPLATE " + template
	}
	if _, err := conn.Exec(ctx, create); err != nil {
		return "", fmt.Errorf("pgtest: create database: %w", err)
	}
	return name, nil
}

// CopyDatabase returns the DSN of a new database copied from the
// cluster's template called name, which prepare makes, once per cluster,
// from an empty database (e.g. by migrating it to the newest schema).
// prepare must close its connections before it returns: PostgreSQL copies
// a database only when nobody is connected to it.
func (c *Cluster) CopyDatabase(ctx context.Context, name string, prepare func(ctx context.Context, dsn string) error) (string, error) {
	v, _ := c.templates.LoadOrStore(name, &template{})
	tpl := v.(*template)
	tpl.once.Do(func() {
		if tpl.name, tpl.err = c.createDatabase(ctx, ""); tpl.err == nil {
			tpl.err = prepare(ctx, c.dsn(tpl.name))
		}
	})
	if tpl.err != nil {
		return "", fmt.Errorf("pgtest: template %s: %w", name, tpl.err)
	}
	db, err := c.createDatabase(ctx, tpl.name)
	if err != nil {
		return "", err
	}
	return c.dsn(db), nil
}

// Stop stops the server at once and removes its folder.
func (c *Cluster) Stop() error {
	out, err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop")
	if rmErr := os.RemoveAll(c.dir); err == nil && rmErr != nil {
		return rmErr
	}
	if err != nil {
		return fmt.Errorf("pgtest: pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// Log returns the end of the server's log, for failure messages.
func (c *Cluster) Log() string {
	b, _ := os.ReadFile(c.logPath)
	return tail(string(b), 4000)
}

var (
	once     sync.Once
	shared   *Cluster
	startErr error
)

// DSN returns the address of a new, empty database on the test binary's
// cluster, starting the cluster on first use. Under -short or with
// CHESS_PG=0 it skips the test; without PostgreSQL it fails it, naming the
// package to install.
func DSN(t testing.TB) string {
	t.Helper()
	return newDSN(t, func(ctx context.Context, c *Cluster) (string, error) { return c.NewDatabase(ctx) })
}

// CopyDSN is DSN for a copy of the template called name (see
// Cluster.CopyDatabase).
func CopyDSN(t testing.TB, name string, prepare func(ctx context.Context, dsn string) error) string {
	t.Helper()
	return newDSN(t, func(ctx context.Context, c *Cluster) (string, error) { return c.CopyDatabase(ctx, name, prepare) })
}

// newDSN makes a database on the shared cluster with create, within a
// minute, and fails the test with the server's log if it cannot.
func newDSN(t testing.TB, create func(ctx context.Context, c *Cluster) (string, error)) string {
	t.Helper()
	c := Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dsn, err := create(ctx, c)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Log())
	}
	return dsn
}

// Shared returns the test binary's cluster, started on first use; see DSN
// for when it skips or fails.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	if !Enabled() {
		t.Skip("CHESS_PG=0: skipping the tests against a real PostgreSQL")
	}
	if testing.Short() {
		t.Skip("the tests against a real PostgreSQL run without -short")
	}
	once.Do(func() {
		start := time.Now()
		shared, startErr = Start(Options{})
		if startErr == nil {
			fmt.Fprintf(os.Stderr, "pgtest: PostgreSQL cluster on port %d started in %v\n", shared.port, time.Since(start).Round(time.Millisecond))
		}
	})
	if startErr != nil {
		t.Fatal(startErr)
	}
	return shared
}

// Main runs the tests and then stops the cluster if one was started.
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	return code
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
