package games

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/internal/sqlitetest"
	"chesstutor/store/sqlite"
)

const visitor = "0123456789abcdef0123456789abcdef"

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// firstMove is a stand-in engine that plays the first legal move, or the
// move a test asks for.
type firstMove struct {
	calls atomic.Int32

	mu      sync.Mutex
	budgets []time.Duration // the time budget of each call, 0 for none
	levels  []int           // the level of each call
}

func (e *firstMove) Move(ctx context.Context, start *chess.Position, moves []chess.Move, level int) (chess.Move, error) {
	e.calls.Add(1)
	d, _ := engine.TimeBudget(ctx)
	e.mu.Lock()
	e.budgets = append(e.budgets, d)
	e.levels = append(e.levels, level)
	e.mu.Unlock()
	pos := start
	for _, m := range moves {
		pos = pos.Play(m)
	}
	legal := pos.LegalMoves()
	if len(legal) == 0 {
		return chess.NoMove, errors.New("no move")
	}
	return legal[0], nil
}

type env struct {
	svc   *Service
	clock *fakeClock
	st    *sqlite.SQLite
	eng   *firstMove
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	st := sqlitetest.New(t)
	for _, v := range []string{visitor, "fedcba9876543210fedcba9876543210"} {
		if err := st.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	clock := &fakeClock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	eng := &firstMove{}
	return &env{svc: New(Config{Store: st, Engine: eng, Now: clock.Now}), clock: clock, st: st, eng: eng}
}

func (e *env) create(t *testing.T, req NewGame) *State {
	t.Helper()
	st, err := e.svc.Create(context.Background(), visitor, req)
	if err != nil {
		t.Fatalf("Create(%+v): %v", req, err)
	}
	return st
}

func (e *env) play(t *testing.T, st *State, sans ...string) *State {
	t.Helper()
	for _, san := range sans {
		ply := st.Ply
		uci := ""
		if uciPattern.MatchString(san) {
			uci, san = san, ""
		}
		next, err := e.svc.Move(context.Background(), visitor, st.ID, &ply, uci, san)
		if err != nil {
			t.Fatalf("move %s at ply %d: %v", san, ply, err)
		}
		st = next
	}
	return st
}

func kindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

func wantKind(t *testing.T, err error, want Kind) {
	t.Helper()
	if got := kindOf(err); got != want {
		t.Fatalf("error = %v (kind %d), want kind %d", err, got, want)
	}
}

func TestFoolsMateEndsByCheckmate(t *testing.T) {
	e := newEnv(t)
	st := e.play(t, e.create(t, NewGame{Mode: "friend"}), "f3", "e5", "g4", "Qh4#")
	if st.Status != "checkmate" || st.Result != "0-1" || st.Word(english).Reason != "Black wins by checkmate" {
		t.Fatalf("got status %q result %q reason %q, want checkmate 0-1", st.Status, st.Result, st.Reason)
	}
	if st.Check != "e1" || st.LastMove != "d8h4" || len(st.Legal) != 0 {
		t.Errorf("check %q last %q legal %v; want e1, d8h4, none", st.Check, st.LastMove, st.Legal)
	}
	// Stored: a fresh load sees the same ending.
	got, err := e.svc.Get(context.Background(), visitor, st.ID)
	if err != nil || got.Result != "0-1" || got.Ply != 4 {
		t.Fatalf("reload: %+v, %v", got, err)
	}
	ply := 4
	_, err = e.svc.Move(context.Background(), visitor, st.ID, &ply, "e2e4", "")
	wantKind(t, err, Conflict)
	_, err = e.svc.Undo(context.Background(), visitor, st.ID, &ply)
	wantKind(t, err, Conflict)
}

func TestAutomaticEndings(t *testing.T) {
	tests := []struct {
		name, fen  string
		moves      []string
		status     string
		causeStart string
	}{
		{"stalemate", "k7/8/8/2Q5/8/8/8/K7 w - - 0 1", []string{"Qc7"}, "stalemate", "Black has no legal move"},
		{"threefold", "", []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}, "threefold repetition", "The same position occurred three times"},
		{"fifty moves", "k7/8/8/8/8/8/8/KR6 w - - 99 80", []string{"Rb2"}, "fifty-move rule", "Fifty moves"},
		{"king v king", "7k/8/8/8/8/8/1p6/K7 w - - 0 1", []string{"Kxb2"}, "insufficient material", "Only the two kings"},
		{"king and bishop v king", "7k/8/8/8/8/8/1p6/KB6 w - - 0 1", []string{"Kxb2"}, "insufficient material", "Only a king and a bishop"},
		{"king and knight v king", "7k/8/8/8/8/8/1p6/KN6 w - - 0 1", []string{"Kxb2"}, "insufficient material", "Only a king and a knight"},
		{"bishops on one colour", "5b1k/8/8/8/8/8/1p6/K1B5 w - - 0 1", []string{"Kxb2"}, "insufficient material", "Only kings and bishops"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			st := e.play(t, e.create(t, NewGame{Mode: "friend", FEN: tc.fen}), tc.moves...)
			if st.Status != tc.status || st.Result != "1/2-1/2" {
				t.Fatalf("got %q %q, want %q 1/2-1/2", st.Status, st.Result, tc.status)
			}
			st.Word(english)
			if len(st.Cause) < len(tc.causeStart) || st.Cause[:len(tc.causeStart)] != tc.causeStart {
				t.Errorf("cause %q, want it to start %q", st.Cause, tc.causeStart)
			}
		})
	}
}

