package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chesstutor/store"
)

// Teachers' classrooms (T1–T6).

// classHash is a distinct well-formed secret hash for test n.
func classHash(n int) string { return fmt.Sprintf("%064x", n+1) }

// classID is a distinct well-formed id for test n.
func classID(n int) string { return fmt.Sprintf("%032x", 0xc1a55000+n) }

// newClass stores a class with teacher remembering it.
func newClass(t *testing.T, s store.Store, n int, code, teacher string) *store.Class {
	t.Helper()
	c := &store.Class{ID: classID(n), Name: fmt.Sprintf("Class %d", n), JoinCode: code,
		SecretHash: classHash(n), CreatedAt: time.UnixMilli(1_700_000_000_000 + int64(n))}
	if err := s.CreateClass(context.Background(), c, teacher, fmt.Sprintf("secret%d", n)); err != nil {
		t.Fatalf("CreateClass(%d): %v", n, err)
	}
	return c
}

// joinClock hands out joining times a millisecond apart, so pupils
// keep the order they joined in.
var joinClock atomic.Int64

// join makes visitor a pupil under nickname and fails the test otherwise.
func join(t *testing.T, s store.Store, classID, visitor, nickname string) *store.Member {
	t.Helper()
	m := &store.Member{ID: store.NewID(), ClassID: classID, Visitor: visitor, Nickname: nickname,
		NicknameKey: strings.ToLower(nickname), JoinedAt: time.UnixMilli(1_700_000_000_000 + joinClock.Add(1))}
	got, created, err := s.JoinClass(context.Background(), m, 100)
	if err != nil || !created {
		t.Fatalf("JoinClass(%s as %q) = %v, %v; want a new membership", visitor, nickname, created, err)
	}
	return got
}

