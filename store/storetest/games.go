package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"chesstutor/store"
)

// The games part of the contract.

// newGame is a game with every field set to something other than its zero
// value, so a field the store forgets shows up as a difference.
func newGame(id, visitor string) *store.Game {
	return &store.Game{
		ID: id, Visitor: visitor, Mode: "computer", HumanColor: "black", Level: 5,
		ClockName: "3+2", BaseMS: 180000, IncrementMS: 2000,
		Undo: true, PassScreen: true, TurnBoard: true,
		StartFEN:     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		Moves:        []string{"e2e4"},
		Clocks:       store.ClockPair{White: 179000, Black: 180000},
		RunningSince: time.UnixMilli(1_700_000_000_123),
		Snapshots:    []store.ClockPair{{White: 180000, Black: 180000}, {White: 179000, Black: 180000}},
		DrawOffer:    "white",
		Status:       "active", Result: "*",
		CreatedAt: time.UnixMilli(1_700_000_000_000),
		WhiteName: "Anna", BlackName: "Борис",
	}
}

// gameID makes a distinct 32-character id.
func gameID(n int) string { return fmt.Sprintf("%032x", n+1) }

// sameGame reports the first stored field that differs, ignoring the
// update time (the store sets it).
func sameGame(got, want *store.Game) error {
	type cmp struct {
		name      string
		got, want any
	}
	for _, f := range []cmp{
		{"ID", got.ID, want.ID}, {"Visitor", got.Visitor, want.Visitor}, {"Mode", got.Mode, want.Mode},
		{"HumanColor", got.HumanColor, want.HumanColor}, {"Level", got.Level, want.Level},
		{"ClockName", got.ClockName, want.ClockName}, {"BaseMS", got.BaseMS, want.BaseMS},
		{"IncrementMS", got.IncrementMS, want.IncrementMS}, {"Undo", got.Undo, want.Undo},
		{"PassScreen", got.PassScreen, want.PassScreen}, {"TurnBoard", got.TurnBoard, want.TurnBoard},
		{"StartFEN", got.StartFEN, want.StartFEN}, {"Moves", fmt.Sprint(got.Moves), fmt.Sprint(want.Moves)},
		{"Clocks", got.Clocks, want.Clocks}, {"RunningSince", got.RunningSince.UnixMilli(), want.RunningSince.UnixMilli()},
		{"RunningSince.IsZero", got.RunningSince.IsZero(), want.RunningSince.IsZero()},
		{"Snapshots", fmt.Sprint(got.Snapshots), fmt.Sprint(want.Snapshots)},
		{"DrawOffer", got.DrawOffer, want.DrawOffer}, {"Status", got.Status, want.Status},
		{"Result", got.Result, want.Result}, {"Reason", got.Reason, want.Reason},
		{"EndColor", got.EndColor, want.EndColor}, {"Version", got.Version, want.Version},
		{"CreatedAt", got.CreatedAt.UnixMilli(), want.CreatedAt.UnixMilli()},
		{"WhiteName", got.WhiteName, want.WhiteName}, {"BlackName", got.BlackName, want.BlackName},
	} {
		if f.got != f.want {
			return fmt.Errorf("%s = %v, want %v", f.name, f.got, f.want)
		}
	}
	return nil
}