func TestDrawRuleNotes(t *testing.T) {
	e := newEnv(t)
	st := e.play(t, e.create(t, NewGame{Mode: "friend"}), "Nf3", "Nf6", "Ng1", "Ng8").Word(english)
	if st.Repetition != 2 || len(st.Notes) != 1 || st.Notes[0][:27] != "This position has occurred " {
		t.Fatalf("after returning once: repetition %d notes %q", st.Repetition, st.Notes)
	}
	st = e.play(t, e.create(t, NewGame{Mode: "friend", FEN: "k7/8/8/8/8/8/8/KR6 w - - 85 80"}), "Rb2").Word(english)
	if st.HalfmoveClock != 86 || len(st.Notes) != 1 || st.Notes[0][:36] != "Fifty-move count: 86 of 100 half-mov" {
		t.Fatalf("fifty-move note: halfmove %d notes %q", st.HalfmoveClock, st.Notes)
	}
}

func TestFlagFollowsR9(t *testing.T) {
	tests := []struct {
		name, fen, result string
	}{
		{"opponent has a lone king", "7k/8/8/8/8/8/8/KQ6 w - - 0 1", "1/2-1/2"},
		{"flagged side has a lone king", "7k/8/8/8/8/8/8/KQ6 b - - 0 1", "1-0"},
		{"knight against queens", "6nk/8/8/8/8/8/8/KQ6 w - - 0 1", "1/2-1/2"},
		{"knight against a rook", "6nk/8/8/8/8/8/8/KR6 w - - 0 1", "0-1"},
		{"bishop against a rook", "5b1k/8/8/8/8/8/8/KR6 w - - 0 1", "1/2-1/2"},
		{"bishop against a bishop of the other colour", "5b1k/8/8/8/8/8/8/KBR5 w - - 0 1", "0-1"},
		{"pawn left", "7k/7p/8/8/8/8/8/KR6 w - - 0 1", "0-1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			ctx := context.Background()
			st := e.create(t, NewGame{Mode: "friend", FEN: tc.fen, Clock: "3+2"})
			ply := 0
			if _, err := e.svc.Resume(ctx, visitor, st.ID, &ply); err != nil {
				t.Fatal(err)
			}
			e.clock.Advance(2 * time.Minute)
			_, err := e.svc.Flag(ctx, visitor, st.ID, &ply)
			wantKind(t, err, Conflict) // a minute is still left
			e.clock.Advance(time.Minute)
			st, err = e.svc.Flag(ctx, visitor, st.ID, &ply)
			if err != nil {
				t.Fatal(err)
			}
			if st.Status != "timeout" || st.Result != tc.result {
				t.Fatalf("got %q %q (%s), want timeout %s", st.Status, st.Result, st.Reason, tc.result)
			}
			if st.Clocks == nil || pickState(st) != 0 {
				t.Errorf("flagged clock shows %+v, want 0", st.Clocks)
			}
		})
	}
}

func pickState(st *State) int64 {
	if st.Turn == "black" {
		return st.Clocks.Black
	}
	return st.Clocks.White
}

