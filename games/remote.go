package games

import (
	"context"
	"errors"
	"fmt"
	"time"

	"chesstutor/chess"
	"chesstutor/store"
	"chesstutor/words"
)

// This file holds the rules of a friend game played from two devices
// (G24–G26): the seats, bound to the visitor cookie, the invite that
// fills the second seat, the takeback request that stands in for undo,
// and the win a player may claim when the other is gone. Every other
// rule is the friend game's; the live streams are package live's.

// InviteTTL is how long an invite waits for the friend (G24).
const InviteTTL = 24 * time.Hour

// AwayClaim is how long a player must be gone, with their own clock
// running, before the other may claim the game (G26); Config.AwayClaim
// may shorten it for tests.
const AwayClaim = time.Minute

// watcherFresh is how long a watcher's stream counts after it last said
// it is open (live refreshes it well within).
const watcherFresh = time.Minute

// RemoteState is the two-device part of a game's state, as the viewer
// sees it.
type RemoteState struct {
	// Seat is the viewer's colour, or "" for someone watching.
	Seat string `json:"seat"`
	// Joined: both seats are taken and the game can begin.
	Joined bool `json:"joined"`
	// InviteExpired: nobody took the invite within InviteTTL.
	InviteExpired bool `json:"invite_expired"`
	// Takeback is the colour asking to take back its last move, or "".
	Takeback string `json:"takeback"`
	// Watchers is how many watch links are open on the game.
	Watchers int `json:"watchers"`
	// AwayMS is how long the player to move has been gone from the game,
	// counted only while their own clock runs (0 while they are there);
	// past ClaimAfterMS (AwayClaim) the other player may claim (Claimable).
	AwayMS       int64 `json:"away_ms"`
	ClaimAfterMS int64 `json:"claim_after_ms"`
	Claimable    bool  `json:"claimable"`
	// Claimed: the game ended by such a claim.
	Claimed bool `json:"claimed"`
	// Version goes up with every saved change of the game: a page that
	// hears of the game twice (its own answer, the stream) keeps the newer.
	Version int64 `json:"version"`

	watchID string
}

// WatchID is the game's watch link secret, for the edge to build the link
// (the players' pages only).
func (r *RemoteState) WatchID() string { return r.watchID }

// failRemote refuses with the catalogue key remote.<key>.
func failRemote(k Kind, key string, args ...any) error {
	return &Error{Kind: k, Message: words.M("remote."+key, args...)}
}

func (l *loaded) remote() bool { return l.rec.Remote != nil }

// seatColor is the viewer's colour in a remote game (l.seat set).
func (l *loaded) seatColor() chess.Color { return parseColor(l.seat) }

// seatOf is visitor's seat in rec: the creator's colour, the other colour
// for the guest, "" for anyone else (and in every other kind of game).
func seatOf(rec *store.Game, visitor string) string {
	switch {
	case rec.Remote == nil || visitor == "":
		return ""
	case rec.Visitor == visitor:
		return rec.HumanColor
	case rec.Remote.Guest == visitor:
		return parseColor(rec.HumanColor).Other().String()
	}
	return ""
}

// requireSeat refuses a remote-game action from a visitor without a seat
// (403): watchers only read.
func (l *loaded) requireSeat() error {
	if l.remote() && l.seat == "" {
		return failRemote(Forbidden, "refuse_no_seat")
	}
	return nil
}

// requireMover refuses a move in a remote game out of turn or before the
// friend arrived.
func (l *loaded) requireMover() error {
	if !l.remote() {
		return nil
	}
	if err := l.requireSeat(); err != nil {
		return err
	}
	if l.rec.Remote.Joined.IsZero() {
		return failRemote(Conflict, "refuse_waiting")
	}
	if l.turn() != l.seatColor() {
		return failRemote(Forbidden, "refuse_not_your_move")
	}
	return nil
}

// actor is the colour an offer, a resignation or a request comes from:
// the seat in a remote game, the player to move on a shared device.
func (l *loaded) actor() chess.Color {
	if l.remote() {
		return l.seatColor()
	}
	return l.turn()
}

// seen is when the player of colour c last showed signs of life: their
// page's stream, else when they took the seat.
func (l *loaded) seen(c chess.Color) time.Time {
	r := l.rec.Remote
	host := c == l.human()
	t, since := r.GuestSeen, r.Joined
	if host {
		t, since = r.HostSeen, l.rec.CreatedAt
	}
	if t.Before(since) {
		return since
	}
	return t
}