func (c *contract) classesCreateAndJoin(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob, carol)
	cl := newClass(t, s, 1, "ABCDEF", alice)
	for name, find := range map[string]func() (*store.Class, error){
		"by secret": func() (*store.Class, error) { return s.ClassBySecret(ctx, classHash(1)) },
		"by code":   func() (*store.Class, error) { return s.ClassByCode(ctx, "ABCDEF") },
	} {
		got, err := find()
		if err != nil || got.ID != cl.ID || got.Name != cl.Name || got.JoinCode != "ABCDEF" || !got.CreatedAt.Equal(cl.CreatedAt) {
			t.Errorf("class %s = %+v, %v; want %+v", name, got, err, cl)
		}
	}
	if _, err := s.ClassByCode(ctx, "ZZZZZZ"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown code: %v, want ErrNotFound", err)
	}
	again := &store.Class{ID: classID(2), Name: "Other", JoinCode: "ABCDEF", SecretHash: classHash(2), CreatedAt: time.Now()}
	if err := s.CreateClass(ctx, again, "", ""); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a second class with the same code: %v, want ErrConflict", err)
	}
	again.JoinCode, again.SecretHash = "GHJKMN", classHash(1)
	if err := s.CreateClass(ctx, again, "", ""); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a second class with the same secret: %v, want ErrConflict", err)
	}

	b := join(t, s, cl.ID, bob, "Bob")
	m := &store.Member{ID: store.NewID(), ClassID: cl.ID, Visitor: carol, Nickname: "BOB", NicknameKey: "bob", JoinedAt: time.Now()}
	if _, _, err := s.JoinClass(ctx, m, 100); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a nickname taken: %v, want ErrConflict", err)
	}
	m.Nickname, m.NicknameKey = "Cara", "cara"
	if _, _, err := s.JoinClass(ctx, m, 2); err != nil {
		t.Fatalf("Carol joins: %v", err)
	}
	// Joining twice gives the first membership back, nickname unchanged.
	twice := &store.Member{ID: store.NewID(), ClassID: cl.ID, Visitor: bob, Nickname: "Robert", NicknameKey: "robert", JoinedAt: time.Now()}
	if got, created, err := s.JoinClass(ctx, twice, 100); err != nil || created || got.ID != b.ID || got.Nickname != "Bob" {
		t.Errorf("Bob joins again = %+v, %v, %v; want his membership, not created", got, created, err)
	}
	full := &store.Member{ID: store.NewID(), ClassID: cl.ID, Visitor: alice, Nickname: "Al", NicknameKey: "al", JoinedAt: time.Now()}
	if _, _, err := s.JoinClass(ctx, full, 2); !errors.Is(err, store.ErrFull) {
		t.Errorf("a third pupil in a class of at most 2: %v, want ErrFull", err)
	}
	full.ClassID = classID(9)
	if _, _, err := s.JoinClass(ctx, full, 100); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("joining a class that does not exist: %v, want ErrNotFound", err)
	}
	full.ClassID, full.Visitor = cl.ID, "dddddddddddddddddddddddddddddddd"
	if _, _, err := s.JoinClass(ctx, full, 100); !errors.Is(err, store.ErrGone) {
		t.Errorf("a visitor not stored joins: %v, want ErrGone", err)
	}

	list, err := s.VisitorClasses(ctx, bob)
	if err != nil || len(list) != 1 || list[0].Class.ID != cl.ID || list[0].Nickname != "Bob" {
		t.Errorf("Bob's classes = %+v, %v", list, err)
	}
	if list, err := s.VisitorClasses(ctx, alice); err != nil || len(list) != 0 {
		t.Errorf("Alice (the teacher) is a pupil of %+v, %v; want none", list, err)
	}

	if err := s.RenameMember(ctx, cl.ID, b.ID, "Cara", "cara"); !errors.Is(err, store.ErrConflict) {
		t.Errorf("renaming Bob to Carol's nickname: %v, want ErrConflict", err)
	}
	if err := s.RenameMember(ctx, cl.ID, b.ID, "Bobby", "bobby"); err != nil {
		t.Errorf("renaming Bob: %v", err)
	}
	if err := s.RenameMember(ctx, classID(9), b.ID, "Bo", "bo"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("renaming Bob in another class: %v, want ErrNotFound", err)
	}
	if err := s.RemoveMember(ctx, classID(9), b.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removing Bob from another class: %v, want ErrNotFound", err)
	}
	r, err := s.ClassReport(ctx, cl.ID)
	if err != nil || len(r) != 2 || r[0].Nickname != "Bobby" || r[1].Nickname != "Cara" || r[0].Visitor != bob {
		t.Fatalf("the report = %+v, %v; want Bobby then Cara", r, err)
	}
	if err := s.RemoveMember(ctx, cl.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.LeaveClass(ctx, cl.ID, carol); err != nil {
		t.Fatal(err)
	}
	if err := s.LeaveClass(ctx, cl.ID, carol); err != nil {
		t.Errorf("leaving twice: %v", err)
	}
	if r, err := s.ClassReport(ctx, cl.ID); err != nil || len(r) != 0 {
		t.Errorf("the report after both left = %+v, %v", r, err)
	}
}

