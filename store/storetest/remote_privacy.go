package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"chesstutor/store"
)

// The part of the contract where a game from two devices meets a
// visitor's data as a whole (N8): retention, forget-me and the export
// must keep a seat for the friend still sitting in it, and give neither
// player the other's id.

// seatedGame stores a remote game created by host at created and taken by
// guest at joined (guest "" leaves the invite waiting).
func seatedGame(t *testing.T, s store.Store, id, host, guest string, created, joined time.Time) *store.Game {
	t.Helper()
	ctx := context.Background()
	g := newGame(id, host)
	g.Mode, g.Level, g.PassScreen, g.TurnBoard, g.DrawOffer = store.ModeRemote, 0, false, false, ""
	g.CreatedAt = created
	g.Remote = &store.Remote{WatchID: strings.Repeat("f", 16) + id[16:]} // unique per game
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if guest != "" {
		if err := s.JoinGame(ctx, id, guest, joined); err != nil {
			t.Fatal(err)
		}
	}
	back, err := s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// finish ends g now (UpdateGame sets the time it was last played).
func finish(t *testing.T, s store.Store, g *store.Game) {
	t.Helper()
	g.Status, g.Result, g.Reason, g.EndColor = "resignation", "1-0", "resignation", "black"
	if err := s.UpdateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}

// remoteSeatKept: retention keeps a guest whose only data is their seat
// while the game goes on and for the idle period after it was last
// played, then deletes both players with it.
func (c *contract) remoteSeatKept(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	long := time.UnixMilli(1_700_000_000_000) // long before the sweeps' cut-offs
	g := seatedGame(t, s, gameID(60), alice, bob, long, long.Add(time.Minute))
	now := time.Now()
	future := now.Add(time.Minute)
	// Both idle and Bob's only row is the seat, but the game is unfinished.
	if n, err := s.ExpireVisitors(ctx, future, future, 10); err != nil || n != 0 {
		t.Fatalf("ExpireVisitors(an unfinished game's players) = %d, %v; want 0", n, err)
	}
	if back, err := s.Game(ctx, g.ID); err != nil || back.Remote.Guest != bob {
		t.Fatalf("after a sweep the seat is %+v, %v; want Bob in it", back, err)
	}
	// Finished now: Bob, with nothing else stored, stays for the idle period.
	finish(t, s, g)
	if n, err := s.ExpireVisitors(ctx, now.Add(-time.Hour), future, 10); err != nil || n != 0 {
		t.Fatalf("ExpireVisitors(a game just finished) = %d, %v; want 0", n, err)
	}
	if ok, err := s.VisitorExists(ctx, bob); err != nil || !ok {
		t.Fatalf("Bob, seated in a game finished a moment ago, was deleted (%v)", err)
	}
	// Once the idle period has passed since the last move, both go, and
	// the game with its creator.
	if n, err := s.ExpireVisitors(ctx, future, future, 10); err != nil || n != 2 {
		t.Fatalf("ExpireVisitors(a game idle for the whole period) = %d, %v; want 2", n, err)
	}
	if _, err := s.Game(ctx, g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the game after both players expired: %v, want ErrNotFound", err)
	}
}

// remoteSweepsAtOnce: sweeps and forget-mes running together over
// visitors who sit in each other's games (each deleting the creator of a
// game while another empties its guest's seat) all succeed: on a
// database with row locks they must not deadlock.
func (c *contract) remoteSweepsAtOnce(t *testing.T) {
	ctx := context.Background()
	const n = 12
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprintf("%032x", 0x5eed0000+i)
	}
	s := c.fresh(t, vs...)
	long := time.UnixMilli(1_700_000_000_000)
	for i, v := range vs {
		for k, step := range []int{1, 5} {
			g := seatedGame(t, s, gameID(1000+2*i+k), v, vs[(i+step)%n], long, long)
			g.Status, g.Result, g.Reason = "resignation", "1-0", "resignation"
			if err := s.UpdateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
	}
	future := time.Now().Add(time.Minute)
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				got, err := s.ExpireVisitors(ctx, future, future, 2)
				if err != nil {
					errs <- fmt.Errorf("ExpireVisitors: %w", err)
					return
				}
				if got == 0 {
					return
				}
			}
		}()
	}
	for i := 0; i < n; i += 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.ForgetVisitor(ctx, vs[i]); err != nil {
				errs <- fmt.Errorf("ForgetVisitor: %w", err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// A sweep that found the rest locked stopped early; one more finishes.
	if _, err := s.ExpireVisitors(ctx, future, future, 2*n); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if ok, err := s.VisitorExists(ctx, v); err != nil || ok {
			t.Errorf("visitor %s still there (%v)", v, err)
		}
	}
	for i := 0; i < 2*n; i++ {
		if _, err := s.Game(ctx, gameID(1000+i)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("game %d after everybody went: %v, want ErrNotFound", i, err)
		}
	}
}

