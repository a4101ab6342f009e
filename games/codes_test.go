package games

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chesstutor/chess"
	"chesstutor/store/sqlite"
)

// oldAnswers is what the games service answered, before issue 17, for
// every game in store/sqlite/testdata/v4-games.sql.
type oldAnswers struct {
	Games map[string]struct {
		State   *State
		PGNName string
		PGN     string
	}
	List []Summary
}

// oldDatabase restores the database written before issue 17 (endings and
// reasons stored in words) and opens it with today's code, which migrates
// it to codes.
func oldDatabase(t *testing.T) (*Service, oldAnswers) {
	t.Helper()
	dump, err := os.ReadFile(filepath.Join("..", "store", "sqlite", "testdata", "v4-games.sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(string(dump)); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var want oldAnswers
	b, err := os.ReadFile(filepath.Join("testdata", "v4-answers.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Games) == 0 {
		t.Fatal("no old answers")
	}
	clock := &fakeClock{now: time.Date(2025, 3, 1, 13, 0, 0, 0, time.UTC)}
	return New(Config{Store: st, Engine: &firstMove{}, Now: clock.Now}), want
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOldGamesAnswerTheSame: after the migration to codes, every stored
// game answers exactly what the old code answered — state, PGN and the
// game list (N7; the API's answers are unchanged).
func TestOldGamesAnswerTheSame(t *testing.T) {
	svc, want := oldDatabase(t)
	ctx := context.Background()
	endings := map[string]bool{}
	for id, old := range want.Games {
		got, err := svc.Get(ctx, visitor, id)
		if err != nil {
			t.Fatalf("game %s (%s): %v", id, old.State.Status, err)
		}
		if g, w := jsonOf(t, got), jsonOf(t, old.State); g != w {
			t.Errorf("game %s answers\n%s\nwant\n%s", id, g, w)
		}
		name, text, err := svc.PGN(ctx, visitor, id)
		if err != nil || name != old.PGNName || text != old.PGN {
			t.Errorf("game %s PGN %s, %v:\n%s\nwant %s:\n%s", id, name, err, text, old.PGNName, old.PGN)
		}
		endings[got.Status+" "+got.Result] = true
	}
	if len(endings) < 10 {
		t.Errorf("the old games cover only %v", endings)
	}
	list, err := svc.List(ctx, visitor, 100)
	if err != nil {
		t.Fatal(err)
	}
	var roundTrip []Summary // the old list went through JSON once
	if err := json.Unmarshal([]byte(jsonOf(t, list)), &roundTrip); err != nil {
		t.Fatal(err)
	}
	if g, w := jsonOf(t, roundTrip), jsonOf(t, want.List); g != w {
		t.Errorf("game list\n%s\nwant\n%s", g, w)
	}
}

// reword swaps every display word and sentence for another until the test
// ends, as a new wording or a translation would.
func reword(t *testing.T) {
	prev := chess.SetWording(chess.DefaultWording().Map(func(s string) string { return "«" + strings.ToUpper(s[:1]) + s[1:] + "»" }))
	t.Cleanup(func() { chess.SetWording(prev) })
}

// TestRewordedGamesLoadTheSame rewords every display string and shows
// every stored game still loads the same: same status, result, position,
// moves and clocks; only the sentences follow the new words. Before issue
// 17 a reworded "resignation" would have reopened resigned games.
func TestRewordedGamesLoadTheSame(t *testing.T) {
	svc, want := oldDatabase(t)
	ctx := context.Background()
	reword(t)
	for id, old := range want.Games {
		got, err := svc.Get(ctx, visitor, id)
		if err != nil {
			t.Fatalf("game %s (%s) after rewording: %v", id, old.State.Status, err)
		}
		if got.Status != "active" && (got.Reason == old.State.Reason || !strings.Contains(got.Reason, "«")) {
			t.Errorf("game %s: reason %q does not follow the new wording", id, got.Reason)
		}
		// Reason and Cause are sentences and follow the wording (Cause
		// names the colours); everything else must not change.
		withoutReason := func(s State) string { s.Reason, s.Cause = "", ""; return jsonOf(t, s) }
		if g, w := withoutReason(*got), withoutReason(*old.State); g != w {
			t.Errorf("game %s after rewording answers\n%s\nwant\n%s", id, g, w)
		}
		if _, _, err := svc.PGN(ctx, visitor, id); err != nil {
			t.Errorf("game %s PGN after rewording: %v", id, err)
		}
	}
	list, err := svc.List(ctx, visitor, 100)
	if err != nil || len(list) != len(want.List) {
		t.Fatalf("list after rewording: %d games, %v", len(list), err)
	}
	for i, s := range list {
		if s.Active != want.List[i].Active || s.Result != want.List[i].Result ||
			(!s.Active && !strings.Contains(s.Reason, "«")) {
			t.Errorf("listed game %s after rewording: %+v", s.ID, s)
		}
	}
}

// TestGamesStoredUnderOneWordingLoadUnderAnother: a game that ends while
// the words are different loads with the same ending once they change
// back, because only codes were stored.
func TestGamesStoredUnderOneWordingLoadUnderAnother(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	prev := chess.SetWording(chess.DefaultWording().Map(func(s string) string { return "~" + s + "~" }))
	resigned := e.play(t, e.create(t, NewGame{Mode: "friend"}), "e4")
	ply := 1
	resigned, err := e.svc.Resign(ctx, visitor, resigned.ID, &ply)
	if err != nil {
		t.Fatal(err)
	}
	flagged := e.create(t, NewGame{Mode: "friend", FEN: "7k/8/8/8/8/8/8/KQ6 w - - 0 1", Clock: "3+2"})
	ply = 0
	if _, err := e.svc.Resume(ctx, visitor, flagged.ID, &ply); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(4 * time.Minute)
	if flagged, err = e.svc.Flag(ctx, visitor, flagged.ID, &ply); err != nil {
		t.Fatal(err)
	}
	chess.SetWording(prev)

	for _, tc := range []struct {
		before       *State
		status       string
		result       string
		reason, code string
	}{
		{resigned, "resignation", "1-0", "White wins by resignation", "resignation"},
		{flagged, "timeout", "1/2-1/2", "Draw: White's time ran out, but Black could never checkmate", chess.TimeoutNoMate},
	} {
		got, err := e.svc.Get(ctx, visitor, tc.before.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != tc.status || got.Result != tc.result || got.Reason != tc.reason || got.FEN != tc.before.FEN {
			t.Errorf("got %q %q %q, want %q %q %q", got.Status, got.Result, got.Reason, tc.status, tc.result, tc.reason)
		}
		rec, err := e.st.Game(ctx, tc.before.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Status != chess.Resignation.Code() && rec.Status != chess.Timeout.Code() || rec.Reason != tc.code {
			t.Errorf("stored status %q reason %q, want codes (%s)", rec.Status, rec.Reason, tc.code)
		}
	}
}
