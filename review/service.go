package review

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/games"
	"chesstutor/store"
)

// Games gives the review service read access to a visitor's game;
// *games.Service satisfies it.
type Games interface {
	Get(ctx context.Context, visitor, id string) (*games.State, error)
}

// Errors of the service, beside the games service's own (an unknown game)
// and the store's.
var (
	// ErrNotRequested: nobody has asked for a review of this game (or it
	// is another visitor's).
	ErrNotRequested = errors.New("review: this game has not been reviewed")
	// ErrNoMoves: the game has no move to review yet.
	ErrNoMoves = errors.New("review: the game has no moves")
	// ErrNotSeated: the game was played from two devices and the visitor
	// only watched it; its review is for the two players (G26).
	ErrNotSeated = errors.New("review: only the players of this game may review it")
)

// ServiceConfig holds the service's dependencies.
type ServiceConfig struct {
	Store store.Reviews
	// Hints records the hints given while playing (nil: no hints).
	Hints store.Hints
	Games Games
	// Engine is the analysis engine (the built-in engine's pool or a UCI
	// engine such as Stockfish) and EngineName what a review says reviewed
	// it (BuiltinEngine when empty).
	Engine     Engine
	EngineName string
	// Yield, when set, makes every review search background work that
	// gives way to the games' computer moves (see engine.Yield). Hints
	// are part of play and never wait on it.
	Yield *engine.Yield
	// Nodes is the first pass's budget per position (DefaultNodes when
	// zero); the verification gets as much per move (see Options).
	Nodes uint64
	// VerifyNodes, when set, is the verification's budget per move
	// (Nodes, or DefaultVerifyNodes, when zero).
	VerifyNodes uint64
	// Depth, when set, bounds every search (reviews and hints) by depth
	// instead of by time, for tests that want the same answer on a busy
	// machine as on an idle one.
	Depth int
	// Workers is the number of games reviewed at once (1 when zero): the
	// machine's cores, with Yield keeping them for the games when needed.
	Workers int
	// Pace, in browser tests only, makes a review wait this long after
	// each position it stores, so a test sees a review running however
	// fast the machine is (with node budgets a quiet machine reviews 40
	// moves in seconds). Zero in production.
	Pace   time.Duration
	Logger *slog.Logger
}

// Service runs reviews in the background: Request stores a pending review
// and queues it, Run analyses the queue until its context ends, storing
// every position as it goes, and resumes the unfinished reviews when it
// starts again. It is safe for concurrent use.
type Service struct {
	store     store.Reviews
	hintStore store.Hints
	hints     hintCache
	games     Games
	engine    Engine
	name      string
	yield     *engine.Yield
	nodes     uint64
	verify    uint64
	pace      time.Duration
	depth     int
	workers   int
	log       *slog.Logger

	mu    sync.Mutex
	queue []string
	state map[string]jobState
	// live is the progress of the reviews running, 0 to 1: the first
	// pass over the positions, then the verification.
	live map[string]float64
	wake chan struct{}
}

// BuiltinEngine is the name a review gives the site's own engine.
const BuiltinEngine = "built-in"

type jobState uint8

const (
	queued  jobState = iota + 1
	running          // being reviewed
	rerun            // being reviewed, and asked for again meanwhile
)

