package games

import (
	"context"
	"sync"
	"testing"
	"time"

	"chesstutor/store"
)

const friend = "fedcba9876543210fedcba9876543210"

// stranger has no seat in any game.
const stranger = "99999999999999999999999999999999"

// newRemote makes a remote game of visitor (playing White) joined by friend,
// with a notification log.
func newRemoteEnv(t *testing.T, clock string) (*env, *State, *[]int) {
	t.Helper()
	e := newEnv(t)
	var mu sync.Mutex
	var plies []int
	e.svc = New(Config{Store: e.st, Now: e.clock.Now, Changed: func(id string, ply int) {
		mu.Lock()
		plies = append(plies, ply)
		mu.Unlock()
	}})
	st := e.create(t, NewGame{Mode: "remote", Color: "white", Clock: clock})
	if st.Remote == nil || st.Remote.Seat != "white" || st.Remote.Joined || st.Remote.WatchID() == "" {
		t.Fatalf("a new remote game: %+v", st.Remote)
	}
	return e, st, &plies
}

func TestRemoteSeats(t *testing.T) {
	ctx := context.Background()
	e, st, plies := newRemoteEnv(t, "none")
	zero := 0
	// Before the friend arrives the creator cannot start.
	if _, err := e.svc.Move(ctx, visitor, st.ID, &zero, "e2e4", ""); kindOf(err) != Conflict {
		t.Errorf("a move before the friend joined: %v, want Conflict", err)
	}
	j, err := e.svc.Join(ctx, friend, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if j.HumanColor != "black" || j.Remote.Seat != "black" || !j.Remote.Joined {
		t.Errorf("the joiner's state: human_color %q remote %+v", j.HumanColor, j.Remote)
	}
	if len(*plies) != 1 {
		t.Errorf("joining told the streams %d times, want once", len(*plies))
	}
	// Joining again is the same seat; anyone else is refused.
	if again, err := e.svc.Join(ctx, friend, st.ID); err != nil || again.Remote.Seat != "black" {
		t.Errorf("joining twice: %+v %v", again, err)
	}
	if _, err := e.svc.Join(ctx, stranger, st.ID); kindOf(err) != Conflict {
		t.Errorf("a third visitor joining: %v, want Conflict", err)
	}
	// Each side moves only its own pieces; a watcher acts not at all.
	for _, tc := range []struct {
		name, who, move string
		want            Kind
	}{
		{"black moves for white", friend, "e2e4", Forbidden},
		{"a watcher moves", stranger, "e2e4", Forbidden},
	} {
		if _, err := e.svc.Move(ctx, tc.who, st.ID, &zero, tc.move, ""); kindOf(err) != tc.want {
			t.Errorf("%s: %v, want kind %d", tc.name, err, tc.want)
		}
	}
	if _, err := e.svc.Resign(ctx, stranger, st.ID, &zero); kindOf(err) != Forbidden {
		t.Errorf("a watcher resigning: %v, want Forbidden", err)
	}
	w, err := e.svc.Get(ctx, stranger, st.ID)
	if err != nil || w.Remote.Seat != "" {
		t.Errorf("a watcher reads the game: %+v %v", w, err)
	}
	if w.Remote.WatchID() != "" {
		t.Error("a watcher's state carries the watch link's secret")
	}
	st, err = e.svc.Move(ctx, visitor, st.ID, &zero, "e2e4", "")
	if err != nil {
		t.Fatal(err)
	}
	one := 1
	if _, err := e.svc.Move(ctx, visitor, st.ID, &one, "e7e5", ""); kindOf(err) != Forbidden {
		t.Errorf("white moves black's pawn: %v, want Forbidden", err)
	}
	if st, err = e.svc.Move(ctx, friend, st.ID, &one, "e7e5", ""); err != nil || st.HumanColor != "black" {
		t.Fatalf("black's move: %+v %v", st, err)
	}
	// The friend's resignation is the friend's, whoever is to move.
	two := 2
	end, err := e.svc.Resign(ctx, friend, st.ID, &two)
	if err != nil || end.Winner != "white" {
		t.Errorf("black resigns on white's move: winner %q, %v", end.Winner, err)
	}
	if got := (*plies)[len(*plies)-1]; got != 2 {
		t.Errorf("the last change told ply %d, want 2", got)
	}
}

func TestRemoteInviteExpires(t *testing.T) {
	e, st, _ := newRemoteEnv(t, "none")
	e.clock.Advance(InviteTTL + time.Minute)
	if _, err := e.svc.Join(context.Background(), friend, st.ID); kindOf(err) != Conflict {
		t.Errorf("joining a day-old invite: %v, want Conflict", err)
	}
	got, err := e.svc.Get(context.Background(), visitor, st.ID)
	if err != nil || !got.Remote.InviteExpired {
		t.Errorf("the creator's state after a day: %+v %v", got.Remote, err)
	}
}

func TestRemoteTakebackAndDraw(t *testing.T) {
	ctx := context.Background()
	e, st, _ := newRemoteEnv(t, "none")
	if _, err := e.svc.Join(ctx, friend, st.ID); err != nil {
		t.Fatal(err)
	}
	p := func(n int) *int { return &n }
	st, _ = e.svc.Move(ctx, visitor, st.ID, p(0), "e2e4", "")
	st, _ = e.svc.Move(ctx, friend, st.ID, p(1), "e7e5", "")
	// White asks to take back: on White's move that is Black's reply and
	// White's own move.
	st, err := e.svc.Undo(ctx, visitor, st.ID, p(2))
	if err != nil || st.Remote.Takeback != "white" || st.Ply != 2 {
		t.Fatalf("asking for a takeback: %+v %v", st.Remote, err)
	}
	if _, err := e.svc.AcceptTakeback(ctx, visitor, st.ID, p(2)); kindOf(err) != Forbidden {
		t.Errorf("accepting one's own takeback: %v, want Forbidden", err)
	}
	if _, err := e.svc.Undo(ctx, visitor, st.ID, p(2)); kindOf(err) != Conflict {
		t.Errorf("asking twice: %v, want Conflict", err)
	}
	st, err = e.svc.AcceptTakeback(ctx, friend, st.ID, p(2))
	if err != nil || st.Ply != 0 || st.Remote.Takeback != "" {
		t.Fatalf("accepting: ply %d takeback %q %v", st.Ply, st.Remote.Takeback, err)
	}
	// Black asks after its own move; White declines by answering, then a
	// move lapses a request.
	st, _ = e.svc.Move(ctx, visitor, st.ID, p(0), "d2d4", "")
	st, _ = e.svc.Move(ctx, friend, st.ID, p(1), "d7d5", "")
	st, _ = e.svc.Undo(ctx, friend, st.ID, p(2))
	if st.Remote.Takeback != "black" {
		t.Fatalf("black's request: %+v", st.Remote)
	}
	st, err = e.svc.DeclineTakeback(ctx, visitor, st.ID, p(2))
	if err != nil || st.Ply != 2 || st.Remote.Takeback != "" {
		t.Fatalf("declining: %+v %v", st, err)
	}
	// A draw offer comes from the seat, whoever is to move, and only the
	// other seat answers it.
	st, err = e.svc.OfferDraw(ctx, friend, st.ID, p(2))
	if err != nil || st.DrawOffer != "black" {
		t.Fatalf("black offers on white's move: %q %v", st.DrawOffer, err)
	}
	if _, err := e.svc.AcceptDraw(ctx, friend, st.ID, p(2)); kindOf(err) != Forbidden {
		t.Errorf("accepting one's own offer: %v, want Forbidden", err)
	}
	if st, err = e.svc.AcceptDraw(ctx, visitor, st.ID, p(2)); err != nil || st.Result != "1/2-1/2" {
		t.Errorf("white accepts: %+v %v", st, err)
	}
}

func TestRemoteClaimWhenGone(t *testing.T) {
	ctx := context.Background()
	e, st, _ := newRemoteEnv(t, "10+0")
	if _, err := e.svc.Join(ctx, friend, st.ID); err != nil {
		t.Fatal(err)
	}
	p := func(n int) *int { return &n }
	st, _ = e.svc.Move(ctx, visitor, st.ID, p(0), "e2e4", "")
	// Black's page is there for a while, then goes.
	e.clock.Advance(20 * time.Second)
	if err := e.svc.Present(ctx, st.ID, friend); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(50 * time.Second)
	if _, err := e.svc.Claim(ctx, visitor, st.ID, p(1)); kindOf(err) != Conflict {
		t.Errorf("claiming after 50 s: %v, want Conflict", err)
	}
	if _, err := e.svc.Claim(ctx, friend, st.ID, p(1)); kindOf(err) != Conflict {
		t.Errorf("claiming on one's own move: %v, want Conflict", err)
	}
	e.clock.Advance(11 * time.Second)
	got, err := e.svc.Get(ctx, visitor, st.ID)
	if err != nil || !got.Remote.Claimable || got.Remote.AwayMS < 60000 {
		t.Fatalf("after 61 s away: %+v %v", got.Remote, err)
	}
	if theirs, _ := e.svc.Get(ctx, friend, st.ID); theirs.Remote.Claimable {
		t.Error("the player who is away may claim too")
	}
	end, err := e.svc.Claim(ctx, visitor, st.ID, p(1))
	if err != nil || end.Winner != "white" || end.Status != "timeout" || !end.Remote.Claimed {
		t.Fatalf("the claim: %+v %v", end, err)
	}
	if end.Cause == "" && end.cause.Key != "remote.cause_gone_black" {
		t.Errorf("the claim's cause: %+v", end.cause)
	}
	// The ending survives a reload (replay).
	if back, err := e.svc.Get(ctx, friend, st.ID); err != nil || back.Winner != "white" || back.cause.Key != "remote.cause_gone_black" {
		t.Errorf("read back: %+v %v", back, err)
	}
}

// TestRemoteNeedsSeatStore: a store without seats refuses remote games
// with a reason instead of failing later.
func TestRemoteNeedsSeatStore(t *testing.T) {
	e := newEnv(t)
	svc := New(Config{Store: struct{ store.Games }{e.st}, Now: e.clock.Now})
	if _, err := svc.Create(context.Background(), visitor, NewGame{Mode: "remote"}); kindOf(err) != Invalid {
		t.Errorf("a remote game without seats: %v, want Invalid", err)
	}
}

// TestRemotePresenceReadsTheSeatHolder: presence is written for the seat
// its visitor holds now. A stream still open for a visitor who was
// forgotten keeps nobody present, so the other may claim; after the
// creator was forgotten, the friend's presence is the seat they kept.
func TestRemotePresenceReadsTheSeatHolder(t *testing.T) {
	ctx := context.Background()
	p := func(n int) *int { return &n }
	t.Run("a forgotten guest", func(t *testing.T) {
		e, st, _ := newRemoteEnv(t, "10+0")
		if _, err := e.svc.Join(ctx, friend, st.ID); err != nil {
			t.Fatal(err)
		}
		st, _ = e.svc.Move(ctx, visitor, st.ID, p(0), "e2e4", "")
		if err := e.st.ForgetVisitor(ctx, friend); err != nil {
			t.Fatal(err)
		}
		// The friend's old stream goes on saying it is there.
		for range 4 {
			e.clock.Advance(20 * time.Second)
			if err := e.svc.Present(ctx, st.ID, friend); err != nil {
				t.Fatal(err)
			}
		}
		got, err := e.svc.Get(ctx, visitor, st.ID)
		if err != nil || !got.Remote.Claimable {
			t.Fatalf("80 s after the guest was forgotten: %+v %v; want claimable", got.Remote, err)
		}
	})
	t.Run("a forgotten creator", func(t *testing.T) {
		e, st, _ := newRemoteEnv(t, "10+0")
		if _, err := e.svc.Join(ctx, friend, st.ID); err != nil {
			t.Fatal(err)
		}
		st, _ = e.svc.Move(ctx, visitor, st.ID, p(0), "e2e4", "")
		st, _ = e.svc.Move(ctx, friend, st.ID, p(1), "e7e5", "")
		if err := e.st.ForgetVisitor(ctx, visitor); err != nil {
			t.Fatal(err)
		}
		// White, forgotten, is to move; Black's page stays.
		for range 4 {
			e.clock.Advance(20 * time.Second)
			if err := e.svc.Present(ctx, st.ID, friend); err != nil {
				t.Fatal(err)
			}
			// The forgotten creator's stream says nothing for anyone.
			if err := e.svc.Present(ctx, st.ID, visitor); err != nil {
				t.Fatal(err)
			}
		}
		got, err := e.svc.Get(ctx, friend, st.ID)
		if err != nil {
			t.Fatalf("the friend's game after its creator was forgotten: %v", err)
		}
		if got.HumanColor != "black" || got.Remote.Seat != "black" || !got.Remote.Claimable {
			t.Fatalf("the friend's view: colour %s %+v; want black and claimable", got.HumanColor, got.Remote)
		}
		end, err := e.svc.Claim(ctx, friend, st.ID, p(2))
		if err != nil || end.Winner != "black" {
			t.Fatalf("the friend's claim: %+v %v", end, err)
		}
	})
}

// TestRemoteAwayClaimConfigured: Config.AwayClaim sets the time a player
// must be gone, and the state says it to the page.
func TestRemoteAwayClaimConfigured(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.svc = New(Config{Store: e.st, Now: e.clock.Now, AwayClaim: 3 * time.Second})
	st := e.create(t, NewGame{Mode: "remote", Color: "white", Clock: "10+0"})
	if _, err := e.svc.Join(ctx, friend, st.ID); err != nil {
		t.Fatal(err)
	}
	zero := 0
	st, _ = e.svc.Move(ctx, visitor, st.ID, &zero, "e2e4", "")
	if err := e.svc.Present(ctx, st.ID, friend); err != nil {
		t.Fatal(err)
	}
	if st.Remote.ClaimAfterMS != 3000 || e.svc.AwayPeriod() != 3*time.Second {
		t.Errorf("claim_after_ms %d, AwayPeriod %v; want 3000 and 3s", st.Remote.ClaimAfterMS, e.svc.AwayPeriod())
	}
	e.clock.Advance(2 * time.Second)
	if got, _ := e.svc.Get(ctx, visitor, st.ID); got.Remote.Claimable {
		t.Error("claimable after 2 s of 3")
	}
	e.clock.Advance(2 * time.Second)
	one := 1
	if end, err := e.svc.Claim(ctx, visitor, st.ID, &one); err != nil || end.Winner != "white" {
		t.Fatalf("the claim after 4 s of 3: %+v %v", end, err)
	}
}
