package store

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func quizStore(t *testing.T, visitors ...string) *SQLite {
	t.Helper()
	s := openTemp(t, filepath.Join(t.TempDir(), "quiz.db"))
	t.Cleanup(func() { s.Close() })
	for _, v := range visitors {
		if err := s.EnsureVisitor(context.Background(), v); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

const (
	quizAlice = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	quizBob   = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func TestQuizRoundAnswersAndScore(t *testing.T) {
	ctx := context.Background()
	s := quizStore(t, quizAlice, quizBob)
	r, err := s.StartQuizRound(ctx, quizAlice, []string{"q1", "q2", "q3"})
	if err != nil {
		t.Fatal(err)
	}
	if cur, err := s.CurrentQuizRound(ctx, quizAlice); err != nil || cur.ID != r.ID {
		t.Fatalf("CurrentQuizRound = %v, %v; want the new round", cur, err)
	}
	if _, err := s.CurrentQuizRound(ctx, quizBob); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Bob's CurrentQuizRound: %v, want ErrNotFound", err)
	}
	if r.Next() != 0 || r.Finished() {
		t.Fatalf("new round: Next = %d, Finished = %v", r.Next(), r.Finished())
	}
	answers := []struct {
		index   int
		correct bool
	}{{0, true}, {2, false}, {1, true}}
	for _, a := range answers {
		got, recorded, err := s.AnswerQuiz(ctx, quizAlice, r.ID, a.index, "x", a.correct)
		if err != nil || !recorded {
			t.Fatalf("AnswerQuiz(%d) = %v, %v", a.index, recorded, err)
		}
		if _, ok := got.Answer(a.index); !ok {
			t.Errorf("answer %d missing from the returned round", a.index)
		}
	}
	loaded, err := s.QuizRound(ctx, quizAlice, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !loaded.Finished() || loaded.Score() != 2 || loaded.Next() != -1 {
		t.Errorf("finished=%v score=%d next=%d, want true 2 -1", loaded.Finished(), loaded.Score(), loaded.Next())
	}
	if _, err := s.CurrentQuizRound(ctx, quizAlice); !errors.Is(err, ErrNotFound) {
		t.Errorf("CurrentQuizRound after the last answer: %v, want ErrNotFound", err)
	}
	scores, err := s.QuizScores(ctx, quizAlice, 5)
	if err != nil || len(scores) != 1 || scores[0].Score != 2 || scores[0].Total != 3 {
		t.Errorf("QuizScores = %+v, %v; want one 2/3", scores, err)
	}
	if scores, _ := s.QuizScores(ctx, quizBob, 5); len(scores) != 0 {
		t.Errorf("Bob sees Alice's scores: %+v", scores)
	}
}

func TestQuizAnswerTwiceCountsOnce(t *testing.T) {
	ctx := context.Background()
	s := quizStore(t, quizAlice)
	r, err := s.StartQuizRound(ctx, quizAlice, []string{"q1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, rec, err := s.AnswerQuiz(ctx, quizAlice, r.ID, 0, "a", false); err != nil || !rec {
		t.Fatalf("first answer: %v, %v", rec, err)
	}
	got, rec, err := s.AnswerQuiz(ctx, quizAlice, r.ID, 0, "b", true)
	if err != nil || rec {
		t.Fatalf("second answer: recorded=%v err=%v, want false, nil", rec, err)
	}
	if a, _ := got.Answer(0); a.Answer != "a" || a.Correct {
		t.Errorf("second post changed the answer to %+v", a)
	}
	scores, _ := s.QuizScores(ctx, quizAlice, 5)
	if len(scores) != 1 || scores[0].Score != 0 {
		t.Errorf("scores = %+v, want one 0/1", scores)
	}
	missed, _ := s.MissedQuizQuestions(ctx, quizAlice)
	if !slices.Equal(missed, []string{"q1"}) {
		t.Errorf("missed = %v, want [q1]", missed)
	}
}

func TestQuizConcurrentAnswersCountOnce(t *testing.T) {
	ctx := context.Background()
	s := quizStore(t, quizAlice)
	r, err := s.StartQuizRound(ctx, quizAlice, []string{"q1", "q2"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	recorded := make(chan bool, 8)
	for range 8 {
		wg.Go(func() {
			_, rec, err := s.AnswerQuiz(ctx, quizAlice, r.ID, 0, "a", true)
			if err != nil {
				t.Error(err)
			}
			recorded <- rec
		})
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
	var times int
	if err := s.db.QueryRowContext(ctx, `SELECT times_right FROM quiz_history WHERE question = 'q1'`).Scan(&times); err != nil || times != 1 {
		t.Errorf("times_right = %d, %v; want 1", times, err)
	}
}

func TestQuizRoundNotFound(t *testing.T) {
	ctx := context.Background()
	s := quizStore(t, quizAlice, quizBob)
	r, err := s.StartQuizRound(ctx, quizAlice, []string{"q1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.QuizRound(ctx, quizBob, r.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Bob loads Alice's round: %v, want ErrNotFound", err)
	}
	if _, _, err := s.AnswerQuiz(ctx, quizBob, r.ID, 0, "a", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("Bob answers Alice's round: %v, want ErrNotFound", err)
	}
	if _, _, err := s.AnswerQuiz(ctx, quizAlice, r.ID, 1, "a", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("answer to question 1 of 1: %v, want ErrNotFound", err)
	}
	if _, _, err := s.AnswerQuiz(ctx, quizAlice, "nosuchround", 0, "a", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown round: %v, want ErrNotFound", err)
	}
}

func TestQuizMissedUntilAnsweredRight(t *testing.T) {
	ctx := context.Background()
	s := quizStore(t, quizAlice)
	play := func(ids []string, correct ...bool) {
		t.Helper()
		r, err := s.StartQuizRound(ctx, quizAlice, ids)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range correct {
			if _, _, err := s.AnswerQuiz(ctx, quizAlice, r.ID, i, "x", c); err != nil {
				t.Fatal(err)
			}
		}
	}
	play([]string{"q1", "q2", "q3"}, false, true, false)
	missed, _ := s.MissedQuizQuestions(ctx, quizAlice)
	if !slices.Equal(missed, []string{"q1", "q3"}) {
		t.Errorf("missed = %v, want [q1 q3]", missed)
	}
	play([]string{"q3", "q1"}, true)
	missed, _ = s.MissedQuizQuestions(ctx, quizAlice)
	if !slices.Equal(missed, []string{"q1"}) {
		t.Errorf("after answering q3 right, missed = %v, want [q1]", missed)
	}
	seen, _ := s.SeenQuizQuestions(ctx, quizAlice)
	if len(seen) != 3 || !seen["q2"] {
		t.Errorf("seen = %v, want q1 q2 q3", seen)
	}
}