func TestExpiredClockEndsGameOnNextRequest(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.play(t, e.create(t, NewGame{Mode: "friend", Clock: "5+0", PassScreen: new(bool)}), "e4")
	if st.Running != "black" {
		t.Fatalf("running %q after White's move, want black", st.Running)
	}
	e.clock.Advance(5*time.Minute + time.Millisecond)
	st, err := e.svc.Get(ctx, visitor, st.ID)
	if err != nil || st.Status != "timeout" || st.Result != "1-0" {
		t.Fatalf("Get after the flag fell: %+v %v", st, err)
	}
	ply := 1
	_, err = e.svc.Move(ctx, visitor, st.ID, &ply, "e7e5", "")
	wantKind(t, err, Conflict)
}

// TestListEndsExpiredClock: My games shows a game whose clock ran out as
// finished, without the game being opened first (issue 38).
func TestListEndsExpiredClock(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.play(t, e.create(t, NewGame{Mode: "friend", Clock: "5+0", PassScreen: new(bool)}), "e4")
	untimed := e.play(t, e.create(t, NewGame{Mode: "friend"}), "d4")
	e.clock.Advance(5*time.Minute + time.Millisecond)
	list, err := e.svc.List(ctx, visitor, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range list {
		switch g.ID {
		case st.ID:
			if g.Active || g.Result != "1-0" {
				t.Errorf("the game whose clock ran out is listed as %+v, want finished 1-0", g)
			}
		case untimed.ID:
			if !g.Active {
				t.Errorf("the game without a clock is listed as finished")
			}
		}
	}
	// The ending was stored: opening the game agrees.
	if got, err := e.svc.Get(ctx, visitor, st.ID); err != nil || got.Status != "timeout" {
		t.Errorf("Get after the list: %+v %v", got, err)
	}
}

func TestClocksIncrementPauseAndUndo(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.create(t, NewGame{Mode: "friend", Clock: "3+2"})
	ply := 0
	if _, err := e.svc.Resume(ctx, visitor, st.ID, &ply); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(10 * time.Second)
	st = e.play(t, st, "e4") // White used 10 s, gains 2 s; pass screen pauses
	if st.Clocks.White != 172000 || st.Clocks.Black != 180000 || st.Running != "" {
		t.Fatalf("after e4: %+v running %q, want 172000/180000 paused", st.Clocks, st.Running)
	}
	e.clock.Advance(time.Hour) // the pass screen shows: nobody's time runs
	ply = 1
	if st, _ = e.svc.Resume(ctx, visitor, st.ID, &ply); st.Running != "black" {
		t.Fatalf("resume: running %q", st.Running)
	}
	e.clock.Advance(30 * time.Second)
	st = e.play(t, st, "e5")
	if st.Clocks.White != 172000 || st.Clocks.Black != 152000 {
		t.Fatalf("after e5: %+v, want 172000/152000", st.Clocks)
	}
	ply = 2
	e.svc.Resume(ctx, visitor, st.ID, &ply)
	e.clock.Advance(5 * time.Second)
	st, err := e.svc.Undo(ctx, visitor, st.ID, &ply)
	if err != nil {
		t.Fatal(err)
	}
	// Back to the position after 1. e4, as the clocks showed then.
	if st.Ply != 1 || st.Clocks.White != 172000 || st.Clocks.Black != 180000 {
		t.Fatalf("after undo: ply %d clocks %+v, want 1, 172000/180000", st.Ply, st.Clocks)
	}
	ply = 1
	if st, err = e.svc.Pause(ctx, visitor, st.ID, &ply); err != nil || st.Running != "" {
		t.Fatalf("pause: %+v %v", st, err)
	}
}

func TestUndoSwitchedOff(t *testing.T) {
	e := newEnv(t)
	st := e.play(t, e.create(t, NewGame{Mode: "friend", Undo: new(bool)}), "e4")
	ply := 1
	_, err := e.svc.Undo(context.Background(), visitor, st.ID, &ply)
	wantKind(t, err, Conflict)
}

func TestBadRequests(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.create(t, NewGame{Mode: "friend"})
	zero, one := 0, 1
	tests := []struct {
		name     string
		ply      *int
		uci, san string
		want     Kind
	}{
		{"no move", &zero, "", "", Invalid},
		{"garbage UCI", &zero, "e2e9", "", Invalid},
		{"garbage SAN", &zero, "", "Zz9", Invalid},
		{"SAN with trailing junk", &zero, "", "e4 junk", Invalid},
		{"two moves in one", &zero, "", "Nf3Nc6", Invalid},
		{"no ply", nil, "e2e4", "", Invalid},
		{"illegal UCI", &zero, "e2e5", "", Illegal},
		{"illegal SAN", &zero, "", "Nf6", Illegal},
		{"stale ply", &one, "e2e4", "", Conflict},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.svc.Move(ctx, visitor, st.ID, tc.ply, tc.uci, tc.san)
			wantKind(t, err, tc.want)
		})
	}
	_, err := e.svc.Get(ctx, "fedcba9876543210fedcba9876543210", st.ID)
	wantKind(t, err, NotFound)
	_, err = e.svc.Get(ctx, visitor, "nope")
	wantKind(t, err, NotFound)
	for _, req := range []NewGame{{Mode: "chess960"}, {Mode: "friend", Clock: "1+0"}, {Mode: "computer", Level: new(9)},
		{Mode: "friend", FEN: "not a fen"}, {Mode: "friend", FEN: "8/8/8/8/8/8/8/K7 w - - 0 1"}} {
		_, err := e.svc.Create(ctx, visitor, req)
		wantKind(t, err, Invalid)
	}
}

