package exercise

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/words"
)

// Goal is what a "play the move" exercise asks for (X6). The moves that
// reach it are always computed from the position, never listed by hand.
type Goal string

// The goals of X6.
const (
	GoalMate        Goal = "mate"         // checkmate in one move
	GoalCheck       Goal = "check"        // give check
	GoalCapture     Goal = "capture"      // win the most valuable piece that can be won safely
	GoalSave        Goal = "save"         // move the attacked piece to a safe square
	GoalPromote     Goal = "promote"      // make a queen that cannot be taken
	GoalCastle      Goal = "castle"       // castle (either side that is allowed)
	GoalEnPassant   Goal = "en-passant"   // take en passant
	GoalNoStalemate Goal = "no-stalemate" // keep winning: no stalemate, nothing given away
	GoalMateInTwo   Goal = "mate-in-two"  // a first move that mates next move against any defence
)

// Goals lists every goal in the order reports show them.
var Goals = []Goal{GoalMate, GoalCheck, GoalCapture, GoalSave, GoalPromote, GoalCastle, GoalEnPassant, GoalNoStalemate, GoalMateInTwo}

// ParseGoal reads a goal name.
func ParseGoal(s string) (Goal, error) {
	for _, g := range Goals {
		if string(g) == s {
			return g, nil
		}
	}
	names := make([]string, len(Goals))
	for i, g := range Goals {
		names[i] = string(g)
	}
	return "", fmt.Errorf("exercise: unknown goal %q (one of %s)", s, strings.Join(names, ", "))
}

// Task is one "play the move" exercise: a position, its goal and, for the
// save goal, the square of the piece to save (NoSquare otherwise).
type Task struct {
	Pos    *chess.Position
	Goal   Goal
	Square chess.Square
}

// Verdict grades one move of a task.
type Verdict struct {
	Correct bool
	// Solved is true when the task is complete: a right move of a one-move
	// goal, or the mating second move of a mate in two.
	Solved bool
	// Reason is computed from the position: why the move is wrong, or what
	// it achieved. It is a message of the catalogue (exercise.move_…) with
	// moves in SAN as arguments; the edge words it.
	Reason words.Message
	// Reply is the computer's answer in a mate in two (after a right first
	// move), or NoMove.
	Reply chess.Move
}

// pieceValue is the usual count in points; the king is priceless.
func pieceValue(t chess.PieceType) int {
	switch t {
	case chess.Pawn:
		return 1
	case chess.Knight, chess.Bishop:
		return 3
	case chess.Rook:
		return 5
	case chess.Queen:
		return 9
	case chess.King:
		return 100
	}
	return 0
}

// Validate reports whether the task is a real exercise: the goal fits the
// position, at least one legal move reaches it and at least one does not.
func (t Task) Validate() error {
	if t.Pos == nil {
		return fmt.Errorf("exercise: no position")
	}
	if _, err := ParseGoal(string(t.Goal)); err != nil {
		return err
	}
	// A move exercise is a moment of a real game: one king each, no pawn
	// on the first or last rank, the side not to move not in check.
	if _, err := chess.NewGame(t.Pos); err != nil {
		return fmt.Errorf("exercise: not a game position: %v", err)
	}
	if t.Goal == GoalSave {
		if t.Square == chess.NoSquare {
			return fmt.Errorf("exercise: a save exercise needs the square of the attacked piece")
		}
		p := t.Pos.PieceAt(t.Square)
		if p == chess.NoPiece || p.Color() != t.Pos.Turn() || p.Type() == chess.King {
			return fmt.Errorf("exercise: the piece to save on %s must be one of the mover's, not the king", t.Square)
		}
		if !t.Pos.IsAttacked(t.Square, t.Pos.Turn().Other()) {
			return fmt.Errorf("exercise: the piece on %s is not attacked, so there is nothing to save", t.Square)
		}
	} else if t.Square != chess.NoSquare {
		return fmt.Errorf("exercise: only save exercises name a square")
	}
	right := t.RightMoves()
	if len(right) == 0 {
		return fmt.Errorf("exercise: no legal move reaches the goal %q", t.Goal)
	}
	if len(right) == len(t.Pos.LegalMoves()) {
		return fmt.Errorf("exercise: every legal move reaches the goal %q, so there is nothing to find", t.Goal)
	}
	return nil
}

// RightMoves returns every legal move that reaches the goal, in the order
// the move generator gives them.
func (t Task) RightMoves() []chess.Move {
	var out []chess.Move
	for _, m := range t.Pos.LegalMoves() {
		if t.isRight(m) {
			out = append(out, m)
		}
	}
	return out
}

