package exercise

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"chesstutor/chess"
	"chesstutor/chess/engine"
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
	// Reason is one sentence computed from the position: why the move is
	// wrong, or what it achieved.
	Reason string
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
func (t Task) illegal(from, to chess.Square, promo chess.PieceType) string {
	p := t.Pos.PieceAt(from)
	switch {
	case p == chess.NoPiece:
		return fmt.Sprintf("There is no piece on %s to move.", from)
	case p.Color() != t.Pos.Turn():
		return fmt.Sprintf("It is %s's move: the %s on %s is not yours to move.", t.Pos.Turn().Name(), p.Type(), from)
	}
	for _, d := range t.Pos.Destinations(from) {
		if d == to {
			if promo == chess.NoPieceType {
				return "A pawn that reaches the last rank must become a queen, rook, bishop or knight: choose one."
			}
			return "A pawn may become only a queen, rook, bishop or knight."
		}
	}
	why := Reason(t.Pos, from, to)
	return "That move is not allowed. " + strings.ToUpper(why[:1]) + why[1:] + "."
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
			v.Reason = fmt.Sprintf("Good: after %s every defence allows a mate. The computer answers %s — now find the mate.", san, after.SAN(v.Reply))
		}
		return v
	}
	return Verdict{Reason: t.wrongReason(m, after, san)}
}

// praise says what a right move achieved.
func (t Task) praise(m chess.Move, after *chess.Position, san string) string {
	them := after.Turn().Name()
	switch {
	case after.IsCheckmate():
		return fmt.Sprintf("Checkmate! %s is in check and has no legal move to get out of it.", them)
	case t.Goal == GoalCheck:
		return fmt.Sprintf("Check! %s attacks the %s king.", san, strings.ToLower(them))
	case t.Goal == GoalCapture:
		return fmt.Sprintf("Well done: %s wins the %s (%d points) and nothing can take back.", san, m.Captured().Type(), pieceValue(m.Captured().Type()))
	case t.Goal == GoalSave:
		return fmt.Sprintf("Safe: on %s no enemy piece can take your %s.", m.To(), m.Piece().Type())
	case t.Goal == GoalPromote:
		return fmt.Sprintf("A new queen on %s, and nothing can take her.", m.To())
	case t.Goal == GoalCastle:
		return fmt.Sprintf("Castled: %s puts the king in safety and brings the rook into play.", san)
	case t.Goal == GoalEnPassant:
		return fmt.Sprintf("En passant! Your pawn lands on %s and the pawn beside it leaves the board.", m.To())
	case t.Goal == GoalNoStalemate:
		return fmt.Sprintf("Good: after %s %s still has a legal move, and you give nothing away.", san, them)
	}
	return "Right!"
}