// remoteCreatorForgotten: when the creator of a game asks to be
// forgotten, the friend sitting in it keeps the game, as its owner in
// their own colour, with the review the creator asked for; the creator's
// seat stays taken and empty. Games nobody else sits in go.
func (c *contract) remoteCreatorForgotten(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	at := time.UnixMilli(1_700_000_100_000)
	g := seatedGame(t, s, gameID(70), alice, bob, at, at.Add(time.Second))
	waiting := seatedGame(t, s, gameID(71), alice, "", at, time.Time{})
	if err := s.SeeSeat(ctx, g.ID, false, at.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.SeeSeat(ctx, g.ID, true, at.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	r := &store.Review{GameID: g.ID, Visitor: alice, Token: "one", Status: store.ReviewPending, StartFEN: g.StartFEN, Moves: g.Moves}
	if err := s.StartReview(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := s.ForgetVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	back, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatalf("the friend's game after its creator was forgotten: %v", err)
	}
	if back.Visitor != bob || back.HumanColor != "white" || back.Mode != store.ModeRemote {
		t.Errorf("the game is %s's, colour %s, mode %s; want Bob's, white (his seat), remote",
			back.Visitor, back.HumanColor, back.Mode)
	}
	if rm := back.Remote; rm.Guest != "" || rm.Joined.IsZero() {
		t.Errorf("the forgotten seat: guest %q joined %v; want empty and still taken", rm.Guest, rm.Joined)
	} else if rm.HostSeen.UnixMilli() != at.Add(3*time.Second).UnixMilli() ||
		rm.GuestSeen.UnixMilli() != at.Add(2*time.Second).UnixMilli() {
		t.Errorf("presence after the hand-over: host %v guest %v; want Bob's time as the host's", rm.HostSeen, rm.GuestSeen)
	}
	if back.Version <= g.Version {
		t.Errorf("version %d after the hand-over, want above %d (the pages must hear of it)", back.Version, g.Version)
	}
	if err := s.JoinGame(ctx, g.ID, alice, time.Now()); !errors.Is(err, store.ErrConflict) {
		t.Errorf("JoinGame(the forgotten seat) = %v, want ErrConflict", err)
	}
	if rv, err := s.Review(ctx, g.ID); err != nil || rv.Visitor != bob {
		t.Errorf("the review after the hand-over: %+v, %v; want Bob's", rv, err)
	}
	if list, err := s.VisitorGames(ctx, bob, 10); err != nil || len(list) != 1 || list[0].ID != g.ID {
		t.Errorf("Bob's games: %v, %v", ids(list), err)
	}
	if _, err := s.Game(ctx, waiting.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the creator's waiting invite: %v, want ErrNotFound", err)
	}
	// The friend forgotten in turn: nobody sits in it any more.
	if err := s.ForgetVisitor(ctx, bob); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(ctx, g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the game after both players were forgotten: %v, want ErrNotFound", err)
	}
}

// remoteExport: the guest's export holds the games they sit in, and
// neither player's export names the other.
func (c *contract) remoteExport(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	at := time.UnixMilli(1_700_000_100_000)
	g := seatedGame(t, s, gameID(80), alice, bob, at, at.Add(time.Second))
	if err := s.SeeSeat(ctx, g.ID, true, at.Add(5*time.Second)); err != nil { // Bob's page
		t.Fatal(err)
	}
	r := &store.Review{GameID: g.ID, Visitor: bob, Token: "one", Status: store.ReviewPending, StartFEN: g.StartFEN, Moves: g.Moves}
	if err := s.StartReview(ctx, r); err != nil {
		t.Fatal(err)
	}
	eb, err := s.ExportVisitor(ctx, bob)
	if err != nil {
		t.Fatal(err)
	}
	seats := eb.Tables["remote_seats"]
	if len(seats) != 1 {
		t.Fatalf("Bob's exported seats: %v, want the one game", seats)
	}
	row := seats[0]
	for col, want := range map[string]string{"game_id": g.ID, "seat": "white", "moves": "e2e4", "mode": "remote",
		"start_fen": g.StartFEN, "status": "active"} {
		if got := fmt.Sprint(row[col]); got != want {
			t.Errorf("Bob's seat: %s = %q, want %q", col, got, want)
		}
	}
	for _, col := range []string{"visitor_id", "host_seen_ms", "guest_id", "watch_id"} {
		if _, ok := row[col]; ok {
			t.Errorf("Bob's seat exports %s", col)
		}
	}
	ea, err := s.ExportVisitor(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(ea.Tables["games"]) != 1 || len(ea.Tables["remote_seats"]) != 0 {
		t.Errorf("Alice's export: %d games and %d seats, want her game and no seat",
			len(ea.Tables["games"]), len(ea.Tables["remote_seats"]))
	}
	for _, x := range []struct {
		who, other string
		e          *store.Export
	}{{"Bob", alice, eb}, {"Alice", bob, ea}} {
		body, err := json.Marshal(x.e.Tables)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(body), x.other) {
			t.Errorf("%s's export names the other player: %s", x.who, body)
		}
		if strings.Contains(string(body), fmt.Sprint(at.Add(5*time.Second).UnixMilli())) && x.who == "Alice" {
			t.Errorf("Alice's export holds Bob's presence: %s", body)
		}
	}
}