func (c *contract) gamesCreateLoadList(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	g := newGame(gameID(1), alice)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if g.Version != 1 || g.UpdatedAt.IsZero() {
		t.Fatalf("after CreateGame: version %d, updated %v; want 1 and a time", g.Version, g.UpdatedAt)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameGame(got, g); err != nil {
		t.Fatalf("loaded game: %v", err)
	}

	// A game with no moves, no clock and an ending round-trips too.
	ended := &store.Game{
		ID: gameID(2), Visitor: alice, Mode: "friend", HumanColor: "white", ClockName: "none",
		StartFEN: "7k/8/8/8/8/8/8/K7 w - - 0 1", Snapshots: []store.ClockPair{{}},
		Status: "insufficient-material", Result: "1/2-1/2", Reason: "insufficient-material",
		EndColor: "black", CreatedAt: time.UnixMilli(1_700_000_100_000),
	}
	if err := s.CreateGame(ctx, ended); err != nil {
		t.Fatal(err)
	}
	got, err = s.Game(ctx, ended.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameGame(got, ended); err != nil {
		t.Fatalf("loaded ended game: %v", err)
	}
	if len(got.Moves) != 0 {
		t.Errorf("a game with no moves loads with %v", got.Moves)
	}

	// Listing: newest update first, only the visitor's own, limit kept.
	g.Moves = append(g.Moves, "e7e5")
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	list, err := s.VisitorGames(ctx, alice, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != g.ID || list[1].ID != ended.ID {
		t.Fatalf("VisitorGames = %v, want the updated game then the ended one", ids(list))
	}
	if err := sameGame(list[0], g); err != nil {
		t.Errorf("listed game: %v", err)
	}
	if list, err := s.VisitorGames(ctx, alice, 1); err != nil || len(list) != 1 || list[0].ID != g.ID {
		t.Errorf("VisitorGames(limit 1) = %v, %v; want the updated game", ids(list), err)
	}
	if list, err := s.VisitorGames(ctx, bob, 10); err != nil || len(list) != 0 {
		t.Errorf("Bob lists %v, %v; want nothing", ids(list), err)
	}

	// The same id twice is refused and leaves the first game alone.
	dup := newGame(g.ID, bob)
	if err := s.CreateGame(ctx, dup); err == nil {
		t.Error("CreateGame accepted an id already used")
	}
	if got, err := s.Game(ctx, g.ID); err != nil || got.Visitor != alice {
		t.Errorf("after the duplicate: %v, %v; want Alice's game", got, err)
	}
	// A game needs a stored visitor.
	if err := s.CreateGame(ctx, newGame(gameID(3), carol)); !errors.Is(err, store.ErrGone) {
		t.Errorf("CreateGame for an unknown visitor: %v, want ErrGone", err)
	}
}

func ids(gs []*store.Game) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func (c *contract) gamesNotFound(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	if _, err := s.Game(ctx, gameID(9)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game(unknown) = %v, want ErrNotFound", err)
	}
	if _, err := s.Game(ctx, "not an id"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game(malformed) = %v, want ErrNotFound", err)
	}
	// Updating a game that does not exist changes nothing and says so.
	ghost := newGame(gameID(9), alice)
	ghost.Version = 1
	err := s.UpdateGame(ctx, ghost)
	if !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateGame(unknown) = %v, want ErrConflict or ErrNotFound", err)
	}
	if _, err := s.Game(ctx, ghost.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateGame(unknown) created it: %v", err)
	}
}

// gamesVersionedUpdate: an update saves only when the stored version is
// the one the caller loaded, inside the store, so two processes sharing one
// database can never both win (N3, N6).
func (c *contract) gamesVersionedUpdate(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	g := newGame(gameID(1), alice)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	first, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	first.Moves = append(first.Moves, "e7e5")
	first.Snapshots = append(first.Snapshots, first.Clocks)
	first.Clocks.Black = 170000
	first.RunningSince = time.Time{}
	first.DrawOffer = ""
	first.Status, first.Result, first.Reason, first.EndColor = "resignation", "0-1", "resignation", "white"
	if err := s.UpdateGame(ctx, first); err != nil {
		t.Fatal(err)
	}
	if first.Version != 2 {
		t.Errorf("version after an update = %d, want 2", first.Version)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameGame(got, first); err != nil {
		t.Fatalf("after the update: %v", err)
	}
	// The second copy was loaded at version 1: its write is stale.
	second.Moves = append(second.Moves, "c7c5")
	if err := s.UpdateGame(ctx, second); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale UpdateGame = %v, want ErrConflict", err)
	}
	if second.Version != 1 {
		t.Errorf("a refused update moved the caller's version to %d", second.Version)
	}
	got, err = s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameGame(got, first); err != nil {
		t.Fatalf("a stale update changed the game: %v", err)
	}
}

// gamesConcurrentWriters: many writers load the same version and race;
// exactly one wins each round and no update is lost.
func (c *contract) gamesConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	g := newGame(gameID(1), alice)
	g.Moves = nil
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	const writers, rounds = 8, 5
	for round := 0; round < rounds; round++ {
		base, err := s.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			won      []int
			otherErr []error
		)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				mine := *base
				mine.Moves = append(slices.Clone(base.Moves), fmt.Sprintf("w%d", w))
				err := s.UpdateGame(ctx, &mine)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won = append(won, w)
				case !errors.Is(err, store.ErrConflict):
					otherErr = append(otherErr, err)
				}
			}(w)
		}
		wg.Wait()
		if len(otherErr) > 0 {
			t.Fatalf("round %d: unexpected errors %v", round, otherErr)
		}
		if len(won) != 1 {
			t.Fatalf("round %d: %d writers won, want exactly 1", round, len(won))
		}
		got, err := s.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != base.Version+1 || len(got.Moves) != round+1 || got.Moves[round] != fmt.Sprintf("w%d", won[0]) {
			t.Fatalf("round %d: stored version %d moves %v; want version %d ending in w%d",
				round, got.Version, got.Moves, base.Version+1, won[0])
		}
	}
}
