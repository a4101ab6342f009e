package games

import (
	"context"
	"strings"
	"testing"
	"time"

	"chesstutor/store"
)

// TestUnfinishedGamesAreCapped: starting one game more than the cap
// closes the least recently played as abandoned; it can be read but not
// played on, and the list says why.
func TestUnfinishedGamesAreCapped(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var first *State
	for i := 0; i < DefaultMaxActive; i++ {
		st := e.create(t, NewGame{Mode: "friend"})
		if i == 0 {
			first = st
			e.play(t, st, "e4") // a move makes it the most recently played
		}
		e.clock.now = e.clock.now.Add(time.Second)
	}
	games, err := e.st.VisitorGames(ctx, visitor, 100)
	if err != nil {
		t.Fatal(err)
	}
	if n := countActive(games); n != DefaultMaxActive {
		t.Fatalf("%d active games after starting %d, want all of them", n, DefaultMaxActive)
	}
	// The least recently played game is the last one listed.
	oldest := games[len(games)-1].ID
	e.create(t, NewGame{Mode: "friend"})
	games, err = e.st.VisitorGames(ctx, visitor, 100)
	if err != nil {
		t.Fatal(err)
	}
	if n := countActive(games); n != DefaultMaxActive {
		t.Fatalf("%d active games after one more, want the cap %d", n, DefaultMaxActive)
	}
	st, err := e.svc.Get(ctx, visitor, oldest)
	if err != nil {
		t.Fatalf("the abandoned game cannot be read: %v", err)
	}
	if st.Status != "abandoned" || st.Result != "*" || len(st.Legal) != 0 || !strings.Contains(st.Word(english).Reason, "closed") {
		t.Fatalf("abandoned game state: status %q result %q legal %d reason %q", st.Status, st.Result, len(st.Legal), st.Reason)
	}
	ply := st.Ply
	_, err = e.svc.Move(ctx, visitor, oldest, &ply, "", "d4")
	wantKind(t, err, Conflict)
	if err != nil && !strings.Contains(english.Msg(err.(*Error).Message), "closed") {
		t.Errorf("moving in an abandoned game says %q", err)
	}
	list, err := e.svc.List(ctx, visitor, 100)
	if err != nil {
		t.Fatalf("List with an abandoned game: %v", err)
	}
	for _, s := range list {
		if s.ID == oldest && (s.Active || !strings.Contains(english.Msg(s.Reason), "closed")) {
			t.Errorf("listed abandoned game: active %v reason %q", s.Active, s.Reason)
		}
	}
	if first.ID == oldest {
		t.Error("the game played last was closed instead of the least recently played")
	}
}

func countActive(gs []*store.Game) int {
	n := 0
	for _, g := range gs {
		if g.Status == "active" {
			n++
		}
	}
	return n
}
