package exercise_test

import (
	"context"
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/words"
)

// The sweep of issue 15 (X6): every move exercise of the course against
// every legal move. A second, independent judge written here from the
// goal's words must agree with the grader on every move; every wrong move
// gets a real reason; every exercise has a right and a wrong move.

var pointValue = map[chess.PieceType]int{chess.Pawn: 1, chess.Knight: 3, chess.Bishop: 3, chess.Rook: 5, chess.Queen: 9}

// canTake reports whether the side to move in pos can capture on sq.
func canTake(pos *chess.Position, sq chess.Square) bool {
	for _, m := range pos.LegalMoves() {
		if m.To() == sq && pos.PieceAt(sq) != chess.NoPiece {
			return true
		}
	}
	return false
}

// mateScoreAfter searches pos (the defender to move) with the engine and
// reports the moves to mate for the side that just moved (0: none seen).
func engineMatesIn(pos *chess.Position, depth int) int {
	s := engine.NewSearcher(1)
	res := s.Search(context.Background(), pos, nil, engine.Limits{Depth: depth})
	return -engine.MateIn(res.Score)
}

// oracle is the independent judge of one legal move.
func oracle(t *testing.T, ex *lessons.Exercise, m chess.Move) bool {
	pos := ex.Pos
	after := pos.Play(m)
	switch ex.Goal {
	case exercise.GoalMate:
		return after.InCheck() && len(after.LegalMoves()) == 0
	case exercise.GoalCheck:
		return after.InCheck()
	case exercise.GoalCapture:
		win := func(m chess.Move) int {
			if m.Captured() == chess.NoPiece {
				return 0
			}
			w := pointValue[m.Captured().Type()]
			if canTake(pos.Play(m), m.To()) {
				w -= pointValue[m.Piece().Type()]
				if m.Piece().Type() == chess.King {
					w -= 100
				}
			}
			return w
		}
		best := 0
		for _, o := range pos.LegalMoves() {
			best = max(best, win(o))
		}
		return best > 0 && win(m) == best
	case exercise.GoalSave:
		return m.From() == ex.From && !canTake(after, m.To()) && !after.IsStalemate()
	case exercise.GoalPromote:
		return m.Promotion() == chess.Queen && !canTake(after, m.To()) && !after.IsStalemate()
	case exercise.GoalCastle:
		return m.Piece().Type() == chess.King && abs(m.To().File()-m.From().File()) == 2
	case exercise.GoalEnPassant:
		return m.Piece().Type() == chess.Pawn && m.From().File() != m.To().File() && pos.PieceAt(m.To()) == chess.NoPiece
	case exercise.GoalNoStalemate:
		if after.IsStalemate() {
			return false
		}
		for _, r := range after.LegalMoves() {
			if after.PieceAt(r.To()) != chess.NoPiece || r.IsEnPassant() {
				return false
			}
		}
		return true
	case exercise.GoalMateInTwo:
		if after.IsCheckmate() {
			return true
		}
		n := engineMatesIn(after, 4)
		return n >= 1 && n <= 1 // the defender is mated on the next move whatever it plays
	}
	t.Fatalf("unknown goal %q", ex.Goal)
	return false
}

func TestMoveExerciseSweep(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]words.Message{} // one verdict of each kind, to word in every language
	perGoal := map[exercise.Goal]int{}
	perLesson := map[string]int{}
	total := 0
	for _, ex := range course.Exercises() {
		if ex.Kind != lessons.KindMove {
			continue
		}
		total++
		perGoal[ex.Goal]++
		perLesson[ex.Lesson]++
		t.Run(ex.ID, func(t *testing.T) {
			task := ex.Task()
			rights, wrongs := 0, 0
			for _, m := range ex.Pos.LegalMoves() {
				san := ex.Pos.SAN(m)
				v := task.JudgeMove(m)
				seen[v.Reason.Key] = v.Reason
				if want := oracle(t, ex, m); v.Correct != want {
					t.Errorf("%s: grader says correct=%v, the independent judge %v (reason %q)", san, v.Correct, want, v.Reason)
				}
				if v.Correct {
					rights++
					continue
				}
				wrongs++
				if v.Reason.IsZero() || v.Reason.Key == "exercise.move_"+exercise.VerdictMissesGoal {
					t.Errorf("%s: wrong, without a real reason: %v", san, v.Reason)
				}
				say(t, v.Reason)
				if ex.Pos.Play(m).IsStalemate() && v.Reason.Key != "exercise.move_stalemate" {
					t.Errorf("%s stalemates, but the reason is %v", san, v.Reason)
				}
			}
			if rights == 0 || wrongs == 0 {
				t.Errorf("%d right and %d wrong moves: an exercise needs both", rights, wrongs)
			}
			// Moves the rules refuse are wrong too, and say which rule.
			for from := chess.A1; from <= chess.H8; from++ {
				p := ex.Pos.PieceAt(from)
				if p == chess.NoPiece || p.Color() != ex.Pos.Turn() {
					continue
				}
				for to := chess.A1; to <= chess.H8; to++ {
					if to == from || ex.Pos.IsLegal(findMove(ex.Pos, from, to)) {
						continue
					}
					v := task.Judge(from, to, chess.NoPieceType)
					seen[v.Reason.Key] = v.Reason
					why, _ := v.Reason.Args["Why"].(words.Message)
					if v.Correct || v.Reason.Key != "exercise.move_illegal" || why.Key == "exercise.why_"+exercise.ReasonUnexplained {
						t.Errorf("illegal %s%s: %+v", from, to, v)
					}
					if text := say(t, v.Reason); !strings.HasPrefix(text, "That move is not allowed: ") {
						t.Errorf("illegal %s%s: %q", from, to, text)
					}
				}
			}
		})
	}
	cat := words.Default()
	for _, l := range cat.Languages() {
		for key, m := range seen {
			if got := cat.For(l.Code).Msg(m); got == "" || strings.ContainsAny(got, "[]") || strings.Contains(got, "<no value>") {
				t.Errorf("%s: %s worded as %q", l.Code, key, got)
			}
		}
	}
	t.Logf("%d kinds of verdict, each worded in %d languages", len(seen), len(cat.Languages()))
	if total < 45 {
		t.Errorf("the course has %d move exercises, want at least 45 (issue 15)", total)
	}
	for _, g := range exercise.Goals {
		if perGoal[g] == 0 {
			t.Errorf("no exercise with goal %s", g)
		}
		t.Logf("goal %-13s %2d", g, perGoal[g])
	}
	for _, l := range course.Lessons() {
		if perLesson[l.Slug] > 0 {
			t.Logf("lesson %-12s %2d", l.Slug, perLesson[l.Slug])
		}
	}
	t.Logf("move exercises: %d", total)
}

