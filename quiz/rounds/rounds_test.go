package rounds

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"chesstutor/internal/sqlitetest"
	"chesstutor/quiz"
	"chesstutor/store"
	"chesstutor/words"
)

const visitor = "0123456789abcdef0123456789abcdef"

func newService(t *testing.T) (*Service, store.Store) {
	t.Helper()
	ctx := context.Background()
	st := sqlitetest.New(t)
	if err := st.EnsureVisitor(ctx, visitor); err != nil {
		t.Fatal(err)
	}
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	return New(bank, st), st
}

// kindOf is the kind of a refusal, 0 for anything else or for a refusal
// whose code the catalogue lacks.
func kindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) && words.Default().For(words.English).Has(e.Key) {
		return e.Kind
	}
	return 0
}

func right(q *quiz.Question) []string { return q.Key() }

func wrong(q *quiz.Question) []string {
	if q.Board() {
		for _, sq := range []string{"a1", "h8", "d5"} {
			if !contains(q.Key(), sq) {
				return []string{sq}
			}
		}
	}
	for _, o := range q.Options {
		if !contains(q.Key(), o.ID) {
			return []string{o.ID}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRound plays a whole round: every answer stored once, a repeat
// reports the first answer, a bad answer is refused, and the summary
// counts the right ones and lists the missed ones.
func TestRound(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	r, err := s.Start(ctx, visitor)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Questions) != quiz.RoundSize {
		t.Fatalf("round of %d questions, want %d", len(r.Questions), quiz.RoundSize)
	}
	if _, err := s.Round(ctx, visitor, "not-an-id"); kindOf(err) != NotFound {
		t.Errorf("a malformed id: %v, want NotFound", err)
	}
	if _, err := s.Round(ctx, "fedcba9876543210fedcba9876543210", r.ID); kindOf(err) != NotFound {
		t.Errorf("another visitor's round: %v, want NotFound", err)
	}
	if _, err := Index(r, len(r.Questions)+1); kindOf(err) != NotFound {
		t.Errorf("question past the end: %v, want NotFound", err)
	}
	q0, err := s.Question(r, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Answer(ctx, visitor, r, 0, nil); kindOf(err) != Invalid {
		t.Errorf("an empty answer: %v, want Invalid", err)
	}
	if _, err := s.Answer(ctx, visitor, r, 0, make([]string, 65)); kindOf(err) != Invalid {
		t.Errorf("65 parts: %v, want Invalid", err)
	}
	missed := 0
	for i := range r.Questions {
		r, err = s.Round(ctx, visitor, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		q, err := s.Question(r, i)
		if err != nil {
			t.Fatal(err)
		}
		answer := right(q)
		if i%3 == 0 && wrong(q) != nil {
			answer = wrong(q)
			missed++
		}
		laterMillisecond() // the store orders missed questions by when, in ms
		g, err := s.Answer(ctx, visitor, r, i, answer)
		if err != nil {
			t.Fatalf("question %d: %v", i+1, err)
		}
		if g.Already || g.Result.Correct == (i%3 == 0 && wrong(q) != nil) {
			t.Errorf("question %d: already %v correct %v", i+1, g.Already, g.Result.Correct)
		}
	}
	if r, err = s.Round(ctx, visitor, r.ID); err != nil {
		t.Fatal(err)
	}
	again, err := s.Answer(ctx, visitor, r, 0, right(q0))
	if err != nil {
		t.Fatal(err)
	}
	if !again.Already || again.Round.Score() != quiz.RoundSize-missed {
		t.Errorf("a repeated answer: already %v, score %d; want the first answer to stand", again.Already, again.Round.Score())
	}
	sum := s.Summarise(again.Round)
	if sum.Score != quiz.RoundSize-missed || sum.Total != quiz.RoundSize || len(sum.Missed) != missed || !words.Default().For(words.English).Has(sum.Message.Key) {
		t.Errorf("summary %+v, want %d of %d with %d missed", sum, quiz.RoundSize-missed, quiz.RoundSize, missed)
	}
	o, err := s.Overview(ctx, visitor)
	if err != nil {
		t.Fatal(err)
	}
	if o.Missed != missed || o.Current != nil || len(o.Scores) != 1 || o.Scores[0].Percent != Percent(sum.Score, sum.Total) {
		t.Errorf("overview %+v, want %d missed, no current round, one score", o, missed)
	}
	next, err := s.Start(ctx, visitor)
	if err != nil {
		t.Fatal(err)
	}
	// The missed questions come back, mixed with new ones (issue 38).
	for _, m := range sum.Missed {
		if !slices.Contains(next.Questions, m.Q.ID) {
			t.Errorf("next round %v leaves out the missed %s", next.Questions, m.Q.ID)
		}
	}
}

// laterMillisecond waits until the clock has left the millisecond it is
// in, so a row written next sorts after the rows written before: the store
// keeps times in milliseconds, and an unsynced test database writes several
// in one.
func laterMillisecond() {
	for start := time.Now().UnixMilli(); time.Now().UnixMilli() == start; {
		time.Sleep(50 * time.Microsecond)
	}
}
