package exercise

import (
	"strings"

	"chesstutor/chess"
	"chesstutor/words"
)

// Attempt is one graded try at a move task, the same for the check API and
// the practice page's form: the verdict, the move in SAN ("" when it is
// not legal), the position after it (and after the computer's reply in a
// mate in two; nil when the move is not legal) and the mate-in-two line
// to carry on with (the move and the reply, after a right first move).
type Attempt struct {
	Verdict Verdict
	SAN     string
	After   *chess.Position
	Line    []chess.Move
}

// ReplySAN is the computer's reply in SAN, or "" when there is none.
func (a Attempt) ReplySAN(start *chess.Position) string {
	if len(a.Line) < 2 {
		return ""
	}
	pos := start
	for _, m := range a.Line[:len(a.Line)-1] {
		pos = pos.Play(m)
	}
	return pos.SAN(a.Line[len(a.Line)-1])
}

// ParseLine reads the moves already played in a mate in two: none, or the
// learner's first move and the reply, each legal where it is played.
// Refusals are catalogue messages (practice.refuse_line…).
func (t Task) ParseLine(uci []string) ([]chess.Move, error) {
	if len(uci) == 0 {
		return nil, nil
	}
	if t.Goal == GoalMateTechnique {
		return t.parseTechniqueLine(uci) // technique.go
	}
	if t.Goal != GoalMateInTwo || len(uci) != 2 {
		return nil, words.Errorf("practice.refuse_line")
	}
	pos := t.Pos
	var line []chess.Move
	for _, u := range uci {
		m, err := pos.ParseUCI(u)
		if err != nil {
			return nil, words.Errorf("practice.refuse_line_move", "Text", clip(u, 8))
		}
		line = append(line, m)
		pos = pos.Play(m)
	}
	return line, nil
}

// ParseMove reads a tried move, "e2e4" or "e7e8q", into its squares and
// promotion. It need not be legal: a wrong try is graded, not refused.
func ParseMove(s string) (from, to chess.Square, promo chess.PieceType, err error) {
	bad := words.Errorf("practice.refuse_uci", "Text", clip(s, 12))
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) != 4 && len(s) != 5 {
		return 0, 0, 0, bad
	}
	from, err1 := chess.ParseSquare(s[:2])
	to, err2 := chess.ParseSquare(s[2:4])
	if err1 != nil || err2 != nil || from == to {
		return 0, 0, 0, bad
	}
	promo = chess.NoPieceType
	if len(s) == 5 {
		switch s[4] {
		case 'q':
			promo = chess.Queen
		case 'r':
			promo = chess.Rook
		case 'b':
			promo = chess.Bishop
		case 'n':
			promo = chess.Knight
		default:
			return 0, 0, 0, bad
		}
	}
	return from, to, promo, nil
}

// Try grades the move text (as ParseMove reads it) played after line (see
// ParseLine): the first move of the task, or the second of a mate in two.
func (t Task) Try(line []chess.Move, text string) (Attempt, error) {
	from, to, promo, err := ParseMove(text)
	if err != nil {
		return Attempt{}, err
	}
	var at Attempt
	pos := t.Pos
	if t.Goal == GoalMateTechnique {
		for _, m := range line {
			pos = pos.Play(m)
		}
		for _, m := range pos.LegalMoves() {
			if m.From() == from && m.To() == to && m.Promotion() == promo {
				at.Verdict = judgeTechnique(pos, m, t.MovesLeft(line))
				at.SAN = pos.SAN(m)
				at.After = pos.Play(m)
				if r := at.Verdict.Reply; r != chess.NoMove {
					at.Line = append(append(line[:len(line):len(line)], m), r)
					at.After = at.After.Play(r)
				}
				return at, nil
			}
		}
		at.Verdict = Task{Pos: pos, Goal: GoalMate, Square: chess.NoSquare}.Judge(from, to, promo) // illegal: the rule it breaks
		return at, nil
	}
	if len(line) == 2 {
		at.Verdict, err = t.JudgeLine(line[0], line[1], from, to, promo)
		if err != nil {
			return Attempt{}, words.Errorf("practice.refuse_line_unknown")
		}
		pos = pos.Play(line[0]).Play(line[1])
	} else {
		at.Verdict = t.Judge(from, to, promo)
	}
	for _, m := range pos.LegalMoves() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			at.SAN = pos.SAN(m)
			at.After = pos.Play(m)
			if r := at.Verdict.Reply; r != chess.NoMove {
				at.Line = []chess.Move{m, r}
				at.After = at.After.Play(r)
			}
		}
	}
	return at, nil
}

// clip shortens what a visitor typed for a refusal that quotes it.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
