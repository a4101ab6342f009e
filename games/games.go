// Package games is the game service behind the game page and the JSON API
// (G1–G16, H1): it loads a game from the store, applies one action under the
// ply check, runs the clocks, asks the computer for its reply and commits
// every accepted change before answering (N3).
//
// A game is stored as its start position and its moves; loading replays
// them through the rules package, which is fast and means the rules package
// alone decides legality and endings.
package games

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
	"sync"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/store"
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
)

// Error is a refusal with a message a person reads.
type Error struct {
	Kind    Kind
	Message string
}

func (e *Error) Error() string { return e.Message }

func fail(k Kind, format string, args ...any) error {
	return &Error{Kind: k, Message: fmt.Sprintf(format, args...)}
}

// Clock choices on the new-game form (G2): minutes each + seconds a move.
var clockChoices = map[string][2]int64{
	"none":  {0, 0},
	"3+2":   {3 * 60000, 2000},
	"5+0":   {5 * 60000, 0},
	"10+0":  {10 * 60000, 0},
	"15+10": {15 * 60000, 10000},
}

// ClockNames lists the time controls in the order the form offers them.
func ClockNames() []string { return []string{"none", "3+2", "5+0", "10+0", "15+10"} }

// Config holds the service's dependencies.
type Config struct {
	Store  store.Games
	Engine Engine           // nil refuses computer games
	Now    func() time.Time // defaults to time.Now
	// ClockScale multiplies every clock's base and increment. Tests set it
	// to shorten a real time control (a 5+0 game lasting seconds); zero
	// means 1.
	ClockScale float64
	// MaxActive caps a visitor's unfinished games (N8); zero means
	// DefaultMaxActive. See Create.
	MaxActive int
}

