package exercise_test

import (
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/words"
)

// english words the package's messages in English, the catalogue's source
// language, so tests can read what a learner reads.
var english = words.Default().For(words.English)

// say words a message in English and fails when the catalogue lacks its
// key or an argument it names.
func say(t *testing.T, m words.Message) string {
	t.Helper()
	if !english.Has(m.Key) {
		t.Fatalf("message %q is not in the catalogue", m.Key)
	}
	s := english.Msg(m)
	if strings.Contains(s, "[") || strings.Contains(s, "<no value>") {
		t.Fatalf("message %v worded with a missing piece: %q", m, s)
	}
	return s
}

// geometryRule is the phrase a reason must hold when a square is outside
// the piece's pattern of movement on an empty board.
var geometryRule = map[chess.PieceType]string{
	chess.Knight: "not a knight's L-shaped jump",
	chess.Bishop: "a bishop moves only diagonally",
	chess.Rook:   "a rook moves only in straight lines",
	chess.Queen:  "a queen moves in straight lines and along diagonals",
	chess.King:   "a king moves only one square at a time",
}

// reach is where the piece could go on an empty board (no castling, no
// pawn moves): the geometry every reason starts from.
func reach(t chess.PieceType, from chess.Square) chess.Bitboard {
	switch t {
	case chess.Knight:
		return chess.KnightAttacks(from)
	case chess.Bishop:
		return chess.BishopAttacks(from, 0)
	case chess.Rook:
		return chess.RookAttacks(from, 0)
	case chess.Queen:
		return chess.QueenAttacks(from, 0)
	case chess.King:
		return chess.KingAttacks(from)
	}
	return 0
}

// TestCourseExercises checks every exercise in the lessons (X2, X3): the
// piece exists and belongs to the side to move, the answer is not empty,
// marking the answer is correct, and every other square gets a reason
// that names the right rule.
func TestCourseExercises(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatalf("lessons.Load: %v", err)
	}
	var all []*lessons.Exercise
	for _, ex := range course.Exercises() {
		if ex.Kind == lessons.KindSquares {
			all = append(all, ex)
		}
	}
	if len(all) < 40 {
		t.Errorf("the course has %d exercises, want at least 40 (X2)", len(all))
	}
	perLesson := map[string]int{}
	for _, ex := range all {
		perLesson[ex.Lesson]++
		t.Run(ex.ID, func(t *testing.T) {
			p := ex.Pos.PieceAt(ex.From)
			if p == chess.NoPiece {
				t.Fatalf("no piece on %s", ex.From)
			}
			if p.Color() != ex.Pos.Turn() {
				t.Errorf("the %s on %s is %s, but %s is to move", p.Type(), ex.From, p.Color(), ex.Pos.Turn())
			}
			answer := exercise.Answer(ex.Pos, ex.From)
			if len(answer) == 0 {
				t.Fatalf("the %s on %s has no legal move", p.Type(), ex.From)
			}
			if res := exercise.Check(ex.Pos, ex.From, answer); !res.Correct {
				t.Errorf("marking the answer %s is not correct: %+v", names(answer), res)
			}
			res := exercise.Check(ex.Pos, ex.From, nil)
			if names(res.Missed) != names(answer) {
				t.Errorf("nothing marked: missed %s, want %s", names(res.Missed), names(answer))
			}
			inAnswer := map[chess.Square]bool{}
			for _, sq := range answer {
				inAnswer[sq] = true
			}
			var wrong []chess.Square
			for sq := chess.A1; sq <= chess.H8; sq++ {
				if !inAnswer[sq] {
					wrong = append(wrong, sq)
				}
			}
			res = exercise.Check(ex.Pos, ex.From, wrong)
			if len(res.Wrong) != len(wrong) || len(res.Missed) != len(answer) || res.Correct {
				t.Fatalf("marking every other square: wrong %d, want %d; missed %d, want %d",
					len(res.Wrong), len(wrong), len(res.Missed), len(answer))
			}
			geo := reach(p.Type(), ex.From)
			for _, sq := range wrong {
				reason := res.Reasons[sq]
				if reason.IsZero() || reason.Key == "exercise.why_"+exercise.ReasonUnexplained {
					t.Errorf("%s: no real reason: %v", sq, reason)
					continue
				}
				why := say(t, reason)
				target := ex.Pos.PieceAt(sq)
				switch {
				case sq == ex.From:
					if !strings.Contains(why, "already stands") {
						t.Errorf("%s (its own square): reason %q", sq, why)
					}
				case p.Type() == chess.King && sq.Rank() == ex.From.Rank() && abs(sq.File()-ex.From.File()) == 2:
					if !strings.Contains(why, "castl") {
						t.Errorf("%s (a castling square): reason %q, want one about castling", sq, why)
					}
				case p.Type() != chess.Pawn && !geo.Has(sq):
					if want := geometryRule[p.Type()]; !strings.Contains(why, want) {
						t.Errorf("%s (off the %s's lines): reason %q, want %q", sq, p.Type(), why, want)
					}
				case p.Type() != chess.Pawn && target != chess.NoPiece && target.Color() == p.Color():
					if !strings.Contains(why, "your own") {
						t.Errorf("%s (own %s there): reason %q, want it to name your own piece", sq, target.Type(), why)
					}
				case p.Type() == chess.Pawn:
					if !strings.Contains(why, "pawn") && !strings.Contains(why, "king") {
						t.Errorf("%s (pawn): reason %q names neither the pawn rule nor the king", sq, why)
					}
				}
			}
		})
	}
	for _, l := range course.Lessons() {
		t.Logf("%-14s %2d exercises", l.Slug, perLesson[l.Slug])
	}
	t.Logf("total: %d exercises", len(all))
}

