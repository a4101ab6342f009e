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
	case exercise.GoalDefend, exercise.GoalFork, exercise.GoalPin, exercise.GoalSkewer, exercise.GoalDiscovered:
		return !after.IsStalemate() && tacticOracle(pos, after, m, ex.Goal)
	case exercise.GoalMateTechnique:
		// Mate, or: no stalemate, the lone king cannot take the piece, and
		// the engine still sees a mate within the moves left.
		if after.IsCheckmate() {
			return true
		}
		if after.IsStalemate() || ex.Limit <= 1 {
			return false
		}
		for _, r := range after.LegalMoves() {
			if after.PieceAt(r.To()) != chess.NoPiece {
				return false
			}
		}
		n := engineMatesIn(after, 2*(ex.Limit-1))
		return n >= 1 && n <= ex.Limit-1
	}
	t.Fatalf("unknown goal %q", ex.Goal)
	return false
}

// worth is a piece's value for the tactic goals; the king outweighs all.
func worth(t chess.PieceType) int {
	if t == chess.King {
		return 100
	}
	return pointValue[t]
}

// bestWin is the most the side to move in pos wins with one capture, on
// sq only unless sq is NoSquare: the piece taken, less the taker when it
// can be taken back.
func bestWin(pos *chess.Position, sq chess.Square) int {
	best := 0
	for _, c := range pos.LegalMoves() {
		victim := pos.PieceAt(c.To())
		if victim == chess.NoPiece || (sq != chess.NoSquare && c.To() != sq) {
			continue
		}
		w := worth(victim.Type())
		if canTake(pos.Play(c), c.To()) {
			w -= worth(pos.PieceAt(c.From()).Type())
		}
		best = max(best, w)
	}
	return best
}

// prize reports whether the piece on from, attacking the enemy piece on
// to, could win it: the king, a more valuable piece, or one nobody guards.
func prize(pos *chess.Position, from, to chess.Square) bool {
	a, v := pos.PieceAt(from), pos.PieceAt(to)
	if v == chess.NoPiece || v.Color() == a.Color() {
		return false
	}
	return v.Type() == chess.King || worth(v.Type()) > worth(a.Type()) || pos.Attackers(to, v.Color()) == 0
}

// prizesOf lists the enemy squares the piece on sq attacks and could win,
// found by asking every square who attacks it.
func prizesOf(pos *chess.Position, sq chess.Square) []chess.Square {
	var out []chess.Square
	for s := chess.A1; s <= chess.H8; s++ {
		if pos.Attackers(s, pos.PieceAt(sq).Color()).Has(sq) && prize(pos, sq, s) {
			out = append(out, s)
		}
	}
	return out
}

// between reports whether b lies strictly between a and c on one line.
func between(a, b, c chess.Square) bool {
	df, dr := c.File()-a.File(), c.Rank()-a.Rank()
	bf, br := b.File()-a.File(), b.Rank()-a.Rank()
	if df*br != dr*bf { // not on the line through a and c
		return false
	}
	return bf*df+br*dr > 0 && bf*bf+br*br < df*df+dr*dr
}