// wrongReason explains a legal move that misses the goal, from the
// position after it.
func (t Task) wrongReason(m chess.Move, after *chess.Position, san string) string {
	them := after.Turn().Name()
	if after.IsStalemate() {
		return fmt.Sprintf("Stalemate! After %s %s has no legal move and is not in check — a draw.", san, them)
	}
	switch t.Goal {
	case GoalMate:
		return t.notMate(after, san)
	case GoalCheck:
		return fmt.Sprintf("After %s the %s king on %s is not attacked, so that is not check.", san, strings.ToLower(them), after.KingSquare(after.Turn()))
	case GoalCapture:
		return t.captureReason(m, after, san)
	case GoalSave:
		if m.From() != t.Square {
			att := takers(after, t.Square)
			if len(att) > 0 {
				return fmt.Sprintf("Your %s on %s is still attacked: %s can take it. Move that piece to safety.",
					t.Pos.PieceAt(t.Square).Type(), t.Square, describeTaker(after, att[0]))
			}
			return fmt.Sprintf("The goal is to move the attacked %s on %s to a safe square.", t.Pos.PieceAt(t.Square).Type(), t.Square)
		}
		return takenReason(after, m)
	case GoalPromote:
		if !m.IsPromotion() {
			return fmt.Sprintf("%s does not promote: bring a pawn to the last rank.", san)
		}
		if len(takers(after, m.To())) > 0 {
			return takenReason(after, m)
		}
		return fmt.Sprintf("A %s is allowed, but a queen is worth the most: choose the queen.", m.Promotion())
	case GoalCastle:
		return fmt.Sprintf("%s is a legal move, but it is not castling: move the king two squares towards a rook.", san)
	case GoalEnPassant:
		ep := t.Pos.EnPassant()
		return fmt.Sprintf("%s is legal, but the task is to take en passant: the enemy pawn has just jumped over %s, and you may take it only on this move.", san, ep)
	case GoalNoStalemate:
		if caps := anyTakes(after); len(caps) > 0 {
			c := caps[0]
			return fmt.Sprintf("After %s %s can take your %s on %s for free.", san, describeTaker(after, c), c.Captured().Type(), c.To())
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
		return fmt.Sprintf("After %s %s defends with %s, and then there is no mate in one.", san, them, after.SAN(d))
	}
	return fmt.Sprintf("%s does not reach the goal in this position.", san)
}

// notMate explains why a move is not checkmate: no check, or how the
// king gets out of it.
func (t Task) notMate(after *chess.Position, san string) string {
	them := after.Turn().Name()
	king := after.KingSquare(after.Turn())
	if !after.InCheck() {
		return fmt.Sprintf("After %s the %s king on %s is not even in check, so it is not checkmate.", san, strings.ToLower(them), king)
	}
	var capture, block chess.Move
	for _, r := range after.LegalMoves() {
		switch {
		case r.From() == king:
			return fmt.Sprintf("That is check, but the king escapes to %s.", r.To())
		case r.IsCapture() && capture == chess.NoMove:
			capture = r
		case block == chess.NoMove:
			block = r
		}
	}
	if capture != chess.NoMove {
		return fmt.Sprintf("That is check, but the %s on %s can take your %s on %s.", capture.Piece().Type(), capture.From(), capture.Captured().Type(), capture.To())
	}
	return fmt.Sprintf("That is check, but %s can block it by putting the %s on %s.", them, block.Piece().Type(), block.To())
}

// captureReason explains why a move does not win the most.
func (t Task) captureReason(m chess.Move, after *chess.Position, san string) string {
	if !m.IsCapture() {
		return fmt.Sprintf("%s takes nothing. Look for an enemy piece you can win.", san)
	}
	if len(takers(after, m.To())) > 0 {
		return fmt.Sprintf("You take the %s (%d), but %s takes back and you lose your %s (%d).",
			m.Captured().Type(), pieceValue(m.Captured().Type()), describeTaker(after, takers(after, m.To())[0]),
			m.Piece().Type(), pieceValue(m.Piece().Type()))
	}
	return fmt.Sprintf("%s safely wins the %s (%d points), but a more valuable piece can be won.", san, m.Captured().Type(), pieceValue(m.Captured().Type()))
}

// takenReason says which enemy piece takes the piece that just moved.
func takenReason(after *chess.Position, m chess.Move) string {
	t := takers(after, m.To())
	if len(t) == 0 {
		return "That does not reach the goal here."
	}
	name := m.Piece().Type()
	if m.IsPromotion() {
		name = m.Promotion()
	}
	free := "for free"
	if len(takers(after.Play(t[0]), m.To())) > 0 {
		free = "and you lose more than you win back"
	}
	if pieceValue(t[0].Piece().Type()) >= pieceValue(name) && len(takers(after.Play(t[0]), m.To())) > 0 {
		free = "in a trade"
	}
	return fmt.Sprintf("Your %s on %s can be taken by %s %s.", name, m.To(), describeTaker(after, t[0]), free)
}

// describeTaker names the piece making move c: "the pawn on e4".
func describeTaker(pos *chess.Position, c chess.Move) string {
	return fmt.Sprintf("the %s on %s", c.Piece().Type(), c.From())
}

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
	if v.Correct {
		v.Reason = "Checkmate in two! " + strings.TrimPrefix(v.Reason, "Checkmate! ")
	}
	return v, nil
}