// TestTypedMovesAreForgiving: the service reads typed moves with
// chess.ParseSAN alone, so every form it accepts plays (G22).
func TestTypedMovesAreForgiving(t *testing.T) {
	for _, tc := range []struct{ fen, typed, want string }{
		{chess.StartFEN, "nf3", "Nf3"},
		{chess.StartFEN, "Nf3", "Nf3"},
		{chess.StartFEN, "e2e4", "e4"},
		{chess.StartFEN, "e2-e4", "e4"},
		{chess.StartFEN, "Pe4", "e4"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "O-O"},
		{"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8q", "e8=Q"},
		{"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=Q", "e8=Q"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6e.p.", "exd6"},
	} {
		e := newEnv(t)
		st := e.create(t, NewGame{Mode: "friend", FEN: tc.fen})
		ply := 0
		st, err := e.svc.Move(context.Background(), visitor, st.ID, &ply, "", tc.typed)
		if err != nil {
			t.Errorf("%q in %s: %v", tc.typed, tc.fen, err)
			continue
		}
		if got := st.Moves[len(st.Moves)-1]; got != tc.want {
			t.Errorf("%q played %s, want %s", tc.typed, got, tc.want)
		}
	}
}

func TestParallelMovesOnOnePly(t *testing.T) {
	e := newEnv(t)
	st := e.create(t, NewGame{Mode: "friend"})
	var wg sync.WaitGroup
	var ok, conflict atomic.Int32
	moves := []string{"e2e4", "d2d4", "g1f3", "c2c4"}
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ply := 0
			_, err := e.svc.Move(context.Background(), visitor, st.ID, &ply, moves[i%len(moves)], "")
			switch kindOf(err) {
			case 0:
				if err == nil {
					ok.Add(1)
				}
			case Conflict:
				conflict.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 1 || conflict.Load() != 19 {
		t.Fatalf("%d succeeded and %d conflicted, want 1 and 19", ok.Load(), conflict.Load())
	}
	got, err := e.svc.Get(context.Background(), visitor, st.ID)
	if err != nil || got.Ply != 1 || len(got.UCI) != 1 {
		t.Fatalf("after the race: %+v %v", got, err)
	}
}

func TestFriendDrawOffer(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.play(t, e.create(t, NewGame{Mode: "friend"}), "e4")
	ply := 1
	_, err := e.svc.AcceptDraw(ctx, visitor, st.ID, &ply)
	wantKind(t, err, Conflict) // nothing offered yet
	if st, err = e.svc.OfferDraw(ctx, visitor, st.ID, &ply); err != nil || st.DrawOffer != "black" {
		t.Fatalf("offer: %+v %v", st, err)
	}
	if st, err = e.svc.DeclineDraw(ctx, visitor, st.ID, &ply); err != nil || st.DrawOffer != "" || st.Status != "active" {
		t.Fatalf("decline: %+v %v", st, err)
	}
	e.svc.OfferDraw(ctx, visitor, st.ID, &ply)
	if st, err = e.svc.AcceptDraw(ctx, visitor, st.ID, &ply); err != nil || st.Status != "agreement" || st.Result != "1/2-1/2" {
		t.Fatalf("accept: %+v %v", st, err)
	}
}

func TestResignGivesUpForThePlayerToMove(t *testing.T) {
	e := newEnv(t)
	st := e.play(t, e.create(t, NewGame{Mode: "friend"}), "e4")
	ply := 1
	st, err := e.svc.Resign(context.Background(), visitor, st.ID, &ply)
	if err != nil || st.Result != "1-0" || st.Word(english).Reason != "White wins by resignation" {
		t.Fatalf("resign: %+v %v", st, err)
	}
	got, _ := e.svc.Get(context.Background(), visitor, st.ID)
	if got.Status != "resignation" || got.Result != "1-0" {
		t.Fatalf("reload after resign: %q %q", got.Status, got.Result)
	}
}

func TestComputerGame(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.create(t, NewGame{Mode: "computer", Color: "black", Level: new(1)})
	if st.Ply != 1 || st.Turn != "black" || st.Waiting {
		t.Fatalf("the computer should open as White: ply %d turn %s waiting %v", st.Ply, st.Turn, st.Waiting)
	}
	ply := 1
	_, err := e.svc.Undo(ctx, visitor, st.ID, &ply)
	wantKind(t, err, Conflict) // only the computer has moved
	st = e.play(t, st, st.Legal[0])
	if st.Ply != 3 || st.Turn != "black" {
		t.Fatalf("after a reply: ply %d turn %s", st.Ply, st.Turn)
	}
	ply = 3
	if st, err = e.svc.Undo(ctx, visitor, st.ID, &ply); err != nil || st.Ply != 1 {
		t.Fatalf("undo against the computer: %+v %v", st, err)
	}
	ply = 1
	st, err = e.svc.Resign(ctx, visitor, st.ID, &ply)
	if err != nil || st.Result != "1-0" {
		t.Fatalf("resign as Black: %+v %v", st, err)
	}
}

// TestLevelZero: "level":0 in the API is level 0, the weakest (C6); a
// request without a level keeps the old default, level 1; a friend game
// has no level in its state.
func TestLevelZero(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		body string
		want int
	}{
		{`{"mode":"computer","color":"black","level":0}`, 0},
		{`{"mode":"computer","color":"black"}`, engine.DefaultLevel},
		{`{"mode":"computer","color":"black","level":8}`, 8},
	} {
		var req NewGame
		if err := json.Unmarshal([]byte(tc.body), &req); err != nil {
			t.Fatal(err)
		}
		e.eng.levels = nil
		st := e.create(t, req)
		if st.Level == nil || *st.Level != tc.want || st.ComputerLevel() != tc.want {
			t.Errorf("%s: level %v, want %d", tc.body, st.Level, tc.want)
		}
		if got := e.eng.levels; len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: the computer was asked to play at levels %v, want [%d]", tc.body, got, tc.want)
		}
		out, _ := json.Marshal(st)
		if !strings.Contains(string(out), fmt.Sprintf(`"level":%d`, tc.want)) {
			t.Errorf("%s: the state's JSON %s has no level %d", tc.body, out, tc.want)
		}
		again, err := e.svc.Get(context.Background(), visitor, st.ID)
		if err != nil || again.ComputerLevel() != tc.want {
			t.Errorf("%s: reloaded level %d, %v", tc.body, again.ComputerLevel(), err)
		}
	}
	friend := e.create(t, NewGame{Mode: "friend"})
	if out, _ := json.Marshal(friend); friend.Level != nil || strings.Contains(string(out), `"level"`) {
		t.Errorf("a friend game has a level: %s", out)
	}
	_, err := e.svc.Create(context.Background(), visitor, NewGame{Mode: "computer", Level: new(-1)})
	wantKind(t, err, Invalid)
}