// awayMS is how long the player to move has been gone while their own
// clock runs: 0 before the friend joined, after the game, and while an
// untimed game's or a timed game's clock is not running (before the first
// move, a timed game's clocks stand still).
func (l *loaded) awayMS(now time.Time) int64 {
	r := l.rec.Remote
	if r == nil || r.Joined.IsZero() || !l.active() {
		return 0
	}
	if l.timed() && l.rec.RunningSince.IsZero() {
		return 0
	}
	return max(now.Sub(l.seen(l.turn())).Milliseconds(), 0)
}

// remoteState is the two-device part of the state for the viewer.
func (l *loaded) remoteState(now time.Time) *RemoteState {
	r := l.rec.Remote
	if r == nil {
		return nil
	}
	rs := &RemoteState{
		Seat: l.seat, Joined: !r.Joined.IsZero(), Takeback: r.Takeback, Claimed: r.Claimed,
		AwayMS: l.awayMS(now), ClaimAfterMS: l.awayClaim.Milliseconds(), Watchers: l.watchers, Version: l.rec.Version,
	}
	rs.InviteExpired = !rs.Joined && now.Sub(l.rec.CreatedAt) > InviteTTL
	rs.Claimable = l.seat != "" && l.turn() != l.seatColor() && rs.AwayMS > rs.ClaimAfterMS
	if l.seat != "" {
		rs.watchID = r.WatchID
	}
	return rs
}

// newRemote fills the two-device part of a new game's record.
func (s *Service) newRemote(rec *store.Game) error {
	if s.remote == nil {
		return fail(Invalid, "refuse_mode", "Text", rec.Mode)
	}
	rec.Remote = &store.Remote{WatchID: store.NewID()}
	rec.PassScreen, rec.TurnBoard = false, false
	return nil
}

// Join takes the free seat of remote game id for visitor and returns the
// game as the joiner sees it. A visitor who already holds a seat gets
// their state again; a full game refuses with Conflict, an expired invite
// with Conflict too.
func (s *Service) Join(ctx context.Context, visitor, id string) (*State, error) {
	l, err := s.load(ctx, visitor, id)
	if err != nil {
		return nil, err
	}
	if !l.remote() {
		return nil, fail(NotFound, "not_found")
	}
	now := s.now()
	if l.seat != "" {
		return s.Get(ctx, visitor, id)
	}
	if !l.rec.Remote.Joined.IsZero() {
		return nil, failRemote(Conflict, "refuse_full")
	}
	if now.Sub(l.rec.CreatedAt) > InviteTTL {
		return nil, failRemote(Conflict, "refuse_expired")
	}
	err = s.remote.JoinGame(ctx, id, visitor, now)
	if errors.Is(err, store.ErrConflict) {
		return nil, failRemote(Conflict, "refuse_full")
	}
	if err != nil {
		return nil, fmt.Errorf("games: join %s: %w", id, err)
	}
	s.notify(id, l.game.Ply())
	return s.Get(ctx, visitor, id)
}

// Seat is visitor's colour in remote game id ("" when they only watch).
func (s *Service) Seat(ctx context.Context, visitor, id string) (string, error) {
	l, err := s.load(ctx, visitor, id)
	if err != nil {
		return "", err
	}
	if !l.remote() {
		return "", fail(NotFound, "not_found")
	}
	return l.seat, nil
}

// View returns the game as someone without a seat sees it: the state the
// live streams share out, each stream adding its viewer's seat (ForSeat).
func (s *Service) View(ctx context.Context, id string) (*State, error) {
	return s.Get(ctx, "", id)
}

// ForSeat is a copy of a View state as the player of seat sees it ("" for
// a watcher). The copy may be worded on its own.
func (st *State) ForSeat(seat string) *State {
	cp := *st
	if st.Remote == nil {
		return &cp
	}
	r := *st.Remote
	r.Seat = seat
	if seat != "" {
		cp.HumanColor = seat
		r.Claimable = st.Turn != seat && r.AwayMS > r.ClaimAfterMS
	}
	cp.Remote = &r
	return &cp
}

// WatchedGame is the id of the remote game whose watch link is watchID.
func (s *Service) WatchedGame(ctx context.Context, watchID string) (string, error) {
	if !store.ValidID(watchID) {
		return "", fail(NotFound, "not_found")
	}
	id, err := s.remote.WatchedGame(ctx, watchID)
	if errors.Is(err, store.ErrNotFound) {
		return "", fail(NotFound, "not_found")
	}
	return id, err
}

