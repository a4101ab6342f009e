// Command reviewload measures the time and fairness of game reviews
// (issue 32, point 5) on the built-in engine, wired as the site wires it:
//
//  1. one review of a 60-move game (review/testdata/sixty-moves.txt, 120
//     plies) alone, on one core (GOMAXPROCS 1, one review worker);
//  2. a live level-2 game's computer replies with nothing else running
//     (the baseline);
//  3. -reviews reviews of the same game asked at once, with a review worker
//     per core under engine.Yield, while the live game goes on: every
//     review's place in the queue and progress are polled as the page
//     polls them, and the computer's replies are timed again.
//
// It prints the single review's time, when the last of the many finished
// against the bound single × reviews ÷ cores, and the replies' delay.
//
//	nice -n 10 go run ./cmd/reviewload -reviews 30
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/games"
	"chesstutor/review"
	"chesstutor/store/sqlite"
)

const visitor = "0123456789abcdef0123456789abcdef"

func main() {
	gamePath := flag.String("game", "review/testdata/sixty-moves.txt", "the game to review, SAN moves")
	n := flag.Int("reviews", 30, "reviews asked at once")
	level := flag.Int("level", 2, "the live game's computer level")
	think := flag.Duration("think", 300*time.Millisecond, "the live player's time a move")
	flag.Parse()
	if err := run(*gamePath, *n, *level, *think); err != nil {
		fmt.Fprintln(os.Stderr, "reviewload:", err)
		os.Exit(1)
	}
}

func run(gamePath string, n, level int, think time.Duration) error {
	text, err := os.ReadFile(gamePath)
	if err != nil {
		return err
	}
	sans := strings.Fields(string(text))
	ctx := context.Background()
	cores := runtime.NumCPU()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	fmt.Printf("%d cores; load at start: %s\n", cores, loadavg())

	// 1. One review alone on one core.
	runtime.GOMAXPROCS(1)
	site, err := newSite(ctx, log, 1, engine.NewPool(1, 64), nil, len(sans))
	if err != nil {
		return err
	}
	single, _, err := site.reviewAll(ctx, sans, 1, nil)
	site.close()
	if err != nil {
		return err
	}
	runtime.GOMAXPROCS(cores)
	fmt.Printf("one review of a %d-ply game on one core: %s (load %s)\n", len(sans), single.Round(10*time.Millisecond), loadavg())

	// 2. The live game alone.
	games := engine.NewPool(max(1, cores-1), 64)
	yield := engine.NewYield(cores)
	games.SetYield(yield)
	stopLive := make(chan struct{})
	base := make(chan []time.Duration, 1)
	go func() { base <- liveGame(ctx, games, level, think, 40, stopLive) }()
	baseline := <-base
	fmt.Printf("level-%d replies with no review: %s (load %s)\n", level, figures(baseline), loadavg())

	// 3. n reviews at once beside the live game.
	site, err = newSite(ctx, log, cores, engine.NewPool(cores, 64), yield, len(sans))
	if err != nil {
		return err
	}
	defer site.close()
	live := make(chan []time.Duration, 1)
	stopLive = make(chan struct{})
	go func() { live <- liveGame(ctx, games, level, think, 0, stopLive) }()
	var polls pollLog
	all, each, err := site.reviewAll(ctx, sans, n, &polls)
	close(stopLive)
	replies := <-live
	if err != nil {
		return err
	}
	bound := single * time.Duration(n) / time.Duration(cores)
	fmt.Printf("%d reviews asked at once, %d workers: the last finished after %s (bound single × %d ÷ %d = %s: %s); first %s, median %s (load %s)\n",
		n, cores, all.Round(100*time.Millisecond), n, cores, bound.Round(100*time.Millisecond), verdict(all <= bound),
		slices.Min(each).Round(100*time.Millisecond), median(each).Round(100*time.Millisecond), loadavg())
	fmt.Printf("queue places seen at the first poll: %v\n", polls.first)
	fmt.Printf("every review showed its place while it waited, a place that never went up and a progress that never went back: %s (%d polls of all, every 2 s as the page polls; %d times a review was seen running with progress between 0 and 1)\n",
		verdict(polls.ok()), polls.count, polls.midway)
	for _, b := range polls.bad[:min(3, len(polls.bad))] {
		fmt.Printf("  %s\n", b)
	}
	fmt.Printf("level-%d replies during the reviews: %s\n", level, figures(replies))
	over := 0
	for _, r := range replies {
		if r-median(baseline) > 100*time.Millisecond {
			over++
		}
	}
	fmt.Printf("replies more than 100 ms later than the median with no review: %d of %d\n", over, len(replies))
	delay := percentile(replies, 100) - median(baseline)
	fmt.Printf("the slowest reply was %s later than the median with no review (bound 100 ms: %s); median delay %s\n",
		delay.Round(time.Millisecond), verdict(delay <= 100*time.Millisecond), (median(replies) - median(baseline)).Round(time.Millisecond))
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "holds"
	}
	return "does NOT hold"
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:3], " ")
}

// site is a review service over a fresh database, wired as the site's.
type site struct {
	dir   string
	st    *sqlite.SQLite
	games *games.Service
	svc   *review.Service
	stop  context.CancelFunc
	done  chan struct{}
}

