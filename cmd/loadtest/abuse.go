package main

// The crawler and abuse modes (issue 20, N8) measure what strangers can
// make the server do:
//
//	go run ./cmd/loadtest -mode crawler   # 10,000 cookieless page views
//	go run ./cmd/loadtest -mode abuse     # game flood, fake-cookie flood, real players beside them
//
// The crawler reads every page without cookies and then counts the rows
// stored (it must be none) and the growth of the database and its WAL. The
// abuse mode sends 1,000 cookieless POST /api/games from one address and
// counts what was created; then 100,000 requests, each with a distinct
// fake cookie from a distinct address, sampling the server's resident
// memory; meanwhile real visitors play friend games and their move
// latency is recorded.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // reads the started server's database

	"chesstutor/lessons"
)

// AbuseConfig is one crawler or abuse run.
type AbuseConfig struct {
	Bin, LogLevel  string
	CrawlRequests  int // crawler: cookieless page views
	CrawlAddresses int // crawler: distinct client addresses they come from
	Workers        int // requests in flight at once
	FloodGames     int // abuse: cookieless POST /api/games from one address
	FakeCookies    int // abuse: requests with distinct fake cookies
	Players        int // abuse: real visitors playing during the flood
}

// personAddress is the made-up client address of simulated person i, in
// the shared address space 100.64.0.0/10.
func personAddress(i int) string {
	return fmt.Sprintf("100.%d.%d.%d", 64+(i>>16)&63, (i>>8)&255, i&255)
}

// crawlPages lists every page a crawler finds by following links.
func crawlPages(course *lessons.Course) []string {
	pages := []string{"/", "/learn", "/practice", "/rules", "/quiz", "/play", "/games", "/privacy"}
	for _, l := range course.Lessons() {
		pages = append(pages, "/learn/"+l.Slug)
		if len(l.Exercises) > 0 {
			pages = append(pages, "/learn/"+l.Slug+"/practice")
		}
	}
	for _, ex := range course.Exercises() {
		pages = append(pages, "/learn/"+ex.Lesson+"/practice?ex="+ex.ID)
	}
	return pages
}

// flood sends n requests with workers in flight; build makes request i.
// It returns the status counts and records latencies under cat.
func flood(ctx context.Context, n, workers int, rec *recorder, cat string, build func(i int) *http.Request) map[int]int {
	tr := &http.Transport{MaxIdleConnsPerHost: workers * 2, DisableCompression: false}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr, Timeout: 30 * time.Second} // no cookie jar: every request is a stranger
	var next atomic.Int64
	var mu sync.Mutex
	status := map[int]int{}
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				req := build(i)
				start := time.Now()
				res, err := cl.Do(req)
				code := 0
				if err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					code = res.StatusCode
				}
				rec.add(cat, time.Since(start), err)
				mu.Lock()
				status[code]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return status
}

func get(base, path, addr string) *http.Request {
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Header.Set("X-Forwarded-For", addr)
	return req
}

// fileSize returns the size of a file, 0 when it does not exist.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// rows counts the rows of every table of the database but the migration
// record and the site's secrets, and the visitors and games among them.
func rows(path string) (all, visitors, games int, err error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return 0, 0, 0, err
	}
	defer db.Close()
	rs, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'
		AND name NOT IN ('schema_migrations', 'site_secrets') AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		return 0, 0, 0, err
	}
	var names []string
	for rs.Next() {
		var n string
		rs.Scan(&n)
		names = append(names, n)
	}
	rs.Close()
	for _, n := range names {
		var c int
		if err := db.QueryRow(`SELECT COUNT(*) FROM "` + n + `"`).Scan(&c); err != nil {
			return 0, 0, 0, err
		}
		all += c
		switch n {
		case "visitors":
			visitors = c
		case "games":
			games = c
		}
	}
	return all, visitors, games, nil
}

// loadAverage is the machine's 1-minute load average, as text.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// rssKB reads the server's current resident memory (VmRSS) in KiB.
func (s *server) rssKB() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

