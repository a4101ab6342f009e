package live

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgxlisten"
)

// Channel is the PostgreSQL notification channel of changed games.
const Channel = "chess_games"

// announceQueue bounds the changes waiting to be announced: past it a
// change is dropped with a warning (the streams catch up at their next
// change, and the pages poll when they hear nothing), never held in
// memory without end.
const announceQueue = 4096

// Postgres carries changes between processes sharing one PostgreSQL
// database (N6): Announce sends NOTIFY chess_games '<id>:<ply>' and Run
// LISTENs on one connection per process, handing every notification to
// the hub. Payloads carry only the game's id and ply; each process
// re-reads the game itself.
type Postgres struct {
	hub  *Hub
	dsn  string
	log  *slog.Logger
	pool *pgxpool.Pool
	q    chan string

	// Backoff after a lost connection: it starts at MinBackoff and
	// doubles up to MaxBackoff while connecting keeps failing.
	MinBackoff, MaxBackoff time.Duration

	mu       sync.Mutex
	failures int
	ready    chan struct{} // closed once the first LISTEN is in place
	readyOne sync.Once
}

// NewPostgres connects the announcing side (a pool of two connections)
// to the database at dsn; call Run to listen and Close when done.
func NewPostgres(ctx context.Context, dsn string, hub *Hub, log *slog.Logger) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("live: the database address cannot be read")
	}
	cfg.MaxConns = 2
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("live: connect: %w", err)
	}
	if log == nil {
		log = slog.Default()
	}
	return &Postgres{hub: hub, dsn: dsn, log: log, pool: pool, q: make(chan string, announceQueue),
		MinBackoff: 100 * time.Millisecond, MaxBackoff: 10 * time.Second, ready: make(chan struct{})}, nil
}

// Announce queues NOTIFY for game id; it never blocks the request that
// changed the game.
func (p *Postgres) Announce(id string, ply int) {
	select {
	case p.q <- id + ":" + strconv.Itoa(ply):
	default:
		p.log.Warn("live: announce queue full, change dropped", "game", id)
	}
}

// Ready is closed once this process listens (tests wait for it).
func (p *Postgres) Ready() <-chan struct{} { return p.ready }

// Run sends the queued announcements and listens for everybody's until
// ctx ends.
func (p *Postgres) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { p.send(ctx) })
	l := &pgxlisten.Listener{
		Connect:        p.connect,
		LogError:       func(_ context.Context, err error) { p.log.Warn("live: listen", "err", err) },
		ReconnectDelay: time.Millisecond, // the backoff is connect's
	}
	l.Handle(Channel, handler{p})
	_ = l.Listen(ctx) // returns ctx's error when ctx ends
	wg.Wait()
}

// send runs the NOTIFYs one after another on the pool.
func (p *Postgres) send(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case payload := <-p.q:
			if _, err := p.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, Channel, payload); err != nil && ctx.Err() == nil {
				p.log.Warn("live: notify", "err", err)
			}
		}
	}
}

// connect opens the listening connection, waiting before each attempt
// after a failure: the backoff grows while the database stays away.
func (p *Postgres) connect(ctx context.Context) (*pgx.Conn, error) {
	p.mu.Lock()
	n := p.failures
	p.failures++ // reset by HandleBacklog once listening
	p.mu.Unlock()
	if n > 0 {
		d := p.MinBackoff << min(n-1, 16)
		if d > p.MaxBackoff || d <= 0 {
			d = p.MaxBackoff
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(d):
		}
	}
	return pgx.Connect(ctx, p.dsn)
}

// Close releases the announcing pool (after Run returned).
func (p *Postgres) Close() { p.pool.Close() }

type handler struct{ p *Postgres }

// HandleNotification hands a changed game to the hub.
func (h handler) HandleNotification(_ context.Context, n *pgconn.Notification, _ *pgx.Conn) error {
	id, _, ok := strings.Cut(n.Payload, ":")
	if !ok {
		return fmt.Errorf("live: malformed payload %q", n.Payload)
	}
	h.p.hub.Publish(id)
	return nil
}

// HandleBacklog runs each time LISTEN is in place, at the start and after
// every reconnect: notifications sent while this process was not
// listening are lost, so every game followed here is read again.
func (h handler) HandleBacklog(context.Context, string, *pgx.Conn) error {
	h.p.mu.Lock()
	h.p.failures = 0
	h.p.mu.Unlock()
	for _, id := range h.p.hub.Followed() {
		h.p.hub.Publish(id)
	}
	h.p.readyOne.Do(func() { close(h.p.ready) })
	return nil
}
