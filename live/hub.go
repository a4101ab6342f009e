// Package live follows games played from two devices as they change
// (G25): a Hub in each process holds the open event streams by game, and
// when a game changes it reads the game once and hands the new state to
// every stream of that game in this process. With SQLite the hub is the
// whole story; with PostgreSQL several processes share the games, so a
// change is announced with NOTIFY carrying only the game's id and ply
// (Postgres, in pg.go), and each process's one listening connection hands
// it to its own hub, which re-reads the game from the database.
//
// Memory is bounded: a stream holds at most one state not yet sent (a
// newer one replaces it), a visitor may hold only a few streams in a
// process, and the process only so many in all.
package live

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"chesstutor/games"
)

// Defaults for Options.
const (
	DefaultPerVisitor = 6
	DefaultMaxStreams = 10_000
)

// ErrTooMany refuses a stream beyond the visitor's or the process's share.
var ErrTooMany = errors.New("live: too many streams")

// ErrClosed refuses a stream once the hub is closing (shutdown).
var ErrClosed = errors.New("live: closed")

// Loader reads a game as someone without a seat sees it
// (games.Service.View).
type Loader func(ctx context.Context, id string) (*games.State, error)

// Options bound the hub.
type Options struct {
	PerVisitor int          // streams one visitor may hold in this process; default DefaultPerVisitor
	MaxStreams int          // streams in this process; default DefaultMaxStreams
	Logger     *slog.Logger // defaults to slog.Default()
	// Timeout bounds one re-read of a game; default 5 s.
	Timeout time.Duration
}

// Hub holds this process's streams by game. It is safe for concurrent use.
type Hub struct {
	load Loader
	opt  Options
	bus  Bus

	mu       sync.Mutex
	games    map[string]*follow
	visitors map[string]int
	total    int
	closed   bool
	done     chan struct{}
}

// follow is one game's streams and its re-read in flight, if any.
type follow struct {
	streams map[*Stream]struct{}
	reading bool // a re-read runs; again asks it to run once more
	again   bool
}

// Stream is one open event stream on a game.
type Stream struct {
	Game, Visitor string
	c             chan *games.State
	hub           *Hub
}

// States delivers the game's state after every change, the newest only:
// a stream that fell behind skips to the latest.
func (s *Stream) States() <-chan *games.State { return s.c }

// Done is closed when the hub closes: the stream should end.
func (s *Stream) Done() <-chan struct{} { return s.hub.done }

// Bus carries a change to every process that follows games (Postgres);
// without one, changes stay in this process.
type Bus interface {
	// Announce tells every process, this one included, that game id
	// changed (its ply now ply). It must not block for long.
	Announce(id string, ply int)
}

// NewHub returns a hub that reads games with load.
func NewHub(load Loader, opt Options) *Hub {
	if opt.PerVisitor <= 0 {
		opt.PerVisitor = DefaultPerVisitor
	}
	if opt.MaxStreams <= 0 {
		opt.MaxStreams = DefaultMaxStreams
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 5 * time.Second
	}
	return &Hub{load: load, opt: opt, games: map[string]*follow{}, visitors: map[string]int{}, done: make(chan struct{})}
}

// SetBus makes the hub announce changes on b (call before serving).
func (h *Hub) SetBus(b Bus) { h.bus = b }

// Changed is games.Config.Changed: the game changed in this process. It
// goes to every process through the bus when there is one, else straight
// to this hub.
func (h *Hub) Changed(id string, ply int) {
	if h.bus != nil {
		h.bus.Announce(id, ply)
		return
	}
	h.Publish(id)
}

// Follow opens a stream on game id for visitor, or refuses with
// ErrTooMany or ErrClosed. Close it with Leave.
func (h *Hub) Follow(id, visitor string) (*Stream, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	if h.total >= h.opt.MaxStreams || h.visitors[visitor] >= h.opt.PerVisitor {
		return nil, ErrTooMany
	}
	s := &Stream{Game: id, Visitor: visitor, c: make(chan *games.State, 1), hub: h}
	f := h.games[id]
	if f == nil {
		f = &follow{streams: map[*Stream]struct{}{}}
		h.games[id] = f
	}
	f.streams[s] = struct{}{}
	h.visitors[visitor]++
	h.total++
	return s, nil
}

// Leave closes a stream.
func (h *Hub) Leave(s *Stream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.games[s.Game]
	if f == nil {
		return
	}
	if _, ok := f.streams[s]; !ok {
		return
	}
	delete(f.streams, s)
	if len(f.streams) == 0 && !f.reading {
		delete(h.games, s.Game)
	}
	if h.visitors[s.Visitor]--; h.visitors[s.Visitor] <= 0 {
		delete(h.visitors, s.Visitor)
	}
	h.total--
}

// Publish re-reads game id, once however many streams follow it here,
// and hands the state to each of them. A change that comes while a
// re-read runs makes it run once more afterwards, so the last state sent
// is never older than the last change. Games nobody follows here cost
// nothing.
func (h *Hub) Publish(id string) {
	h.mu.Lock()
	f := h.games[id]
	if f == nil || h.closed {
		h.mu.Unlock()
		return
	}
	if f.reading {
		f.again = true
		h.mu.Unlock()
		return
	}
	f.reading = true
	h.mu.Unlock()
	go h.refresh(id, f)
}

func (h *Hub) refresh(id string, f *follow) {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), h.opt.Timeout)
		st, err := h.load(ctx, id)
		cancel()
		if err != nil {
			h.opt.Logger.Warn("live: re-read game", "game", id, "err", err)
		}
		h.mu.Lock()
		if err == nil {
			for s := range f.streams {
				s.offer(st)
			}
		}
		if !f.again || h.closed {
			f.reading = false
			if len(f.streams) == 0 && h.games[id] == f {
				delete(h.games, id)
			}
			h.mu.Unlock()
			return
		}
		f.again = false
		h.mu.Unlock()
	}
}

// offer hands st to the stream, replacing a state it has not taken yet.
func (s *Stream) offer(st *games.State) {
	for {
		select {
		case s.c <- st:
			return
		default:
		}
		select {
		case <-s.c:
		default:
		}
	}
}

// Followed lists the games followed in this process (re-read after the
// bus reconnects, since changes may have been missed meanwhile).
func (h *Hub) Followed() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.games))
	for id := range h.games {
		out = append(out, id)
	}
	return out
}

// Streams counts the open streams in this process.
func (h *Hub) Streams() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// Close ends every stream (their Done closes) and refuses new ones; the
// server calls it as it shuts down, so open streams do not hold the
// shutdown up.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.done)
	}
}
