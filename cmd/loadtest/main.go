// Command loadtest puts a real chesstutor server under load on loopback and
// reports requests per second, latency percentiles, errors and the
// server's peak memory (issue 9, N3, C3, H1).
//
// By default it builds the site, starts it on a free port with a fresh
// database, runs the visitors and stops it:
//
//	go run ./cmd/loadtest -friends 100 -readers 20 -duration 30s
//	go run ./cmd/loadtest -friends 0 -readers 20 -computer 8 -level 8 -duration 30s
//	go run ./cmd/loadtest -smoke    # a few seconds, as CI runs it
//
// Three kinds of simulated visitor run at once, each with its own cookie
// (so its own visitor id and its own API rate-limit bucket):
//
//   - friend players create friend games through the JSON API and play
//     random legal moves, reading the game back now and then;
//   - readers open lesson pages and practice pages and check exercises
//     through the JSON API, half of them right and half wrong;
//   - computer players play games against the computer at -level; each
//     move waits for the computer's reply.
//
// Every visitor sends at most -pace requests per second, like a very fast
// human, which keeps it under the server's per-visitor limit of 20/s.
// Any answer other than the expected one counts as an error; the program
// exits with status 1 when there were errors.
//
// -url targets a server that is already running instead; the peak memory
// is then not known.
//
// -db picks the database of the started servers: "sqlite" (the default, a
// fresh file), "postgres" (a throwaway PostgreSQL cluster with fsync on,
// started through internal/pgtest and removed afterwards) or a
// postgres:// address. -instances N starts N site processes on that one
// database and spreads the visitors over them round-robin, as a load
// balancer would (issue 18):
//
//	go run ./cmd/loadtest -db postgres -instances 2 -friends 80 -readers 20
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"chesstutor/chess/engine"
	"chesstutor/lessons"
)

// Config is one load run.
type Config struct {
	URL      string        // target server; empty starts one
	Bin      string        // server binary to start; empty builds the module's
	Friends  int           // visitors playing friend games
	Readers  int           // visitors reading lessons and checking exercises
	Computer int           // visitors playing the computer
	Level    int           // computer level 0..8
	Duration time.Duration // how long the visitors run
	Pace     float64       // most requests per second per visitor
	LogLevel string        // the started server's -log-level
	NoGzip   bool          // do not ask for gzip (browsers do)
	// DB is "sqlite" (or empty), "postgres" (a throwaway cluster) or a
	// postgres:// address.
	DB string
	// Instances is how many site processes share the database; zero
	// means 1. More than one needs PostgreSQL.
	Instances int
	// DBPool is each instance's -db-pool (PostgreSQL); zero keeps the default.
	DBPool int
	// ServerArgs are extra flags for the started server.
	ServerArgs []string
}

// Category names in the report.
const (
	catFriend   = "friend game API"
	catLesson   = "lesson page"
	catCheck    = "exercise check API"
	catComputer = "computer move API"
)

// Stats is what one category of request measured.
type Stats struct {
	Name      string
	Requests  int
	Errors    int
	P50       time.Duration
	P95       time.Duration
	P99       time.Duration
	Max       time.Duration
	latencies []time.Duration
}

// Report is the result of a run.
type Report struct {
	Config     Config
	Elapsed    time.Duration
	Requests   int
	Errors     int
	PerSecond  float64
	P50        time.Duration
	P95        time.Duration
	P99        time.Duration
	Categories []*Stats
	PeakRSSKB  []int64  // VmHWM of each started server; empty when unknown
	ErrorLog   []string // the first few errors, for the person reading
}

// recorder collects latencies from every visitor.
type recorder struct {
	mu     sync.Mutex
	cats   map[string]*Stats
	errors []string
}

func newRecorder() *recorder { return &recorder{cats: map[string]*Stats{}} }

func (r *recorder) add(cat string, d time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.cats[cat]
	if s == nil {
		s = &Stats{Name: cat}
		r.cats[cat] = s
	}
	s.Requests++
	s.latencies = append(s.latencies, d)
	if err != nil {
		s.Errors++
		if len(r.errors) < 20 {
			r.errors = append(r.errors, cat+": "+err.Error())
		}
	}
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.5) - 1
	i = max(0, min(i, len(sorted)-1))
	return sorted[i]
}

