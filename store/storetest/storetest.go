// Package storetest is the contract every store.Store implementation keeps
// (N6). An implementation's own tests call Run with a way to make an empty
// database and open it:
//
//	func TestContract(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) storetest.Opener {
//			path := filepath.Join(t.TempDir(), "chess.db")
//			return func(t *testing.T) store.Store {
//				s, err := sqlite.Open(context.Background(), path)
//				if err != nil {
//					t.Fatal(err)
//				}
//				return s
//			}
//		})
//	}
//
// The suite covers every method of every interface, records that do not
// exist or belong to someone else (store.ErrNotFound), stale versioned
// writes (store.ErrConflict), concurrent writers, migrating an empty
// database and data surviving a reopen.
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

// Opener opens (migrating as needed) one database made by Run's newDB.
// Every call opens the same database, as a restarted server would; the
// suite closes what it opens.
type Opener func(t *testing.T) store.Store

// Run runs the contract suite. newDB makes a new, empty database (its own
// file, schema or server database) for one subtest and returns how to open
// it; it should clean up with t.Cleanup.
func Run(t *testing.T, newDB func(t *testing.T) Opener) {
	c := &contract{newDB: newDB}
	t.Run("MigrateFromEmpty", c.migrateFromEmpty)
	t.Run("Visitors", c.visitors)
	t.Run("Progress", c.progress)
	t.Run("ProgressOfUnknownVisitor", c.progressOfUnknownVisitor)
	t.Run("GamesCreateLoadList", c.gamesCreateLoadList)
	t.Run("GamesNotFound", c.gamesNotFound)
	t.Run("GamesVersionedUpdate", c.gamesVersionedUpdate)
	t.Run("GamesConcurrentWriters", c.gamesConcurrentWriters)
	t.Run("QuizRoundAnswersAndScore", c.quizRoundAnswersAndScore)
	t.Run("QuizAnswerTwiceCountsOnce", c.quizAnswerTwiceCountsOnce)
	t.Run("QuizConcurrentAnswersCountOnce", c.quizConcurrentAnswersCountOnce)
	t.Run("QuizNotFound", c.quizNotFound)
	t.Run("QuizMissedUntilAnsweredRight", c.quizMissedUntilAnsweredRight)
	t.Run("TrainerBest", c.trainerBest)
	t.Run("ConcurrentWritersOfAllKinds", c.concurrentWritersOfAllKinds)
	t.Run("DataSurvivesReopen", c.dataSurvivesReopen)
	t.Run("ForgetVisitor", c.forgetVisitor)
	t.Run("ExportVisitor", c.exportVisitor)
	t.Run("ExpireVisitors", c.expireVisitors)
	t.Run("CapActiveGames", c.capActiveGames)
	t.Run("AbandonIdleGames", c.abandonIdleGames)
	t.Run("Secrets", c.secrets)
}

type contract struct {
	newDB func(t *testing.T) Opener
}

// Visitor ids are 32 lowercase hex characters, as the site makes them.
const (
	alice = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	bob   = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	carol = "cccccccccccccccccccccccccccccccc"
)

// fresh opens a new empty database with the given visitors stored; it is
// closed when the test ends.
func (c *contract) fresh(t *testing.T, visitors ...string) store.Store {
	t.Helper()
	s := c.open(t, c.newDB(t))
	for _, v := range visitors {
		if err := s.EnsureVisitor(context.Background(), v); err != nil {
			t.Fatalf("EnsureVisitor(%s): %v", v, err)
		}
	}
	return s
}

// open opens the database and closes it at the end of the test unless the
// test closed it first.
func (c *contract) open(t *testing.T, open Opener) store.Store {
	t.Helper()
	s := open(t)
	if s == nil {
		t.Fatal("the opener returned a nil store")
	}
	cl := &closer{s: s}
	t.Cleanup(func() { cl.close(t) })
	return cl.wrap()
}

