package quiz

import (
	"testing"

	"chesstutor/chess"
)

// Issue 15 (Q5): the claims the fixed explanations make hold on the board,
// and the "click the named square" kind grades like a board question.

func TestExplanationClaims(t *testing.T) {
	// draw-stalemate-blunder says Qg7 would have mated.
	pos, err := chess.ParseFEN("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := pos.ParseSAN("Qg7")
	if err != nil || !pos.Play(m).IsCheckmate() {
		t.Errorf("Qg7 is not mate: %v", err)
	}
	// underpromotion-rook-wins says the king keeps g7 after f8=R.
	pos, _ = chess.ParseFEN("8/5P1k/8/6K1/8/8/8/8 w - - 0 1")
	m, err = pos.ParseSAN("f8=R")
	if err != nil {
		t.Fatal(err)
	}
	after := pos.Play(m)
	g7, _ := chess.ParseSquare("g7")
	found := false
	for _, d := range after.LegalMoves() {
		found = found || d.To() == g7
	}
	if !found {
		t.Error("after f8=R the king cannot go to g7")
	}
}

func TestNameQuestion(t *testing.T) {
	b := loadBank(t)
	q, ok := b.Question("name-g3-black-view")
	if !ok {
		t.Fatal("no name-g3-black-view")
	}
	if !q.Board() || q.Pos.Turn() != chess.Black {
		t.Errorf("a name question is a board question asked from Black's side here")
	}
	for _, tc := range []struct {
		answer  []string
		correct bool
	}{
		{[]string{"G3"}, true},
		{[]string{"g6"}, false},
		{[]string{"g3", "h3"}, false},
	} {
		r, err := q.Grade(tc.answer)
		if err != nil || r.Correct != tc.correct {
			t.Errorf("Grade(%v) = %+v, %v; want correct=%v", tc.answer, r, err, tc.correct)
		}
	}
	if _, err := q.Grade([]string{"k9"}); err == nil {
		t.Error("a square off the board was graded")
	}
}