// Service runs games. It is safe for concurrent use.
type Service struct {
	store  store.Games
	engine Engine
	now    func() time.Time
	scale  float64
	max    int

	locks [64]sync.Mutex

	mu       sync.Mutex
	searches map[string]context.CancelFunc
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

// lock serialises requests on one game inside this process; the version
// check in the store covers several processes sharing one database.
func (s *Service) lock(id string) func() {
	h := fnv.New32a()
	h.Write([]byte(id))
	m := &s.locks[h.Sum32()%uint32(len(s.locks))]
	m.Lock()
	return m.Unlock
}

// NewGame is what the new-game form or POST /api/games asks for.
type NewGame struct {
	Mode       string `json:"mode"`  // "friend" or "computer"
	Color      string `json:"color"` // "white", "black" or "random" (the human's colour against the computer)
	Level      int    `json:"level"` // 1..8 against the computer
	Clock      string `json:"clock"` // "none", "3+2", "5+0", "10+0", "15+10"
	FEN        string `json:"fen"`   // optional start position
	Undo       *bool  `json:"undo"`  // default on (G16)
	PassScreen *bool  `json:"pass_screen"`
	TurnBoard  bool   `json:"turn_board"`
}

// Create starts a game for visitor. Against the computer playing White,
// the computer's first move is made before returning when time allows.
func (s *Service) Create(ctx context.Context, visitor string, req NewGame) (*State, error) {
	rec, err := s.newRecord(visitor, req)
	if err != nil {
		return nil, err
	}
	start, err := chess.ParseFEN(rec.StartFEN)
	if err != nil {
		return nil, fail(Invalid, "That FEN is not a position this site can read: %v.", trimChess(err))
	}
	g, err := chess.NewGame(start)
	if err != nil {
		return nil, fail(Invalid, "A game cannot start from that position: %v.", trimChess(err))
	}
	if g.Outcome().Result != "*" {
		return nil, fail(Invalid, "That position is already finished (%s), so there is nothing to play.", g.Outcome().Reason())
	}
	rec.StartFEN = start.FEN()
	// At most s.max unfinished games per visitor: the least recently
	// played ones are closed as abandoned to make room (N8).
	if _, err := s.store.CapActiveGames(ctx, visitor, s.max-1); err != nil {
		return nil, err
	}
	if err := s.store.CreateGame(ctx, rec); err != nil {
		return nil, err
	}
	l := &loaded{rec: rec, game: g}
	if l.computerToMove() {
		return s.computerReply(ctx, visitor, rec.ID)
	}
	return l.state(s.now()), nil
}

func (s *Service) newRecord(visitor string, req NewGame) (*store.Game, error) {
	rec := &store.Game{Visitor: visitor, Status: statusActive, Result: "*", Undo: true}
	switch req.Mode {
	case "friend", "computer":
		rec.Mode = req.Mode
	case "":
		return nil, fail(Invalid, `Say who you play against: "mode" is "friend" or "computer".`)
	default:
		return nil, fail(Invalid, `Unknown mode %q: use "friend" or "computer".`, req.Mode)
	}
	switch req.Color {
	case "white", "black":
		rec.HumanColor = req.Color
	case "", "random":
		rec.HumanColor = "white"
		if req.Color == "random" && randomBit() {
			rec.HumanColor = "black"
		}
	default:
		return nil, fail(Invalid, `Unknown colour %q: use "white", "black" or "random".`, req.Color)
	}
	if rec.Mode == "friend" {
		rec.HumanColor = "white"
	}
	if rec.Mode == "computer" {
		if s.engine == nil {
			return nil, fail(Unavailable, "The computer opponent is not running right now. Play a friend instead, or try again later.")
		}
		switch {
		case req.Level == 0:
			rec.Level = 1
		case req.Level < 1 || req.Level > 8:
			return nil, fail(Invalid, "The level must be between 1 and 8, not %d.", req.Level)
		default:
			rec.Level = req.Level
		}
	}
	name := req.Clock
	if name == "" {
		name = "none"
	}
	c, ok := clockChoices[name]
	if !ok {
		return nil, fail(Invalid, "Unknown time control %q: choose none, 3+2, 5+0, 10+0 or 15+10.", req.Clock)
	}
	rec.ClockName = name
	rec.BaseMS = int64(float64(c[0]) * s.scale)
	rec.IncrementMS = int64(float64(c[1]) * s.scale)
	if req.Undo != nil {
		rec.Undo = *req.Undo
	}
	rec.PassScreen = rec.Mode == "friend"
	if req.PassScreen != nil {
		rec.PassScreen = *req.PassScreen && rec.Mode == "friend"
	}
	rec.TurnBoard = req.TurnBoard && rec.Mode == "friend"
	rec.StartFEN = chess.StartFEN
	if f := strings.TrimSpace(req.FEN); f != "" {
		if len(f) > 120 {
			return nil, fail(Invalid, "That FEN is too long to be a chess position.")
		}
		rec.StartFEN = f
	}
	rec.Clocks = store.ClockPair{White: rec.BaseMS, Black: rec.BaseMS}
	rec.Snapshots = []store.ClockPair{rec.Clocks}
	rec.ID = newID()
	rec.CreatedAt = s.now()
	return rec, nil
}

// Get returns the game's state; a game whose running clock has run out is
// ended first (R9) and saved.
func (s *Service) Get(ctx context.Context, visitor, id string) (*State, error) {
	return s.update(ctx, visitor, id, nil, func(*loaded, time.Time) error { return errNoChange })
}

// uciPattern is the "move" field's form; typed moves ("san") are read by
// chess.ParseSAN alone, the one grammar for them (G22).
var uciPattern = regexp.MustCompile(`^[a-h][1-8][a-h][1-8][qrbn]?$`)

// Move plays the human's move (UCI in uci, or SAN in san) on the position
// the client saw at ply. Against the computer, the reply follows before
// returning unless ctx ends first; then the page asks for it with Reply.
func (s *Service) Move(ctx context.Context, visitor, id string, ply *int, uci, san string) (*State, error) {
	uci, san = strings.TrimSpace(uci), strings.TrimSpace(san)
	switch {
	case uci == "" && san == "":
		return nil, fail(Invalid, `Send the move as "move" (like "e2e4") or "san" (like "Nf3").`)
	case uci != "" && san != "":
		return nil, fail(Invalid, `Send either "move" or "san", not both.`)
	case uci != "" && !uciPattern.MatchString(uci):
		return nil, fail(Invalid, "%q is not a move in UCI form: write the start and end squares, like e2e4 (or e7e8q for a promotion).", clip(uci))
	}
	if ply == nil {
		return nil, fail(Invalid, `Send the ply you saw ("ply": the number of half-moves played) with the move.`)
	}
	var needReply bool
	st, err := s.update(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if err := l.requireActive(); err != nil {
			return err
		}
		if l.rec.Mode == "computer" && l.turn() != l.human() {
			return fail(Conflict, "It is the computer's turn. Wait for its move.")
		}
		pos := l.game.Position()
		var m chess.Move
		var err error
		if uci != "" {
			m, err = pos.ParseUCI(uci)
		} else {
			m, err = pos.ParseSAN(san)
		}
		var syntax *chess.SyntaxError
		if errors.As(err, &syntax) {
			return fail(Invalid, "%s", sentence(trimChess(err)))
		}
		if err != nil {
			return fail(Illegal, "%s", sentence(trimChess(err)))
		}
		if err := l.play(m, now); err != nil {
			return err
		}
		if l.rec.Mode == "friend" && l.rec.PassScreen && l.active() {
			l.pause(now) // the pass screen shows; its tap resumes (G11, G12)
		}
		needReply = l.computerToMove()
		return nil
	})
	if err != nil || !needReply {
		return st, err
	}
	return s.computerReply(ctx, visitor, id)
}