// TestMoveWithoutReply: the page may take the visitor's move back at once,
// with the computer's clock running, and ask for the reply next (G17).
func TestMoveWithoutReply(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.create(t, NewGame{Mode: "computer", Color: "white", Level: new(1), Clock: "5+0"})
	ply := 0
	st, err := e.svc.Move(WithoutReply(ctx), visitor, st.ID, &ply, "e2e4", "")
	if err != nil {
		t.Fatal(err)
	}
	if st.Ply != 1 || !st.Waiting || st.Running != "black" || len(st.Moves) != 1 {
		t.Fatalf("after the move alone: ply %d waiting %v running %q moves %v", st.Ply, st.Waiting, st.Running, st.Moves)
	}
	e.clock.Advance(700 * time.Millisecond)
	ply = 1
	st, err = e.svc.Reply(ctx, visitor, st.ID, &ply)
	if err != nil {
		t.Fatal(err)
	}
	if st.Ply != 2 || st.Waiting || st.Running != "white" {
		t.Fatalf("after the reply: ply %d waiting %v running %q", st.Ply, st.Waiting, st.Running)
	}
	if st.Clocks.Black != 300000-700 || st.Clocks.White != 300000 {
		t.Errorf("clocks after the reply: %+v, want Black to have used the 700 ms", st.Clocks)
	}
}