func newSite(ctx context.Context, log *slog.Logger, workers int, an review.Engine, y *engine.Yield, plies int) (*site, error) {
	dir, err := os.MkdirTemp("", "reviewload")
	if err != nil {
		return nil, err
	}
	st, err := sqlite.Open(ctx, dir+"/site.db")
	if err != nil {
		return nil, err
	}
	if err := st.EnsureVisitor(ctx, visitor); err != nil {
		return nil, err
	}
	s := &site{dir: dir, st: st, games: games.New(games.Config{Store: st, MaxActive: 1000}), done: make(chan struct{})}
	s.svc = review.NewService(review.ServiceConfig{Store: st, Games: s.games, Engine: an, Yield: y, Workers: workers, Logger: log})
	runCtx, stop := context.WithCancel(ctx)
	s.stop = stop
	go func() { s.svc.Run(runCtx); close(s.done) }()
	return s, nil
}

func (s *site) close() {
	s.stop()
	<-s.done
	s.st.Close()
	os.RemoveAll(s.dir)
}

// pollLog checks what the page shows of the waiting and running reviews.
type pollLog struct {
	count, midway int
	first         []int
	bad           []string
}

func (p *pollLog) ok() bool { return len(p.bad) == 0 }

// reviewAll asks for n reviews of the game at once and waits for all;
// it returns the time until the last finished and each one's time.
func (s *site) reviewAll(ctx context.Context, sans []string, n int, polls *pollLog) (time.Duration, []time.Duration, error) {
	poll := 2 * time.Second // public/js/review.js
	if polls == nil {
		poll = 50 * time.Millisecond // only to see the end
	}
	ids := make([]string, n)
	for i := range ids {
		g, err := s.games.Create(ctx, visitor, games.NewGame{Mode: "friend", Clock: "none"})
		if err != nil {
			return 0, nil, err
		}
		for ply, san := range sans {
			p := ply
			if _, err := s.games.Move(ctx, visitor, g.ID, &p, "", san); err != nil {
				return 0, nil, fmt.Errorf("%s: %w", san, err)
			}
		}
		ids[i] = g.ID
	}
	began := time.Now()
	for _, id := range ids {
		if _, err := s.svc.Request(ctx, visitor, id); err != nil {
			return 0, nil, err
		}
	}
	each := make([]time.Duration, n)
	lastProgress := make([]float64, n)
	lastPlace := make([]int, n)
	finished := 0
	for finished < n {
		finished = 0
		var places []int
		for i, id := range ids {
			st, err := s.svc.Get(ctx, visitor, id)
			if err != nil {
				return 0, nil, err
			}
			if !st.Pending {
				if each[i] == 0 {
					each[i] = time.Since(began)
				}
				finished++
				continue
			}
			if polls != nil {
				p := st.Progress()
				if p < lastProgress[i] {
					polls.bad = append(polls.bad, fmt.Sprintf("review %d went back from %.2f to %.2f", i+1, lastProgress[i], p))
				}
				lastProgress[i] = p
				if st.Place > lastPlace[i] && lastPlace[i] != 0 {
					polls.bad = append(polls.bad, fmt.Sprintf("review %d went back from place %d to %d", i+1, lastPlace[i], st.Place))
				}
				if st.Place > 0 {
					lastPlace[i] = st.Place
				}
				if st.Place == 0 && p > 0 && p < 1 {
					polls.midway++
				}
				places = append(places, st.Place)
			}
		}
		if polls != nil && len(places) > 0 {
			polls.count++
			if polls.first == nil {
				polls.first = places
			}
		}
		if finished < n {
			time.Sleep(poll) // as the review page polls
		}
	}
	return time.Since(began), each, nil
}

// liveGame plays a game against the computer at level as the site does
// (Pool.Move for every reply, the player thinking in between) and returns
// the time of each reply: moves replies, or until stop is closed. The
// player's moves are the engine's at level 3 (on a searcher outside the
// site's pool), a new game after the end.
func liveGame(ctx context.Context, pool *engine.Pool, level int, think time.Duration, moves int, stop chan struct{}) []time.Duration {
	var times []time.Duration
	var mu sync.Mutex
	start, _ := chess.ParseFEN(chess.StartFEN)
	var played []chess.Move
	pos := start
	player := engine.NewSearcher(16)
	for moves == 0 || len(times) < moves {
		select {
		case <-stop:
			return times
		case <-time.After(think):
		}
		if len(pos.LegalMoves()) == 0 || len(played) > 160 {
			played, pos = nil, start
		}
		// The player's move (a searcher of its own: a person, not the
		// site, thinks of it), then the computer's reply, timed.
		m, _, err := player.PlayLevel(ctx, pos, nil, 3, engine.Limits{})
		if err != nil {
			return times
		}
		played, pos = append(played, m), pos.Play(m)
		if len(pos.LegalMoves()) == 0 {
			continue
		}
		t := time.Now()
		r, err := pool.Move(ctx, start, played, level)
		if err != nil {
			return times
		}
		mu.Lock()
		times = append(times, time.Since(t))
		mu.Unlock()
		played, pos = append(played, r), pos.Play(r)
	}
	return times
}

func median(d []time.Duration) time.Duration { return percentile(d, 50) }

func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, (len(s)-1)*p/100)]
}

func figures(d []time.Duration) string {
	return fmt.Sprintf("%d replies, median %s, p95 %s, p99 %s, max %s", len(d), median(d).Round(time.Millisecond),
		percentile(d, 95).Round(time.Millisecond), percentile(d, 99).Round(time.Millisecond), percentile(d, 100).Round(time.Millisecond))
}