func (c *contract) classesReport(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob, carol)
	cl := newClass(t, s, 1, "ABCDEF", alice)
	other := newClass(t, s, 2, "GHJKMN", "")
	join(t, s, cl.ID, bob, "Bob")
	join(t, s, cl.ID, carol, "Cara")
	join(t, s, other.ID, alice, "Al")

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.MarkLessonRead(ctx, bob, "board"))
	must(s.MarkExerciseSolved(ctx, bob, "rook-1", "rook"))
	must(s.RecordExerciseMiss(ctx, bob, "rook-1"))
	for range 3 {
		must(s.RecordExerciseMiss(ctx, bob, "knight-2"))
	}
	must(s.RecordExerciseMiss(ctx, alice, "knight-2")) // not in the class
	_, err := s.SaveTrainerScore(ctx, bob, "white", "find", 9)
	must(err)
	_, err = s.SaveTrainerScore(ctx, bob, "black", "name", 12)
	must(err)
	round, err := s.StartQuizRound(ctx, bob, []string{"q1", "q2"})
	must(err)
	_, _, err = s.AnswerQuiz(ctx, bob, round.ID, 0, "a", true)
	must(err)
	_, _, err = s.AnswerQuiz(ctx, bob, round.ID, 1, "b", false)
	must(err)
	won := newGame(strings.Repeat("1", 32), bob)
	won.Status, won.Result, won.Level, won.HumanColor, won.RunningSince = "checkmate", "0-1", 3, "black", time.Time{}
	must(s.CreateGame(ctx, won))
	lost := newGame(strings.Repeat("2", 32), bob)
	lost.Status, lost.Result, lost.Level, lost.RunningSince = "checkmate", "1-0", 6, time.Time{}
	must(s.CreateGame(ctx, lost))
	must(s.CreateGame(ctx, newGame(strings.Repeat("3", 32), bob))) // still active: not counted
	friend := newGame(strings.Repeat("4", 32), bob)
	friend.Mode, friend.Level, friend.Status, friend.Result, friend.RunningSince = "friend", 0, "checkmate", "0-1", time.Time{}
	must(s.CreateGame(ctx, friend))

	// Stars: rook-1 solved after one wrong try; knight-1 solved after a
	// hint; knight-2 only tried (no stars, not in Tries).
	for _, try := range []store.Try{store.TryWrong, store.TrySolved, store.TryWrong} {
		_, err = s.RecordTry(ctx, bob, "rook-1", "rook", try)
		must(err)
	}
	for _, try := range []store.Try{store.TryHelped, store.TrySolved} {
		_, err = s.RecordTry(ctx, bob, "knight-1", "knight", try)
		must(err)
	}
	_, err = s.RecordTry(ctx, bob, "knight-2", "knight", store.TryWrong)
	must(err)
	// Puzzles: one solved, one failed at the first attempt.
	var pl store.PuzzlePlayer
	must(s.RecordPuzzleAttempt(ctx, firstAttempt(bob, "pz1", true, pl, 870, 1)))
	pl, err = s.PuzzlePlayer(ctx, bob)
	must(err)
	must(s.RecordPuzzleAttempt(ctx, firstAttempt(bob, "pz2", false, pl, 845.5, 1)))
	must(s.RecordPuzzleAttempt(ctx, firstAttempt(alice, "pz3", true, store.PuzzlePlayer{}, 900, 1))) // not in the class

	r, err := s.ClassReport(ctx, cl.ID)
	if err != nil || len(r) != 2 {
		t.Fatalf("ClassReport = %+v, %v; want two pupils", r, err)
	}
	b, cc := r[0].Work, r[1].Work
	checks := []struct {
		name      string
		got, want any
	}{
		{"lessons read", len(b.LessonsRead), 1},
		{"solved", len(b.Solved), 1},
		{"misses (the solved exercise's dropped)", b.Misses, map[string]int{"knight-2": 3}},
		{"quiz rounds", b.QuizRounds, 1},
		{"quiz best", b.QuizBest, 1},
		{"quiz total", b.QuizTotal, 2},
		{"quiz wrong", b.QuizWrong, map[string]int{"q2": 1}},
		{"quiz right", b.QuizRight, map[string]bool{"q1": true}},
		{"trainer best", b.TrainerBest, 12},
		{"computer games played", b.Played, 2},
		{"won", b.Won, 1},
		{"best level beaten", b.BestLevel, 3},
		{"Cara's lessons", len(cc.LessonsRead), 0},
		{"Cara's best level", cc.BestLevel, -1},
		{"Cara's misses", len(cc.Misses), 0},
		{"tries of solved exercises", b.Tries, map[string]store.TryRecord{
			"rook-1":   {Solved: true, SolvedWrong: 1},
			"knight-1": {Solved: true, SolvedHelped: true}}},
		{"puzzles", b.Puzzles, map[string]bool{"pz1": true, "pz2": false}},
		{"puzzle rating", b.PuzzleRating, 845.5},
		{"Cara's tries", len(cc.Tries), 0},
		{"Cara's puzzles", len(cc.Puzzles), 0},
		{"Cara's puzzle rating", cc.PuzzleRating, 0},
	}
	for _, k := range checks {
		if fmt.Sprint(k.got) != fmt.Sprint(k.want) {
			t.Errorf("Bob's %s = %v, want %v", k.name, k.got, k.want)
		}
	}
	if b.LastActive.IsZero() || !cc.LastActive.IsZero() {
		t.Errorf("last active: Bob %v (want a time), Cara %v (want none)", b.LastActive, cc.LastActive)
	}
	w, err := s.PupilWork(ctx, bob)
	if err != nil || fmt.Sprint(w) != fmt.Sprint(b) {
		t.Errorf("PupilWork(Bob) = %+v, %v; want the report's %+v", w, err, b)
	}
	if w, err := s.PupilWork(ctx, "dddddddddddddddddddddddddddddddd"); err != nil || len(w.Solved) != 0 || w.BestLevel != -1 {
		t.Errorf("PupilWork of a stranger = %+v, %v", w, err)
	}
}

