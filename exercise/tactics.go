package exercise

import (
	"chesstutor/chess"
	"chesstutor/words"
)

// The goals of X9 that are graded by what the move does to the pieces:
// defending, and the four simple tactics. Each is defined from the
// position after the move with the usual piece values (pieceValue) and
// one rule of thumb a child can check: a piece "can be won" when the
// other side can take it and lose less than it takes (it is not defended,
// or the taker is worth less).
//
// Definitions (the sweep in moves_course_test.go checks them against a
// second judge written from these words):
//
//   - defend: after the move the opponent has no capture that wins
//     material (guard the piece, block the attack, move it away, or take
//     the attacker).
//   - fork: the piece that moved attacks two or more enemy pieces that it
//     can win (the king counts), and the opponent cannot win it first.
//   - pin: the piece that moved (a bishop, rook or queen) attacks an enemy
//     piece that stands in front of a more valuable one, or of the king,
//     on the same line; and it cannot be won.
//   - skewer: the same line, the other way round: the front piece is the
//     king or worth more than the one behind, and the one behind can be
//     won once the front one steps aside.
//   - discovered-attack: the move opens a line from another of the
//     mover's bishops, rooks or queens to an enemy piece it can win (or
//     the king), and the piece that moved adds a second threat: it gives
//     check, or attacks another piece it can win without being won
//     itself. A discovered check counts when the piece that moved cannot
//     be won or gives check too.

// tactic goals.
const (
	GoalDefend     Goal = "defend"            // no capture wins material after the move
	GoalFork       Goal = "fork"              // one piece attacks two it can win
	GoalPin        Goal = "pin"               // a piece in front of a more valuable one
	GoalSkewer     Goal = "skewer"            // a valuable piece in front of another
	GoalDiscovered Goal = "discovered-attack" // a line opens, and the moved piece threatens too
)

// attacksFrom is the set of squares the piece on sq attacks in pos.
func attacksFrom(pos *chess.Position, sq chess.Square) chess.Bitboard {
	p := pos.PieceAt(sq)
	occ := pos.Occupied()
	switch p.Type() {
	case chess.Pawn:
		return chess.PawnAttacks(p.Color(), sq)
	case chess.Knight:
		return chess.KnightAttacks(sq)
	case chess.Bishop:
		return chess.BishopAttacks(sq, occ)
	case chess.Rook:
		return chess.RookAttacks(sq, occ)
	case chess.Queen:
		return chess.QueenAttacks(sq, occ)
	case chess.King:
		return chess.KingAttacks(sq)
	}
	return 0
}

// canWin reports whether the piece on from could win the enemy piece on
// to: it is the king, worth more than the attacker, or not defended.
func canWin(pos *chess.Position, from, to chess.Square) bool {
	a, t := pos.PieceAt(from), pos.PieceAt(to)
	if t == chess.NoPiece || a == chess.NoPiece || t.Color() == a.Color() {
		return false
	}
	return t.Type() == chess.King || pieceValue(t.Type()) > pieceValue(a.Type()) || !pos.IsAttacked(to, t.Color())
}

// bestCapture is the capture, on sq or (sq == NoSquare) anywhere, that
// wins the most for the side to move in pos, and what it wins: the piece
// taken, less the taker when the other side can take back at once.
func bestCapture(pos *chess.Position, sq chess.Square) (chess.Move, int) {
	best, gain := chess.NoMove, 0
	for _, c := range pos.LegalMoves() {
		if !c.IsCapture() || (sq != chess.NoSquare && c.To() != sq) {
			continue
		}
		g := pieceValue(c.Captured().Type())
		if len(takers(pos.Play(c), c.To())) > 0 {
			g -= pieceValue(c.Piece().Type())
		}
		if best == chess.NoMove || g > gain {
			best, gain = c, g
		}
	}
	return best, gain
}

// safe reports whether the side to move in after cannot win the piece on
// sq.
func safe(after *chess.Position, sq chess.Square) bool {
	_, gain := bestCapture(after, sq)
	return gain <= 0
}

