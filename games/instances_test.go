package games

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chesstutor/chess"
	"chesstutor/store"
)

// These tests run two Services on one store, as two site processes share
// one database (N6): nothing a Service keeps in memory — its per-game
// locks, its running searches — may decide what is stored.

// twin is a second service ("another instance") on e's store and clock.
func (e *env) twin(eng Engine) *Service {
	return New(Config{Store: e.st, Engine: eng, Now: e.clock.Now})
}

func TestSamePlyRaceAcrossInstances(t *testing.T) {
	e := newEnv(t)
	b := e.twin(e.eng)
	st := e.create(t, NewGame{Mode: "friend"})
	var wg sync.WaitGroup
	var ok, conflict atomic.Int32
	for i := range 20 {
		svc := e.svc
		if i%2 == 1 {
			svc = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ply := 0
			_, err := svc.Move(context.Background(), visitor, st.ID, &ply, []string{"e2e4", "d2d4"}[i%2], "")
			switch {
			case err == nil:
				ok.Add(1)
			case kindOf(err) == Conflict:
				conflict.Add(1)
			default:
				t.Errorf("move: %v", err)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 1 || conflict.Load() != 19 {
		t.Fatalf("%d succeeded and %d conflicted across two instances, want 1 and 19", ok.Load(), conflict.Load())
	}
	for _, svc := range []*Service{e.svc, b} {
		if got, err := svc.Get(context.Background(), visitor, st.ID); err != nil || got.Ply != 1 {
			t.Fatalf("after the race: ply %d, %v; want 1", got.Ply, err)
		}
	}
}

// gated is an engine that waits for release before answering.
type gated struct {
	firstMove
	started chan struct{}
	release chan struct{}
}

func (g *gated) Move(ctx context.Context, start *chess.Position, moves []chess.Move, level int) (chess.Move, error) {
	g.started <- struct{}{}
	<-g.release
	return g.firstMove.Move(ctx, start, moves, level)
}

// TestReplyRaceAcrossInstances: instance A takes the human's move and
// searches slowly; meanwhile the page asks instance B for the reply, which
// B computes and stores. A's late reply must be dropped, and A still
// answers the move request with the stored game (200, not 409), which
// holds the human's move and exactly one reply.
func TestReplyRaceAcrossInstances(t *testing.T) {
	e := newEnv(t)
	slow := &gated{started: make(chan struct{}, 1), release: make(chan struct{})}
	a := e.twin(slow)
	b := e.svc // the fast engine
	ctx := context.Background()
	st := e.create(t, NewGame{Mode: "computer", Color: "white", Level: new(1)})

	type result struct {
		st  *State
		err error
	}
	done := make(chan result, 1)
	go func() {
		ply := 0
		st, err := a.Move(ctx, visitor, st.ID, &ply, "e2e4", "")
		done <- result{st, err}
	}()
	<-slow.started // A stored e4 and is thinking
	ply := 1
	fromB, err := b.Reply(ctx, visitor, st.ID, &ply)
	if err != nil || fromB.Ply != 2 {
		t.Fatalf("reply on B: %+v %v; want ply 2", fromB, err)
	}
	close(slow.release)
	r := <-done
	if r.err != nil {
		t.Fatalf("A answered the move with %v; want the stored game", r.err)
	}
	if r.st.Ply != 2 || r.st.UCI[0] != "e2e4" || r.st.UCI[1] != fromB.UCI[1] {
		t.Fatalf("A answered %v; want e2e4 and B's reply %v", r.st.UCI, fromB.UCI)
	}
	got, err := a.Get(ctx, visitor, st.ID)
	if err != nil || got.Ply != 2 {
		t.Fatalf("stored game: %+v %v; want one reply", got, err)
	}
}

// TestGameContinuesOnAnotherInstanceWithItsClock: a timed game started on
// A is continued on B, and B's clocks count from the stored start time,
// not from anything A remembers.
func TestGameContinuesOnAnotherInstanceWithItsClock(t *testing.T) {
	e := newEnv(t)
	b := e.twin(e.eng)
	ctx := context.Background()
	st, err := e.svc.Create(ctx, visitor, NewGame{Mode: "friend", Clock: "5+0", PassScreen: new(bool)})
	if err != nil {
		t.Fatal(err)
	}
	ply := 0
	if st, err = e.svc.Move(ctx, visitor, st.ID, &ply, "e2e4", ""); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(7 * time.Second)
	onB, err := b.Get(ctx, visitor, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if onB.Ply != 1 || onB.Clocks == nil || onB.Clocks.Black != 5*60000-7000 {
		t.Fatalf("on B: ply %d clocks %+v; want ply 1 and Black at 4:53", onB.Ply, onB.Clocks)
	}
	ply = 1
	if onB, err = b.Move(ctx, visitor, st.ID, &ply, "e7e5", ""); err != nil || onB.Ply != 2 {
		t.Fatalf("move on B: %+v %v", onB, err)
	}
	back, err := e.svc.Get(ctx, visitor, st.ID)
	if err != nil || back.Ply != 2 || back.Clocks.Black != 5*60000-7000 || back.Clocks.White != 5*60000 {
		t.Fatalf("back on A: %+v %v", back, err)
	}
}

// hookStore runs before ahead of the nth UpdateGame.
type hookStore struct {
	store.Games
	n      atomic.Int32
	at     int32
	before func()
}

func (h *hookStore) UpdateGame(ctx context.Context, g *store.Game) error {
	if h.n.Add(1) == h.at {
		h.before()
	}
	return h.Games.UpdateGame(ctx, g)
}

// TestReplySaveRaceAcrossInstances: B stores its reply in the instant
// between A loading the game for its own reply and saving it. The store
// refuses A's save (stale version) and A answers the move with the stored
// game, not a 409 that would look as if the human's move had failed.
func TestReplySaveRaceAcrossInstances(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.svc
	hs := &hookStore{Games: e.st, at: 2} // 1: the human's move, 2: A's reply
	st := e.create(t, NewGame{Mode: "computer", Color: "white", Level: new(1)})
	var fromB *State
	hs.before = func() {
		ply := 1
		var err error
		if fromB, err = b.Reply(ctx, visitor, st.ID, &ply); err != nil || fromB.Ply != 2 {
			t.Errorf("reply on B: %+v %v", fromB, err)
		}
	}
	a := New(Config{Store: hs, Engine: &firstMove{}, Now: e.clock.Now})
	ply := 0
	got, err := a.Move(ctx, visitor, st.ID, &ply, "e2e4", "")
	if err != nil {
		t.Fatalf("A answered the move with %v; want the stored game", err)
	}
	if fromB == nil || got.Ply != 2 || got.UCI[1] != fromB.UCI[1] {
		t.Fatalf("A answered %v; want e2e4 and B's reply", got.UCI)
	}
}
