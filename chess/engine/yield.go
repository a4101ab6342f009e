package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Yield shares the machine's cores between the games being played and
// background work such as game reviews (issue 32): background searches
// use the cores the games leave free and give way at once when a game's
// computer move needs one, so a review never makes a player wait.
//
// While no game search is in flight, up to cores background searches run.
// While games search, one core is left for the pages and one for each game
// search, and the background searches beyond what remains are paused: the
// built-in engine's search waits at its next check for a stop (a few
// thousand nodes, well under a millisecond) and goes on where it was when
// the games are done, its thinking time lengthened by the pause. Nothing
// is searched twice. A UCI engine's search is paused by stopping its
// process (see Paused).
type Yield struct {
	cores int

	mu      sync.Mutex
	games   int           // game searches in flight (waiting or searching)
	running []*Paused     // background searches, oldest first
	free    chan struct{} // closed and replaced whenever room may have grown
}

// NewYield returns a Yield over cores cores (at least one).
func NewYield(cores int) *Yield {
	return &Yield{cores: max(cores, 1), free: make(chan struct{})}
}

// allowed is the number of background searches that may run; y.mu held.
func (y *Yield) allowed() int {
	if y.games == 0 {
		return y.cores
	}
	return max(y.cores-1-y.games, 0)
}

// rebalance pauses the newest background searches beyond what is allowed
// and resumes the oldest paused ones within it; y.mu held.
func (y *Yield) rebalance() {
	allowed := y.allowed()
	for i, b := range y.running {
		b.set(i >= allowed)
	}
}

// Game marks a game's search as in flight until done is called; the
// background searches that no longer fit are paused meanwhile.
func (y *Yield) Game() (done func()) {
	if y == nil {
		return func() {}
	}
	y.mu.Lock()
	y.games++
	y.rebalance()
	y.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			y.mu.Lock()
			y.games--
			y.rebalance()
			y.wakeLocked()
			y.mu.Unlock()
		})
	}
}

// Busy reports the game searches in flight and the background searches
// running and paused, for tests and the site's health figures.
func (y *Yield) Busy() (games, running, paused int) {
	y.mu.Lock()
	defer y.mu.Unlock()
	for _, b := range y.running {
		if b.paused.Load() {
			paused++
		} else {
			running++
		}
	}
	return y.games, running, paused
}

func (y *Yield) wakeLocked() {
	close(y.free)
	y.free = make(chan struct{})
}

// Background waits until a background search may start (no more of them
// than the games leave cores for), and returns a context for it, which
// carries the search's Paused, and release, to call when it is over. It
// returns ctx.Err() when ctx ends first.
func (y *Yield) Background(ctx context.Context) (context.Context, func(), error) {
	for {
		y.mu.Lock()
		if len(y.running) < y.allowed() {
			b := &Paused{resume: make(chan struct{})}
			close(b.resume)
			y.running = append(y.running, b)
			y.mu.Unlock()
			var once sync.Once
			return context.WithValue(ctx, pausedKey{}, b), func() {
				once.Do(func() {
					y.mu.Lock()
					for i, r := range y.running {
						if r == b {
							y.running = append(y.running[:i], y.running[i+1:]...)
							break
						}
					}
					b.set(false)
					y.rebalance()
					y.wakeLocked()
					y.mu.Unlock()
				})
			}, nil
		}
		free := y.free
		y.mu.Unlock()
		select {
		case <-free:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
}

// Paused tells a background search whether to wait for the games.
type Paused struct {
	paused atomic.Bool
	mu     sync.Mutex
	resume chan struct{} // closed while not paused
}

type pausedKey struct{}

// PausedFrom returns the Paused of a background search's context, or nil.
func PausedFrom(ctx context.Context) *Paused {
	p, _ := ctx.Value(pausedKey{}).(*Paused)
	return p
}

func (p *Paused) set(paused bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused.Load() == paused {
		return
	}
	p.paused.Store(paused)
	if paused {
		p.resume = make(chan struct{})
	} else {
		close(p.resume)
	}
}

// IsPaused reports whether the search should be waiting now.
func (p *Paused) IsPaused() bool { return p != nil && p.paused.Load() }

// Resumed returns a channel closed when the search may go on.
func (p *Paused) Resumed() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resume
}

// Wait blocks while the search is paused (or until ctx ends) and returns
// how long it waited.
func (p *Paused) Wait(ctx context.Context) time.Duration {
	if !p.IsPaused() {
		return 0
	}
	began := time.Now()
	select {
	case <-p.Resumed():
	case <-ctx.Done():
	}
	return time.Since(began)
}