func summarise(s *Stats, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	s.P50, s.P95, s.P99 = percentile(lat, 0.50), percentile(lat, 0.95), percentile(lat, 0.99)
	if len(lat) > 0 {
		s.Max = lat[len(lat)-1]
	}
}

// client is one simulated visitor.
type client struct {
	base string
	http *http.Client
	rec  *recorder
	rng  *rand.Rand
	gap  time.Duration
	last time.Time
	// addr is the visitor's own client address, sent as X-Forwarded-For:
	// the started server trusts loopback as its proxy, so every simulated
	// person has their own per-address allowance, as on the internet.
	addr string
}

// newClient is simulated person i with their own cookie jar and address,
// sending at most pace requests per second.
func newClient(base string, tr http.RoundTripper, rec *recorder, i int, pace float64) *client {
	jar, _ := cookiejar.New(nil)
	return &client{
		base: base,
		http: &http.Client{Jar: jar, Transport: tr, Timeout: 60 * time.Second},
		rec:  rec,
		rng:  rand.New(rand.NewPCG(uint64(i)+1, 42)),
		gap:  time.Duration(float64(time.Second) / pace),
		addr: personAddress(i),
	}
}

// errStop means the run is over; the request was not counted.
var errStop = errors.New("stop")

// call sends one request after the visitor's pacing gap and records it;
// want is the expected status. The decoded JSON body goes into out.
func (c *client) call(ctx context.Context, cat, method, path string, body any, want int, out any) error {
	if wait := c.gap - time.Since(c.last); wait > 0 {
		select {
		case <-ctx.Done():
			return errStop
		case <-time.After(wait):
		}
	}
	if ctx.Err() != nil {
		return errStop
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	// The request itself is not tied to ctx: a request started before the
	// end of the run finishes and is counted, so nothing is cut off.
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.addr != "" {
		req.Header.Set("X-Forwarded-For", c.addr)
	}
	start := time.Now()
	c.last = start
	res, err := c.http.Do(req)
	if err == nil {
		var raw []byte
		raw, err = io.ReadAll(res.Body)
		res.Body.Close()
		switch {
		case err != nil:
		case res.StatusCode != want:
			err = fmt.Errorf("%s %s: status %d, want %d: %.200s", method, path, res.StatusCode, want, raw)
		case out != nil:
			if jerr := json.Unmarshal(raw, out); jerr != nil {
				err = fmt.Errorf("%s %s: bad JSON: %v", method, path, jerr)
			}
		}
	}
	c.rec.add(cat, time.Since(start), err)
	return err
}

type gameState struct {
	ID     string   `json:"id"`
	Ply    int      `json:"ply"`
	Legal  []string `json:"legal"`
	Status string   `json:"status"`
	Turn   string   `json:"turn"`
}

// playGames creates games and plays random legal moves until ctx ends.
// Against the computer the visitor plays White and each move waits for
// the reply.
func (c *client) playGames(ctx context.Context, computer bool, level int) {
	cat, newGame := catFriend, map[string]any{"mode": "friend", "clock": "none", "pass_screen": false}
	if computer {
		cat, newGame = catComputer, map[string]any{"mode": "computer", "color": "white", "level": level, "clock": "none"}
	}
	for ctx.Err() == nil {
		var st gameState
		if err := c.call(ctx, cat, "POST", "/api/games", newGame, http.StatusCreated, &st); err != nil {
			c.pause(ctx)
			continue
		}
		for moves := 0; ctx.Err() == nil && st.Status == "active" && len(st.Legal) > 0 && st.Ply < 160; moves++ {
			mv := st.Legal[c.rng.IntN(len(st.Legal))]
			var next gameState
			if err := c.call(ctx, cat, "POST", "/api/games/"+st.ID+"/moves", map[string]any{"move": mv, "ply": st.Ply}, http.StatusOK, &next); err != nil {
				break
			}
			st = next
			if moves%10 == 9 {
				if err := c.call(ctx, cat, "GET", "/api/games/"+st.ID, nil, http.StatusOK, &next); err != nil {
					break
				}
				st = next
			}
		}
	}
}

// read opens lesson and practice pages and checks exercises until ctx ends.
func (c *client) read(ctx context.Context, course *lessons.Course) {
	ls := course.Lessons()
	// The check API takes marked squares for square exercises only; move
	// and naming exercises have other bodies (issue 15).
	var exs []*lessons.Exercise
	for _, ex := range course.Exercises() {
		if ex.Kind == lessons.KindSquares {
			exs = append(exs, ex)
		}
	}
	for ctx.Err() == nil {
		l := ls[c.rng.IntN(len(ls))]
		c.call(ctx, catLesson, "GET", "/learn/"+l.Slug, nil, http.StatusOK, nil)
		if c.rng.IntN(4) == 0 {
			c.call(ctx, catLesson, "GET", "/learn", nil, http.StatusOK, nil)
		}
		ex := exs[c.rng.IntN(len(exs))]
		c.call(ctx, catLesson, "GET", "/learn/"+ex.Lesson+"/practice?ex="+ex.ID, nil, http.StatusOK, nil)
		squares := []string{}
		for _, sq := range ex.Pos.Destinations(ex.From) {
			squares = append(squares, sq.String())
		}
		if c.rng.IntN(2) == 0 && len(squares) > 0 {
			squares = squares[1:] // a wrong answer: one square missed
		}
		var res struct {
			Correct bool `json:"correct"`
		}
		c.call(ctx, catCheck, "POST", "/api/exercises/"+ex.ID+"/check", map[string]any{"squares": squares}, http.StatusOK, &res)
	}
}

// pause waits a little after an error so a broken server is not hammered.
func (c *client) pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(100 * time.Millisecond):
	}
}

