package exercise_test

import (
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/words"
)

// grid is a board read straight from a FEN's first field: grid[rank][file]
// holds the FEN letter, or 0. The judge below works on it alone, apart
// from the chess package's bitboards.
type grid [8][8]byte

func gridOf(t *testing.T, fen string) grid {
	t.Helper()
	var g grid
	rows := strings.Split(strings.Fields(fen)[0], "/")
	if len(rows) != 8 {
		t.Fatalf("bad FEN %q", fen)
	}
	for i, row := range rows {
		f := 0
		for _, ch := range []byte(row) {
			if ch >= '1' && ch <= '8' {
				f += int(ch - '0')
				continue
			}
			g[7-i][f] = ch
			f++
		}
	}
	return g
}

func white(ch byte) bool { return ch >= 'A' && ch <= 'Z' }

// guards reports whether a piece of the side white(us) other than the
// one on (r, f) reaches (r, f): by walking each piece's moves square by
// square, as a child counts on the board.
func (g grid) guards(r, f int, us bool) bool {
	on := func(r, f int) bool { return r >= 0 && r < 8 && f >= 0 && f < 8 }
	for r2 := 0; r2 < 8; r2++ {
		for f2 := 0; f2 < 8; f2++ {
			ch := g[r2][f2]
			if ch == 0 || white(ch) != us || (r2 == r && f2 == f) {
				continue
			}
			dr, df := r-r2, f-f2
			switch strings.ToLower(string(ch)) {
			case "p":
				fwd := 1
				if !us {
					fwd = -1
				}
				if dr == fwd && (df == 1 || df == -1) {
					return true
				}
			case "n":
				if dr*dr+df*df == 5 {
					return true
				}
			case "k":
				if dr >= -1 && dr <= 1 && df >= -1 && df <= 1 {
					return true
				}
			default: // sliders: walk the line, stop at the first piece
				var dirs [][2]int
				if strings.ContainsAny(string(ch), "rRqQ") {
					dirs = append(dirs, [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}...)
				}
				if strings.ContainsAny(string(ch), "bBqQ") {
					dirs = append(dirs, [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}...)
				}
				for _, d := range dirs {
					for rr, ff := r2+d[0], f2+d[1]; on(rr, ff); rr, ff = rr+d[0], ff+d[1] {
						if rr == r && ff == f {
							return true
						}
						if g[rr][ff] != 0 {
							break
						}
					}
				}
			}
		}
	}
	return false
}

// looseJudge is the second judge of the undefended exercises: the squares
// of the mover's pieces, king left out, that nothing of theirs guards.
func looseJudge(t *testing.T, fen string) map[string]bool {
	g := gridOf(t, fen)
	us := strings.Fields(fen)[1] == "w"
	out := map[string]bool{}
	for r := 0; r < 8; r++ {
		for f := 0; f < 8; f++ {
			ch := g[r][f]
			if ch == 0 || white(ch) != us || ch == 'K' || ch == 'k' {
				continue
			}
			if !g.guards(r, f, us) {
				out[string(rune('a'+f))+string(rune('1'+r))] = true
			}
		}
	}
	return out
}

// TestUndefendedSweep puts every undefended exercise of the course before
// the second judge: the grader's answer is the judge's; marking it is
// right; every other square of the board, marked alone or added to the
// answer, is wrong with a reason in every language; every answer square
// left out is missed with its reason.
func TestUndefendedSweep(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	cat := words.Default()
	n := 0
	for _, ex := range course.Exercises() {
		if ex.Kind != lessons.KindUndefended {
			continue
		}
		n++
		t.Run(ex.ID, func(t *testing.T) {
			want := looseJudge(t, ex.Pos.FEN())
			answer := exercise.UndefendedAnswer(ex.Pos)
			if len(answer) != len(want) {
				t.Fatalf("grader's answer %v, the judge's %v", answer, want)
			}
			for _, sq := range answer {
				if !want[sq.String()] {
					t.Fatalf("grader's answer %v, the judge's %v", answer, want)
				}
			}
			if res := exercise.CheckUndefended(ex.Pos, answer); !res.Correct {
				t.Errorf("marking the answer is graded wrong: %+v", res)
			}
			for sq := chess.A1; sq <= chess.H8; sq++ {
				marked := append(append([]chess.Square{}, answer...), sq)
				if want[sq.String()] {
					marked = nil
					for _, a := range answer {
						if a != sq {
							marked = append(marked, a)
						}
					}
				}
				res := exercise.CheckUndefended(ex.Pos, marked)
				if res.Correct {
					t.Errorf("%s: a wrong answer %v graded right", sq, marked)
					continue
				}
				why, ok := res.Reasons[sq]
				if !ok {
					t.Fatalf("%s: no reason", sq)
				}
				for _, l := range cat.Languages() {
					text := cat.For(l.Code).Msg(why)
					if text == "" || strings.ContainsAny(text, "[]") || strings.Contains(text, "<no value>") {
						t.Errorf("%s %s: reason worded %q", l.Code, sq, text)
					}
				}
				en := say(t, why)
				p := ex.Pos.PieceAt(sq)
				switch {
				case want[sq.String()]:
					if !strings.Contains(en, "undefended") {
						t.Errorf("%s missed: %q", sq, en)
					}
				case p != chess.NoPiece && p.Color() == ex.Pos.Turn() && p.Type() != chess.King:
					if !strings.Contains(en, "is defended by") {
						t.Errorf("%s guarded: %q", sq, en)
					}
				}
			}
		})
	}
	if n < 3 {
		t.Errorf("the course has %d undefended exercises, want at least 3", n)
	}
}