// winnable lists the enemy pieces the piece on sq attacks and can win.
func winnable(pos *chess.Position, sq chess.Square) []chess.Square {
	var out []chess.Square
	for _, t := range attacksFrom(pos, sq).Squares() {
		if canWin(pos, sq, t) {
			out = append(out, t)
		}
	}
	return out
}

// lines are the steps of the sliding pieces: rook lines, then bishop
// lines.
// lines are paired with their opposites (i^1).
var lines = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}

// slides reports whether a piece of type t moves along line i of lines.
func slides(t chess.PieceType, i int) bool {
	return t == chess.Queen || (t == chess.Rook && i < 4) || (t == chess.Bishop && i >= 4)
}

// ray returns the first two pieces met from sq along line i (NoSquare
// where there is none).
func ray(pos *chess.Position, sq chess.Square, i int) (first, second chess.Square) {
	first, second = chess.NoSquare, chess.NoSquare
	f, r := sq.File(), sq.Rank()
	for {
		f, r = f+lines[i][0], r+lines[i][1]
		if f < 0 || f > 7 || r < 0 || r > 7 {
			return first, second
		}
		s := chess.NewSquare(f, r)
		if pos.PieceAt(s) == chess.NoPiece {
			continue
		}
		if first == chess.NoSquare {
			first = s
			continue
		}
		return first, s
	}
}

// lineTactic finds a pin (skewer false) or a skewer made by the piece on
// sq: the front and the back piece, or NoSquare.
func lineTactic(after *chess.Position, sq chess.Square, skewer bool) (front, back chess.Square) {
	p := after.PieceAt(sq)
	for i := range lines {
		if !slides(p.Type(), i) {
			continue
		}
		f, b := ray(after, sq, i)
		if f == chess.NoSquare || b == chess.NoSquare {
			continue
		}
		fp, bp := after.PieceAt(f), after.PieceAt(b)
		if fp.Color() == p.Color() || bp.Color() == p.Color() {
			continue
		}
		fv, bv := pieceValue(fp.Type()), pieceValue(bp.Type())
		switch {
		case !skewer && fp.Type() != chess.King && bv > fv:
			return f, b
		case skewer && fv > bv && (pieceValue(bp.Type()) > pieceValue(p.Type()) || !after.IsAttacked(b, bp.Color())):
			return f, b
		}
	}
	return chess.NoSquare, chess.NoSquare
}

// discovered finds the line a move opens: the mover's other bishop, rook
// or queen behind from and the enemy piece it now attacks and can win (or
// the king), or NoSquare.
func discovered(before, after *chess.Position, m chess.Move) (slider, target chess.Square) {
	us := before.Turn()
	for i := range lines {
		// Looking from the square the piece left, the slider is on one
		// side and the target on the other.
		back, _ := ray(before, m.From(), i^1)
		if back == chess.NoSquare {
			continue
		}
		s := before.PieceAt(back)
		if s.Color() != us || !slides(s.Type(), i) {
			continue
		}
		t, _ := ray(after, back, i)
		if t == chess.NoSquare || t == m.To() || after.PieceAt(t).Color() == us {
			continue
		}
		if canWin(after, back, t) {
			return back, t
		}
	}
	return chess.NoSquare, chess.NoSquare
}

// tacticRight is isRight for the goals of this file.
func (t Task) tacticRight(m chess.Move, after *chess.Position) bool {
	if after.IsStalemate() {
		return false
	}
	to := m.To()
	switch t.Goal {
	case GoalDefend:
		_, gain := bestCapture(after, chess.NoSquare)
		return gain <= 0
	case GoalFork:
		return len(winnable(after, to)) >= 2 && safe(after, to)
	case GoalPin:
		f, _ := lineTactic(after, to, false)
		return f != chess.NoSquare && safe(after, to)
	case GoalSkewer:
		f, _ := lineTactic(after, to, true)
		return f != chess.NoSquare && safe(after, to)
	case GoalDiscovered:
		_, target := discovered(t.Pos, after, m)
		if target == chess.NoSquare {
			return false
		}
		if after.PieceAt(target).Type() == chess.King {
			// A discovered check: the piece that moved may go anywhere,
			// unless the king (or a blocker) wins it while answering.
			return safe(after, to) || attacksFrom(after, to).Has(target)
		}
		if after.InCheck() {
			return true // the moved piece checks: the line's target falls next
		}
		for _, w := range winnable(after, to) {
			if w != target {
				return safe(after, to)
			}
		}
	}
	return false
}