func printStats(w io.Writer, s *Stats) {
	if s == nil {
		fmt.Fprintln(w, "  (no requests)")
		return
	}
	summarise(s, s.latencies)
	fmt.Fprintf(w, "  %s: %d requests, %d errors, p50 %s, p95 %s, p99 %s, max %s\n",
		s.Name, s.Requests, s.Errors, ms(s.P50), ms(s.P95), ms(s.P99), ms(s.Max))
}

// RunCrawler sends the cookieless page views and reports what they cost.
func RunCrawler(ctx context.Context, ac AbuseConfig, w io.Writer) error {
	course, err := lessons.Load()
	if err != nil {
		return err
	}
	srvs, cleanup, err := startServers(ctx, &Config{Bin: ac.Bin, LogLevel: ac.LogLevel, Instances: 1})
	if err != nil {
		return err
	}
	defer cleanup()
	srv := srvs[0]
	pages := crawlPages(course)
	addrs := max(1, ac.CrawlAddresses)
	fmt.Fprintf(w, "crawler: %d cookieless GETs over %d pages from %d addresses, %d in flight; load average %s\n",
		ac.CrawlRequests, len(pages), addrs, ac.Workers, loadAverage())
	dbBefore, walBefore := fileSize(srv.db), fileSize(srv.db+"-wal")
	rec := newRecorder()
	start := time.Now()
	status := flood(ctx, ac.CrawlRequests, ac.Workers, rec, "cookieless page view", func(i int) *http.Request {
		return get(srv.url, pages[i%len(pages)], personAddress(i%addrs))
	})
	elapsed := time.Since(start)
	dbAfter, walAfter := fileSize(srv.db), fileSize(srv.db+"-wal")
	all, visitors, _, err := rows(srv.db)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  %s, %.0f req/s; statuses %v\n", elapsed.Round(time.Millisecond), float64(ac.CrawlRequests)/elapsed.Seconds(), status)
	printStats(w, rec.cats["cookieless page view"])
	fmt.Fprintf(w, "  rows stored: %d (visitors %d)\n", all, visitors)
	fmt.Fprintf(w, "  database %d -> %d bytes, WAL %d -> %d bytes\n", dbBefore, dbAfter, walBefore, walAfter)
	fmt.Fprintf(w, "  server peak memory (VmHWM) %.1f MiB; load average after %s\n", float64(srv.peakRSS())/1024, loadAverage())
	if all != 0 || walAfter > walBefore || status[http.StatusOK] != ac.CrawlRequests {
		return fmt.Errorf("page views stored rows or grew the WAL, or failed")
	}
	return nil
}

// AbuseReport is what the abuse mode counted.
type AbuseReport struct {
	FloodCreated int           // 201 answers to the cookieless game flood
	FloodTime    time.Duration // how long the game flood took
	FakeVisitors int           // visitor rows stored during the fake-cookie flood
}

