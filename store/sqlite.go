package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// maxOpenConns bounds the connection pool: enough for readers to work
// beside the writer in WAL mode, few enough that writers never starve.
const maxOpenConns = 4

// SQLite is the embedded-database implementation of Store. Feature files in
// this package add their methods to it and reach the database through db.
type SQLite struct {
	db *sql.DB
}

var _ Store = (*SQLite)(nil)

// Open opens (creating if needed) the SQLite database at path, applies any
// migrations that have not run yet and returns the store.
//
// Pragmas go into the DSN so every pooled connection gets them:
// WAL lets readers work beside the single writer; busy_timeout makes a
// writer wait instead of failing; synchronous(FULL) syncs the WAL on every
// commit, so a committed move survives SIGKILL and even power loss (N3);
// _txlock=immediate takes the write lock at BEGIN, so two read-then-write
// transactions never deadlock on lock upgrade.
func Open(ctx context.Context, path string) (*SQLite, error) {
	if path == "" {
		return nil, fmt.Errorf("store: open: empty database path")
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("store: create folder for database: %w", err)
		}
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()

	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// SQLite has one writer at a time. With many pooled connections, each
	// waiting writer sleeps in SQLite's busy handler and under a burst some
	// wait past busy_timeout (SQLITE_BUSY). A small pool makes the others
	// queue in Go instead, in order and without sleeping (N3, issue 9).
	db.SetMaxOpenConns(maxOpenConns)
	db.SetMaxIdleConns(maxOpenConns)
	s := &SQLite{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Ping reports whether the database answers a query.
func (s *SQLite) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// Close closes the database.
func (s *SQLite) Close() error {
	return s.db.Close()
}

// migration is one embedded SQL file, numbered by its NNNN_ prefix.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the embedded migrations in version order and refuses
// duplicate or malformed numbers, so a bad file fails the boot.
func loadMigrations() ([]migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("store: list migrations: %w", err)
	}
	var ms []migration
	seen := map[int]string{}
	for _, name := range names {
		base := filepath.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("store: migration %s: name must start with a number like 0001_", base)
		}
		if other, dup := seen[v]; dup {
			return nil, fmt.Errorf("store: migrations %s and %s share number %d", other, base, v)
		}
		seen[v] = base
		body, err := migrationFiles.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("store: read migration %s: %w", base, err)
		}
		ms = append(ms, migration{version: v, name: base, sql: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// migrate applies every migration not yet recorded in schema_migrations,
// each in its own transaction together with its record.
func (s *SQLite) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
	)`); err != nil {
		return fmt.Errorf("store: create schema_migrations: %w", err)
	}
	for _, m := range ms {
		if err := s.apply(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

func (s *SQLite) apply(ctx context.Context, m migration) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: migration %s: %w", m.name, err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations WHERE version = ?", m.version).Scan(&n); err != nil {
		return fmt.Errorf("store: migration %s: %w", m.name, err)
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("store: migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", m.version, m.name); err != nil {
		return fmt.Errorf("store: record migration %s: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit migration %s: %w", m.name, err)
	}
	return nil
}