// NewService returns a service; call Run to start its workers.
func NewService(cfg ServiceConfig) *Service {
	s := &Service{
		store:     cfg.Store,
		hintStore: cfg.Hints,
		games:     cfg.Games,
		engine:    cfg.Engine,
		name:      cfg.EngineName,
		yield:     cfg.Yield,
		nodes:     cfg.Nodes,
		verify:    cmp.Or(cfg.VerifyNodes, cfg.Nodes),
		pace:      cfg.Pace,
		depth:     cfg.Depth,
		workers:   max(cfg.Workers, 1),
		log:       cfg.Logger,
		state:     map[string]jobState{},
		live:      map[string]float64{},
		wake:      make(chan struct{}, 1),
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.name == "" {
		s.name = BuiltinEngine
	}
	return s
}

// EngineName is the name of the engine that reviews games.
func (s *Service) EngineName() string { return s.name }

// Status is a review as the API and the page show it: the game reviewed,
// how far the review is, and the moves reviewed so far.
type Status struct {
	GameID    string
	Pending   bool
	Done      int // moves reviewed
	Total     int // moves in the game reviewed
	Start     *chess.Position
	Moves     []chess.Move
	SANs      []string
	Positions []*chess.Position // every position, the start first
	// Evals holds the value of every position analysed so far (the
	// graph), the start first.
	Evals  []Eval
	Review *Review // the moves reviewed so far, with the summaries
	// Engine names the engine that reviewed the game (BuiltinEngine or a
	// UCI engine's name, "Stockfish 15.1"); for a pending review, the one
	// reviewing it.
	Engine string
	// Place is the review's place in the queue while it waits (1: next),
	// 0 once it is being reviewed or done.
	Place int
	// live is the progress of a running review (first pass, then the
	// verification); negative when not known.
	live float64
}

// Progress is the share of the review done, 0 to 1: the positions
// analysed while the review waits or is read from the store, the live
// figure (first pass and verification) while it runs. A done review is 1.
func (s *Status) Progress() float64 {
	switch {
	case !s.Pending || s.Total == 0:
		return 1
	case s.live >= 0:
		return s.live
	}
	return firstPassShare * float64(s.Done) / float64(s.Total)
}

// firstPassShare is the part of a review's progress that the first pass
// makes; the verification makes the rest.
const firstPassShare = 0.8

// Request asks for a review of the visitor's game as it stands now. A
// review of the same moves is kept (and finished if it was interrupted);
// a game that moved on since gets a new review. Of a game played from two
// devices only its two players may ask (ErrNotSeated for a watcher), and
// the review is then both players' (Get).
func (s *Service) Request(ctx context.Context, visitor, id string) (*Status, error) {
	st, err := s.games.Get(ctx, visitor, id)
	if err != nil {
		return nil, err
	}
	if st.Remote != nil && st.Remote.Seat == "" {
		return nil, ErrNotSeated
	}
	if len(st.UCI) == 0 {
		return nil, ErrNoMoves
	}
	old, err := s.store.Review(ctx, id)
	switch {
	case err == nil && slices.Equal(old.Moves, st.UCI) && old.StartFEN == st.StartFEN:
		if old.Status == store.ReviewPending {
			s.enqueue(id)
		}
		return s.status(old)
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	rec := &store.Review{GameID: id, Visitor: visitor, Token: newToken(), Status: store.ReviewPending,
		StartFEN: st.StartFEN, Moves: st.UCI}
	if err := s.store.StartReview(ctx, rec); err != nil {
		return nil, err
	}
	s.enqueue(id)
	return s.status(rec)
}

// Get returns the review of the visitor's game so far, or ErrNotRequested.
// The review of a game played from two devices is read by either player,
// whichever asked for it, and by nobody else (ErrNotSeated).
func (s *Service) Get(ctx context.Context, visitor, id string) (*Status, error) {
	// The queue is read before the store: a review that finishes in
	// between reads as done, never as running with its progress lost.
	place, live := s.place(id)
	rec, err := s.store.Review(ctx, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if err != nil || rec.Visitor != visitor {
		if serr := s.seated(ctx, visitor, id); serr != nil {
			return nil, serr
		}
		if err != nil {
			return nil, ErrNotRequested
		}
	}
	return s.statusAt(rec, place, live)
}

// seated is nil when visitor holds a seat in id, a game from two
// devices; ErrNotSeated when they only watch it; ErrNotRequested for a
// game of any other kind (one visitor's reviews are nobody else's).
func (s *Service) seated(ctx context.Context, visitor, id string) error {
	st, err := s.games.Get(ctx, visitor, id)
	switch {
	case err != nil || st.Remote == nil:
		return ErrNotRequested
	case st.Remote.Seat == "":
		return ErrNotSeated
	}
	return nil
}

// status is the Status of a stored review with what the service knows of
// it now: its place in the queue, its live progress, the engine.
func (s *Service) status(rec *store.Review) (*Status, error) {
	place, live := s.place(rec.GameID)
	return s.statusAt(rec, place, live)
}

// statusAt is status with the place and live progress read before.
func (s *Service) statusAt(rec *store.Review, place int, live float64) (*Status, error) {
	st, err := status(rec)
	if err != nil {
		return nil, err
	}
	if st.Pending {
		st.Place, st.live = place, live
		st.Engine = s.name
	}
	return st, nil
}

// Run reviews the queued games until ctx ends, then waits for the reviews
// in progress to stop (each keeps the positions it finished) and returns.
// It first queues the reviews an earlier run left unfinished.
func (s *Service) Run(ctx context.Context) error {
	pending, err := s.store.PendingReviews(ctx)
	if err != nil {
		return fmt.Errorf("review: resume: %w", err)
	}
	for _, r := range pending {
		s.enqueue(r.GameID)
	}
	if len(pending) > 0 {
		s.log.Info("resuming reviews", "count", len(pending))
	}
	var wg sync.WaitGroup
	for range s.workers {
		wg.Go(func() { s.work(ctx) })
	}
	wg.Wait()
	return nil
}

func (s *Service) work(ctx context.Context) {
	for {
		id, ok := s.next()
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
				continue
			}
		}
		err := s.run(ctx, id)
		s.finish(id)
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, store.ErrConflict):
			// Replaced by a newer request, which is queued.
		case err != nil:
			s.log.Error("review failed", "game", id, "err", err)
		}
	}
}

