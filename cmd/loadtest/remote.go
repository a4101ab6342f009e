package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// -mode remote (issue 35, G25): live games between friends on two
// devices. Each game has two simulated players, each with their own
// cookie, address and open event stream; with several instances the two
// players of a game talk to different ones, as two phones behind a load
// balancer may. A player moves a random legal move after thinking for
// about -think, and the run measures the time from the moment a move's
// POST is sent to the moment the other player's stream brings the state
// with that move: what a child waits for their friend's move to appear.
//
//	go run ./cmd/loadtest -mode remote -games 200 -think 2s -duration 60s
//	go run ./cmd/loadtest -mode remote -games 200 -db postgres -instances 2

// RemoteConfig is one run of live games.
type RemoteConfig struct {
	Games     int           // live games at once
	Think     time.Duration // a player's thinking time per move, ±50%
	Duration  time.Duration
	DB        string // as Config.DB
	Instances int
	Bin       string
	LogLevel  string
}

// Categories of the remote report.
const (
	catArrive = "move POST -> other player's event"
	catPost   = "move POST answered"
	catSetup  = "create, join, open streams"
)

// liveState is the part of a pushed state a player reads.
type liveState struct {
	Ply    int      `json:"ply"`
	Legal  []string `json:"legal"`
	Status string   `json:"status"`
	Turn   string   `json:"turn"`
	Remote struct {
		Seat string `json:"seat"`
	} `json:"remote"`
}

// livePlayer is one side of a live game: a cookie, an address, a stream.
type livePlayer struct {
	base, addr string
	http       *http.Client // requests
	stream     *http.Client // the stream: no timeout
	seat       string
	mu         sync.Mutex
	last       *liveState
	changed    chan struct{} // a new state came
}

func newLivePlayer(base string, tr http.RoundTripper, i int) *livePlayer {
	jar, _ := cookiejar.New(nil)
	return &livePlayer{base: base, addr: personAddress(i),
		http:    &http.Client{Jar: jar, Transport: tr, Timeout: 30 * time.Second},
		stream:  &http.Client{Jar: jar, Transport: tr},
		changed: make(chan struct{}, 1)}
}

func (p *livePlayer) post(path string, body any, want int, out any) (time.Duration, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", p.base+path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", p.addr)
	start := time.Now()
	res, err := p.http.Do(req)
	if err != nil {
		return time.Since(start), err
	}
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	d := time.Since(start)
	if err != nil {
		return d, err
	}
	if res.StatusCode != want {
		return d, fmt.Errorf("POST %s: %d, want %d: %.200s", path, res.StatusCode, want, raw)
	}
	if out != nil {
		return d, json.Unmarshal(raw, out)
	}
	return d, nil
}

// liveGame is one game and when each of its moves was sent.
type liveGame struct {
	id     string
	mu     sync.Mutex
	sentAt map[int]time.Time // ply after the move -> when its POST went
}

// follow reads p's stream of game g until ctx ends, recording for every
// state at a new ply how long ago that move was sent.
func (p *livePlayer) follow(ctx context.Context, g *liveGame, rec *recorder, opened chan<- error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", p.base+"/api/games/"+g.id+"/events", nil)
	req.Header.Set("X-Forwarded-For", p.addr)
	res, err := p.stream.Do(req)
	if err == nil && res.StatusCode != http.StatusOK {
		res.Body.Close()
		err = fmt.Errorf("stream: status %d", res.StatusCode)
	}
	opened <- err
	if err != nil {
		return
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	seen := -1
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "data: {\"id\"") {
			continue
		}
		now := time.Now()
		var st liveState
		if err := json.Unmarshal([]byte(line[6:]), &st); err != nil {
			rec.add(catArrive, 0, err)
			continue
		}
		if st.Ply > seen && st.Turn == p.seat { // the other player's move, now mine to answer
			seen = st.Ply
			g.mu.Lock()
			at, ok := g.sentAt[st.Ply]
			delete(g.sentAt, st.Ply)
			g.mu.Unlock()
			if ok {
				rec.add(catArrive, now.Sub(at), nil)
			}
		}
		p.mu.Lock()
		p.last = &st
		p.mu.Unlock()
		select {
		case p.changed <- struct{}{}:
		default:
		}
	}
}

// play makes p's moves in g until ctx ends or the game does.
func (p *livePlayer) play(ctx context.Context, g *liveGame, rng *rand.Rand, think time.Duration, rec *recorder) {
	for ctx.Err() == nil {
		p.mu.Lock()
		st := p.last
		p.mu.Unlock()
		if st != nil && (st.Status != "active" || st.Ply >= 200) {
			return // a new game starts (random games can run long)
		}
		if st == nil || st.Turn != p.seat || len(st.Legal) == 0 {
			select {
			case <-ctx.Done():
				return
			case <-p.changed:
			}
			continue
		}
		wait := think/2 + time.Duration(rng.Int64N(int64(think)+1))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		mv := st.Legal[rng.IntN(len(st.Legal))]
		g.mu.Lock()
		g.sentAt[st.Ply+1] = time.Now()
		g.mu.Unlock()
		var next liveState
		d, err := p.post("/api/games/"+g.id+"/moves", map[string]any{"move": mv, "ply": st.Ply}, http.StatusOK, &next)
		rec.add(catPost, d, err)
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.last == nil || next.Ply >= p.last.Ply {
			p.last = &next
		}
		p.mu.Unlock()
	}
}