// Reply asks the computer for its move when the page finds it missing
// (the move request ended before the search did).
func (s *Service) Reply(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	if ply == nil {
		return nil, fail(Invalid, `Send the ply you saw ("ply") with the request.`)
	}
	var ready bool
	st, err := s.update(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if l.rec.Mode != "computer" {
			return fail(Conflict, "This is a game between two people; there is no computer to reply.")
		}
		ready = l.computerToMove()
		return errNoChange
	})
	if err != nil || !ready {
		return st, err
	}
	return s.computerReply(ctx, visitor, id)
}

// computerReply searches without holding the game's lock, so undo or
// resign can cancel it; the result is dropped if the game changed meanwhile.
func (s *Service) computerReply(ctx context.Context, visitor, id string) (*State, error) {
	var (
		start   *chess.Position
		moves   []chess.Move
		level   int
		version int64
		budget  time.Duration
	)
	st, err := s.update(ctx, visitor, id, nil, func(l *loaded, now time.Time) error {
		if !l.computerToMove() {
			return errNoChange
		}
		start, moves, level, version = l.game.Positions()[0], l.game.Moves(), l.rec.Level, l.rec.Version
		if l.timed() {
			budget = clockBudget(pick(l.remaining(now), l.turn()), l.rec.IncrementMS)
		}
		return errNoChange
	})
	if err != nil || start == nil {
		return st, err
	}
	sctx, cancel := context.WithCancel(ctx)
	if budget > 0 {
		// On a clock the computer thinks for a share of what it has left,
		// so it never loses on time needlessly; the engine counts the wait
		// for a free worker in it too.
		sctx = engine.WithTimeBudget(sctx, budget)
	}
	s.mu.Lock()
	if old, ok := s.searches[id]; ok {
		old()
	}
	s.searches[id] = cancel
	s.mu.Unlock()
	m, searchErr := s.engine.Move(sctx, start, moves, level)
	s.mu.Lock()
	cancel()
	delete(s.searches, id)
	s.mu.Unlock()
	return s.update(context.WithoutCancel(ctx), visitor, id, nil, func(l *loaded, now time.Time) error {
		if searchErr != nil || l.rec.Version != version || !l.computerToMove() {
			// Cancelled, or the game moved on (undo, resign): drop it.
			return errNoChange
		}
		if !l.game.Position().IsLegal(m) {
			return fmt.Errorf("games: engine offered illegal move %s in %s", m.UCI(), l.game.Position().FEN())
		}
		return l.play(m, now)
	})
}

// clockBudget is the longest the computer may think with leftMS on its
// clock and incMS added after each move: a thirtieth of the clock plus half
// the increment, never more than half of what is left, and never below a
// short floor that still finds a sensible move.
func clockBudget(leftMS, incMS int64) time.Duration {
	const floor = 50 * time.Millisecond
	d := time.Duration(leftMS/30+incMS/2) * time.Millisecond
	d = min(d, time.Duration(leftMS/2)*time.Millisecond)
	return max(d, floor)
}

// cancelSearch stops a search still running for the game (C3).
func (s *Service) cancelSearch(id string) {
	s.mu.Lock()
	if c, ok := s.searches[id]; ok {
		c()
		delete(s.searches, id)
	}
	s.mu.Unlock()
}

