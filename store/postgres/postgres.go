// Package postgres is the client-server implementation of store.Store
// (N6): one PostgreSQL database shared by several site processes, so the
// site can run as stateless instances behind a load balancer. Its schema
// lives in migrations/ (the same logical schema as store/sqlite, in
// PostgreSQL's dialect), numbered NNNN_name.sql and applied in order at
// Open under an advisory lock, so instances starting together never apply
// one twice. It turns PostgreSQL's SQLSTATE codes and connection failures
// into the store's own errors, so nothing above it knows it is PostgreSQL.
//
// The driver is jackc/pgx v5 through its native pool (pgxpool), not
// database/sql: the store is the only code that touches the database, so
// database/sql's driver-independence buys nothing, while the native pool
// gives the server's typed errors (*pgconn.PgError with its SQLSTATE)
// without an adapter, a pool sized and health-checked by pgx itself
// (pool_max_conns and friends in the DSN work too) and one less layer of
// copying on every row.
//
// Every write that races with another process is decided by PostgreSQL,
// not by memory: UpdateGame's UPDATE … WHERE version = $loaded (under READ
// COMMITTED a second writer re-reads the row after the first commits, sees
// the new version and changes nothing), answers locked per round with
// SELECT … FOR UPDATE, and marks made idempotent with ON CONFLICT.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"chesstutor/store"
	"chesstutor/store/internal/schema"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// DefaultPoolSize is the pool's connection limit when neither Options nor
// the DSN's pool_max_conns sets one: enough for one instance's requests
// and the computer's replies on a small machine, few enough that several
// instances stay well below PostgreSQL's default max_connections (100).
const DefaultPoolSize = 10

// migrationLock is the advisory lock key held while migrating ("chess" in
// ASCII), so two instances starting at once take turns.
const migrationLock int64 = 0x6368657373

// Options tune the store.
type Options struct {
	// PoolSize is the most connections this process opens; zero keeps the
	// DSN's pool_max_conns, or DefaultPoolSize without one.
	PoolSize int
}

// Postgres is the PostgreSQL implementation of store.Store. Feature files
// in this package add their methods to it and reach the database through db.
type Postgres struct {
	db *pgxpool.Pool
}

var _ store.Store = (*Postgres)(nil)

// Open connects to the database named by dsn (postgres://user:pass@host/db
// or any form pgx accepts), applies the migrations not yet applied and
// returns the store. The database itself must exist; its tables are made
// here.
func Open(ctx context.Context, dsn string, opt Options) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's message repeats the DSN, password included: keep it out.
		return nil, fmt.Errorf("postgres: the -db value is not a PostgreSQL address pgx can read (postgres://user:password@host:5432/database)")
	}
	if opt.PoolSize < 0 {
		return nil, fmt.Errorf("postgres: pool size must be at least 1, not %d", opt.PoolSize)
	}
	if opt.PoolSize > 0 {
		cfg.MaxConns = int32(opt.PoolSize)
	} else if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = DefaultPoolSize
	}
	db, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open %s: %w", Redact(dsn), translate(err))
	}
	s := &Postgres{db: db}
	if err := s.Ping(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: open %s: %w", Redact(dsn), err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Redact returns the DSN with its password replaced by "xxxxx", for logs.
func Redact(dsn string) string {
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return "(unreadable PostgreSQL address)"
	}
	return fmt.Sprintf("postgres://%s@%s/%s", cfg.User, net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), cfg.Database)
}

// Ping reports whether the database answers a query.
func (s *Postgres) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("postgres: ping: %w", translate(err))
	}
	return nil
}

// Close closes every pooled connection.
func (s *Postgres) Close() error {
	s.db.Close()
	return nil
}

// PoolSize returns the most connections the pool opens.
func (s *Postgres) PoolSize() int { return int(s.db.Config().MaxConns) }