// findMove returns the legal move from→to (a queen for a promotion), or NoMove.
func findMove(pos *chess.Position, from, to chess.Square) chess.Move {
	for _, m := range pos.LegalMoves() {
		if m.From() == from && m.To() == to {
			return m
		}
	}
	return chess.NoMove
}

// TestMateInTwoDefence checks that the server's defence in every mate in
// two is the engine's own choice, legal, and that a mate in one follows;
// and that a wrong first move is refuted by a reply that leaves no mate.
func TestMateInTwoDefence(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ex := range course.Exercises() {
		if ex.Goal != exercise.GoalMateInTwo {
			continue
		}
		n++
		task := ex.Task()
		for _, m := range ex.Pos.LegalMoves() {
			after := ex.Pos.Play(m)
			v := task.JudgeMove(m)
			if !v.Correct && after.IsStalemate() {
				continue // the sweep checks the stalemate reason
			}
			if !v.Correct {
				// The reason names a defence; after it there is no mate in one.
				san, ok := v.Reason.Args["Defence"].(words.SAN)
				name := string(san)
				if v.Reason.Key != "exercise.move_defended" || !ok {
					t.Errorf("%s %s: reason %v names no defence", ex.ID, ex.Pos.SAN(m), v.Reason)
					continue
				}
				if text := say(t, v.Reason); !strings.Contains(text, " defends with "+chess.Figurines.Write(name)+",") {
					t.Errorf("%s %s: reason %q", ex.ID, ex.Pos.SAN(m), text)
				}
				d, err := after.ParseSAN(name)
				if err != nil {
					t.Errorf("%s %s: reason %q names no legal defence (%v)", ex.ID, ex.Pos.SAN(m), v.Reason, err)
					continue
				}
				for _, r := range after.Play(d).LegalMoves() {
					if after.Play(d).Play(r).IsCheckmate() {
						t.Errorf("%s %s: after the defence %s there is a mate (%s)", ex.ID, ex.Pos.SAN(m), name, after.Play(d).SAN(r))
					}
				}
				continue
			}
			if after.IsCheckmate() {
				continue
			}
			if v.Solved || v.Reply == chess.NoMove || !after.IsLegal(v.Reply) {
				t.Fatalf("%s %s: a right first move needs a legal reply, got %+v", ex.ID, ex.Pos.SAN(m), v)
			}
			want := engine.NewSearcher(1).Search(context.Background(), after, nil, engine.Limits{Depth: 4}).Move
			if v.Reply != want {
				t.Errorf("%s %s: reply %s, the engine's choice is %s", ex.ID, ex.Pos.SAN(m), after.SAN(v.Reply), after.SAN(want))
			}
			// The second move: the mates are right, the rest wrong.
			mid := after.Play(v.Reply)
			mates := 0
			for _, m2 := range mid.LegalMoves() {
				v2, err := task.JudgeLine(m, v.Reply, m2.From(), m2.To(), m2.Promotion())
				if err != nil {
					t.Fatal(err)
				}
				if v2.Correct != mid.Play(m2).IsCheckmate() || v2.Solved != v2.Correct {
					t.Errorf("%s %s %s %s: %+v", ex.ID, ex.Pos.SAN(m), after.SAN(v.Reply), mid.SAN(m2), v2)
				}
				if v2.Correct {
					mates++
				}
			}
			if mates == 0 {
				t.Errorf("%s %s %s: no mate follows", ex.ID, ex.Pos.SAN(m), after.SAN(v.Reply))
			}
			// A forged line is refused.
			if _, err := task.JudgeLine(firstWrong(task), v.Reply, chess.A1, chess.A2, chess.NoPieceType); err == nil {
				t.Errorf("%s: a line starting with a wrong move was graded", ex.ID)
			}
		}
	}
	if n < 3 {
		t.Errorf("%d mate-in-two exercises, want at least 3", n)
	}
}

func firstWrong(task exercise.Task) chess.Move {
	right := map[chess.Move]bool{}
	for _, m := range task.RightMoves() {
		right[m] = true
	}
	for _, m := range task.Pos.LegalMoves() {
		if !right[m] {
			return m
		}
	}
	return chess.NoMove
}