// tacticOracle judges the tactic goals from their definitions in words.
func tacticOracle(pos, after *chess.Position, m chess.Move, goal exercise.Goal) bool {
	to := m.To()
	us := pos.Turn()
	keeps := bestWin(after, to) <= 0 // the moved piece cannot be won
	mover := after.PieceAt(to).Type()
	slider := mover == chess.Bishop || mover == chess.Rook || mover == chess.Queen
	switch goal {
	case exercise.GoalDefend:
		return bestWin(after, chess.NoSquare) <= 0
	case exercise.GoalFork:
		return keeps && len(prizesOf(after, to)) >= 2
	case exercise.GoalPin, exercise.GoalSkewer:
		if !slider || !keeps {
			return false
		}
		// Every enemy piece the moved piece attacks, and the next piece
		// on past it along the same line.
		for f := chess.A1; f <= chess.H8; f++ {
			front := after.PieceAt(f)
			if front == chess.NoPiece || front.Color() == us || !after.Attackers(f, us).Has(to) {
				continue
			}
			df, dr := sign(f.File()-to.File()), sign(f.Rank()-to.Rank())
			for x, y := f.File()+df, f.Rank()+dr; x >= 0 && x < 8 && y >= 0 && y < 8; x, y = x+df, y+dr {
				b := chess.NewSquare(x, y)
				back := after.PieceAt(b)
				if back == chess.NoPiece {
					continue
				}
				if back.Color() != us {
					fv, bv := worth(front.Type()), worth(back.Type())
					if goal == exercise.GoalPin && front.Type() != chess.King && bv > fv {
						return true
					}
					if goal == exercise.GoalSkewer && fv > bv && (bv > worth(mover) || after.Attackers(b, back.Color()) == 0) {
						return true
					}
				}
				break
			}
		}
		return false
	case exercise.GoalDiscovered:
		for s := chess.A1; s <= chess.H8; s++ {
			p := after.PieceAt(s)
			if s == to || p.Color() != us || (p.Type() != chess.Bishop && p.Type() != chess.Rook && p.Type() != chess.Queen) {
				continue
			}
			for e := chess.A1; e <= chess.H8; e++ {
				if !after.Attackers(e, us).Has(s) || pos.Attackers(e, us).Has(s) || !between(s, m.From(), e) || !prize(after, s, e) {
					continue
				}
				if after.PieceAt(e).Type() == chess.King {
					if keeps || after.Attackers(e, us).Has(to) {
						return true
					}
					continue
				}
				if after.InCheck() {
					return true
				}
				for _, w := range prizesOf(after, to) {
					if w != e && keeps {
						return true
					}
				}
			}
		}
	}
	return false
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
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

// The prompts of lesson 12 count moves (issue 36): the counts they give
// must be the position's, and what the prompt allows the grader accepts.
func TestStalematePromptsCountRight(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	stalemates := func(ex *lessons.Exercise, piece chess.PieceType) (all, stale int) {
		for _, m := range ex.Pos.LegalMoves() {
			if m.Piece().Type() != piece {
				continue
			}
			all++
			if ex.Pos.Play(m).IsStalemate() {
				stale++
			}
		}
		return all, stale
	}
	// "all five king moves here stalemate, and so do five queen moves"
	ex, _ := course.Exercise("no-stalemate-black-queen")
	if all, stale := stalemates(ex, chess.King); all != 5 || stale != 5 {
		t.Errorf("no-stalemate-black-queen: %d of %d king moves stalemate, the prompt says all five", stale, all)
	}
	if _, stale := stalemates(ex, chess.Queen); stale != 5 {
		t.Errorf("no-stalemate-black-queen: %d queen moves stalemate, the prompt says five", stale)
	}
	// "leaves Black a legal move and gives nothing away, or checkmate.
	// Two queen moves here would stalemate."
	ex, _ = course.Exercise("no-stalemate-queen-corner")
	if _, stale := stalemates(ex, chess.Queen); stale != 2 {
		t.Errorf("no-stalemate-queen-corner: %d queen moves stalemate, the prompt says two", stale)
	}
	task := ex.Task()
	for _, m := range ex.Pos.LegalMoves() {
		after := ex.Pos.Play(m)
		allowed := after.IsCheckmate() || (!after.IsStalemate() && len(after.LegalMoves()) > 0 && !canTakeAnything(after))
		if v := task.JudgeMove(m); v.Correct != allowed {
			t.Errorf("no-stalemate-queen-corner %s: grader says %v, the prompt allows it: %v", ex.Pos.SAN(m), v.Correct, allowed)
		}
	}
}

func canTakeAnything(pos *chess.Position) bool {
	for _, m := range pos.LegalMoves() {
		if m.IsCapture() {
			return true
		}
	}
	return false
}

// A mate-technique exercise is played to the end through Try, as the page
// plays it: each right move is answered by the computer and the line grows,
// until mate within the limit (issue 36, X9). A forged line is refused.
func TestMateTechniquePlayedToMate(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ex := range course.Exercises() {
		if ex.Goal != exercise.GoalMateTechnique {
			continue
		}
		n++
		t.Run(ex.ID, func(t *testing.T) {
			task := ex.Task()
			var line []chess.Move
			pos := ex.Pos
			for moves := 1; ; moves++ {
				if moves > ex.Limit {
					t.Fatalf("no mate within %d moves", ex.Limit)
				}
				var right chess.Move
				for _, m := range pos.LegalMoves() {
					if (played{task, line}).right(m) {
						right = m
						break
					}
				}
				if right == chess.NoMove {
					t.Fatalf("move %d: no right move after %v", moves, line)
				}
				uci := make([]string, len(line))
				for i, m := range line {
					uci[i] = m.UCI()
				}
				parsed, err := task.ParseLine(uci)
				if err != nil {
					t.Fatalf("move %d: the line %v is refused: %v", moves, uci, err)
				}
				at, err := task.Try(parsed, right.UCI())
				if err != nil || !at.Verdict.Correct {
					t.Fatalf("move %d: %s: %v %v", moves, right.UCI(), at.Verdict, err)
				}
				if at.Verdict.Solved {
					if !at.After.IsCheckmate() {
						t.Fatalf("solved without mate: %s", at.After.FEN())
					}
					return
				}
				line = at.Line
				pos = at.After
			}
		})
		// A reply that is not the computer's is refused.
		first := ex.Pos.LegalMoves()[0]
		mid := ex.Pos.Play(first)
		for _, r := range mid.LegalMoves() {
			if r != exercise.Defence(mid) {
				if _, err := ex.Task().ParseLine([]string{first.UCI(), r.UCI()}); err == nil {
					t.Errorf("%s: a forged reply %s is accepted", ex.ID, r.UCI())
				}
				break
			}
		}
	}
	if n < 4 {
		t.Errorf("%d mate-technique exercises, want at least 4", n)
	}
}

// played pairs a task with the line played so far, for the test above.
type played struct {
	exercise.Task
	line []chess.Move
}

// right reports whether m, played after the line, is right.
func (t played) right(m chess.Move) bool {
	at, err := t.Task.Try(t.line, m.UCI())
	return err == nil && at.Verdict.Correct
}