// isRight is the definition of each goal.
func (t Task) isRight(m chess.Move) bool {
	after := t.Pos.Play(m)
	switch t.Goal {
	case GoalMate:
		return after.IsCheckmate()
	case GoalCheck:
		return after.InCheck()
	case GoalCapture:
		best := 0
		for _, o := range t.Pos.LegalMoves() {
			best = max(best, t.gain(o))
		}
		return best > 0 && t.gain(m) == best
	case GoalSave:
		return m.From() == t.Square && !after.IsStalemate() && len(takers(after, m.To())) == 0
	case GoalPromote:
		return m.Promotion() == chess.Queen && !after.IsStalemate() && len(takers(after, m.To())) == 0
	case GoalCastle:
		return m.IsCastle()
	case GoalEnPassant:
		return m.IsEnPassant()
	case GoalNoStalemate:
		return !after.IsStalemate() && len(anyTakes(after)) == 0
	case GoalMateInTwo:
		return after.IsCheckmate() || forcesMateInOne(after)
	}
	return false
}

// gain is what a move wins in points: the captured piece, less the mover
// when the opponent can take it back at once. Non-captures gain 0.
func (t Task) gain(m chess.Move) int {
	if !m.IsCapture() {
		return 0
	}
	g := pieceValue(m.Captured().Type())
	if len(takers(t.Pos.Play(m), m.To())) > 0 {
		g -= pieceValue(m.Piece().Type())
	}
	return g
}

// takers lists the legal moves in pos that capture on sq.
func takers(pos *chess.Position, sq chess.Square) []chess.Move {
	var out []chess.Move
	for _, m := range pos.LegalMoves() {
		if m.IsCapture() && m.To() == sq && !m.IsEnPassant() {
			out = append(out, m)
		}
	}
	return out
}

// anyTakes lists the legal captures in pos.
func anyTakes(pos *chess.Position) []chess.Move {
	var out []chess.Move
	for _, m := range pos.LegalMoves() {
		if m.IsCapture() {
			out = append(out, m)
		}
	}
	return out
}

// mateInOne returns a mating move in pos, or NoMove.
func mateInOne(pos *chess.Position) chess.Move {
	for _, m := range pos.LegalMoves() {
		if pos.Play(m).IsCheckmate() {
			return m
		}
	}
	return chess.NoMove
}

// forcesMateInOne reports whether every reply in pos (the defender to
// move) allows a mate in one; a position with no reply does not count.
func forcesMateInOne(pos *chess.Position) bool {
	replies := pos.LegalMoves()
	if len(replies) == 0 {
		return false
	}
	for _, r := range replies {
		if mateInOne(pos.Play(r)) == chess.NoMove {
			return false
		}
	}
	return true
}

// Judge grades one move given as from, to and promotion piece (NoPieceType
// for none). An illegal move is wrong, with the rule it breaks.
func (t Task) Judge(from, to chess.Square, promo chess.PieceType) Verdict {
	var m chess.Move
	for _, lm := range t.Pos.LegalMoves() {
		if lm.From() == from && lm.To() == to && lm.Promotion() == promo {
			m = lm
		}
	}
	if m == chess.NoMove {
		return Verdict{Reason: t.illegal(from, to, promo)}
	}
	return t.JudgeMove(m)
}

// illegal explains a move that the rules do not allow.
func (t Task) illegal(from, to chess.Square, promo chess.PieceType) words.Message {
	p := t.Pos.PieceAt(from)
	switch {
	case p == chess.NoPiece:
		return verdict("no_piece", "Square", from)
	case p.Color() != t.Pos.Turn():
		return verdict("not_your_piece", "Side", side(t.Pos.Turn()), "Piece", piecePhrase("the", p.Type()), "Square", from)
	}
	for _, d := range t.Pos.Destinations(from) {
		if d == to {
			if promo == chess.NoPieceType {
				return verdict("promotion_choose")
			}
			return verdict("promotion_piece")
		}
	}
	return verdict("illegal", "Why", Reason(t.Pos, from, to))
}

// verdict is a reason of a move exercise: its key under exercise.move_.
func verdict(key string, args ...any) words.Message { return words.M("exercise.move_"+key, args...) }

// side names a colour as the side that moves ("White", "las blancas").
func side(c chess.Color) words.Message { return words.M("color." + c.String()) }

// king is a side's king as a noun phrase ("black king").
func king(c chess.Color) words.Message {
	return words.M("board.piece_" + chess.NewPiece(c, chess.King).String())
}

// points is a piece's value in points ("3 points").
func points(t chess.PieceType) words.Message {
	return words.M("exercise.points", "Count", pieceValue(t))
}