// RunAbuse floods the server with cookieless game creation and with fake
// cookies while real visitors play.
func RunAbuse(ctx context.Context, ac AbuseConfig, w io.Writer) (rep AbuseReport, err error) {
	srvs, cleanup, err := startServers(ctx, &Config{Bin: ac.Bin, LogLevel: ac.LogLevel, Instances: 1})
	if err != nil {
		return rep, err
	}
	defer cleanup()
	srv := srvs[0]
	fmt.Fprintf(w, "abuse: load average %s; server memory at start %.1f MiB\n", loadAverage(), float64(srv.rssKB())/1024)

	// Real visitors, each from their own address, play friend games at a
	// human pace while the floods run.
	players := newRecorder()
	playCtx, stopPlayers := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { stopPlayers(); wg.Wait() }()
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext}
	defer tr.CloseIdleConnections()
	for i := range ac.Players {
		c := newClient(srv.url, tr, players, i, 2)
		c.addr = personAddress(50_000 + i)
		wg.Add(1)
		go func() { defer wg.Done(); c.playGames(playCtx, false, 0) }()
	}

	// The real players store their visitor rows with their first games;
	// wait for them, so the counts below are the floods' alone.
	visitors0, games0, err := waitForPlayers(ctx, srv.db, ac.Players)
	if err != nil {
		return rep, err
	}

	// 1. Cookieless game creation from one address.
	rec := newRecorder()
	start := time.Now()
	status := flood(ctx, ac.FloodGames, ac.Workers, rec, "cookieless POST /api/games", func(i int) *http.Request {
		req, _ := http.NewRequest("POST", srv.url+"/api/games", strings.NewReader(`{"mode":"friend","clock":"none"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", "198.51.100.1")
		return req
	})
	floodTime := time.Since(start)
	rep.FloodCreated, rep.FloodTime = status[http.StatusCreated], floodTime
	_, visitors1, games1, err := rows(srv.db)
	if err != nil {
		return rep, err
	}
	fmt.Fprintf(w, "1. %d cookieless POST /api/games from one address in %s: statuses %v\n",
		ac.FloodGames, floodTime.Round(time.Millisecond), status)
	printStats(w, rec.cats["cookieless POST /api/games"])
	fmt.Fprintf(w, "  stored meanwhile (the real players' games included): %d visitors, %d games; the flood got %d answers 201\n",
		visitors1-visitors0, games1-games0, status[http.StatusCreated])

	// 2. Distinct fake cookies from distinct addresses; memory sampled.
	n := ac.FakeCookies
	fmt.Fprintf(w, "2. %d requests, each with its own fake cookie and address:\n", n)
	rec2 := newRecorder()
	step := max(1, n/4)
	samples := []string{fmt.Sprintf("0: %.1f MiB", float64(srv.rssKB())/1024)}
	start = time.Now()
	status2 := map[int]int{}
	for done := 0; done < n && ctx.Err() == nil; done += step {
		part := min(step, n-done)
		for code, c := range flood(ctx, part, ac.Workers, rec2, "fake-cookie request", func(i int) *http.Request {
			req := get(srv.url, "/api/me", fmt.Sprintf("10.%d.%d.%d", ((done+i)>>16)&255, ((done+i)>>8)&255, (done+i)&255))
			req.Header.Set("Cookie", "visitor="+fakeCookie(done+i))
			return req
		}) {
			status2[code] += c
		}
		samples = append(samples, fmt.Sprintf("%d: %.1f MiB", done+part, float64(srv.rssKB())/1024))
	}
	fmt.Fprintf(w, "  %s; statuses %v\n", time.Since(start).Round(time.Millisecond), status2)
	printStats(w, rec2.cats["fake-cookie request"])
	fmt.Fprintf(w, "  server memory (VmRSS) after N requests: %s; peak (VmHWM) %.1f MiB\n",
		strings.Join(samples, ", "), float64(srv.peakRSS())/1024)
	_, visitors2, _, err := rows(srv.db)
	if err != nil {
		return rep, err
	}
	rep.FakeVisitors = visitors2 - visitors1
	fmt.Fprintf(w, "  visitors stored by the fake cookies: %d\n", rep.FakeVisitors)

	stopPlayers()
	wg.Wait()
	fmt.Fprintf(w, "3. real visitors during the floods (%d players, friend games, 2 req/s each):\n", ac.Players)
	printStats(w, players.cats[catFriend])
	fmt.Fprintf(w, "load average at the end: %s\n", loadAverage())
	for _, e := range players.errors {
		fmt.Fprintln(w, "  player error:", e)
	}
	return rep, nil
}

// fakeCookie is a cookie this server never issued: half look signed, half
// look like the bare ids from before signing.
func fakeCookie(i int) string {
	var b [32]byte
	rand.Read(b[:])
	if i%2 == 0 {
		return hex.EncodeToString(b[:16]) + "." + hex.EncodeToString(b[16:])
	}
	return hex.EncodeToString(b[:16])
}

// waitForPlayers waits (up to a minute) until n visitors are stored, the
// real players' own, and returns the visitor and game counts then.
func waitForPlayers(ctx context.Context, db string, n int) (visitors, games int, err error) {
	deadline := time.Now().Add(time.Minute)
	for {
		_, visitors, games, err = rows(db)
		if err != nil || visitors >= n || time.Now().After(deadline) {
			return visitors, games, err
		}
		select {
		case <-ctx.Done():
			return visitors, games, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