// RunRemote starts the servers, plays rc.Games live games at once for
// rc.Duration, each started anew when it ends, and prints the report.
func RunRemote(ctx context.Context, rc RemoteConfig, w io.Writer) error {
	if rc.Games <= 0 {
		return errors.New("-games must be at least 1")
	}
	if rc.Think <= 0 {
		rc.Think = 2 * time.Second
	}
	cfg := Config{DB: rc.DB, Instances: max(rc.Instances, 1), Bin: rc.Bin, LogLevel: rc.LogLevel}
	srvs, cleanup, err := startServers(ctx, &cfg)
	if err != nil {
		return err
	}
	defer cleanup()
	var urls []string
	for _, s := range srvs {
		urls = append(urls, s.url)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 4096, IdleConnTimeout: time.Minute,
		DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext}
	defer tr.CloseIdleConnections()
	rec := newRecorder()
	loadBefore := loadAverage()
	var cpuBefore time.Duration
	for _, s := range srvs {
		cpuBefore += s.cpuTime()
	}
	runCtx, cancel := context.WithTimeout(ctx, rc.Duration)
	defer cancel()
	var wg sync.WaitGroup
	for i := range rc.Games {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i)+1, 35))
			// Arrivals spread over the first two seconds.
			select {
			case <-runCtx.Done():
				return
			case <-time.After(time.Duration(rng.Int64N(int64(2 * time.Second)))):
			}
			for n := 0; runCtx.Err() == nil; n++ {
				host := newLivePlayer(urls[i%len(urls)], tr, 2*i+1)
				friend := newLivePlayer(urls[(i+1)%len(urls)], tr, 2*i+2)
				if err := liveGameOnce(runCtx, host, friend, rng, rc.Think, rec); err != nil && runCtx.Err() == nil {
					rec.add(catSetup, 0, err)
					select {
					case <-runCtx.Done():
					case <-time.After(time.Second):
					}
				}
			}
		})
	}
	start := time.Now()
	wg.Wait()
	elapsed := time.Since(start)
	var cpu time.Duration
	for _, s := range srvs {
		cpu += s.cpuTime()
	}
	cpu -= cpuBefore
	var peaks []string
	for _, s := range srvs {
		peaks = append(peaks, fmt.Sprintf("%.1f MiB", float64(s.peakRSS())/1024))
	}
	fmt.Fprintf(w, "live games: %d at once, a move every %s (±50%%) per player, %s; database %s, %d instance(s)\n",
		rc.Games, rc.Think, elapsed.Round(time.Millisecond), cfg.DB, cfg.Instances)
	fmt.Fprintf(w, "load average (1, 5, 15 min) before: %s, after: %s; server peak memory: %s\n",
		loadBefore, loadAverage(), strings.Join(peaks, ", "))
	if s := rec.cats[catPost]; s != nil && s.Requests > 0 {
		// What the servers spent, whatever else the machine runs: the
		// tail of the latencies above is mostly waiting for a core.
		fmt.Fprintf(w, "server CPU: %.1f s in all (%.0f%% of one core), %.2f ms per move with its streams, presence and setup\n",
			cpu.Seconds(), 100*cpu.Seconds()/elapsed.Seconds(), float64(cpu.Microseconds())/1000/float64(s.Requests))
	}
	for _, name := range []string{catArrive, catPost, catSetup} {
		s := rec.cats[name]
		if s == nil {
			continue
		}
		summarise(s, s.latencies)
		printStats(w, s)
	}
	for _, e := range rec.errors {
		fmt.Fprintln(w, "error:", e)
	}
	if s := rec.cats[catArrive]; s == nil || s.Requests == 0 {
		return errors.New("no move arrived at the other player")
	}
	return nil
}

// liveGameOnce plays one game between host and friend until it ends or
// ctx does.
func liveGameOnce(ctx context.Context, host, friend *livePlayer, rng *rand.Rand, think time.Duration, rec *recorder) error {
	start := time.Now()
	var created struct {
		ID string `json:"id"`
	}
	if _, err := host.post("/api/games", map[string]any{"mode": "remote", "color": "white", "clock": "none"}, http.StatusCreated, &created); err != nil {
		return err
	}
	if _, err := friend.post("/api/games/"+created.ID+"/join", map[string]any{}, http.StatusOK, nil); err != nil {
		return err
	}
	host.seat, friend.seat = "white", "black"
	g := &liveGame{id: created.ID, sentAt: map[int]time.Time{}}
	gctx, stop := context.WithCancel(ctx)
	defer stop()
	opened := make(chan error, 2)
	var wg sync.WaitGroup
	for _, p := range []*livePlayer{host, friend} {
		wg.Go(func() { p.follow(gctx, g, rec, opened) })
	}
	for range 2 {
		if err := <-opened; err != nil {
			stop()
			wg.Wait()
			return err
		}
	}
	rec.add(catSetup, time.Since(start), nil)
	var players sync.WaitGroup
	for _, p := range []*livePlayer{host, friend} {
		players.Go(func() { p.play(gctx, g, rand.New(rand.NewPCG(rng.Uint64(), 1)), think, rec) })
	}
	players.Wait()
	stop()
	wg.Wait()
	return nil
}

// cpuTime is the CPU time the server has used (user and system), from
// /proc; zero when unknown.
func (s *server) cpuTime() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis: utime and stime
	// are the 12th and 13th, in clock ticks (100 a second on Linux).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
