// Command chesstutor serves the chess tutorial site: lessons, exercises,
// a rules quiz and games against the computer or a friend.
//
// It wires configuration, the database, the services and the handlers
// together, and nothing else.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"chesstutor/chess/engine"
	"chesstutor/handlers"
	"chesstutor/store"
	"chesstutor/store/postgres"
	"chesstutor/store/sqlite"
)

type config struct {
	addr     string
	db       string
	dbPool   int
	logLevel string
	apiRate  float64
	apiBurst int
}

// env returns the environment variable or a default.
func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func parseConfig(args []string) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("chesstutor", flag.ContinueOnError)
	fs.StringVar(&cfg.addr, "addr", env("CHESS_ADDR", "127.0.0.1:8080"), "listen address (env CHESS_ADDR)")
	fs.StringVar(&cfg.db, "db", env("CHESS_DB", "data/chess.db"), "SQLite database file, created if missing, or a PostgreSQL address postgres://user:password@host:5432/database shared by several instances (env CHESS_DB)")
	poolDef, err := strconv.Atoi(env("CHESS_DB_POOL", "0"))
	if err != nil {
		return cfg, fmt.Errorf("CHESS_DB_POOL: %w", err)
	}
	fs.IntVar(&cfg.dbPool, "db-pool", poolDef, fmt.Sprintf("PostgreSQL only: most connections this instance opens; 0 keeps the DSN's pool_max_conns or %d (env CHESS_DB_POOL)", postgres.DefaultPoolSize))
	fs.StringVar(&cfg.logLevel, "log-level", env("CHESS_LOG_LEVEL", "info"), "debug, info, warn or error (env CHESS_LOG_LEVEL)")
	rateDef, err := strconv.ParseFloat(env("CHESS_API_RATE", strconv.Itoa(handlers.DefaultAPIRate)), 64)
	if err != nil {
		return cfg, fmt.Errorf("CHESS_API_RATE: %w", err)
	}
	burstDef, err := strconv.Atoi(env("CHESS_API_BURST", strconv.Itoa(handlers.DefaultAPIBurst)))
	if err != nil {
		return cfg, fmt.Errorf("CHESS_API_BURST: %w", err)
	}
	fs.Float64Var(&cfg.apiRate, "api-rate", rateDef, "sustained /api requests per second per visitor (env CHESS_API_RATE)")
	fs.IntVar(&cfg.apiBurst, "api-burst", burstDef, "/api requests per visitor allowed in a burst (env CHESS_API_BURST)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if cfg.dbPool < 0 {
		return cfg, fmt.Errorf("-db-pool must be 0 (the default) or more, not %d", cfg.dbPool)
	}
	return cfg, nil
}

func main() {
	cfg, err := parseConfig(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "chesstutor:", err)
		os.Exit(2)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.logLevel)); err != nil {
		fmt.Fprintln(os.Stderr, "chesstutor: -log-level:", err)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(log)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, log); err != nil {
		log.Error("stopped", "err", err)
		os.Exit(1)
	}
}

// openStore picks the store implementation by the -db value (N6): a
// postgres:// or postgresql:// DSN names a PostgreSQL server shared by
// every instance (pool bounds this one's connections), anything else is
// the path of an SQLite file.
func openStore(ctx context.Context, db string, pool int) (store.Store, error) {
	if isDSN(db) {
		scheme, _, _ := strings.Cut(db, "://")
		switch strings.ToLower(scheme) {
		case "postgres", "postgresql":
			return postgres.Open(ctx, db, postgres.Options{PoolSize: pool})
		default:
			return nil, fmt.Errorf("-db: unknown database kind %q; give the path of an SQLite file or a postgres:// address", scheme)
		}
	}
	return sqlite.Open(ctx, db)
}

func isDSN(db string) bool { return strings.Contains(db, "://") }

// dbForLog names the database without a password.
func dbForLog(db string) string {
	if isDSN(db) {
		return postgres.Redact(db)
	}
	return db
}

// run serves until ctx is cancelled, then lets in-flight requests finish
// and closes the database.
func run(ctx context.Context, cfg config, log *slog.Logger) error {
	st, err := openStore(ctx, cfg.db, cfg.dbPool)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("close database", "err", err)
		}
	}()

	// Searches use every core but one, so the computer never starves page
	// requests (C3): on two cores, eight level-8 games at once kept lesson
	// pages at p99 226 ms with two searches and 48 ms with one (issue 9).
	pool := engine.NewPool(max(1, runtime.NumCPU()-1), 64)
	// Tests shorten real time controls (a 5+0 game lasting seconds) with
	// CHESS_TEST_CLOCK_SCALE; the site itself always runs at 1.
	clockScale, err := strconv.ParseFloat(env("CHESS_TEST_CLOCK_SCALE", "1"), 64)
	if err != nil || clockScale <= 0 {
		return fmt.Errorf("CHESS_TEST_CLOCK_SCALE must be a positive number, not %q", os.Getenv("CHESS_TEST_CLOCK_SCALE"))
	}
	site, err := handlers.NewSite(handlers.SiteConfig{
		Store:      st,
		Engine:     pool,
		Logger:     log,
		Limits:     handlers.Limits{APIRate: cfg.apiRate, APIBurst: cfg.apiBurst},
		ClockScale: clockScale,
	})
	if err != nil {
		return err
	}
	// Game reviews run in the background on the same engine pool, so they
	// wait their turn beside the games (C3). They stop with the server and
	// resume from the positions already stored when it starts again.
	reviewCtx, stopReviews := context.WithCancel(ctx)
	reviewsDone := make(chan struct{})
	go func() {
		defer close(reviewsDone)
		if err := site.Reviews.Run(reviewCtx); err != nil {
			log.Error("game reviews stopped", "err", err)
		}
	}()
	defer func() { stopReviews(); <-reviewsDone }()

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	srv := &http.Server{
		Handler:           site,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("serving", "url", "http://"+ln.Addr().String(), "db", dbForLog(cfg.db))

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped cleanly")
	return nil
}