// loadMigrations reads the embedded migrations in version order (see
// schema.Migrations).
func loadMigrations() ([]schema.Migration, error) {
	ms, err := schema.Migrations(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return ms, nil
}

// migrate applies every migration not yet recorded in schema_migrations,
// each in its own transaction together with its record, while holding a
// session advisory lock so concurrent instances migrate one at a time.
func (s *Postgres) migrate(ctx context.Context) error {
	return s.migrateUpTo(ctx, 0)
}

// migrateUpTo is migrate stopping after version upTo (0: all of them);
// tests use it to make a database as an older site left it.
func (s *Postgres) migrateUpTo(ctx context.Context, upTo int) error {
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
	// A database that has every migration is left untouched (no lock, no
	// DDL), so an instance can start on a read-only server too.
	if done, err := s.migrated(ctx, ms); err != nil || done {
		return err
	}
	conn, err := s.db.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", translate(err))
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return fmt.Errorf("postgres: migrate: lock: %w", translate(err))
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
	)`); err != nil {
		return fmt.Errorf("postgres: create schema_migrations: %w", translate(err))
	}
	for _, m := range ms {
		if err := apply(ctx, conn.Conn(), m); err != nil {
			return err
		}
	}
	return nil
}

// migrated reports whether every migration in ms is recorded.
func (s *Postgres) migrated(ctx context.Context, ms []schema.Migration) (bool, error) {
	var exists bool
	if err := s.db.QueryRow(ctx, "SELECT to_regclass('schema_migrations') IS NOT NULL").Scan(&exists); err != nil {
		return false, fmt.Errorf("postgres: migrate: %w", translate(err))
	}
	if !exists {
		return false, nil
	}
	rows, err := s.db.Query(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return false, fmt.Errorf("postgres: migrate: %w", translate(err))
	}
	applied, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return false, fmt.Errorf("postgres: migrate: %w", translate(err))
	}
	have := map[int]bool{}
	for _, v := range applied {
		have[int(v)] = true
	}
	for _, m := range ms {
		if !have[m.Version] {
			return false, nil
		}
	}
	return true, nil
}

func apply(ctx context.Context, conn *pgx.Conn, m schema.Migration) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migration %s: %w", m.Name, translate(err))
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var n int
	if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM schema_migrations WHERE version = $1", m.Version).Scan(&n); err != nil {
		return fmt.Errorf("postgres: migration %s: %w", m.Name, translate(err))
	}
	if n > 0 {
		return nil
	}
	// Exec without arguments uses the simple protocol, so a file may hold
	// several statements.
	if _, err := tx.Exec(ctx, m.SQL); err != nil {
		return fmt.Errorf("postgres: migration %s: %w", m.Name, translate(err))
	}
	if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.Version, m.Name); err != nil {
		return fmt.Errorf("postgres: record migration %s: %w", m.Name, translate(err))
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: commit migration %s: %w", m.Name, translate(err))
	}
	return nil
}

// inTx runs fn in a transaction and commits it; any error rolls back.
func (s *Postgres) inTx(ctx context.Context, opts pgx.TxOptions, fn func(tx pgx.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, opts)
	if err != nil {
		return translate(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := fn(tx); err != nil {
		return err
	}
	return translate(tx.Commit(ctx))
}

// faultOf says which storage fault a SQLSTATE code means, or 0 when the
// error is the request's (a constraint, a syntax error, …).
func faultOf(code string) store.Fault {
	switch code {
	case "40001", // serialization_failure
		"40P01", // deadlock_detected
		"55P03", // lock_not_available
		"55006", // object_in_use
		"53300", // too_many_connections
		"53200", // out_of_memory
		"57014": // query_canceled (statement_timeout)
		return store.Busy
	case "53100": // disk_full
		return store.Full
	case "25006", // read_only_sql_transaction (hot standby, default_transaction_read_only)
		"58030": // io_error
		return store.ReadOnly
	case "57P01", // admin_shutdown
		"57P02", // crash_shutdown
		"57P03", // cannot_connect_now (starting up, recovering)
		"3D000", // invalid_catalog_name: the database does not exist
		"28000", // invalid_authorization_specification
		"28P01": // invalid_password
		return store.Unreachable
	}
	switch {
	case strings.HasPrefix(code, "08"): // connection_exception
		return store.Unreachable
	case strings.HasPrefix(code, "53"): // insufficient_resources
		return store.Busy
	}
	return 0
}

// translate turns an error that is the storage's fault into a
// *store.UnavailableError (which matches store.ErrUnavailable) and returns
// every other error unchanged: server errors by SQLSTATE, and a connection
// that cannot be made or broke off as Unreachable. A cancelled or timed-out
// request context is the request's own end, not a fault, and stays as is.
func translate(err error) error {
	if err == nil {
		return nil
	}
	var already *store.UnavailableError
	if errors.As(err, &already) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		if pg.Code == "23503" { // foreign_key_violation
			return fmt.Errorf("%w: %v", store.ErrGone, err)
		}
		if f := faultOf(pg.Code); f != 0 {
			return &store.UnavailableError{Fault: f, Err: err}
		}
		return err
	}
	var (
		connect *pgconn.ConnectError
		netErr  net.Error
	)
	switch {
	case errors.As(err, &connect),
		errors.As(err, &netErr),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, net.ErrClosed),
		pgconn.SafeToRetry(err):
		return &store.UnavailableError{Fault: store.Unreachable, Err: err}
	}
	return err
}
