package games

import (
	"context"
	"sync/atomic"
	"testing"

	"chesstutor/store"
)

// countingStore counts the games read from the store.
type countingStore struct {
	store.Games
	loads atomic.Int32
}

func (c *countingStore) Game(ctx context.Context, id string) (*store.Game, error) {
	c.loads.Add(1)
	return c.Games.Game(ctx, id)
}

// TestOneLoadPerAction: an action reads the game once and replays it once,
// even a move against the computer that brings its reply, and the PGN
// download (issue 17).
func TestOneLoadPerAction(t *testing.T) {
	e := newEnv(t)
	cs := &countingStore{Games: e.st}
	svc := New(Config{Store: cs, Engine: e.eng, Now: e.clock.Now})
	ctx := context.Background()
	st, err := svc.Create(ctx, visitor, NewGame{Mode: "computer", Color: "black", Level: new(1), Clock: "5+0"})
	if err != nil {
		t.Fatal(err)
	}
	if n := cs.loads.Load(); n != 0 {
		t.Errorf("creating a game where the computer moves first read it %d times, want 0", n)
	}
	if st.Ply != 1 {
		t.Fatalf("the computer did not open: ply %d", st.Ply)
	}
	steps := []struct {
		name string
		do   func() error
	}{
		{"move with the computer's reply", func() error {
			ply := st.Ply
			next, err := svc.Move(ctx, visitor, st.ID, &ply, legalUCI(t, st), "")
			if err == nil && next.Ply != ply+2 {
				t.Errorf("after the move and the reply: ply %d, want %d", next.Ply, ply+2)
			}
			return err
		}},
		{"get", func() error { _, err := svc.Get(ctx, visitor, st.ID); return err }},
		{"pgn", func() error { _, _, err := svc.PGN(ctx, visitor, st.ID); return err }},
		{"resign", func() error { ply := 3; _, err := svc.Resign(ctx, visitor, st.ID, &ply); return err }},
	}
	for _, s := range steps {
		cs.loads.Store(0)
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if n := cs.loads.Load(); n != 1 {
			t.Errorf("%s read the game %d times, want 1", s.name, n)
		}
	}
}

// legalUCI is a legal move for the side to move in st.
func legalUCI(t *testing.T, st *State) string {
	t.Helper()
	if len(st.Legal) == 0 {
		t.Fatal("no legal move")
	}
	return st.Legal[0]
}