// Run starts the server if needed, runs the visitors for cfg.Duration and
// returns the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Pace <= 0 {
		cfg.Pace = 10
	}
	if cfg.Level < engine.MinLevel || cfg.Level > engine.MaxLevel {
		return nil, fmt.Errorf("the level must be %d..%d, not %d", engine.MinLevel, engine.MaxLevel, cfg.Level)
	}
	if cfg.Friends+cfg.Readers+cfg.Computer == 0 {
		return nil, errors.New("no visitors: set -friends, -readers or -computer")
	}
	course, err := lessons.Load()
	if err != nil {
		return nil, err
	}
	if cfg.Instances <= 0 {
		cfg.Instances = 1
	}
	var (
		srvs []*server
		urls []string
	)
	if cfg.URL == "" {
		var cleanup func()
		srvs, cleanup, err = startServers(ctx, &cfg)
		if err != nil {
			return nil, err
		}
		defer cleanup()
		for _, s := range srvs {
			urls = append(urls, s.url)
		}
		cfg.URL = strings.Join(urls, " ")
	} else {
		for _, u := range strings.Fields(cfg.URL) {
			urls = append(urls, strings.TrimSuffix(u, "/"))
		}
	}

	transport := &http.Transport{
		MaxIdleConns:        0,
		MaxIdleConnsPerHost: 2048,
		IdleConnTimeout:     time.Minute,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		DisableCompression:  cfg.NoGzip,
	}
	defer transport.CloseIdleConnections()
	rec := newRecorder()
	runCtx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	var wg sync.WaitGroup
	spawn := func(i int, fn func(*client)) {
		c := newClient(urls[i%len(urls)], transport, rec, i, cfg.Pace)
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Spread the start over the first second, as real visitors arrive.
			select {
			case <-runCtx.Done():
				return
			case <-time.After(time.Duration(c.rng.Int64N(int64(time.Second)))):
			}
			fn(c)
		}()
	}
	n := 0
	for range cfg.Friends {
		n++
		spawn(n, func(c *client) { c.playGames(runCtx, false, 0) })
	}
	for range cfg.Computer {
		n++
		spawn(n, func(c *client) { c.playGames(runCtx, true, cfg.Level) })
	}
	for range cfg.Readers {
		n++
		spawn(n, func(c *client) { c.read(runCtx, course) })
	}
	start := time.Now()
	wg.Wait()
	elapsed := time.Since(start)

	return newReport(cfg, elapsed, rec, srvs), nil
}

