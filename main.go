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
	"chesstutor/chess/engine/uci"
	"chesstutor/games"
	"chesstutor/handlers"
	"chesstutor/live"
	"chesstutor/retention"
	"chesstutor/review"
	"chesstutor/store"
	"chesstutor/store/postgres"
	"chesstutor/store/sqlite"
)

type config struct {
	addr     string
	db       string
	dbPool   int
	dbSync   string
	logLevel string
	apiRate  float64
	apiBurst int

	// Abuse resistance (N8), see docs/performance.md.
	limits         handlers.Limits // the per-address fields
	trustedProxies string
	maxGames       int
	retention      retention.Periods
	retentionEvery time.Duration

	// analysisEngine is -analysis-engine: auto, builtin or a path (C5).
	analysisEngine string
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
	fs.StringVar(&cfg.dbSync, "sqlite-sync", env("CHESS_SQLITE_SYNC", "normal"), "SQLite only: normal keeps every committed move when the process dies, SIGKILL included; full also keeps the last moments of play through a power cut, at a disk sync per move (env CHESS_SQLITE_SYNC)")
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
	l := &cfg.limits
	fs.Float64Var(&l.PageRate, "page-rate", handlers.DefaultPageRate, "sustained page and API reads per second per client address")
	fs.IntVar(&l.PageBurst, "page-burst", handlers.DefaultPageBurst, "page and API reads per client address allowed in a burst")
	fs.Float64Var(&l.VisitorRate, "visitor-rate", handlers.DefaultVisitorRate, "new visitors stored per second per client address")
	fs.IntVar(&l.VisitorBurst, "visitor-burst", handlers.DefaultVisitorBurst, "new visitors per client address allowed in a burst")
	fs.Float64Var(&l.GameRate, "game-rate", handlers.DefaultGameRate, "games started per second per client address")
	fs.IntVar(&l.GameBurst, "game-burst", handlers.DefaultGameBurst, "games started per client address allowed in a burst")
	fs.Float64Var(&l.TransferRate, "transfer-rate", handlers.DefaultTransferRate, "tries of a code to continue on another device per second per client address")
	fs.IntVar(&l.TransferBurst, "transfer-burst", handlers.DefaultTransferBurst, "tries of a code to continue on another device per client address allowed in a burst")
	fs.IntVar(&l.LimiterKeys, "limiter-keys", handlers.DefaultLimiterKeys, "most visitors or addresses each rate limiter remembers")
	fs.StringVar(&cfg.trustedProxies, "trusted-proxy", env("CHESS_TRUSTED_PROXY", ""), "comma-separated IPs or CIDRs of reverse proxies whose X-Forwarded-For names the client; empty: use the connection's address (env CHESS_TRUSTED_PROXY)")
	fs.IntVar(&cfg.maxGames, "max-games", games.DefaultMaxActive, "unfinished games per visitor; starting one more closes the least recently played as abandoned")
	fs.DurationVar(&cfg.retention.Visitors, "keep-visitors", retention.DefaultPeriods.Visitors, "delete a visitor and all their data this long after their last write")
	fs.DurationVar(&cfg.retention.Empty, "keep-empty-visitors", retention.DefaultPeriods.Empty, "delete a visitor with nothing stored this long after they were last seen (at least 2h)")
	fs.DurationVar(&cfg.retention.Games, "close-games-after", retention.DefaultPeriods.Games, "close an unfinished game nobody played for this long as abandoned")
	fs.DurationVar(&cfg.retentionEvery, "retention-every", time.Hour, "how often the retention job runs")
	fs.StringVar(&cfg.analysisEngine, "analysis-engine", env("CHESS_ANALYSIS_ENGINE", "auto"), "engine of game reviews and hints: auto (Stockfish on the PATH or in /usr/games if the machine has it, else the built-in engine), builtin, or the path of a UCI engine; the computer levels always play with the built-in engine (env CHESS_ANALYSIS_ENGINE)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if cfg.dbSync != "normal" && cfg.dbSync != "full" {
		return cfg, fmt.Errorf("-sqlite-sync must be normal or full, not %q", cfg.dbSync)
	}
	if cfg.dbPool < 0 {
		return cfg, fmt.Errorf("-db-pool must be 0 (the default) or more, not %d", cfg.dbPool)
	}
	if cfg.trustedProxies != "" {
		for _, p := range strings.Split(cfg.trustedProxies, ",") {
			if _, _, err := handlers.ParseProxy(p); err != nil {
				return cfg, fmt.Errorf("-trusted-proxy: %w", err)
			}
			l.TrustedProxies = append(l.TrustedProxies, strings.TrimSpace(p))
		}
	}
	for name, v := range map[string]float64{"-page-rate": l.PageRate, "-visitor-rate": l.VisitorRate, "-game-rate": l.GameRate,
		"-page-burst": float64(l.PageBurst), "-visitor-burst": float64(l.VisitorBurst), "-game-burst": float64(l.GameBurst),
		"-transfer-rate": l.TransferRate, "-transfer-burst": float64(l.TransferBurst),
		"-limiter-keys": float64(l.LimiterKeys), "-max-games": float64(cfg.maxGames)} {
		if v <= 0 {
			return cfg, fmt.Errorf("%s must be positive", name)
		}
	}
	r := cfg.retention
	switch {
	case r.Visitors <= 0 || r.Games <= 0 || cfg.retentionEvery <= 0:
		return cfg, errors.New("-keep-visitors, -close-games-after and -retention-every must be positive")
	case r.Empty < 2*time.Hour:
		// The handlers trust for an hour that a visitor they stored is
		// still there; an empty visitor must outlive that.
		return cfg, errors.New("-keep-empty-visitors must be at least 2h")
	}
	return cfg, nil
}

