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

func TestStars(t *testing.T) {
	tests := []struct {
		wrong  int
		helped bool
		want   int
	}{
		{0, false, 3}, {1, false, 2}, {2, false, 2}, {3, false, 1}, {10, false, 1},
		{0, true, 1}, {1, true, 1},
	}
	for _, tt := range tests {
		if got := Stars(tt.wrong, tt.helped); got != tt.want {
			t.Errorf("Stars(%d wrong, helped %v) = %d, want %d", tt.wrong, tt.helped, got, tt.want)
		}
	}
}