func TestComputerDrawOffer(t *testing.T) {
	tests := []struct {
		name, fen string
		accept    bool
		says      string // the reason speaks in pawns, not raw totals
	}{
		{"computer a rook down", "r3k3/8/8/8/8/8/8/R3K2R w - - 0 10", true, "it is 5 pawns behind"},
		{"computer a rook up", "r3k2r/8/8/8/8/8/8/R3K3 w - - 0 10", false, "it is 5 pawns ahead"},
		{"computer two pawns up", "r3k3/pp6/8/8/8/8/8/R3K3 w - - 0 10", false, "it is 2 pawns ahead"},
		{"level before move 30", "r3k3/8/8/8/8/8/8/R3K3 w - - 0 29", false, "material is level"},
		{"level at move 30", "r3k3/8/8/8/8/8/8/R3K3 w - - 0 30", true, "material is level"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			st := e.create(t, NewGame{Mode: "computer", Color: "white", FEN: tc.fen})
			ply := 0
			st, err := e.svc.OfferDraw(context.Background(), visitor, st.ID, &ply)
			if err != nil {
				t.Fatal(err)
			}
			st.Word(english)
			if got := st.Status == "agreement"; got != tc.accept {
				t.Fatalf("accepted = %v, want %v (%s)", got, tc.accept, st.Message)
			}
			if !strings.Contains(st.Message, tc.says) {
				t.Errorf("the computer says %q, want it to say %q", st.Message, tc.says)
			}
		})
	}
}

func TestPGN(t *testing.T) {
	e := newEnv(t)
	st := e.play(t, e.create(t, NewGame{Mode: "friend"}), "f3", "e5", "g4", "Qh4#")
	name, doc, err := e.svc.PGN(context.Background(), visitor, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	text, err := doc.Text()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Event "`, `[Site "`, `[Date "2025.03.01"]`, `[Round "`, `[White "`, `[Black "`, `[Result "0-1"]`, "1. f3 e5 2. g4 Qh4#", "0-1\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("PGN lacks %q:\n%s", want, text)
		}
	}
	if name == "" {
		t.Error("no file name")
	}
	list, err := e.svc.List(context.Background(), visitor, 10)
	if err != nil || len(list) != 1 || list[0].Result != "0-1" || list[0].Moves != 2 {
		t.Fatalf("list: %+v %v", list, err)
	}
}

func TestClockBudget(t *testing.T) {
	tests := []struct {
		left, inc int64
		want      time.Duration
	}{
		{180_000, 2_000, 7 * time.Second},      // 3+2 at the start: 6 s + 1 s
		{300_000, 0, 10 * time.Second},         // 5+0 at the start
		{1_200, 2_000, 600 * time.Millisecond}, // low clock: never more than half of it
		{900, 0, 50 * time.Millisecond},        // the floor
		{0, 0, 50 * time.Millisecond},
	}
	for _, tc := range tests {
		if got := clockBudget(tc.left, tc.inc); got != tc.want {
			t.Errorf("clockBudget(%d ms, +%d ms) = %v, want %v", tc.left, tc.inc, got, tc.want)
		}
	}
}

func TestComputerThinksWithinItsClock(t *testing.T) {
	e := newEnv(t)
	// On a clock the engine is asked to answer within its share of the
	// computer's time: Black has 3:00 and gets 2 s a move.
	st := e.create(t, NewGame{Mode: "computer", Color: "white", Level: new(8), Clock: "3+2"})
	e.clock.Advance(3 * time.Second) // the human's thinking time is not the computer's
	e.play(t, st, "e4")
	// Without a clock the level's own budget applies.
	st = e.create(t, NewGame{Mode: "computer", Color: "white", Level: new(8)})
	e.play(t, st, "e4")
	e.eng.mu.Lock()
	defer e.eng.mu.Unlock()
	want := []time.Duration{7 * time.Second, 0}
	if len(e.eng.budgets) != len(want) {
		t.Fatalf("engine called with budgets %v, want %v", e.eng.budgets, want)
	}
	for i := range want {
		if e.eng.budgets[i] != want[i] {
			t.Errorf("call %d: budget %v, want %v", i+1, e.eng.budgets[i], want[i])
		}
	}
}