// cookieKeys returns the keys that sign visitor cookies: those in
// CHESS_COOKIE_KEY (comma-separated, the first signs; at least 32
// characters each), then the key kept in the database, generated on the
// first start. The database key always verifies, so moving from it to a
// key in the environment, or rotating, logs nobody out: put the new key
// first and keep the old ones after it until the cookies they signed have
// been signed again (each is, on its visitor's next request).
func cookieKeys(ctx context.Context, st store.Store) ([][]byte, error) {
	fresh, err := handlers.NewCookieKey()
	if err != nil {
		return nil, err
	}
	stored, err := st.Secret(ctx, "cookie-key", fresh)
	if err != nil {
		return nil, fmt.Errorf("cookie key: %w", err)
	}
	var keys [][]byte
	if v := os.Getenv("CHESS_COOKIE_KEY"); v != "" {
		for _, k := range strings.Split(v, ",") {
			if k = strings.TrimSpace(k); len(k) < 32 {
				return nil, errors.New("CHESS_COOKIE_KEY: each key must be at least 32 characters (try: openssl rand -hex 32)")
			}
			keys = append(keys, []byte(k))
		}
	}
	return append(keys, stored), nil
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
func openStore(ctx context.Context, db string, pool int, sync string) (store.Store, error) {
	if isDSN(db) {
		scheme, _, _ := strings.Cut(db, "://")
		switch strings.ToLower(scheme) {
		case "postgres", "postgresql":
			return postgres.Open(ctx, db, postgres.Options{PoolSize: pool})
		default:
			return nil, fmt.Errorf("-db: unknown database kind %q; give the path of an SQLite file or a postgres:// address", scheme)
		}
	}
	return sqlite.OpenWith(ctx, db, sqlite.Options{PowerSafe: sync == "full"})
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
	st, err := openStore(ctx, cfg.db, cfg.dbPool, cfg.dbSync)
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
	// Reviews run on every core the games leave free and give way to a
	// computer move at once (issue 32): the pool tells the Yield of every
	// move in flight, and review searches run under it.
	yield := engine.NewYield(runtime.NumCPU())
	pool.SetYield(yield)
	analysis, analysisName, closeAnalysis, err := analysisEngine(cfg.analysisEngine, log)
	if err != nil {
		return err
	}
	defer closeAnalysis()
	// Tests shorten real time controls (a 5+0 game lasting seconds) with
	// CHESS_TEST_CLOCK_SCALE; the site itself always runs at 1.
	clockScale, err := strconv.ParseFloat(env("CHESS_TEST_CLOCK_SCALE", "1"), 64)
	if err != nil || clockScale <= 0 {
		return fmt.Errorf("CHESS_TEST_CLOCK_SCALE must be a positive number, not %q", os.Getenv("CHESS_TEST_CLOCK_SCALE"))
	}
	// Tests shorten the minute a player of a game from two devices must be
	// gone before the other may claim (G26) with CHESS_TEST_AWAY_CLAIM, a
	// Go duration such as "3s"; the site itself always waits a minute.
	awayClaim, err := testDuration("CHESS_TEST_AWAY_CLAIM", "3s")
	if err != nil {
		return err
	}
	// Tests that must see a review while it runs slow it down with
	// CHESS_TEST_REVIEW_PACE (a pause after each position): with node
	// budgets a 40-move review on a quiet machine can end before its page
	// opens, and a bigger budget would cost the suite minutes of CPU.
	reviewPace, err := testDuration("CHESS_TEST_REVIEW_PACE", "500ms")
	if err != nil {
		return err
	}
	keys, err := cookieKeys(ctx, st)
	if err != nil {
		return err
	}
	limits := cfg.limits
	limits.APIRate, limits.APIBurst = cfg.apiRate, cfg.apiBurst
	site, err := handlers.NewSite(handlers.SiteConfig{
		Store:  st,
		Engine: pool,
		Logger: log,
		// Hints and reviews: Stockfish when the machine has it (C5).
		Analysis:      analysis,
		AnalysisName:  analysisName,
		Yield:         yield,
		ReviewWorkers: runtime.NumCPU(),
		Limits:        limits,
		ClockScale:    clockScale,
		AwayClaim:     awayClaim,
		ReviewPace:    reviewPace,
		MaxGames:      cfg.maxGames,
		CookieKeys:    keys,
		Retention:     cfg.retention,
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

	// Several instances on one PostgreSQL database hear of each other's
	// game changes through LISTEN/NOTIFY (G25); one SQLite process needs
	// nothing but its own hub.
	if isDSN(cfg.db) {
		bus, err := live.NewPostgres(ctx, cfg.db, site.Live, log)
		if err != nil {
			return err
		}
		busCtx, stopBus := context.WithCancel(context.Background())
		busDone := make(chan struct{})
		site.Live.SetBus(bus)
		go func() { defer close(busDone); bus.Run(busCtx) }()
		defer func() { stopBus(); <-busDone; bus.Close() }()
	}

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
	// Open event streams end when shutdown begins (their pages reconnect,
	// to another instance if there is one), so they never hold it up.
	srv.RegisterOnShutdown(site.Live.Close)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// Retention (N8): old and empty visitors, idle games; it stops with ctx.
	jobCtx, stopJob := context.WithCancel(context.Background())
	jobDone := make(chan struct{})
	go func() {
		defer close(jobDone)
		retention.New(retention.Config{Store: st, Periods: cfg.retention, Logger: log}).Run(jobCtx, cfg.retentionEvery)
	}()
	defer func() { stopJob(); <-jobDone }()
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

// analysisEngine starts the engine of reviews and hints that the
// -analysis-engine value names: "builtin" is a pool of the built-in engine
// with a searcher per core; a path is a UCI engine; "auto" is Stockfish
// when uci.Find finds it (and it starts), else the built-in engine. It
// returns the engine, the name a review gives it, and a function that
// stops it.
func analysisEngine(choice string, log *slog.Logger) (review.Engine, string, func(), error) {
	builtin := func() (review.Engine, string, func(), error) {
		return engine.NewPool(runtime.NumCPU(), 64), review.BuiltinEngine, func() {}, nil
	}
	path := choice
	switch choice {
	case "builtin", "built-in":
		return builtin()
	case "auto", "":
		if path = uci.Find(); path == "" {
			log.Info("analysis engine", "engine", review.BuiltinEngine, "why", "no Stockfish on the PATH or in /usr/games")
			return builtin()
		}
	}
	// One engine process a core for reviews, and one more for hints.
	u, err := uci.Start(path, runtime.NumCPU()+1, 64)
	if err != nil {
		if choice == "auto" || choice == "" {
			log.Warn("analysis engine: using the built-in engine", "stockfish", path, "err", err)
			return builtin()
		}
		return nil, "", nil, fmt.Errorf("-analysis-engine: %w", err)
	}
	log.Info("analysis engine", "engine", u.Name(), "path", path)
	return u, u.Name(), func() { u.Close() }, nil
}

// testDuration reads a test-only duration from the environment variable
// name: zero when unset, else a positive Go duration (example shows one
// in the error).
func testDuration(name, example string) (time.Duration, error) {
	v := os.Getenv(name)
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s must be a positive duration such as %s, not %q", name, example, v)
	}
	return d, nil
}
