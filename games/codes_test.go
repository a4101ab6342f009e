package games

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"chesstutor/chess"
	"chesstutor/internal/sqlitetest"
	"chesstutor/words"
)

// oldAnswers is what the games service answered, before issue 17, for
// every game in store/sqlite/testdata/v4-games.sql.
type oldAnswers struct {
	Games map[string]struct {
		State   *State
		PGNName string
		PGN     string
	}
	List []map[string]any
}

// wordedList is the game list as the old API answered it: the sentences in
// English.
func wordedList(t *testing.T, list []Summary) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal([]byte(jsonOf(t, list)), &out); err != nil {
		t.Fatal(err)
	}
	for i, s := range list {
		out[i]["Opponent"], out[i]["Reason"] = english.Msg(s.Opponent), english.Msg(s.Reason)
	}
	return out
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
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=synchronous(OFF)") // a throwaway file: no disk syncs
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(string(dump)); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	st := sqlitetest.Open(t, path)
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

// termination is a PGN's Termination tag line.
var termination = regexp.MustCompile(`\[Termination "[^"]*"\]\n`)

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
		if g, w := jsonOf(t, got.Word(english)), jsonOf(t, old.State); g != w {
			t.Errorf("game %s answers\n%s\nwant\n%s", id, g, w)
		}
		// The PGN is the old one but for its Termination tag: the sentence
		// it held is the closing comment, and the tag holds the standard
		// value where the moves do not tell how the game ended (issue 37).
		name, doc, err := svc.PGN(ctx, visitor, id)
		var text string
		if err == nil {
			text, err = doc.Text()
		}
		if err != nil || name != old.PGNName || termination.ReplaceAllString(text, "") != termination.ReplaceAllString(old.PGN, "") {
			t.Errorf("game %s PGN %s, %v:\n%s\nwant %s:\n%s", id, name, err, text, old.PGNName, old.PGN)
		}
		wantTerm := map[string]string{"timeout": `[Termination "time forfeit"]`, "abandoned": `[Termination "abandoned"]`}[old.State.Status]
		if got := termination.FindString(text); strings.TrimSpace(got) != wantTerm {
			t.Errorf("game %s (%s): Termination %q, want %q", id, old.State.Status, got, wantTerm)
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
	if g, w := jsonOf(t, wordedList(t, list)), jsonOf(t, want.List); g != w {
		t.Errorf("game list\n%s\nwant\n%s", g, w)
	}
}

// english words states as the English pages do.
var english = words.Default().For(words.English)

// TestGamesLoadTheSameInEveryLanguage words every stored game in every
// language (and the pseudo-language) and shows that only the sentences
// change: same status, result, position, moves and clocks, because only
// codes are stored.
func TestGamesLoadTheSameInEveryLanguage(t *testing.T) {
	svc, want := oldDatabase(t)
	ctx := context.Background()
	cat := words.MustLoad(words.WithPseudo())
	for _, code := range []string{"es", "ru", words.Pseudo} {
		w := cat.For(code)
		for id, old := range want.Games {
			got, err := svc.Get(ctx, visitor, id)
			if err != nil {
				t.Fatalf("game %s (%s) in %s: %v", id, old.State.Status, code, err)
			}
			got.Word(w)
			if got.Status != "active" && (got.Reason == "" || got.Reason == old.State.Reason) {
				t.Errorf("game %s in %s: reason %q is not in that language", id, code, got.Reason)
			}
			if code == words.Pseudo && got.Status != "active" && !strings.HasPrefix(got.Reason, words.PseudoOpen) {
				t.Errorf("game %s: reason %q escaped the catalogue", id, got.Reason)
			}
			// Reason, Cause and Notes are sentences and follow the
			// language; everything else must not change.
			withoutWords := func(s State) string { s.Reason, s.Cause, s.Notes = "", "", nil; return jsonOf(t, s) }
			if g, w := withoutWords(*got), withoutWords(*old.State); g != w {
				t.Errorf("game %s in %s answers\n%s\nwant\n%s", id, code, g, w)
			}
		}
		list, err := svc.List(ctx, visitor, 100)
		if err != nil || len(list) != len(want.List) {
			t.Fatalf("list in %s: %d games, %v", code, len(list), err)
		}
		for i, s := range list {
			if s.Active != want.List[i]["Active"] || s.Result != want.List[i]["Result"] ||
				(!s.Active && w.Msg(s.Reason) == english.Msg(s.Reason)) {
				t.Errorf("listed game %s in %s: %+v", s.ID, code, s)
			}
		}
	}
}

// TestEndingsStoredAsCodes: a game's ending is stored as codes and worded
// only when read, in the reader's language.
func TestEndingsStoredAsCodes(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
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
	ru := words.Default().For("ru")
	for _, tc := range []struct {
		before                *State
		status                string
		result                string
		reason, russian, code string
	}{
		{resigned, "resignation", "1-0", "White wins by resignation", "Белые победили: чёрные сдались", "resignation"},
		{flagged, "timeout", "1/2-1/2", "Draw: White's time ran out, but Black could never checkmate",
			"Ничья: у белых кончилось время, но чёрные никогда не смогли бы поставить мат", chess.TimeoutNoMate},
	} {
		got, err := e.svc.Get(ctx, visitor, tc.before.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != tc.status || got.Result != tc.result || got.Word(english).Reason != tc.reason || got.FEN != tc.before.FEN {
			t.Errorf("got %q %q %q, want %q %q %q", got.Status, got.Result, got.Reason, tc.status, tc.result, tc.reason)
		}
		if r := got.Word(ru).Reason; r != tc.russian {
			t.Errorf("in Russian: %q, want %q", r, tc.russian)
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
