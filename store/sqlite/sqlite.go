// Package sqlite is the embedded-database implementation of store.Store
// (N6): one file, one machine. Its schema lives in migrations/, numbered
// NNNN_name.sql and applied in order at Open. It turns SQLite's result codes
// into the store's own errors (store.ErrNotFound, store.ErrConflict,
// store.ErrUnavailable), so nothing above it knows it is SQLite.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"chesstutor/store"
	"chesstutor/store/internal/schema"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// maxOpenConns bounds the connection pool: enough for readers to work
// beside the writer in WAL mode, few enough that writers never starve.
const maxOpenConns = 4

// SQLite is the embedded-database implementation of store.Store. Feature files in
// this package add their methods to it and reach the database through db.
type SQLite struct {
	db *sql.DB
}

var _ store.Store = (*SQLite)(nil)

// Options change how OpenWith prepares the database. The zero value is
// what the site runs with.
type Options struct {
	// Unsynced never waits for the disk on commit (synchronous(OFF)): a
	// power cut could lose committed writes. It is for tests only, whose
	// databases are thrown away and which would otherwise spend most of
	// their time in fsync.
	Unsynced bool
	// PowerSafe syncs the write-ahead log on every commit
	// (synchronous(FULL)), so a committed move survives a power cut too.
	// The default, synchronous(NORMAL), syncs only at checkpoints: a
	// committed move survives the process's death, SIGKILL included (N3),
	// because the log is written before the commit returns, and the file
	// is never corrupted; a power cut or an operating-system crash may
	// roll back the last moments of play. Each fsync costs milliseconds to
	// tens of milliseconds on a busy disk, and SQLite's one writer waits
	// for it, so under 200 live games the tail of every move grew tenfold
	// with it (docs/performance.md).
	PowerSafe bool
}

// Open opens (creating if needed) the SQLite database at path, applies any
// migrations that have not run yet and returns the store.
//
// Pragmas go into the DSN so every pooled connection gets them:
// WAL lets readers work beside the single writer; busy_timeout makes a
// writer wait instead of failing; synchronous(NORMAL) writes the WAL on
// every commit and syncs it at checkpoints, so a committed move survives
// SIGKILL (N3) — Options.PowerSafe syncs on every commit for power loss too;
// _txlock=immediate takes the write lock at BEGIN, so two read-then-write
// transactions never deadlock on lock upgrade.
func Open(ctx context.Context, path string) (*SQLite, error) {
	return OpenWith(ctx, path, Options{})
}

// OpenWith is Open with options; see Options.
func OpenWith(ctx context.Context, path string, opt Options) (*SQLite, error) {
	if path == "" {
		return nil, fmt.Errorf("sqlite: open: empty database path")
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("sqlite: create folder for database: %w", translate(err))
		}
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	switch {
	case opt.Unsynced:
		q.Add("_pragma", "synchronous(OFF)")
	case opt.PowerSafe:
		q.Add("_pragma", "synchronous(FULL)")
	default:
		q.Add("_pragma", "synchronous(NORMAL)")
	}
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()

	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, translate(err))
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, translate(err))
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
		return fmt.Errorf("sqlite: ping: %w", translate(err))
	}
	return nil
}

// Close closes the database.
func (s *SQLite) Close() error {
	return s.db.Close()
}

// loadMigrations reads the embedded migrations in version order (see
// schema.Migrations).
func loadMigrations() ([]schema.Migration, error) {
	ms, err := schema.Migrations(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	return ms, nil
}

// migrate applies every migration not yet recorded in schema_migrations,
// each in its own transaction together with its record.
func (s *SQLite) migrate(ctx context.Context) error {
	return s.migrateUpTo(ctx, 0)
}

// migrateUpTo is migrate stopping after version upTo (0: all of them);
// tests use it to make a database as an older site left it.
func (s *SQLite) migrateUpTo(ctx context.Context, upTo int) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	if upTo > 0 {
		for i, m := range ms {
			if m.Version > upTo {
				ms = ms[:i]
				break
			}
		}
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
	)`); err != nil {
		return fmt.Errorf("sqlite: create schema_migrations: %w", translate(err))
	}
	for _, m := range ms {
		if err := s.apply(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

func (s *SQLite) apply(ctx context.Context, m schema.Migration) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.Name, translate(err))
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations WHERE version = ?", m.Version).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.Name, translate(err))
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.Name, translate(err))
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", m.Version, m.Name); err != nil {
		return fmt.Errorf("sqlite: record migration %s: %w", m.Name, translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: commit migration %s: %w", m.Name, translate(err))
	}
	return nil
}

// SQLite primary result codes that mean the storage, not the request, is
// at fault.
const (
	codeBusy     = 5  // SQLITE_BUSY: another writer holds the lock too long
	codeLocked   = 6  // SQLITE_LOCKED
	codeReadOnly = 8  // SQLITE_READONLY
	codeIOErr    = 10 // SQLITE_IOERR: a write or sync failed
	codeFull     = 13 // SQLITE_FULL: the disk is full
	codeCantOpen = 14 // SQLITE_CANTOPEN

	codeForeignKey = 787 // SQLITE_CONSTRAINT_FOREIGNKEY (extended)
)

// translate turns a driver error that is the storage's fault into a
// *store.UnavailableError (which matches store.ErrUnavailable) and returns
// every other error unchanged. The driver's error is matched by its Code
// method; extended codes keep the primary code in the low byte.
func translate(err error) error {
	if err == nil {
		return nil
	}
	var already *store.UnavailableError
	if errors.As(err, &already) {
		return err
	}
	var coded interface{ Code() int }
	if !errors.As(err, &coded) {
		return err
	}
	if coded.Code() == codeForeignKey {
		return fmt.Errorf("%w: %v", store.ErrGone, err)
	}
	var f store.Fault
	switch coded.Code() & 0xff {
	case codeFull:
		f = store.Full
	case codeReadOnly, codeIOErr:
		f = store.ReadOnly
	case codeCantOpen:
		f = store.Unreachable
	case codeBusy, codeLocked:
		f = store.Busy
	default:
		return err
	}
	return &store.UnavailableError{Fault: f, Err: err}
}