// Undo takes back the last move in a friend game, or returns to the
// position before the human's last move against the computer (G10). Both
// clocks go back to what they showed when that position first appeared.
func (s *Service) Undo(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	if ply == nil {
		return nil, fail(Invalid, `Send the ply you saw ("ply") with the request.`)
	}
	return s.update(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if !l.rec.Undo {
			return fail(Conflict, "Undo is switched off for this game.")
		}
		if err := l.requireActive(); err != nil {
			return err
		}
		n := 1
		if l.rec.Mode == "computer" && l.turn() == l.human() {
			n = 2
		}
		if l.game.Ply() < n {
			return fail(Conflict, "There is no move of yours to take back yet.")
		}
		s.cancelSearch(id)
		running := !l.rec.RunningSince.IsZero()
		for range n {
			if err := l.game.Undo(); err != nil {
				return fmt.Errorf("games: undo: %w", err)
			}
		}
		p := l.game.Ply()
		l.rec.Moves = l.rec.Moves[:p]
		l.rec.Snapshots = l.rec.Snapshots[:p+1]
		l.rec.Clocks = l.rec.Snapshots[p]
		l.rec.RunningSince = time.Time{}
		if running && l.timed() && !(l.rec.Mode == "friend" && l.rec.PassScreen) {
			l.rec.RunningSince = now
		}
		l.rec.DrawOffer = ""
		l.sync()
		return nil
	})
}

// Resign gives up for the player to move, or for the human against the
// computer (G8).
func (s *Service) Resign(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	if ply == nil {
		return nil, fail(Invalid, `Send the ply you saw ("ply") with the request.`)
	}
	return s.update(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if err := l.requireActive(); err != nil {
			return err
		}
		c := l.turn()
		if l.rec.Mode == "computer" {
			c = l.human()
		}
		s.cancelSearch(id)
		l.settle(now)
		l.game.Resign(c)
		l.rec.EndColor = c.String()
		l.sync()
		return nil
	})
}

// OfferDraw offers a draw for the player to move. In a friend game the
// offer waits for AcceptDraw or DeclineDraw; the computer answers at once
// by the rule of G9.
func (s *Service) OfferDraw(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	if ply == nil {
		return nil, fail(Invalid, `Send the ply you saw ("ply") with the request.`)
	}
	return s.update(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if err := l.requireActive(); err != nil {
			return err
		}
		if l.rec.Mode == "computer" {
			accept, why := computerAcceptsDraw(l.game.Position(), l.human().Other())
			if !accept {
				l.message = "The computer declines your draw offer: " + why
				return errNoChange
			}
			s.cancelSearch(id)
			l.settle(now)
			l.game.AgreeDraw()
			l.sync()
			l.message = "The computer accepts your draw offer: " + why
			return nil
		}
		if l.rec.DrawOffer != "" {
			return fail(Conflict, "A draw offer is already waiting for an answer.")
		}
		l.rec.DrawOffer = l.turn().String()
		return nil
	})
}

// AcceptDraw ends a friend game by agreement when a draw offer is waiting.
func (s *Service) AcceptDraw(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.answerDraw(ctx, visitor, id, ply, true)
}

// DeclineDraw turns down the waiting draw offer; play goes on.
func (s *Service) DeclineDraw(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.answerDraw(ctx, visitor, id, ply, false)
}

func (s *Service) answerDraw(ctx context.Context, visitor, id string, ply *int, accept bool) (*State, error) {
	if ply == nil {
		return nil, fail(Invalid, `Send the ply you saw ("ply") with the request.`)
	}
	return s.update(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if err := l.requireActive(); err != nil {
			return err
		}
		if l.rec.DrawOffer == "" {
			return fail(Conflict, "There is no draw offer waiting for an answer.")
		}
		l.rec.DrawOffer = ""
		if accept {
			l.settle(now)
			l.game.AgreeDraw()
			l.sync()
		}
		return nil
	})
}

// Flag reports that the clock of the side to move shows zero. The server
// checks its own clock; a flag that has not fallen is refused with 409.
func (s *Service) Flag(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	if ply == nil {
		return nil, fail(Invalid, `Send the ply you saw ("ply") with the request.`)
	}
	return s.update(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if l.justExpired {
			return errNoChange
		}
		if err := l.requireActive(); err != nil {
			return err
		}
		if !l.timed() {
			return fail(Conflict, "This game has no clock, so no flag can fall.")
		}
		left := l.remaining(now)
		return fail(Conflict, "%s's clock still has %s left, so the flag has not fallen.",
			title(l.turn()), formatMS(pick(left, l.turn())))
	})
}