// newReport sums what rec measured over a run of elapsed against srvs.
func newReport(cfg Config, elapsed time.Duration, rec *recorder, srvs []*server) *Report {
	rep := &Report{Config: cfg, Elapsed: elapsed, ErrorLog: rec.errors}
	for _, s := range srvs {
		rep.PeakRSSKB = append(rep.PeakRSSKB, s.peakRSS())
	}
	var all []time.Duration
	names := make([]string, 0, len(rec.cats))
	for name := range rec.cats {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := rec.cats[name]
		all = append(all, s.latencies...)
		summarise(s, s.latencies)
		rep.Requests += s.Requests
		rep.Errors += s.Errors
		rep.Categories = append(rep.Categories, s)
	}
	var total Stats
	summarise(&total, all)
	rep.P50, rep.P95, rep.P99 = total.P50, total.P95, total.P99
	rep.PerSecond = float64(rep.Requests) / elapsed.Seconds()
	return rep
}

// Print writes the report as a small table.
func (r *Report) Print(w io.Writer) {
	c := r.Config
	fmt.Fprintf(w, "visitors: %d friend players, %d readers, %d computer players (level %d); %.0f req/s each at most; %s\n",
		c.Friends, c.Readers, c.Computer, c.Level, c.Pace, r.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "total: %d requests, %.0f req/s, p50 %s, p95 %s, p99 %s, errors %d\n",
		r.Requests, r.PerSecond, ms(r.P50), ms(r.P95), ms(r.P99), r.Errors)
	if c.DB != "" {
		fmt.Fprintf(w, "database: %s; %d instance(s)\n", c.DB, c.Instances)
	}
	for i, kb := range r.PeakRSSKB {
		fmt.Fprintf(w, "server %d peak memory (VmHWM): %.1f MiB\n", i+1, float64(kb)/1024)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "category\trequests\terrors\tp50\tp95\tp99\tmax\t")
	for _, s := range r.Categories {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t\n", s.Name, s.Requests, s.Errors, ms(s.P50), ms(s.P95), ms(s.P99), ms(s.Max))
	}
	tw.Flush()
	for _, e := range r.ErrorLog {
		fmt.Fprintln(w, "error:", e)
	}
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
}