// JudgeMove grades a legal move.
func (t Task) JudgeMove(m chess.Move) Verdict {
	after := t.Pos.Play(m)
	san := t.Pos.SAN(m)
	if t.isRight(m) {
		v := Verdict{Correct: true, Solved: true, Reason: t.praise(m, after, san)}
		if t.Goal == GoalMateInTwo && !after.IsCheckmate() {
			v.Solved = false
			v.Reply = Defence(after)
			v.Reason = verdict("mate_in_two_first", "Move", words.SAN(san), "Reply", words.SAN(after.SAN(v.Reply)))
		}
		return v
	}
	return Verdict{Reason: t.wrongReason(m, after, san)}
}

// praise says what a right move achieved.
func (t Task) praise(m chess.Move, after *chess.Position, san string) words.Message {
	them := after.Turn()
	switch {
	case after.IsCheckmate():
		return verdict("praise_mate", "Side", side(them))
	case t.Goal == GoalCheck:
		return verdict("praise_check", "Move", words.SAN(san), "King", king(them))
	case t.Goal == GoalCapture:
		return verdict("praise_capture", "Move", words.SAN(san), "Piece", piecePhrase("the", m.Captured().Type()), "Points", points(m.Captured().Type()))
	case t.Goal == GoalSave:
		return verdict("praise_save", "Square", m.To(), "Piece", piecePhrase("your", m.Piece().Type()))
	case t.Goal == GoalPromote:
		return verdict("praise_promote", "Square", m.To())
	case t.Goal == GoalCastle:
		return verdict("praise_castle", "Move", words.SAN(san))
	case t.Goal == GoalEnPassant:
		return verdict("praise_en_passant", "Square", m.To())
	case t.Goal == GoalNoStalemate:
		return verdict("praise_no_stalemate", "Move", words.SAN(san), "Side", side(them))
	}
	return verdict("right")
}

// wrongReason explains a legal move that misses the goal, from the
// position after it.
func (t Task) wrongReason(m chess.Move, after *chess.Position, san string) words.Message {
	them := after.Turn()
	if after.IsStalemate() {
		return verdict("stalemate", "Move", words.SAN(san), "Side", side(them))
	}
	switch t.Goal {
	case GoalMate:
		return t.notMate(after, san)
	case GoalCheck:
		return verdict("no_check", "Move", words.SAN(san), "King", king(them), "Square", after.KingSquare(them))
	case GoalCapture:
		return t.captureReason(m, after, san)
	case GoalSave:
		if m.From() != t.Square {
			piece := piecePhrase("your", t.Pos.PieceAt(t.Square).Type())
			att := takers(after, t.Square)
			if len(att) > 0 {
				return verdict("save_still_attacked", "Piece", piece, "Square", t.Square, "Taker", describeTaker(att[0]))
			}
			return verdict("save_goal", "Piece", piece, "Square", t.Square)
		}
		return takenReason(after, m)
	case GoalPromote:
		if !m.IsPromotion() {
			return verdict("no_promotion", "Move", words.SAN(san))
		}
		if len(takers(after, m.To())) > 0 {
			return takenReason(after, m)
		}
		return verdict("underpromotion", "Piece", piecePhrase("name", m.Promotion()))
	case GoalCastle:
		return verdict("not_castling", "Move", words.SAN(san))
	case GoalEnPassant:
		return verdict("not_en_passant", "Move", words.SAN(san), "Square", t.Pos.EnPassant())
	case GoalNoStalemate:
		if caps := anyTakes(after); len(caps) > 0 {
			c := caps[0]
			return verdict("gives_away", "Move", words.SAN(san), "Taker", describeTaker(c),
				"Piece", piecePhrase("your", c.Captured().Type()), "Square", c.To())
		}
	case GoalMateInTwo:
		d := Defence(after)
		if mateInOne(after.Play(d)) != chess.NoMove {
			// The engine's choice allowed a mate: name a reply that does not.
			for _, r := range after.LegalMoves() {
				if mateInOne(after.Play(r)) == chess.NoMove {
					d = r
					break
				}
			}
		}
		return verdict("defended", "Move", words.SAN(san), "Side", side(them), "Defence", words.SAN(after.SAN(d)))
	}
	return verdict(VerdictMissesGoal, "Move", words.SAN(san))
}

// VerdictMissesGoal is the key (after exercise.move_) of the reason given
// when no sharper explanation fits; tests make sure the course never
// needs it for a wrong move.
const VerdictMissesGoal = "misses_goal"