// tacticPremise is what Validate asks of a tactic exercise's position
// before the move: for defend, a piece of the mover's that the opponent
// could win now.
func (t Task) tacticPremise() bool {
	if t.Goal != GoalDefend {
		return true
	}
	var null chess.Position
	t.Pos.PlayNull(&null)
	_, gain := bestCapture(&null, chess.NoSquare)
	return gain > 0
}

// tacticPraise says what a right move of these goals did.
func (t Task) tacticPraise(m chess.Move, after *chess.Position, san string) words.Message {
	to := m.To()
	moved := after.PieceAt(to).Type()
	switch t.Goal {
	case GoalDefend:
		return verdict("praise_defend", "Move", san)
	case GoalFork:
		w := winnable(after, to)
		return verdict("praise_fork", "Move", san, "Piece", piecePhrase("your", moved),
			"First", pieceOn(after.PieceAt(w[0]).Type(), w[0]), "Second", pieceOn(after.PieceAt(w[1]).Type(), w[1]))
	case GoalPin, GoalSkewer:
		f, b := lineTactic(after, to, t.Goal == GoalSkewer)
		key := "praise_pin"
		if t.Goal == GoalSkewer {
			key = "praise_skewer"
		}
		return verdict(key, "Move", san, "Front", pieceOn(after.PieceAt(f).Type(), f), "Back", pieceOn(after.PieceAt(b).Type(), b))
	case GoalDiscovered:
		s, target := discovered(t.Pos, after, m)
		return verdict("praise_discovered", "Move", san, "Piece", pieceOn(after.PieceAt(s).Type(), s),
			"Target", pieceOn(after.PieceAt(target).Type(), target))
	}
	return verdict("right")
}

// lost explains that the opponent wins the piece on sq after the move.
func lost(after *chess.Position, sq chess.Square, san string) words.Message {
	c, _ := bestCapture(after, sq)
	key := "taken_free"
	if len(takers(after.Play(c), sq)) > 0 {
		key = "taken_lose"
	}
	return verdict(key, "Taker", describeTaker(c), "Piece", piecePhrase("your", c.Captured().Type()), "Square", sq)
}

// tacticWrong explains why a legal move misses one of these goals.
func (t Task) tacticWrong(m chess.Move, after *chess.Position, san string) words.Message {
	to := m.To()
	if t.Goal == GoalDefend {
		c, _ := bestCapture(after, chess.NoSquare)
		key := "defend_loses"
		if len(takers(after.Play(c), c.To())) == 0 {
			key = "gives_away"
		}
		return verdict(key, "Move", san, "Taker", describeTaker(c), "Piece", piecePhrase("your", c.Captured().Type()), "Square", c.To())
	}
	if !safe(after, to) {
		return lost(after, to, san)
	}
	switch t.Goal {
	case GoalFork:
		w := winnable(after, to)
		if len(w) == 1 {
			return verdict("fork_one", "Move", san, "Target", pieceOn(after.PieceAt(w[0]).Type(), w[0]))
		}
		return verdict("fork_none", "Move", san)
	case GoalPin:
		return verdict("pin_none", "Move", san)
	case GoalSkewer:
		return verdict("skewer_none", "Move", san)
	case GoalDiscovered:
		s, target := discovered(t.Pos, after, m)
		if target == chess.NoSquare {
			return verdict("discovered_none", "Move", san)
		}
		return verdict("discovered_one_threat", "Move", san, "Piece", pieceOn(after.PieceAt(s).Type(), s),
			"Target", pieceOn(after.PieceAt(target).Type(), target))
	}
	return verdict(VerdictMissesGoal, "Move", san)
}
