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
	"fmt"
	"slices"
	"sync"
	"testing"

	"chesstutor/store"
)

// Opener opens (migrating as needed) one database made by Run's newDB.
// Every call opens the same database, as a restarted server would; the
// suite closes what it opens.
type Opener func(t *testing.T) store.Store

// Run runs the contract suite. newDB makes a new, empty database (its own
// file, schema or server database) for one subtest and returns how to open
// it; it should clean up with t.Cleanup.
func Run(t *testing.T, newDB func(t *testing.T) Opener) { RunWith(t, newDB, newDB) }

// RunWith runs the contract suite with two makers of databases: empty for
// the subtest that migrates a new database, migrated for every other one
// (a database already at the newest schema, e.g. a copy of one migrated
// once; opening it migrates nothing). On PostgreSQL a copy takes a tenth
// of the time of creating and migrating a database.
func RunWith(t *testing.T, empty, migrated func(t *testing.T) Opener) {
	c := &contract{newDB: migrated, emptyDB: empty}
	t.Run("MigrateFromEmpty", c.migrateFromEmpty)
	t.Run("Visitors", c.visitors)
	t.Run("Progress", c.progress)
	t.Run("ProgressOfUnknownVisitor", c.progressOfUnknownVisitor)
	t.Run("StarsTries", c.starsTries)
	t.Run("ExamPasses", c.examPasses)
	t.Run("GamesCreateLoadList", c.gamesCreateLoadList)
	t.Run("GamesNotFound", c.gamesNotFound)
	t.Run("GamesVersionedUpdate", c.gamesVersionedUpdate)
	t.Run("GamesConcurrentWriters", c.gamesConcurrentWriters)
	t.Run("RemoteGames", c.remoteGames)
	t.Run("RemoteJoinRace", c.remoteJoinRace)
	t.Run("RemoteSeatKept", c.remoteSeatKept)
	t.Run("RemoteSweepsAtOnce", c.remoteSweepsAtOnce)
	t.Run("RemoteCreatorForgotten", c.remoteCreatorForgotten)
	t.Run("RemoteExport", c.remoteExport)
	t.Run("QuizRoundAnswersAndScore", c.quizRoundAnswersAndScore)
	t.Run("QuizAnswerTwiceCountsOnce", c.quizAnswerTwiceCountsOnce)
	t.Run("QuizConcurrentAnswersCountOnce", c.quizConcurrentAnswersCountOnce)
	t.Run("QuizNotFound", c.quizNotFound)
	t.Run("QuizMissedUntilAnsweredRight", c.quizMissedUntilAnsweredRight)
	t.Run("ReviewLifecycle", c.reviewLifecycle)
	t.Run("HintsRecorded", c.hintsRecorded)
	t.Run("TrainerBest", c.trainerBest)
	t.Run("PuzzleAttempts", c.puzzleAttempts)
	t.Run("PuzzleStreaks", c.puzzleStreaks)
	t.Run("ConcurrentWritersOfAllKinds", c.concurrentWritersOfAllKinds)
	t.Run("DataSurvivesReopen", c.dataSurvivesReopen)
	t.Run("ForgetVisitor", c.forgetVisitor)
	t.Run("ExportVisitor", c.exportVisitor)
	t.Run("ExpireVisitors", c.expireVisitors)
	t.Run("CapActiveGames", c.capActiveGames)
	t.Run("AbandonIdleGames", c.abandonIdleGames)
	t.Run("Secrets", c.secrets)
	t.Run("Transfers", c.transfers)
	t.Run("TransfersRedeemedOnce", c.transfersRedeemedOnce)
	t.Run("TransfersForgottenAndExpired", c.transfersForgottenAndExpired)
	t.Run("ClassesCreateAndJoin", c.classesCreateAndJoin)
	t.Run("ClassesReport", c.classesReport)
	t.Run("ClassesLinksAndHomework", c.classesLinksAndHomework)
	t.Run("ClassesForgottenAndExpired", c.classesForgottenAndExpired)
	t.Run("ClassesConcurrentJoins", c.classesConcurrentJoins)
}

type contract struct {
	newDB   func(t *testing.T) Opener // a new database, maybe already migrated
	emptyDB func(t *testing.T) Opener // a new, empty database
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
	open := c.emptyDB(t)
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