// Stat returns the named category, or nil.
func (r *Report) Stat(name string) *Stats {
	for _, s := range r.Categories {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// smokeConfig is the short run CI does: every kind of visitor, a few
// seconds, a fast computer level.
var smokeConfig = Config{Friends: 4, Readers: 4, Computer: 1, Level: 1, Duration: 3 * time.Second}

func describe(c Config) string {
	return fmt.Sprintf("%d friend players, %d readers, %d computer player at level %d for %s",
		c.Friends, c.Readers, c.Computer, c.Level, c.Duration)
}

// options are the command line's settings, one field per mode.
type options struct {
	cfg   Config
	cc    ClassesConfig
	ac    AbuseConfig
	rc    RemoteConfig
	smoke *bool
	mode  *string
}

// parseFlags reads the command line. The modes share some flags (-think
// means a pupil's pause in classes and a player's thinking in remote), so
// each is defined once and given its mode's default after parsing.
func parseFlags(args []string) (*options, error) {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	var o options
	cfg, cc, ac, rc := &o.cfg, &o.cc, &o.ac, &o.rc
	fs.StringVar(&cfg.URL, "url", "", "target a running server (default: build and start one on loopback)")
	fs.StringVar(&cfg.Bin, "bin", "", "server binary to start (default: go build the module)")
	fs.IntVar(&cfg.Friends, "friends", 10, "visitors playing friend games through the JSON API")
	fs.IntVar(&cfg.Readers, "readers", 10, "visitors reading lessons and checking exercises")
	fs.IntVar(&cfg.Computer, "computer", 0, "visitors playing the computer")
	fs.IntVar(&cfg.Level, "level", 8, "computer level, 0..8")
	fs.DurationVar(&cfg.Duration, "duration", 30*time.Second, "how long the visitors run")
	fs.Float64Var(&cfg.Pace, "pace", 10, "most requests per second per visitor (the server allows 20)")
	fs.StringVar(&cfg.LogLevel, "server-log-level", "info", "-log-level of the started server")
	fs.BoolVar(&cfg.NoGzip, "no-gzip", false, "do not ask for gzip-compressed answers (browsers do)")
	fs.StringVar(&cfg.DB, "db", "sqlite", "database of the started servers: sqlite, postgres (a throwaway cluster; needs PostgreSQL installed) or a postgres:// address")
	fs.IntVar(&cfg.Instances, "instances", 1, "site processes to start on the one database, visitors spread over them (more than 1 needs PostgreSQL)")
	fs.IntVar(&cfg.DBPool, "db-pool", 0, "each instance's -db-pool (PostgreSQL; 0 keeps the default)")
	o.smoke = fs.Bool("smoke", false, "a short check of a few seconds (CI): "+describe(smokeConfig))
	o.mode = fs.String("mode", "visitors", "visitors (the default load), crawler or abuse (issue 20; see abuse.go), classes (issue 33; see classes.go) or remote (live games on two devices, issue 35; see remote.go)")
	fs.IntVar(&cc.Classes, "classes", 10, "classes: how many classes")
	fs.IntVar(&cc.Pupils, "pupils", 30, "classes: pupils in each class")
	fs.DurationVar(&cc.Refresh, "refresh", 10*time.Second, "classes: how often each teacher's dashboard reloads")
	fs.IntVar(&ac.CrawlRequests, "crawl", 10_000, "crawler: cookieless page views")
	fs.IntVar(&ac.CrawlAddresses, "crawl-addresses", 1000, "crawler: distinct client addresses the page views come from")
	fs.IntVar(&ac.Workers, "workers", 8, "crawler and abuse: requests in flight at once")
	fs.IntVar(&ac.FloodGames, "flood-games", 1000, "abuse: cookieless POST /api/games from one address")
	fs.IntVar(&ac.FakeCookies, "fake-cookies", 100_000, "abuse: requests with distinct fake cookies from distinct addresses")
	fs.IntVar(&ac.Players, "players", 10, "abuse: real visitors playing friend games during the flood")
	fs.IntVar(&rc.Games, "games", 200, "remote: live games between friends on two devices at once")
	think := fs.Duration("think", 0, "classes: a pupil's mean pause between two requests (default 4s); remote: a player's thinking time per move, ±50% (default 2s)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	cc.Think, rc.Think = 4*time.Second, 2*time.Second
	if *think > 0 {
		cc.Think, rc.Think = *think, *think
	}
	return &o, nil
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		os.Exit(2)
	}
	cfg, cc, ac, rc, smoke, mode := o.cfg, o.cc, o.ac, o.rc, o.smoke, o.mode
	if *mode != "visitors" {
		ac.Bin, ac.LogLevel = cfg.Bin, "warn"
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		var err error
		switch *mode {
		case "crawler":
			err = RunCrawler(ctx, ac, os.Stdout)
		case "abuse":
			_, err = RunAbuse(ctx, ac, os.Stdout)
		case "classes":
			cc.Config = cfg
			cc.LogLevel = "warn"
			var rep *Report
			if rep, err = RunClasses(ctx, cc); err == nil {
				PrintClasses(os.Stdout, cc, rep)
				if rep.Errors > 0 {
					err = fmt.Errorf("%d errors", rep.Errors)
				}
			}
		case "remote":
			rc.Duration, rc.DB, rc.Instances, rc.Bin, rc.LogLevel = cfg.Duration, cfg.DB, cfg.Instances, cfg.Bin, "warn"
			err = RunRemote(ctx, rc, os.Stdout)
		default:
			err = fmt.Errorf("unknown -mode %q: visitors, crawler, abuse or remote", *mode)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		return
	}
	if *smoke {
		cfg.Friends, cfg.Readers, cfg.Computer, cfg.Level, cfg.Duration = smokeConfig.Friends,
			smokeConfig.Readers, smokeConfig.Computer, smokeConfig.Level, smokeConfig.Duration
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(2)
	}
	rep.Print(os.Stdout)
	if rep.Errors > 0 {
		os.Exit(1)
	}
}
