package exercise

import (
	"testing"

	"chesstutor/chess"
	"chesstutor/words"
)

func TestTry(t *testing.T) {
	pos, err := chess.ParseFEN("k7/8/2K5/8/8/8/8/7R w - - 0 1") // Kb6, then Rh8#
	if err != nil {
		t.Fatal(err)
	}
	task := Task{Pos: pos, Goal: GoalMateInTwo, Square: chess.NoSquare}

	first, err := task.Try(nil, " C6B6 ")
	if err != nil {
		t.Fatal(err)
	}
	if !first.Verdict.Correct || first.Verdict.Solved || first.SAN != "Kb6" || len(first.Line) != 2 || first.After == nil {
		t.Fatalf("Kb6: %+v", first)
	}
	if got := first.ReplySAN(pos); got != "Kb8" {
		t.Errorf("the reply %q, want Kb8", got)
	}
	line, err := task.ParseLine([]string{first.Line[0].UCI(), first.Line[1].UCI()})
	if err != nil {
		t.Fatal(err)
	}
	mate, err := task.Try(line, "h1h8")
	if err != nil || !mate.Verdict.Solved || mate.SAN != "Rh8#" || !mate.After.IsCheckmate() {
		t.Errorf("Rh8#: %+v, %v", mate, err)
	}

	wrong, err := task.Try(nil, "h1h2")
	if err != nil || wrong.Verdict.Correct || wrong.SAN != "Rh2" {
		t.Errorf("Rh2: %+v, %v", wrong, err)
	}
	illegal, err := task.Try(nil, "c6c8")
	if err != nil || illegal.Verdict.Correct || illegal.SAN != "" || illegal.After != nil {
		t.Errorf("an illegal try: %+v, %v", illegal, err)
	}

	// A line that starts with a wrong move is none the task offers.
	rh2, _ := pos.ParseUCI("h1h2")
	kb8, _ := pos.Play(rh2).ParseUCI("a8b8")
	forged := []chess.Move{rh2, kb8}

	for _, tc := range []struct {
		name string
		try  func() error
		key  string
	}{
		{"no squares", func() error { _, err := task.Try(nil, "e9e4"); return err }, "practice.refuse_uci"},
		{"one square twice", func() error { _, err := task.Try(nil, "e4e4"); return err }, "practice.refuse_uci"},
		{"no such piece", func() error { _, err := task.Try(nil, "a7a8k"); return err }, "practice.refuse_uci"},
		{"half a line", func() error { _, err := task.ParseLine([]string{"c6b6"}); return err }, "practice.refuse_line"},
		{"an illegal line", func() error { _, err := task.ParseLine([]string{"c6b6", "a8a7"}); return err }, "practice.refuse_line_move"},
		{"a line not the task's", func() error { _, err := task.Try(forged, "h2h8"); return err }, "practice.refuse_line_unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.try()
			if got := words.Code(err); got != tc.key {
				t.Errorf("error %v (code %q), want %q", err, got, tc.key)
			}
		})
	}
}

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
