// Package games is the game service behind the game page and the JSON API
// (G1–G16, H1): it loads a game from the store, applies one action under the
// ply check, runs the clocks, asks the computer for its reply and commits
// every accepted change before answering (N3).
//
// A game is stored as its start position and its moves; loading replays
// them through the rules package, which is fast and means the rules package
// alone decides legality and endings. Every action loads and replays the
// game once: the files split the service by concern — create.go (new
// games), actions.go (the player's actions), computer.go (the computer's
// replies), clocks.go (time controls and the running clock), replay.go
// (loading, the game list and PGN) and state.go (the answer).
package games

import (
	"context"
	"errors"
	"hash/fnv"
	"sync"
	"time"

	"chesstutor/chess"
	"chesstutor/store"
	"chesstutor/words"
)

// Engine finds the computer's move; *engine.Pool satisfies it.
type Engine interface {
	Move(ctx context.Context, start *chess.Position, moves []chess.Move, level int) (chess.Move, error)
}

// Kind classifies an Error so the handlers can pick the HTTP status.
type Kind int

// The kinds of Error, each with its HTTP status in the handlers.
const (
	Invalid     Kind = iota + 1 // 400: the request is malformed
	NotFound                    // 404: no such game for this visitor
	Conflict                    // 409: stale ply, game over, not allowed now
	Illegal                     // 422: a well-formed move the rules forbid
	Unavailable                 // 503: the computer opponent is not running
	Forbidden                   // 403: no seat in this game, or acting for the other side (G24)
)

// Error is a refusal by code (Message, worded at the edge) and kind.
type Error struct {
	Kind    Kind
	Message words.Message
}

func (e *Error) Error() string { return (&words.Error{Message: e.Message}).Error() }

// fail refuses with the catalogue key game.<key> and name, value pairs.
func fail(k Kind, key string, args ...any) error {
	return &Error{Kind: k, Message: words.M("game."+key, args...)}
}

// failChess refuses with the words of a rules error (chess.Error), or
// with fallback when err is something else.
func failChess(k Kind, err error, fallback string, args ...any) error {
	return &Error{Kind: k, Message: ChessMessage(err, words.M("game."+fallback, args...))}
}

// ChessMessage is the message of a rules error: catalogue key
// chess.<Code> with the error's values, or fallback for any other error.
func ChessMessage(err error, fallback words.Message) words.Message {
	var ce *chess.Error
	if !errors.As(err, &ce) {
		return fallback
	}
	m := words.Message{Key: "chess." + ce.Code, Args: map[string]any{}}
	for k, v := range ce.Args {
		m.Args[k] = v
	}
	if n, ok := ce.Args["Count"]; ok {
		m.Args["Count"] = n
	}
	for _, k := range []string{"Color", "Turn"} {
		if v, ok := ce.Args[k]; ok {
			m.Args[k] = words.M("color." + v)
		}
	}
	if v, ok := ce.Args["Ending"]; ok {
		m.Args["Ending"] = words.M("ending.method_" + v)
	}
	return m
}

// Config holds the service's dependencies.
type Config struct {
	Store store.Games
	// Remote keeps the seats of games played from two devices; nil takes
	// Store when it has them too (a store.Store does), else such games are
	// refused.
	Remote store.RemoteGames
	Engine Engine           // nil refuses computer games
	Now    func() time.Time // defaults to time.Now
	// ClockScale multiplies every clock's base and increment. Tests set it
	// to shorten a real time control (a 5+0 game lasting seconds); zero
	// means 1.
	ClockScale float64
	// MaxActive caps a visitor's unfinished games (N8); zero means
	// DefaultMaxActive. See Create.
	MaxActive int
	// Changed, when set, is told after every saved change of a game played
	// from two devices (package live follows it to push the game to the
	// players' streams, G25). It must not block.
	Changed func(id string, ply int)
	// AwayClaim is how long a player of a game from two devices must be
	// gone, their own clock running, before the other may claim (G26);
	// zero means AwayClaim, a minute. Tests shorten it.
	AwayClaim time.Duration
}