// Present records that visitor, a player of game id, has their page open
// now (their stream), so they do not count as gone (G26). The seat is
// read from the game as it is now, not as it was when the stream opened:
// a visitor who was forgotten since holds no seat and keeps nobody
// present, and after a creator was forgotten their friend's seat is the
// creator's (store.Visitors.ForgetVisitor).
func (s *Service) Present(ctx context.Context, id, visitor string) error {
	rec, err := s.store.Game(ctx, id)
	if err != nil || rec.Remote == nil {
		return err
	}
	if seatOf(rec, visitor) == "" {
		return nil
	}
	return s.remote.SeeSeat(ctx, id, visitor != rec.Visitor, s.now())
}

// AwayPeriod is how long a player must be gone before the other may claim
// (Config.AwayClaim): the streams write presence well within it.
func (s *Service) AwayPeriod() time.Duration { return s.away }

// Watching records that watch stream stream follows game id, or, with
// stop, that it closed.
func (s *Service) Watching(ctx context.Context, id, stream string, stop bool) error {
	if stop {
		return s.remote.StopWatching(ctx, stream)
	}
	return s.remote.WatchGame(ctx, id, stream, s.now())
}

// notify tells Config.Changed that remote game id changed.
func (s *Service) notify(id string, ply int) {
	if s.changed != nil {
		s.changed(id, ply)
	}
}

// askTakeback is Undo in a remote game: the seat asks to take back its
// last move (and the reply to it, when the other side has answered), and
// the other side answers with AnswerTakeback.
func (l *loaded) askTakeback() error {
	if err := l.requireSeat(); err != nil {
		return err
	}
	if l.rec.Remote.Takeback != "" {
		return failRemote(Conflict, "refuse_takeback_waiting")
	}
	if l.game.Ply() < l.takebackPlies(l.seatColor()) {
		return fail(Conflict, "refuse_undo_nothing")
	}
	l.rec.Remote.Takeback = l.seat
	return nil
}

// takebackPlies is how many plies a takeback asked by c removes: c's last
// move, and the other side's reply when it came.
func (l *loaded) takebackPlies(c chess.Color) int {
	if l.turn() == c {
		return 2
	}
	return 1
}

// AcceptTakeback takes the asked moves back (the other player's answer).
func (s *Service) AcceptTakeback(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.answerTakeback(ctx, visitor, id, ply, true)
}

// DeclineTakeback turns the takeback request down; play goes on.
func (s *Service) DeclineTakeback(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return s.answerTakeback(ctx, visitor, id, ply, false)
}

func (s *Service) answerTakeback(ctx context.Context, visitor, id string, ply *int, accept bool) (*State, error) {
	return answer(s.activeAction(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if !l.remote() {
			return fail(NotFound, "not_found")
		}
		if err := l.requireSeat(); err != nil {
			return err
		}
		asker := l.rec.Remote.Takeback
		switch {
		case asker == "":
			return failRemote(Conflict, "refuse_no_takeback")
		case asker == l.seat:
			return failRemote(Forbidden, "refuse_own_takeback")
		}
		l.rec.Remote.Takeback = ""
		if !accept {
			return nil
		}
		n := l.takebackPlies(parseColor(asker))
		if l.game.Ply() < n {
			return fail(Conflict, "refuse_undo_nothing")
		}
		return l.takeBack(n, now, true)
	}))
}

// Claim ends a remote game whose player to move has been gone for over
// AwayClaim on their own clock: the claimer wins, or draws where they
// could never checkmate, as when a flag falls (G26, R9).
func (s *Service) Claim(ctx context.Context, visitor, id string, ply *int) (*State, error) {
	return answer(s.activeAction(ctx, visitor, id, ply, func(l *loaded, now time.Time) error {
		if !l.remote() {
			return fail(NotFound, "not_found")
		}
		if err := l.requireSeat(); err != nil {
			return err
		}
		gone := l.turn()
		if gone == l.seatColor() {
			return failRemote(Conflict, "refuse_claim_your_move")
		}
		if away, after := l.awayMS(now), l.awayClaim.Milliseconds(); away <= after {
			return failRemote(Conflict, "refuse_claim_early", "Count", (after-away)/1000+1)
		}
		l.settle(now)
		l.game.Timeout(gone)
		l.rec.EndColor = gone.String()
		l.rec.Remote.Claimed = true
		l.sync()
		return nil
	}))
}

// claimCause explains a game won (or drawn) by a claim (G26).
func claimCause(l *loaded, o chess.Outcome) words.Message {
	gone := parseColor(l.rec.EndColor).String()
	if o.IsDraw() {
		return words.M("remote.cause_gone_draw_" + gone)
	}
	return words.M("remote.cause_gone_" + gone)
}