// notMate explains why a move is not checkmate: no check, or how the
// king gets out of it.
func (t Task) notMate(after *chess.Position, san string) words.Message {
	them := after.Turn()
	kingSq := after.KingSquare(them)
	if !after.InCheck() {
		return verdict("not_even_check", "Move", words.SAN(san), "King", king(them), "Square", kingSq)
	}
	var capture, block chess.Move
	for _, r := range after.LegalMoves() {
		switch {
		case r.From() == kingSq:
			return verdict("check_king_escapes", "Square", r.To())
		case r.IsCapture() && capture == chess.NoMove:
			capture = r
		case block == chess.NoMove:
			block = r
		}
	}
	if capture != chess.NoMove {
		return verdict("check_captured", "Taker", describeTaker(capture),
			"Piece", piecePhrase("your", capture.Captured().Type()), "Square", capture.To())
	}
	return verdict("check_blocked", "Side", side(them), "Piece", piecePhrase("the", block.Piece().Type()), "Square", block.To())
}

// captureReason explains why a move does not win the most.
func (t Task) captureReason(m chess.Move, after *chess.Position, san string) words.Message {
	if !m.IsCapture() {
		return verdict("takes_nothing", "Move", words.SAN(san))
	}
	won := m.Captured().Type()
	if back := takers(after, m.To()); len(back) > 0 {
		return verdict("capture_taken_back", "Piece", piecePhrase("the", won), "Points", points(won),
			"Taker", describeTaker(back[0]), "Own", piecePhrase("your", m.Piece().Type()), "OwnPoints", points(m.Piece().Type()))
	}
	return verdict("capture_smaller", "Move", words.SAN(san), "Piece", piecePhrase("the", won), "Points", points(won))
}

// takenReason says which enemy piece takes the piece that just moved.
func takenReason(after *chess.Position, m chess.Move) words.Message {
	t := takers(after, m.To())
	if len(t) == 0 {
		return verdict("not_here")
	}
	name := m.Piece().Type()
	if m.IsPromotion() {
		name = m.Promotion()
	}
	key := "taken_free"
	if len(takers(after.Play(t[0]), m.To())) > 0 {
		key = "taken_lose"
	}
	if pieceValue(t[0].Piece().Type()) >= pieceValue(name) && len(takers(after.Play(t[0]), m.To())) > 0 {
		key = "taken_trade"
	}
	return verdict(key, "Taker", describeTaker(t[0]), "Piece", piecePhrase("your", name), "Square", m.To())
}

// describeTaker names the piece making move c: "the pawn on e4".
func describeTaker(c chess.Move) words.Message { return pieceOn(c.Piece().Type(), c.From()) }

// defenceDepth is how deep the computer looks for its defence in a mate in
// two: its reply, the mate and one more move, enough to see every mate.
const defenceDepth = 4

var searchers = sync.Pool{New: func() any { return engine.NewSearcher(1) }}

// Defence is the computer's best reply in pos (the defender to move), found
// by the engine at a fixed depth so the answer never depends on timing.
// It returns NoMove when pos has no legal move.
func Defence(pos *chess.Position) chess.Move {
	if len(pos.LegalMoves()) == 0 {
		return chess.NoMove
	}
	s := searchers.Get().(*engine.Searcher)
	defer searchers.Put(s)
	s.Clear()
	res := s.Search(context.Background(), pos, nil, engine.Limits{Depth: defenceDepth})
	return res.Move
}

// JudgeLine grades a mate in two played so far: first is the learner's
// first move, reply the defence the server gave, second the move being
// graded. It checks that first was right and reply legal, so a forged line
// is refused rather than graded.
func (t Task) JudgeLine(first, reply chess.Move, from, to chess.Square, promo chess.PieceType) (Verdict, error) {
	if t.Goal != GoalMateInTwo {
		return Verdict{}, fmt.Errorf("exercise: only a mate in two has a second move")
	}
	if !t.Pos.IsLegal(first) || !t.isRight(first) {
		return Verdict{}, fmt.Errorf("exercise: the first move %s is not a right first move here", first.UCI())
	}
	mid := t.Pos.Play(first)
	if !mid.IsLegal(reply) {
		return Verdict{}, fmt.Errorf("exercise: %s is not a legal reply", reply.UCI())
	}
	second := Task{Pos: mid.Play(reply), Goal: GoalMate, Square: chess.NoSquare}
	v := second.Judge(from, to, promo)
	v.Solved = v.Correct
	if v.Correct && v.Reason.Key == verdict("praise_mate").Key {
		v.Reason.Key = verdict("praise_mate_in_two").Key
	}
	return v, nil
}