// Pause stops the running clock (pass screen, a dialog, a hidden page: G11).
func (s *Service) Pause(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.pauseResume(ctx, visitor, id, ply, false)
}

// Resume starts the clock of the side to move again.
func (s *Service) Resume(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.pauseResume(ctx, visitor, id, ply, true)
}

func (s *Service) pauseResume(ctx context.Context, visitor, id string, ply *int, run bool) (*State, error) {
	if ply == nil {
		return nil, fail(Invalid, `Send the ply you saw ("ply") with the request.`)
	}
	return s.update(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if err := l.requireActive(); err != nil {
			return err
		}
		if !l.timed() {
			return errNoChange
		}
		if run {
			if !l.rec.RunningSince.IsZero() {
				return errNoChange
			}
			l.rec.RunningSince = now
			return nil
		}
		if l.rec.RunningSince.IsZero() {
			return errNoChange
		}
		l.pause(now)
		return nil
	})
}

// PGN returns the game as PGN text and a file name for the download.
func (s *Service) PGN(ctx context.Context, visitor, id string) (name, text string, err error) {
	st, err := s.Get(ctx, visitor, id)
	if err != nil {
		return "", "", err
	}
	unlock := s.lock(id)
	l, err := s.load(ctx, visitor, id)
	unlock()
	if err != nil {
		return "", "", err
	}
	white, black := l.playerNames()
	tags := map[string]string{
		"Event":  "Casual game",
		"Site":   "Chess Steps",
		"Date":   l.rec.CreatedAt.UTC().Format("2006.01.02"),
		"Round":  "-",
		"White":  white,
		"Black":  black,
		"Result": st.Result,
	}
	if l.rec.ClockName != "none" {
		tags["TimeControl"] = fmt.Sprintf("%d+%d", l.rec.BaseMS/1000, l.rec.IncrementMS/1000)
	}
	if st.Reason != "" {
		tags["Termination"] = st.Reason
	}
	if l.rec.StartFEN != chess.StartFEN {
		tags["SetUp"] = "1"
		tags["FEN"] = l.rec.StartFEN
	}
	name = fmt.Sprintf("chess-%s-%s.pgn", l.rec.CreatedAt.UTC().Format("2006-01-02"), id[:8])
	return name, l.game.PGN(tags), nil
}

// errNoChange tells update that the action needs no save.
var errNoChange = errors.New("games: no change")

// update runs fn on the loaded game under the game's lock and saves the
// result before returning the new state. A running clock that has run out
// ends the game first (R9), and that is saved whatever fn decides.
func (s *Service) update(ctx context.Context, visitor, id string, ply *int, fn func(l *loaded, now time.Time) error) (*State, error) {
	unlock := s.lock(id)
	defer unlock()
	l, err := s.load(ctx, visitor, id)
	if err != nil {
		return nil, err
	}
	now := s.now()
	if l.expire(now) {
		s.cancelSearch(id)
		if err := s.save(ctx, l); err != nil {
			return nil, err
		}
	}
	if ply != nil && *ply != l.game.Ply() {
		if err := l.requireActive(); err != nil && !l.justExpired {
			return nil, err
		}
		if !l.justExpired {
			return nil, fail(Conflict, "The game has moved on: you sent ply %d, but %d half-moves have been played. Reload to see the position.", *ply, l.game.Ply())
		}
	}
	err = fn(l, now)
	if errors.Is(err, errNoChange) {
		return l.state(now), nil
	}
	if err != nil {
		return nil, err
	}
	if err := s.save(ctx, l); err != nil {
		return nil, err
	}
	return l.state(now), nil
}

func (s *Service) save(ctx context.Context, l *loaded) error {
	if err := s.store.UpdateGame(ctx, l.rec); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return fail(Conflict, "The game changed at the same moment from somewhere else. Reload to see the position.")
		}
		return err
	}
	return nil
}

// load reads the game and replays its moves.
func (s *Service) load(ctx context.Context, visitor, id string) (*loaded, error) {
	if !validID(id) {
		return nil, fail(NotFound, "There is no game with that address.")
	}
	rec, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && rec.Visitor != visitor) {
		return nil, fail(NotFound, "There is no game with that address.")
	}
	if err != nil {
		return nil, err
	}
	return replay(rec)
}