// run reviews one game from where its stored review stands.
func (s *Service) run(ctx context.Context, id string) error {
	rec, err := s.store.Review(ctx, id)
	if err != nil {
		return err
	}
	if rec.Status != store.ReviewPending {
		return nil
	}
	g, done, err := restore(rec)
	if err != nil {
		return err
	}
	start, moves := g.positions[0], g.moves
	began := time.Now()
	var eng Engine = s.engine
	if s.yield != nil {
		eng = yielding{eng: s.engine, yield: s.yield}
	}
	an, err := Analyse(ctx, eng, start, moves, done, Options{Nodes: s.nodes, VerifyNodes: s.verify, Depth: s.depth,
		Each: func(i int, a Analysis) error {
			if err := s.store.AddReviewPosition(ctx, id, rec.Token, storedPosition(i, a)); err != nil {
				return err
			}
			if s.pace > 0 {
				select {
				case <-time.After(s.pace):
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			return nil
		},
		Progress: func(n, total int) {
			s.setLive(id, firstPassShare*float64(n)/float64(max(total, 1)))
		},
		Verified: func(n, total int) {
			s.setLive(id, firstPassShare+(1-firstPassShare)*float64(n)/float64(max(total, 1)))
		}})
	if err != nil {
		return err
	}
	r, err := Build(start, moves, an)
	if err != nil {
		return err
	}
	classed := make([]store.ReviewMove, len(r.Moves))
	for i, m := range r.Moves {
		reason, err := json.Marshal(m.Reason)
		if err != nil {
			return err
		}
		classed[i] = store.ReviewMove{Ply: m.Ply, Class: m.Code(), Loss: m.Loss, Reason: reason}
		if m.Best != chess.NoMove {
			classed[i].Best = m.Best.UCI()
		}
	}
	if err := s.store.FinishReview(ctx, id, rec.Token, s.name, classed); err != nil {
		return err
	}
	s.log.Info("review done", "game", id, "moves", len(moves), "positions_resumed", len(done), "took", time.Since(began).Round(time.Millisecond))
	return nil
}

func (s *Service) enqueue(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state[id] {
	case queued, rerun:
		return
	case running:
		s.state[id] = rerun
		return
	}
	s.state[id] = queued
	s.queue = append(s.queue, id)
	s.signal()
}

func (s *Service) next() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return "", false
	}
	id := s.queue[0]
	s.queue = s.queue[1:]
	s.state[id] = running
	if len(s.queue) > 0 {
		s.signal() // another worker may take the next one
	}
	return id, true
}

func (s *Service) finish(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.live, id)
	if s.state[id] == rerun {
		s.state[id] = queued
		s.queue = append(s.queue, id)
		s.signal()
		return
	}
	delete(s.state, id)
}

func (s *Service) setLive(id string, p float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.state[id]; ok {
		s.live[id] = min(p, 1)
	}
}

// place returns the review's place in the queue (1: next; 0: not
// waiting) and its live progress (negative: not running).
func (s *Service) place(id string) (int, float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	live, ok := s.live[id]
	if !ok {
		live = -1
	}
	switch s.state[id] {
	case running, rerun:
		return 0, max(live, 0)
	case queued:
		return slices.Index(s.queue, id) + 1, -1
	}
	return 0, -1
}

// signal wakes a waiting worker; called with mu held.
func (s *Service) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func newToken() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// parseGame replays a stored review's game.
func parseGame(rec *store.Review) (*chess.Position, []chess.Move, error) {
	g, err := chess.Replay(rec.StartFEN, rec.Moves)
	if err != nil {
		return nil, nil, fmt.Errorf("review: game %s: %w", rec.GameID, err)
	}
	return g.Positions()[0], g.Moves(), nil
}

func storedPosition(i int, a Analysis) store.ReviewPosition {
	p := store.ReviewPosition{Index: i, CP: a.Eval.CP, Mate: a.Eval.Mate, IsMate: a.Eval.IsMate, Depth: a.Depth}
	if a.Best != chess.NoMove {
		p.Best = a.Best.UCI()
	}
	for _, m := range a.PV {
		p.PV = append(p.PV, m.UCI())
	}
	return p
}

