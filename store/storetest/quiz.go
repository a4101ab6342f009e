package storetest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"chesstutor/store"
)

// The quiz part of the contract.

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
	// Newest first, and the limit holds. Times are kept in milliseconds:
	// the second round finishes in a later one.
	for first := time.Now().UnixMilli(); time.Now().UnixMilli() == first; {
		time.Sleep(50 * time.Microsecond)
	}
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
	if _, err := s.StartQuizRound(ctx, carol, []string{"q1"}); !errors.Is(err, store.ErrGone) {
		t.Errorf("a round for an unknown visitor: %v, want ErrGone", err)
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
