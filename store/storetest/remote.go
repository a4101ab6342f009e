package storetest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"chesstutor/store"
)

// The part of the contract for games played from two devices (G24–G26).

func (c *contract) remoteGames(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	g := newGame(gameID(40), alice)
	g.Mode, g.Level, g.PassScreen, g.TurnBoard = store.ModeRemote, 0, false, false
	g.Remote = &store.Remote{WatchID: gameID(41)}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameGame(got, g); err != nil {
		t.Errorf("remote game read back: %v", err)
	}
	if got.Remote == nil || got.Remote.WatchID != gameID(41) || got.Remote.Guest != "" || !got.Remote.Joined.IsZero() {
		t.Fatalf("remote part read back: %+v", got.Remote)
	}
	if id, err := s.WatchedGame(ctx, gameID(41)); err != nil || id != g.ID {
		t.Errorf("WatchedGame = %q, %v; want %s", id, err, g.ID)
	}
	if _, err := s.WatchedGame(ctx, gameID(42)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("WatchedGame(unknown) = %v, want ErrNotFound", err)
	}
	// A game from one device has no remote part and no seat to take.
	plain := newGame(gameID(43), alice)
	if err := s.CreateGame(ctx, plain); err != nil {
		t.Fatal(err)
	}
	if back, err := s.Game(ctx, plain.ID); err != nil || back.Remote != nil || back.Mode != "computer" {
		t.Errorf("a computer game read back as %+v, %v", back, err)
	}
	if err := s.JoinGame(ctx, plain.ID, bob, time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("JoinGame(computer game) = %v, want ErrNotFound", err)
	}

	at := time.UnixMilli(1_700_000_100_000)
	if err := s.JoinGame(ctx, g.ID, bob, at); err != nil {
		t.Fatal(err)
	}
	if err := s.JoinGame(ctx, g.ID, alice, at); !errors.Is(err, store.ErrConflict) {
		t.Errorf("JoinGame(taken) = %v, want ErrConflict", err)
	}
	got, err = s.Game(ctx, g.ID)
	if err != nil || got.Remote.Guest != bob || got.Remote.Joined.UnixMilli() != at.UnixMilli() {
		t.Fatalf("after joining: %+v %v", got.Remote, err)
	}
	if got.Version != 2 {
		t.Errorf("the version after joining: %d, want 2", got.Version)
	}
	// The guest lists the game among theirs.
	list, err := s.VisitorGames(ctx, bob, 10)
	if err != nil || len(list) != 1 || list[0].ID != g.ID {
		t.Errorf("the guest's games: %v %v", ids(list), err)
	}

	// Takeback and Claimed are saved with the game's version; presence
	// is not, so it never races a move.
	got.Remote.Takeback, got.Remote.Claimed = "black", true
	if err := s.UpdateGame(ctx, got); err != nil {
		t.Fatal(err)
	}
	seen := at.Add(time.Minute)
	if err := s.SeeSeat(ctx, g.ID, true, seen); err != nil {
		t.Fatal(err)
	}
	if err := s.SeeSeat(ctx, g.ID, false, seen.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	back, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r := back.Remote; r.Takeback != "black" || !r.Claimed || r.GuestSeen.UnixMilli() != seen.UnixMilli() ||
		r.HostSeen.UnixMilli() != seen.Add(time.Second).UnixMilli() || back.Version != got.Version {
		t.Errorf("after update and presence: %+v version %d want %d", r, back.Version, got.Version)
	}

	// Watchers: one row per stream, counted while fresh.
	now := time.Now()
	for i, when := range []time.Time{now, now, now.Add(-2 * time.Minute)} {
		if err := s.WatchGame(ctx, g.ID, gameID(50+i), when); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.Watchers(ctx, g.ID, now.Add(-time.Minute)); err != nil || n != 2 {
		t.Errorf("Watchers = %d, %v; want 2 (the third is stale)", n, err)
	}
	if err := s.WatchGame(ctx, g.ID, gameID(52), now); err != nil { // refreshed
		t.Fatal(err)
	}
	if err := s.StopWatching(ctx, gameID(50)); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Watchers(ctx, g.ID, now.Add(-time.Minute)); err != nil || n != 2 {
		t.Errorf("Watchers after one refresh and one stop = %d, %v; want 2", n, err)
	}
}

// remoteJoinRace: many visitors try for one seat at once; exactly one
// gets it, on any store (the database decides).
func (c *contract) remoteJoinRace(t *testing.T) {
	ctx := context.Background()
	visitors := []string{bob, "cccccccccccccccccccccccccccccccc", "dddddddddddddddddddddddddddddddd", "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"}
	s := c.fresh(t, append([]string{alice}, visitors...)...)
	g := newGame(gameID(60), alice)
	g.Mode, g.Remote = store.ModeRemote, &store.Remote{WatchID: gameID(61)}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(visitors))
	for i, v := range visitors {
		wg.Go(func() { errs[i] = s.JoinGame(ctx, g.ID, v, time.Now()) })
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("visitor %d: %v, want nil or ErrConflict", i, err)
		}
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if won != 1 || !slices.Contains(visitors, got.Remote.Guest) {
		t.Errorf("%d visitors took the seat, the store says %q; want exactly one", won, got.Remote.Guest)
	}
}