// TestCourseReasons checks the reasons a learner sees on the course's
// special-rule exercises: each refused castling, en passant and pin names
// the rule that refuses it (X5).
func TestCourseReasons(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatalf("lessons.Load: %v", err)
	}
	tests := []struct{ id, square, want string }{
		{"castle-king-has-moved", "g1", "the king has moved (or both rooks have)"},
		{"castle-rook-has-moved", "g1", "the rook on h1 has already moved"},
		{"castle-piece-between", "c1", "a square between the king and the rook is occupied (your own knight on b1)"},
		{"castle-in-check", "g1", "you may not castle out of check"},
		{"castle-through-attack", "g1", "the king would cross an attacked square (f1, attacked by the bishop on c4)"},
		{"castle-into-attack", "g1", "the king would land on an attacked square (g1, attacked by the knight on h3)"},
		{"castle-black-king-side", "c8", "the rook on a8 has already moved"},
		{"castle-both-sides", "c1", "a missed castling move"},
		{"en-passant-expired", "d6", "en passant is possible only right after the enemy pawn's two-square move"},
		{"en-passant-available", "d6", "a missed en passant capture"},
		{"en-passant-discovered-check", "c6", "removes both pawns from rank 5 at once"},
		{"pin-pawn-capture", "d3", "the pawn is pinned to its king by the bishop on c3"},
		{"pin-bishop-diagonal", "e6", "the bishop is pinned to its king by the bishop on b5"},
		{"pin-rook-on-file", "d7", "the rook is pinned to its king by the rook on e1"},
		{"check-king-escapes", "e2", "the king would be in check there (attacked by the rook on e8)"},
		{"check-block", "f5", "you must get out of check"},
		{"check-capture", "e8", "taking the checking rook on e8"},
		{"promotion-straight", "e8", "a missed promotion square"},
		{"promotion-blocked", "g8", "a pawn moves straight forward only onto an empty square"},
	}
	for _, tt := range tests {
		t.Run(tt.id+"/"+tt.square, func(t *testing.T) {
			ex, ok := course.Exercise(tt.id)
			if !ok {
				t.Fatalf("no exercise %q in the course", tt.id)
			}
			got := say(t, exercise.Reason(ex.Pos, ex.From, sq(t, tt.square)))
			if !strings.Contains(got, tt.want) {
				t.Errorf("reason = %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

func names(sqs []chess.Square) string {
	out := make([]string, len(sqs))
	for i, s := range sqs {
		out[i] = s.String()
	}
	return strings.Join(out, " ")
}

func sq(t *testing.T, name string) chess.Square {
	t.Helper()
	s, err := chess.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