func replay(rec *store.Game) (*loaded, error) {
	start, err := chess.ParseFEN(rec.StartFEN)
	if err != nil {
		return nil, fmt.Errorf("games: game %s: start: %w", rec.ID, err)
	}
	g, err := chess.NewGame(start)
	if err != nil {
		return nil, fmt.Errorf("games: game %s: start: %w", rec.ID, err)
	}
	for i, u := range rec.Moves {
		m, err := g.Position().ParseUCI(u)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return nil, fmt.Errorf("games: game %s: move %d %s: %w", rec.ID, i+1, u, err)
		}
	}
	// The stored ending is a code (N7): the moves give checkmate and the
	// draw rules; resignation, agreement and timeout are applied here.
	ending := chess.NoMethod
	if rec.Status != statusActive && rec.Status != store.StatusAbandoned {
		if ending, err = chess.ParseMethodCode(rec.Status); err != nil || ending == chess.NoMethod {
			return nil, fmt.Errorf("games: game %s: stored status %q is not an ending code", rec.ID, rec.Status)
		}
	}
	if ending != chess.NoMethod && !g.Outcome().Over() {
		c := parseColor(rec.EndColor)
		switch ending {
		case chess.Resignation:
			g.Resign(c)
		case chess.Agreement:
			g.AgreeDraw()
		case chess.Timeout:
			g.Timeout(c)
		}
	}
	if got := g.Outcome(); got.Method != ending || got.Result != rec.Result {
		return nil, fmt.Errorf("games: game %s: stored ending %q %s, but its moves give %q %s",
			rec.ID, rec.Status, rec.Result, got.Method.Code(), got.Result)
	}
	return &loaded{rec: rec, game: g}, nil
}

// List returns the visitor's games for the /games page, newest first.
func (s *Service) List(ctx context.Context, visitor string, limit int) ([]Summary, error) {
	recs, err := s.store.VisitorGames(ctx, visitor, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(recs))
	for _, r := range recs {
		l := &loaded{rec: r}
		white, black := l.playerNames()
		// The list shows the reason without replaying every game: the
		// sentence is built from the stored codes.
		reason := abandonedSentence
		if r.Status != store.StatusAbandoned {
			o, err := chess.ParseOutcome(r.Reason, r.Result, parseColor(r.EndColor))
			if err != nil {
				return nil, fmt.Errorf("games: game %s: stored ending: %w", r.ID, err)
			}
			reason = o.Reason()
		}
		sum := Summary{
			ID: r.ID, Mode: r.Mode, White: white, Black: black, Result: r.Result,
			Reason: reason, Active: r.Status == statusActive, Moves: (len(r.Moves) + 1) / 2,
			Clock: r.ClockName, Level: r.Level, Created: r.CreatedAt, Updated: r.UpdatedAt,
		}
		switch r.Mode {
		case "computer":
			sum.Opponent = fmt.Sprintf("Computer, level %d (you played %s)", r.Level, r.HumanColor)
		default:
			sum.Opponent = "A friend on this device"
		}
		out = append(out, sum)
	}
	return out, nil
}

// Summary is one line of the visitor's game list.
type Summary struct {
	ID, Mode, Opponent, White, Black string
	Result, Reason, Clock            string
	Active                           bool
	Moves, Level                     int
	Created, Updated                 time.Time
}

func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("games: no randomness: " + err.Error()) // crypto/rand never fails on Linux
	}
	return hex.EncodeToString(b[:])
}

func validID(id string) bool {
	if len(id) != 32 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

func randomBit() bool {
	var b [1]byte
	rand.Read(b[:])
	return b[0]&1 == 1
}

func parseColor(s string) chess.Color {
	if s == "black" {
		return chess.Black
	}
	return chess.White
}

func title(c chess.Color) string {
	if c == chess.Black {
		return "Black"
	}
	return "White"
}

func trimChess(err error) string {
	return strings.TrimPrefix(err.Error(), "chess: ")
}

// sentence capitalises msg and ends it with a full stop.
func sentence(msg string) string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return msg
	}
	if c := msg[0]; c >= 'a' && c <= 'z' {
		msg = string(c-'a'+'A') + msg[1:]
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}