func (c *contract) classesLinksAndHomework(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob, carol)
	cl := newClass(t, s, 1, "ABCDEF", alice)
	if err := s.RememberClass(ctx, bob, cl.ID, "secret1"); err != nil {
		t.Fatal(err)
	}
	if err := s.RememberClass(ctx, bob, classID(9), "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("remembering a class that does not exist: %v, want ErrNotFound", err)
	}
	got, err := s.RememberedClasses(ctx, alice)
	if err != nil || len(got) != 1 || got[0].ID != cl.ID || got[0].Secret != "secret1" || got[0].SecretHash != classHash(1) {
		t.Fatalf("Alice's remembered classes = %+v, %v", got, err)
	}
	if err := s.RotateClassSecret(ctx, cl.ID, classHash(5), alice, "secret5"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClassBySecret(ctx, classHash(1)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the old link after rotating: %v, want ErrNotFound", err)
	}
	if got, err := s.ClassBySecret(ctx, classHash(5)); err != nil || got.ID != cl.ID {
		t.Errorf("the new link: %+v, %v", got, err)
	}
	if got, err := s.RememberedClasses(ctx, alice); err != nil || len(got) != 1 || got[0].Secret != "secret5" {
		t.Errorf("Alice remembers %+v, %v; want the new link", got, err)
	}
	if got, err := s.RememberedClasses(ctx, bob); err != nil || len(got) != 0 {
		t.Errorf("Bob still remembers %+v, %v; want nothing after the rotation", got, err)
	}
	if err := s.RotateClassSecret(ctx, classID(9), classHash(6), alice, "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rotating a class that does not exist: %v, want ErrNotFound", err)
	}
	if err := s.RenameClass(ctx, cl.ID, "Tuesday club"); err != nil {
		t.Fatal(err)
	}

	other := newClass(t, s, 2, "GHJKMN", "")
	hw := []*store.Homework{
		{ID: classID(100), ClassID: cl.ID, Items: []string{"lesson:board", "level:2"}, Due: "2030-01-31", CreatedAt: time.UnixMilli(1000)},
		{ID: classID(101), ClassID: cl.ID, Items: []string{"exercise:rook-1"}, CreatedAt: time.UnixMilli(2000)},
		{ID: classID(102), ClassID: other.ID, Items: []string{"quiz:check"}, CreatedAt: time.UnixMilli(3000)},
	}
	for _, h := range hw {
		if err := s.AddHomework(ctx, h); err != nil {
			t.Fatal(err)
		}
	}
	bad := &store.Homework{ID: classID(103), ClassID: classID(9), Items: []string{"lesson:board"}, CreatedAt: time.Now()}
	if err := s.AddHomework(ctx, bad); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("homework for a class that does not exist: %v, want ErrNotFound", err)
	}
	list, err := s.ClassHomework(ctx, []string{cl.ID})
	if err != nil || len(list) != 2 || list[0].ID != hw[1].ID || list[1].Due != "2030-01-31" ||
		!slices.Equal(list[1].Items, hw[0].Items) {
		t.Fatalf("the class's homework = %+v, %v", list, err)
	}
	if list, err := s.ClassHomework(ctx, []string{cl.ID, other.ID}); err != nil || len(list) != 3 {
		t.Errorf("two classes' homework = %d, %v; want 3", len(list), err)
	}
	if err := s.DeleteHomework(ctx, other.ID, hw[0].ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting homework through another class: %v, want ErrNotFound", err)
	}
	if err := s.DeleteHomework(ctx, cl.ID, hw[0].ID); err != nil {
		t.Fatal(err)
	}

	join(t, s, cl.ID, bob, "Bob")
	if err := s.DeleteClass(ctx, cl.ID); err != nil {
		t.Fatal(err)
	}
	if list, err := s.VisitorClasses(ctx, bob); err != nil || len(list) != 0 {
		t.Errorf("Bob's classes after the class was deleted: %+v, %v", list, err)
	}
	if list, err := s.ClassHomework(ctx, []string{cl.ID}); err != nil || len(list) != 0 {
		t.Errorf("the deleted class's homework: %+v, %v", list, err)
	}
	if got, err := s.RememberedClasses(ctx, alice); err != nil || len(got) != 0 {
		t.Errorf("Alice remembers a deleted class: %+v, %v", got, err)
	}
	if err := s.DeleteClass(ctx, cl.ID); err != nil {
		t.Errorf("deleting it again: %v", err)
	}
}