// Service runs games. It is safe for concurrent use.
type Service struct {
	store  store.Games
	remote store.RemoteGames // nil: no games from two devices
	engine Engine
	now    func() time.Time
	scale  float64
	max    int

	locks [64]sync.Mutex

	// searches are this process's running computer searches, so undo,
	// resign or a draw can stop them (C3). An action taken on another
	// instance cannot reach them; the search then runs out and its move
	// is dropped because the stored version moved on.
	mu       sync.Mutex
	searches map[string]context.CancelFunc

	changed func(id string, ply int) // Config.Changed
	away    time.Duration            // Config.AwayClaim
}

// New returns a service.
func New(cfg Config) *Service {
	s := &Service{
		store:    cfg.Store,
		engine:   cfg.Engine,
		now:      cfg.Now,
		scale:    cfg.ClockScale,
		max:      cfg.MaxActive,
		searches: map[string]context.CancelFunc{},
		changed:  cfg.Changed,
		remote:   cfg.Remote,
		away:     cfg.AwayClaim,
	}
	if s.away <= 0 {
		s.away = AwayClaim
	}
	if s.remote == nil {
		s.remote, _ = cfg.Store.(store.RemoteGames)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.scale <= 0 {
		s.scale = 1
	}
	if s.max <= 0 {
		s.max = DefaultMaxActive
	}
	return s
}

// HasComputer reports whether computer games can be played.
func (s *Service) HasComputer() bool { return s.engine != nil }

// lock serialises requests on one game inside this process, so they queue
// instead of losing races. It is only an optimisation: correctness comes
// from the store's versioned UpdateGame, which also holds between several
// processes sharing one database (N6) — a request that loses a race there
// gets the same 409 as a stale ply.
func (s *Service) lock(id string) func() {
	h := fnv.New32a()
	h.Write([]byte(id))
	m := &s.locks[h.Sum32()%uint32(len(s.locks))]
	m.Lock()
	return m.Unlock
}

// errNoChange tells update that the action needs no save.
var errNoChange = errors.New("games: no change")

// action is the preamble every action on a game shares: the client names
// the ply it saw, and update refuses the action if the game has moved on.
func (s *Service) action(ctx context.Context, visitor, id string, ply *int, fn func(l *loaded, now time.Time) error) (*loaded, *State, error) {
	if ply == nil {
		return nil, nil, fail(Invalid, "refuse_ply_missing")
	}
	return s.update(ctx, visitor, id, ply, fn)
}

// activeAction is action on a game that must still be going on.
func (s *Service) activeAction(ctx context.Context, visitor, id string, ply *int, fn func(l *loaded, now time.Time) error) (*loaded, *State, error) {
	return s.action(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if err := l.requireActive(); err != nil {
			return err
		}
		return fn(l, now)
	})
}

// update loads the game (once), runs fn on it under the game's lock and
// saves the result before returning the new state; the loaded game comes
// back too, for a computer reply that follows. A running clock that has
// run out ends the game first (R9), and that is saved whatever fn decides.
// A nil ply skips the ply check (reads).
func (s *Service) update(ctx context.Context, visitor, id string, ply *int, fn func(l *loaded, now time.Time) error) (*loaded, *State, error) {
	unlock := s.lock(id)
	defer unlock()
	l, err := s.load(ctx, visitor, id)
	if err != nil {
		return nil, nil, err
	}
	now := s.now()
	if l.expire(now) {
		s.cancelSearch(id)
		if err := s.save(ctx, l); err != nil {
			return nil, nil, err
		}
	}
	if ply != nil && *ply != l.game.Ply() {
		if err := l.requireActive(); err != nil && !l.justExpired {
			return nil, nil, err
		}
		if !l.justExpired {
			return nil, nil, fail(Conflict, "refuse_moved_on", "Sent", *ply, "Count", l.game.Ply())
		}
	}
	if ply != nil {
		if err := l.requireSeat(); err != nil {
			return nil, nil, err
		}
	}
	err = fn(l, now)
	if errors.Is(err, errNoChange) {
		return l, l.state(now), nil
	}
	if err != nil {
		return nil, nil, err
	}
	if err := s.save(ctx, l); err != nil {
		return nil, nil, err
	}
	return l, l.state(now), nil
}

func (s *Service) save(ctx context.Context, l *loaded) error {
	if err := s.store.UpdateGame(ctx, l.rec); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return fail(Conflict, "refuse_changed")
		}
		return err
	}
	if l.remote() {
		s.notify(l.rec.ID, l.game.Ply())
	}
	return nil
}
