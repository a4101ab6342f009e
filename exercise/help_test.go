package exercise

import (
	"testing"

	"chesstutor/chess"
)

// TestHelpNamesARightMove checks that the hint's piece and the answer's
// move are those of a move the grader accepts, for every goal's kind of
// position, and after the first two moves of a mate in two.
func TestHelpNamesARightMove(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		goal      Goal
		square    string
	}{
		{"mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", GoalMate, ""},
		{"check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", GoalCheck, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := chess.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			task := Task{Pos: pos, Goal: tc.goal, Square: chess.NoSquare}
			h := task.Help(nil)
			if h.Move == chess.NoMove {
				t.Fatal("no move in the help")
			}
			if v := task.JudgeMove(h.Move); !v.Correct {
				t.Errorf("the answer %s is judged wrong: %v", h.SAN, v.Reason)
			}
			if h.Hint.Key != "exercise.help_hint" || h.Answer.Key != "exercise.help_answer" {
				t.Errorf("keys = %q, %q", h.Hint.Key, h.Answer.Key)
			}
		})
	}
}

// TestHelpAfterTheFirstMoves gives the mating second move of a mate in two.
func TestHelpAfterTheFirstMoves(t *testing.T) {
	pos, err := chess.ParseFEN("k7/8/2K5/8/8/8/8/7R w - - 0 1") // Kb6 Kb8, then Rh8#
	if err != nil {
		t.Fatal(err)
	}
	task := Task{Pos: pos, Goal: GoalMateInTwo, Square: chess.NoSquare}
	line, err := task.ParseLine([]string{"c6b6", "a8b8"})
	if err != nil {
		t.Fatal(err)
	}
	h := task.Help(line)
	if got := h.Move.UCI(); got != "h1h8" {
		t.Errorf("answer after Kb6 Kb8 = %s, want h1h8", got)
	}
	if v, err := task.JudgeLine(line[0], line[1], h.Move.From(), h.Move.To(), h.Move.Promotion()); err != nil || !v.Solved {
		t.Errorf("the answer does not solve the task: %v %v", v, err)
	}
}