// restore replays a stored review's game and reads its analyses back.
func restore(rec *store.Review) (*game, []Analysis, error) {
	start, moves, err := parseGame(rec)
	if err != nil {
		return nil, nil, err
	}
	g, err := replay(start, moves)
	if err != nil {
		return nil, nil, err
	}
	if len(rec.Positions) > len(moves)+1 {
		return nil, nil, fmt.Errorf("review: game %s: %d positions stored for %d moves", rec.GameID, len(rec.Positions), len(moves))
	}
	an := make([]Analysis, len(rec.Positions))
	for i, p := range rec.Positions {
		if p.Index != i {
			return nil, nil, fmt.Errorf("review: game %s: stored position %d where %d was expected", rec.GameID, p.Index, i)
		}
		a := Analysis{Eval: Eval{CP: p.CP, Mate: p.Mate, IsMate: p.IsMate}, Depth: p.Depth}
		pos := g.positions[i]
		if p.Best != "" {
			if a.Best, err = pos.ParseUCI(p.Best); err != nil {
				return nil, nil, fmt.Errorf("review: game %s: position %d: best move: %w", rec.GameID, i, err)
			}
		}
		for _, u := range p.PV {
			m, err := pos.ParseUCI(u)
			if err != nil {
				break // the line is only a hint; keep its legal start
			}
			a.PV = append(a.PV, m)
			pos = pos.Play(m)
		}
		an[i] = a
	}
	return g, an, nil
}

// status builds the Status of a stored review.
func status(rec *store.Review) (*Status, error) {
	g, an, err := restore(rec)
	if err != nil {
		return nil, err
	}
	start, moves := g.positions[0], g.moves
	r, err := Build(start, moves, an)
	if err != nil {
		return nil, err
	}
	if rec.Status == store.ReviewDone {
		if err := applyStored(r, rec.Classed, g); err != nil {
			return nil, err
		}
	}
	st := &Status{GameID: rec.GameID, Pending: rec.Status != store.ReviewDone, Done: len(r.Moves), Total: len(moves),
		Start: start, Moves: moves, SANs: g.sans, Positions: g.positions, Review: r, Engine: rec.Engine, live: -1}
	if st.Engine == "" {
		st.Engine = BuiltinEngine
	}
	for _, a := range an {
		st.Evals = append(st.Evals, a.Eval)
	}
	return st, nil
}

// applyStored puts the stored classes and reasons of a finished review on
// the rebuilt moves: what was found when the review ran is what is shown.
func applyStored(r *Review, classed []store.ReviewMove, g *game) error {
	if len(classed) != len(r.Moves) {
		return fmt.Errorf("review: %d classed moves stored for %d moves", len(classed), len(r.Moves))
	}
	for i, c := range classed {
		m := &r.Moves[i]
		book := c.Class == BookCode
		class := Best
		if !book {
			var err error
			if class, err = ParseClass(c.Class); err != nil {
				return err
			}
		}
		var reason Reason
		if len(c.Reason) > 0 {
			if err := json.Unmarshal(c.Reason, &reason); err != nil {
				return fmt.Errorf("review: move %d: %w", c.Ply, err)
			}
		}
		m.Class, m.Book, m.Loss, m.Reason = class, book, c.Loss, reason
		m.Best, m.BestSAN = chess.NoMove, ""
		if c.Best != "" {
			before := g.positions[i]
			best, err := before.ParseUCI(c.Best)
			if err != nil {
				return fmt.Errorf("review: move %d: better move: %w", c.Ply, err)
			}
			m.Best, m.BestSAN = best, before.SAN(best)
		}
	}
	r.White = summarise(r.Moves, chess.White)
	r.Black = summarise(r.Moves, chess.Black)
	return nil
}

// yielding runs an engine's searches as background work under a Yield:
// each waits for a core the games leave free, and is paused while a game
// needs the core back (see engine.Yield).
type yielding struct {
	eng   Engine
	yield *engine.Yield
}

func (y yielding) StockfishScale() bool {
	s, ok := y.eng.(StockfishScaled)
	return ok && s.StockfishScale()
}

func (y yielding) Analyse(ctx context.Context, pos *chess.Position, history []uint64, lim engine.Limits) (engine.Result, error) {
	bctx, release, err := y.yield.Background(ctx)
	if err != nil {
		return engine.Result{}, err
	}
	defer release()
	return y.eng.Analyse(bctx, pos, history, lim)
}