func (c *contract) classesForgottenAndExpired(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob, carol)
	cl := newClass(t, s, 1, "ABCDEF", alice)
	join(t, s, cl.ID, bob, "Bob")
	join(t, s, cl.ID, carol, "Cara")
	if err := s.RecordExerciseMiss(ctx, bob, "rook-1"); err != nil {
		t.Fatal(err)
	}
	e, err := s.ExportVisitor(ctx, bob)
	if err != nil || len(e.Tables["class_members"]) != 1 || len(e.Tables["exercise_misses"]) != 1 {
		t.Errorf("Bob's export = %+v, %v; want his membership and his miss", e, err)
	}
	if e, err := s.ExportVisitor(ctx, alice); err != nil || len(e.Tables["class_teachers"]) != 1 {
		t.Errorf("Alice's export = %+v, %v; want the class she remembers", e, err)
	}
	if err := s.ForgetVisitor(ctx, bob); err != nil {
		t.Fatal(err)
	}
	if r, err := s.ClassReport(ctx, cl.ID); err != nil || len(r) != 1 || r[0].Visitor != carol {
		t.Errorf("the report after Bob was forgotten = %+v, %v; want Cara alone", r, err)
	}
	// The teacher's forget-me forgets the link, not the class.
	if err := s.ForgetVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClassBySecret(ctx, classHash(1)); err != nil {
		t.Errorf("the class after its teacher's browser was forgotten: %v", err)
	}

	// A class touched within the last day is not touched again; one used
	// since the cut-off stays, others go.
	now := time.UnixMilli(1_800_000_000_000)
	old := newClass(t, s, 2, "GHJKMN", "")
	if err := s.TouchClass(ctx, cl.ID, now); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ClassBySecret(ctx, classHash(1)); !got.TouchedAt.Equal(now) {
		t.Errorf("touched at %v, want %v", got.TouchedAt, now)
	}
	if err := s.TouchClass(ctx, cl.ID, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ClassBySecret(ctx, classHash(1)); !got.TouchedAt.Equal(now) {
		t.Errorf("touched again within the day: %v, want %v kept", got.TouchedAt, now)
	}
	newClass(t, s, 3, "PQRSTU", "")
	if n, err := s.ExpireClasses(ctx, now.Add(-time.Hour), 1); err != nil || n != 1 {
		t.Fatalf("ExpireClasses(limit 1) = %d, %v", n, err)
	}
	if n, err := s.ExpireClasses(ctx, now.Add(-time.Hour), 10); err != nil || n != 1 {
		t.Fatalf("ExpireClasses(the rest) = %d, %v", n, err)
	}
	if _, err := s.ClassByCode(ctx, old.JoinCode); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an old class after expiry: %v", err)
	}
	if r, err := s.ClassReport(ctx, cl.ID); err != nil || len(r) != 1 {
		t.Errorf("the class in use after expiry: %+v, %v", r, err)
	}
}

// classesConcurrentJoins: thirty pupils join a class of at most 25 at
// once (on one instance or several): exactly 25 get in.
func (c *contract) classesConcurrentJoins(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	cl := newClass(t, s, 1, "ABCDEF", alice)
	var wg sync.WaitGroup
	var mu sync.Mutex
	in, full := 0, 0
	for i := range 30 {
		v := fmt.Sprintf("%032x", 0xd000+i)
		if err := s.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := &store.Member{ID: store.NewID(), ClassID: cl.ID, Visitor: v, Nickname: fmt.Sprint("P", i),
				NicknameKey: fmt.Sprint("p", i), JoinedAt: time.Now()}
			_, _, err := s.JoinClass(ctx, m, 25)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				in++
			case errors.Is(err, store.ErrFull):
				full++
			default:
				t.Errorf("join %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if in != 25 || full != 5 {
		t.Errorf("%d joined and %d were refused, want 25 and 5", in, full)
	}
}