// closer closes a store once, whichever of the test and the cleanup asks first.
type closer struct {
	s    store.Store
	once sync.Once
}

func (c *closer) close(t *testing.T) {
	c.once.Do(func() {
		if err := c.s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
}

func (c *closer) wrap() store.Store { return closing{Store: c.s, c: c} }

type closing struct {
	store.Store
	c *closer
}

func (s closing) Close() error {
	var err error
	s.c.once.Do(func() { err = s.c.s.Close() })
	return err
}

func (c *contract) migrateFromEmpty(t *testing.T) {
	ctx := context.Background()
	open := c.newDB(t)
	s := c.open(t, open)
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping on a new database: %v", err)
	}
	// Every table answers on a database that was empty a moment ago.
	if ok, err := s.VisitorExists(ctx, alice); err != nil || ok {
		t.Fatalf("VisitorExists on an empty database = %v, %v; want false, nil", ok, err)
	}
	if r, err := s.VisitorProgress(ctx, alice); err != nil || len(r.LessonsRead)+len(r.Solved) != 0 {
		t.Fatalf("VisitorProgress = %+v, %v; want empty", r, err)
	}
	if gs, err := s.VisitorGames(ctx, alice, 10); err != nil || len(gs) != 0 {
		t.Fatalf("VisitorGames = %v, %v; want none", gs, err)
	}
	if sc, err := s.QuizScores(ctx, alice, 10); err != nil || len(sc) != 0 {
		t.Fatalf("QuizScores = %v, %v; want none", sc, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Opening a migrated database again applies nothing twice.
	s = c.open(t, open)
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping after reopening: %v", err)
	}
}

func (c *contract) visitors(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t)
	if ok, err := s.VisitorExists(ctx, alice); err != nil || ok {
		t.Fatalf("VisitorExists(new) = %v, %v; want false, nil", ok, err)
	}
	for i := 0; i < 2; i++ { // the second call must not fail
		if err := s.EnsureVisitor(ctx, alice); err != nil {
			t.Fatalf("EnsureVisitor #%d: %v", i+1, err)
		}
	}
	if ok, err := s.VisitorExists(ctx, alice); err != nil || !ok {
		t.Fatalf("VisitorExists = %v, %v; want true, nil", ok, err)
	}
	if ok, err := s.VisitorExists(ctx, bob); err != nil || ok {
		t.Fatalf("VisitorExists(other) = %v, %v; want false, nil", ok, err)
	}
	if err := s.EnsureVisitor(ctx, "short"); err == nil {
		t.Fatal("EnsureVisitor accepted an id that is not 32 characters")
	}
}

func (c *contract) progress(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	empty, err := s.VisitorProgress(ctx, alice)
	if err != nil || empty.LessonsRead == nil || empty.Solved == nil || len(empty.LessonsRead)+len(empty.Solved) != 0 {
		t.Fatalf("new visitor progress = %+v, %v; want empty maps", empty, err)
	}
	for i := 0; i < 2; i++ { // the second round must change nothing
		if err := s.MarkLessonRead(ctx, alice, "rook"); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkExerciseSolved(ctx, alice, "rook-corner", "rook"); err != nil {
			t.Fatal(err)
		}
	}
	first, err := s.VisitorProgress(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.LessonsRead) != 1 || first.LessonsRead["rook"].IsZero() {
		t.Errorf("lessons read = %v, want rook", first.LessonsRead)
	}
	if len(first.Solved) != 1 || first.Solved["rook-corner"].IsZero() {
		t.Errorf("solved = %v, want rook-corner", first.Solved)
	}
	if n := first.SolvedIn([]string{"rook-corner", "rook-open-board"}); n != 1 {
		t.Errorf("SolvedIn = %d, want 1", n)
	}
	// Marking again keeps the first time.
	if err := s.MarkLessonRead(ctx, alice, "rook"); err != nil {
		t.Fatal(err)
	}
	again, err := s.VisitorProgress(ctx, alice)
	if err != nil || !again.LessonsRead["rook"].Equal(first.LessonsRead["rook"]) {
		t.Errorf("read time after a second mark = %v, %v; want %v", again.LessonsRead["rook"], err, first.LessonsRead["rook"])
	}
	other, err := s.VisitorProgress(ctx, bob)
	if err != nil || len(other.LessonsRead)+len(other.Solved) != 0 {
		t.Errorf("another visitor sees %+v, %v; want nothing", other, err)
	}
}

func (c *contract) trainerBest(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	if got, err := s.TrainerBest(ctx, alice); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("new visitor's trainer best = %v, %v; want an empty map", got, err)
	}
	for _, tc := range []struct {
		view, mode  string
		score, best int
	}{
		{"white", "find", 12, 12},
		{"white", "find", 9, 12}, // lower: the best stays
		{"white", "find", 15, 15},
		{"black", "find", 4, 4},
		{"white", "name", 0, 0},
	} {
		best, err := s.SaveTrainerScore(ctx, alice, tc.view, tc.mode, tc.score)
		if err != nil || best != tc.best {
			t.Errorf("SaveTrainerScore(%s, %s, %d) = %d, %v; want %d", tc.view, tc.mode, tc.score, best, err, tc.best)
		}
	}
	got, err := s.TrainerBest(ctx, alice)
	if err != nil || len(got) != 3 || got["white/find"] != 15 || got["black/find"] != 4 || got["white/name"] != 0 {
		t.Errorf("TrainerBest = %v, %v", got, err)
	}
	if other, err := s.TrainerBest(ctx, bob); err != nil || len(other) != 0 {
		t.Errorf("another visitor sees %v, %v", other, err)
	}
	if _, err := s.SaveTrainerScore(ctx, carol, "white", "find", 3); err == nil {
		t.Error("a trainer score for an unknown visitor was stored")
	}
	if _, err := s.SaveTrainerScore(ctx, alice, "sideways", "find", 3); err == nil {
		t.Error("a trainer score for an unknown view was stored")
	}
}

func (c *contract) progressOfUnknownVisitor(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	if err := s.MarkLessonRead(ctx, carol, "rook"); err == nil {
		t.Error("progress for an unknown visitor was stored")
	}
	if err := s.MarkExerciseSolved(ctx, carol, "rook-corner", "rook"); err == nil {
		t.Error("a solved exercise for an unknown visitor was stored")
	}
}

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
	if err := s.CreateGame(ctx, newGame(gameID(3), carol)); err == nil {
		t.Error("CreateGame stored a game for an unknown visitor")
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

func (c *contract) quizRoundAnswersAndScore(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	if _, err := s.StartQuizRound(ctx, alice, nil); err == nil {
		t.Error("StartQuizRound accepted a round with no questions")
	}
	r, err := s.StartQuizRound(ctx, alice, []string{"q1", "q2", "q3"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ID) != 32 || r.Visitor != alice || !slices.Equal(r.Questions, []string{"q1", "q2", "q3"}) || r.CreatedAt.IsZero() {
		t.Fatalf("new round = %+v", r)
	}
	if cur, err := s.CurrentQuizRound(ctx, alice); err != nil || cur.ID != r.ID {
		t.Fatalf("CurrentQuizRound = %v, %v; want the new round", cur, err)
	}
	if _, err := s.CurrentQuizRound(ctx, bob); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Bob's CurrentQuizRound: %v, want ErrNotFound", err)
	}
	if r.Next() != 0 || r.Finished() {
		t.Fatalf("new round: Next = %d, Finished = %v", r.Next(), r.Finished())
	}
	answers := []struct {
		index   int
		answer  string
		correct bool
	}{{0, "a c", true}, {2, "e4", false}, {1, "b", true}}
	for i, a := range answers {
		got, recorded, err := s.AnswerQuiz(ctx, alice, r.ID, a.index, a.answer, a.correct)
		if err != nil || !recorded {
			t.Fatalf("AnswerQuiz(%d) = %v, %v", a.index, recorded, err)
		}
		stored, ok := got.Answer(a.index)
		if !ok || stored.Answer != a.answer || stored.Correct != a.correct || stored.Question != r.Questions[a.index] {
			t.Errorf("answer %d in the returned round = %+v, %v", a.index, stored, ok)
		}
		if got.Finished() != (i == len(answers)-1) {
			t.Errorf("after %d answers Finished = %v", i+1, got.Finished())
		}
		for j := 1; j < len(got.Answers); j++ {
			if got.Answers[j].Index < got.Answers[j-1].Index {
				t.Errorf("answers not in index order: %+v", got.Answers)
			}
		}
	}
	loaded, err := s.QuizRound(ctx, alice, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !loaded.Finished() || loaded.Score() != 2 || loaded.Next() != -1 || len(loaded.Answers) != 3 {
		t.Errorf("finished=%v score=%d next=%d answers=%d, want true 2 -1 3",
			loaded.Finished(), loaded.Score(), loaded.Next(), len(loaded.Answers))
	}
	if a, ok := loaded.Answer(0); !ok || a.Answer != "a c" || !a.Correct || a.At.IsZero() {
		t.Errorf("loaded answer 0 = %+v, %v", a, ok)
	}
	if _, err := s.CurrentQuizRound(ctx, alice); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("CurrentQuizRound after the last answer: %v, want ErrNotFound", err)
	}
	scores, err := s.QuizScores(ctx, alice, 5)
	if err != nil || len(scores) != 1 || scores[0].Score != 2 || scores[0].Total != 3 || scores[0].At.IsZero() {
		t.Errorf("QuizScores = %+v, %v; want one 2/3", scores, err)
	}
	if scores, _ := s.QuizScores(ctx, bob, 5); len(scores) != 0 {
		t.Errorf("Bob sees Alice's scores: %+v", scores)
	}
	// Newest first, and the limit holds.
	r2, err := s.StartQuizRound(ctx, alice, []string{"q4"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.AnswerQuiz(ctx, alice, r2.ID, 0, "x", false); err != nil {
		t.Fatal(err)
	}
	scores, err = s.QuizScores(ctx, alice, 5)
	if err != nil || len(scores) != 2 || scores[0].Total != 1 || scores[1].Total != 3 {
		t.Errorf("QuizScores after a second round = %+v, %v; want 0/1 then 2/3", scores, err)
	}
	if scores, err := s.QuizScores(ctx, alice, 1); err != nil || len(scores) != 1 {
		t.Errorf("QuizScores(limit 1) = %+v, %v", scores, err)
	}
}

func (c *contract) quizAnswerTwiceCountsOnce(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	r, err := s.StartQuizRound(ctx, alice, []string{"q1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, rec, err := s.AnswerQuiz(ctx, alice, r.ID, 0, "a", false); err != nil || !rec {
		t.Fatalf("first answer: %v, %v", rec, err)
	}
	got, rec, err := s.AnswerQuiz(ctx, alice, r.ID, 0, "b", true)
	if err != nil || rec {
		t.Fatalf("second answer: recorded=%v err=%v, want false, nil", rec, err)
	}
	if a, _ := got.Answer(0); a.Answer != "a" || a.Correct {
		t.Errorf("second post changed the answer to %+v", a)
	}
	scores, _ := s.QuizScores(ctx, alice, 5)
	if len(scores) != 1 || scores[0].Score != 0 {
		t.Errorf("scores = %+v, want one 0/1", scores)
	}
	missed, _ := s.MissedQuizQuestions(ctx, alice)
	if !slices.Equal(missed, []string{"q1"}) {
		t.Errorf("missed = %v, want [q1]", missed)
	}
}

func (c *contract) quizConcurrentAnswersCountOnce(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	r, err := s.StartQuizRound(ctx, alice, []string{"q1", "q2"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	recorded := make(chan bool, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, rec, err := s.AnswerQuiz(ctx, alice, r.ID, 0, "a", true)
			if err != nil {
				t.Error(err)
			}
			recorded <- rec
		}()
	}
	wg.Wait()
	close(recorded)
	n := 0
	for rec := range recorded {
		if rec {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d of 8 identical posts were recorded, want 1", n)
	}
	// The round holds the one answer, and q1 is not among the missed.
	loaded, err := s.QuizRound(ctx, alice, r.ID)
	if err != nil || len(loaded.Answers) != 1 {
		t.Fatalf("round after the race: %+v, %v; want one answer", loaded, err)
	}
	if missed, _ := s.MissedQuizQuestions(ctx, alice); len(missed) != 0 {
		t.Errorf("missed = %v, want none", missed)
	}
}

func (c *contract) quizNotFound(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	r, err := s.StartQuizRound(ctx, alice, []string{"q1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.QuizRound(ctx, bob, r.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Bob loads Alice's round: %v, want ErrNotFound", err)
	}
	if _, err := s.QuizRound(ctx, alice, gameID(7)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown round: %v, want ErrNotFound", err)
	}
	if _, _, err := s.AnswerQuiz(ctx, bob, r.ID, 0, "a", true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Bob answers Alice's round: %v, want ErrNotFound", err)
	}
	if _, _, err := s.AnswerQuiz(ctx, alice, r.ID, 1, "a", true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("answer to question 1 of 1: %v, want ErrNotFound", err)
	}
	if _, _, err := s.AnswerQuiz(ctx, alice, r.ID, -1, "a", true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("answer to question -1: %v, want ErrNotFound", err)
	}
	if _, _, err := s.AnswerQuiz(ctx, alice, "nosuchround", 0, "a", true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown round: %v, want ErrNotFound", err)
	}
	if _, err := s.StartQuizRound(ctx, carol, []string{"q1"}); err == nil {
		t.Error("a round for an unknown visitor was stored")
	}
}

func (c *contract) quizMissedUntilAnsweredRight(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	play := func(ids []string, correct ...bool) {
		t.Helper()
		r, err := s.StartQuizRound(ctx, alice, ids)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range correct {
			if _, _, err := s.AnswerQuiz(ctx, alice, r.ID, i, "x", c); err != nil {
				t.Fatal(err)
			}
		}
	}
	if seen, err := s.SeenQuizQuestions(ctx, alice); err != nil || len(seen) != 0 {
		t.Fatalf("seen before any answer = %v, %v", seen, err)
	}
	play([]string{"q1", "q2", "q3"}, false, true, false)
	missed, _ := s.MissedQuizQuestions(ctx, alice)
	if !slices.Equal(missed, []string{"q1", "q3"}) {
		t.Errorf("missed = %v, want [q1 q3]", missed)
	}
	play([]string{"q3", "q1"}, true)
	missed, _ = s.MissedQuizQuestions(ctx, alice)
	if !slices.Equal(missed, []string{"q1"}) {
		t.Errorf("after answering q3 right, missed = %v, want [q1]", missed)
	}
	seen, _ := s.SeenQuizQuestions(ctx, alice)
	if len(seen) != 3 || !seen["q1"] || !seen["q2"] || !seen["q3"] {
		t.Errorf("seen = %v, want q1 q2 q3", seen)
	}
	if seen, _ := s.SeenQuizQuestions(ctx, bob); len(seen) != 0 {
		t.Errorf("Bob has seen %v, want nothing", seen)
	}
	if missed, _ := s.MissedQuizQuestions(ctx, bob); len(missed) != 0 {
		t.Errorf("Bob missed %v, want nothing", missed)
	}
}

// concurrentWritersOfAllKinds: visitors, progress, quiz answers and games
// written at once from many goroutines all land, with no error (a store
// may make writers wait, but must not fail them under this load).
func (c *contract) concurrentWritersOfAllKinds(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t)
	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs <- func() error {
				v := fmt.Sprintf("%032x", 0xd00+w)
				if err := s.EnsureVisitor(ctx, v); err != nil {
					return err
				}
				for i := 0; i < 3; i++ {
					if err := s.MarkLessonRead(ctx, v, fmt.Sprintf("lesson-%d", i)); err != nil {
						return err
					}
					if err := s.MarkExerciseSolved(ctx, v, fmt.Sprintf("ex-%d", i), "lesson"); err != nil {
						return err
					}
				}
				r, err := s.StartQuizRound(ctx, v, []string{"q1", "q2"})
				if err != nil {
					return err
				}
				for i := range 2 {
					if _, _, err := s.AnswerQuiz(ctx, v, r.ID, i, "x", i == 0); err != nil {
						return err
					}
				}
				g := newGame(fmt.Sprintf("%032x", 0xe00+w), v)
				if err := s.CreateGame(ctx, g); err != nil {
					return err
				}
				for i := 0; i < 3; i++ {
					g.Moves = append(g.Moves, "g1f3")
					if err := s.UpdateGame(ctx, g); err != nil {
						return err
					}
				}
				return nil
			}()
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for w := 0; w < workers; w++ {
		v := fmt.Sprintf("%032x", 0xd00+w)
		p, err := s.VisitorProgress(ctx, v)
		if err != nil || len(p.LessonsRead) != 3 || len(p.Solved) != 3 {
			t.Errorf("visitor %d progress = %+v, %v", w, p, err)
		}
		sc, err := s.QuizScores(ctx, v, 5)
		if err != nil || len(sc) != 1 || sc[0].Score != 1 {
			t.Errorf("visitor %d scores = %+v, %v", w, sc, err)
		}
		gs, err := s.VisitorGames(ctx, v, 5)
		if err != nil || len(gs) != 1 || len(gs[0].Moves) != 4 || gs[0].Version != 4 {
			t.Errorf("visitor %d games = %v, %v", w, gs, err)
		}
	}
}

// dataSurvivesReopen: what was written before Close is there after the
// database is opened again, as after a restart.
func (c *contract) dataSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	open := c.newDB(t)
	s := c.open(t, open)
	if err := s.EnsureVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkLessonRead(ctx, alice, "rook"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkExerciseSolved(ctx, alice, "rook-corner", "rook"); err != nil {
		t.Fatal(err)
	}
	r, err := s.StartQuizRound(ctx, alice, []string{"q1", "q2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.AnswerQuiz(ctx, alice, r.ID, 0, "a", false); err != nil {
		t.Fatal(err)
	}
	g := newGame(gameID(1), alice)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Moves = append(g.Moves, "e7e5")
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	before, err := s.VisitorProgress(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = c.open(t, open)
	if ok, err := s.VisitorExists(ctx, alice); err != nil || !ok {
		t.Fatalf("VisitorExists after reopening = %v, %v", ok, err)
	}
	after, err := s.VisitorProgress(ctx, alice)
	if err != nil || !after.LessonsRead["rook"].Equal(before.LessonsRead["rook"]) || after.Solved["rook-corner"].IsZero() {
		t.Errorf("progress after reopening = %+v, %v; want %+v", after, err, before)
	}
	cur, err := s.CurrentQuizRound(ctx, alice)
	if err != nil || cur.ID != r.ID || cur.Next() != 1 {
		t.Errorf("quiz round after reopening = %+v, %v; want round %s at question 1", cur, err, r.ID)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameGame(got, g); err != nil {
		t.Errorf("game after reopening: %v", err)
	}
	if missed, _ := s.MissedQuizQuestions(ctx, alice); !slices.Equal(missed, []string{"q1"}) {
		t.Errorf("missed after reopening = %v, want [q1]", missed)
	}
}
