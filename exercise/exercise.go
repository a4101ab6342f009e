// Package exercise grades the "click every square the piece may move to"
// exercises (X1–X5). The answer is always the set of legal destinations that
// the rules package computes (X3); this package only compares the visitor's
// marks with it and explains every difference in words (X5).
package exercise

import (
	"fmt"
	"sort"
	"strings"

	"chesstutor/chess"
)

// MaxSquares is the most squares a visitor can sensibly mark: the board has
// 64, so anything longer is not an answer.
const MaxSquares = 64

// Result is the outcome of one Check.
type Result struct {
	// Correct is true when the marked set equals the answer exactly.
	Correct bool
	// Answer is every legal destination of the piece, sorted.
	Answer []chess.Square
	// Hits are the marked squares that belong to the answer, sorted.
	Hits []chess.Square
	// Missed are answer squares the visitor did not mark, sorted.
	Missed []chess.Square
	// Wrong are marked squares the piece may not move to, sorted.
	Wrong []chess.Square
	// Reasons explains each missed and each wrong square in one sentence.
	Reasons map[chess.Square]string
}

// Answer returns the squares the piece on from may move to, sorted: each
// destination once (castling as the king's target square, en passant as the
// square the pawn lands on, a promotion square once).
func Answer(pos *chess.Position, from chess.Square) []chess.Square {
	if pos == nil || from == chess.NoSquare {
		return nil
	}
	dests := append([]chess.Square(nil), pos.Destinations(from)...)
	sortSquares(dests)
	return dests
}

// Check grades the marked squares against the legal destinations of the
// piece on from. Duplicates in marked count once; NoSquare is ignored.
func Check(pos *chess.Position, from chess.Square, marked []chess.Square) Result {
	res := Result{Reasons: map[chess.Square]string{}}
	if pos == nil {
		return res
	}
	res.Answer = Answer(pos, from)
	inAnswer := make(map[chess.Square]bool, len(res.Answer))
	for _, sq := range res.Answer {
		inAnswer[sq] = true
	}
	seen := make(map[chess.Square]bool, len(marked))
	for _, sq := range marked {
		if sq == chess.NoSquare || seen[sq] {
			continue
		}
		seen[sq] = true
		if inAnswer[sq] {
			res.Hits = append(res.Hits, sq)
		} else {
			res.Wrong = append(res.Wrong, sq)
		}
	}
	for _, sq := range res.Answer {
		if !seen[sq] {
			res.Missed = append(res.Missed, sq)
		}
	}
	sortSquares(res.Hits)
	sortSquares(res.Wrong)
	res.Correct = len(res.Missed) == 0 && len(res.Wrong) == 0

	ex := explainer{pos: pos, from: from, piece: pos.PieceAt(from)}
	for _, sq := range res.Missed {
		res.Reasons[sq] = ex.missed(sq)
	}
	for _, sq := range res.Wrong {
		res.Reasons[sq] = ex.wrong(sq)
	}
	return res
}

// Reason explains why the piece on from may or may not move to sq; it is
// the sentence Check would give if sq were missed or wrongly marked.
func Reason(pos *chess.Position, from, sq chess.Square) string {
	ex := explainer{pos: pos, from: from, piece: pos.PieceAt(from)}
	for _, d := range pos.Destinations(from) {
		if d == sq {
			return ex.missed(sq)
		}
	}
	return ex.wrong(sq)
}

// sortSquares orders squares the way people read them in a list: by file,
// then by rank (a1, a2, …, b1, …), which is also the order of their names.
func sortSquares(sqs []chess.Square) {
	sort.Slice(sqs, func(i, j int) bool {
		a, b := sqs[i], sqs[j]
		if a.File() != b.File() {
			return a.File() < b.File()
		}
		return a.Rank() < b.Rank()
	})
}

// explainer holds what every reason needs about the exercise.
type explainer struct {
	pos   *chess.Position
	from  chess.Square
	piece chess.Piece
}

func (e explainer) color() chess.Color { return e.piece.Color() }

func (e explainer) name() string { return e.piece.Type().String() }

// describe names a piece from the mover's point of view: "your own pawn"
// or "the enemy knight".
func (e explainer) describe(p chess.Piece) string {
	if p.Color() == e.color() {
		return "your own " + p.Type().String()
	}
	return "the enemy " + p.Type().String()
}

// missed explains why sq belongs to the answer.
func (e explainer) missed(sq chess.Square) string {
	c := e.color()
	target := e.pos.PieceAt(sq)
	t := e.piece.Type()
	inCheck := e.pos.KingSquare(c) != chess.NoSquare && e.pos.InCheck()

	switch {
	case t == chess.King && abs(sq.File()-e.from.File()) == 2:
		side := "kingside"
		if sq.File() < e.from.File() {
			side = "queenside"
		}
		return fmt.Sprintf("a missed castling move: every condition is met, so your king may castle %s to %s", side, sq)
	case t == chess.Pawn && sq == e.pos.EnPassant() && sq.File() != e.from.File() && target == chess.NoPiece:
		victim := chess.NewSquare(sq.File(), e.from.Rank())
		return fmt.Sprintf("a missed en passant capture: the enemy pawn on %s has just made its two-square move, so you may take it by moving to %s", victim, sq)
	case t == chess.Pawn && isLastRank(c, sq):
		if target != chess.NoPiece {
			return fmt.Sprintf("a missed promotion square: take %s on %s and your pawn becomes a queen, rook, bishop or knight", e.describe(target), sq)
		}
		return fmt.Sprintf("a missed promotion square: your pawn reaches the last rank on %s and becomes a queen, rook, bishop or knight", sq)
	case target != chess.NoPiece && inCheck && e.pos.Attackers(e.pos.KingSquare(c), c.Other()).Has(sq):
		return fmt.Sprintf("a missed capture: taking the checking %s on %s gets your king out of check", target.Type(), sq)
	case target != chess.NoPiece:
		return fmt.Sprintf("a missed capture: you may take %s on %s", e.describe(target), sq)
	case inCheck && t == chess.King:
		return fmt.Sprintf("your king escapes the check on %s: no enemy piece attacks that square", sq)
	case inCheck:
		return fmt.Sprintf("moving your %s to %s blocks the check", e.name(), sq)
	case t == chess.King:
		return fmt.Sprintf("your king may step to %s: it is next to the king and no enemy piece attacks it", sq)
	case t == chess.Knight:
		return fmt.Sprintf("the knight jumps to %s with its L-shaped move, over anything in between", sq)
	case t == chess.Pawn && abs(sq.Rank()-e.from.Rank()) == 2:
		return fmt.Sprintf("from its starting square the pawn may move two squares, to %s, because both squares are empty", sq)
	case t == chess.Pawn:
		return fmt.Sprintf("the pawn may step straight forward to %s because it is empty", sq)
	default:
		return fmt.Sprintf("the %s may slide to %s: the way there is clear", e.name(), sq)
	}
}

// wrong explains why the piece may not move to sq.
func (e explainer) wrong(sq chess.Square) string {
	if e.piece == chess.NoPiece {
		return fmt.Sprintf("there is no piece on %s to move", e.from)
	}
	if sq == e.from {
		return fmt.Sprintf("your %s already stands on %s: mark the squares it may move to", e.name(), sq)
	}
	if why := e.pattern(sq); why != "" {
		return why
	}
	if why := e.safety(sq); why != "" {
		return why
	}
	// Every rule this package knows says yes, yet the rules package says no.
	return fmt.Sprintf("your %s may not move to %s in this position", e.name(), sq)
}

// pattern explains a square the piece cannot reach by the way it moves,
// ignoring whether its own king would be safe; "" when it can.
func (e explainer) pattern(sq chess.Square) string {
	df := sq.File() - e.from.File()
	dr := sq.Rank() - e.from.Rank()
	target := e.pos.PieceAt(sq)
	own := target != chess.NoPiece && target.Color() == e.color()

	switch e.piece.Type() {
	case chess.Pawn:
		return e.pawnPattern(sq, df, dr, target)
	case chess.Knight:
		if !chess.KnightAttacks(e.from).Has(sq) {
			return "that is not a knight's L-shaped jump: two squares in one direction, then one to the side"
		}
	case chess.Bishop:
		if abs(df) != abs(dr) {
			return "a bishop moves only diagonally, and " + sq.String() + " is not on a diagonal from it"
		}
	case chess.Rook:
		if df != 0 && dr != 0 {
			return "a rook moves only in straight lines along ranks and files, and " + sq.String() + " is not on one"
		}
	case chess.Queen:
		if df != 0 && dr != 0 && abs(df) != abs(dr) {
			return "a queen moves in straight lines and along diagonals, and " + sq.String() + " is on neither"
		}
	case chess.King:
		if dr == 0 && abs(df) == 2 {
			return e.castling(sq)
		}
		if abs(df) > 1 || abs(dr) > 1 {
			return "a king moves only one square at a time (castling is the one exception)"
		}
	}
	if own {
		return fmt.Sprintf("blocked by %s on %s: you never capture your own pieces", e.describe(target), sq)
	}
	if blocker, at := e.firstBetween(e.from, sq); blocker != chess.NoPiece {
		return fmt.Sprintf("the path is blocked by %s on %s: a %s cannot jump over pieces", e.describe(blocker), at, e.name())
	}
	return ""
}

func (e explainer) pawnPattern(sq chess.Square, df, dr int, target chess.Piece) string {
	c := e.color()
	fwd := 1
	if c == chess.Black {
		fwd = -1
	}
	dr *= fwd // now counted in the pawn's own direction
	switch {
	case dr <= 0:
		return "a pawn only moves forward, never backwards or sideways"
	case df == 0 && dr == 1:
		if target != chess.NoPiece {
			return fmt.Sprintf("a pawn moves straight forward only onto an empty square, and %s stands on %s (a pawn captures only diagonally)", e.describe(target), sq)
		}
	case df == 0 && dr == 2:
		if e.from.Rank() != pawnStartRank(c) {
			return "a pawn moves two squares only from its starting square, over an empty square; this pawn has already moved"
		}
		mid := chess.NewSquare(e.from.File(), e.from.Rank()+fwd)
		if p := e.pos.PieceAt(mid); p != chess.NoPiece {
			return fmt.Sprintf("a pawn moves two squares only over an empty square, and %s stands on %s", e.describe(p), mid)
		}
		if target != chess.NoPiece {
			return fmt.Sprintf("a pawn moves straight forward only onto an empty square, and %s stands on %s", e.describe(target), sq)
		}
	case abs(df) == 1 && dr == 1:
		if target != chess.NoPiece && target.Color() == c {
			return fmt.Sprintf("blocked by %s on %s: you never capture your own pieces", e.describe(target), sq)
		}
		if target == chess.NoPiece && sq != e.pos.EnPassant() {
			beside := chess.NewSquare(sq.File(), e.from.Rank())
			if p := e.pos.PieceAt(beside); p == chess.NewPiece(c.Other(), chess.Pawn) && e.from.Rank() == pawnStartRank(c)+3*fwd {
				return fmt.Sprintf("en passant is possible only right after the enemy pawn's two-square move; the pawn on %s did not just make one, so the chance is gone", beside)
			}
			return fmt.Sprintf("a pawn moves diagonally only to capture, and there is nothing to capture on %s", sq)
		}
	default:
		return "a pawn moves one square straight forward (two from its starting square) and captures one square diagonally forward"
	}
	return ""
}

// castling explains why the king on from may not castle to sq, or returns
// "" when every condition is met on the board.
func (e explainer) castling(sq chess.Square) string {
	c := e.color()
	home := chess.NewSquare(4, backRank(c))
	if e.from != home || sq.Rank() != home.Rank() {
		return "a king moves only one square at a time; it moves two only when castling, from its starting square"
	}
	kingSide := sq.File() > e.from.File()
	rookSq := chess.NewSquare(0, home.Rank())
	if kingSide {
		rookSq = chess.NewSquare(7, home.Rank())
	}
	if !e.pos.CanCastle(c, kingSide) {
		if e.pos.PieceAt(rookSq) != chess.NewPiece(c, chess.Rook) {
			return fmt.Sprintf("castling: there is no rook of yours on %s to castle with", rookSq)
		}
		if !e.pos.CanCastle(c, !kingSide) {
			// Both rights are gone: the position cannot tell whether the
			// king moved or both rooks did, so the reason says so.
			return "castling: neither castling right is left, because the king has moved (or both rooks have), and a king or rook that has moved may never castle"
		}
		return fmt.Sprintf("castling: the rook on %s has already moved, so you may not castle with it", rookSq)
	}
	if p, at := e.firstBetween(e.from, rookSq); p != chess.NoPiece {
		return fmt.Sprintf("castling: a square between the king and the rook is occupied (%s on %s)", e.describe(p), at)
	}
	if e.pos.InCheck() {
		return "castling: the king is in check, and you may not castle out of check"
	}
	step := 1
	if !kingSide {
		step = -1
	}
	cross := chess.NewSquare(e.from.File()+step, home.Rank())
	occ := e.pos.Occupied() &^ bit(e.from)
	if att := e.attackers(cross, occ, chess.NoSquare); att != 0 {
		return fmt.Sprintf("castling: the king would cross an attacked square (%s, attacked by %s)", cross, e.pieceList(att))
	}
	if att := e.attackers(sq, occ, chess.NoSquare); att != 0 {
		return fmt.Sprintf("castling: the king would land on an attacked square (%s, attacked by %s)", sq, e.pieceList(att))
	}
	return ""
}

// safety explains a move the piece could make by its pattern that would
// leave its own king attacked; "" when the king stays safe.
func (e explainer) safety(sq chess.Square) string {
	c := e.color()
	king := e.pos.KingSquare(c)
	if king == chess.NoSquare {
		return "" // R12: no check rules for a side without a king
	}
	captured := sq
	if e.piece.Type() == chess.Pawn && sq == e.pos.EnPassant() && sq.File() != e.from.File() && e.pos.PieceAt(sq) == chess.NoPiece {
		captured = chess.NewSquare(sq.File(), e.from.Rank())
	}
	occ := (e.pos.Occupied() &^ bit(e.from) &^ bit(captured)) | bit(sq)

	if e.piece.Type() == chess.King {
		if enemy := e.pos.KingSquare(c.Other()); enemy != chess.NoSquare && chess.KingAttacks(enemy).Has(sq) {
			return "kings may never stand next to each other: the enemy king on " + enemy.String() + " would be touching yours"
		}
		if att := e.attackers(sq, occ, captured); att != 0 {
			return fmt.Sprintf("the king would be in check there (attacked by %s)", e.pieceList(att))
		}
		return ""
	}
	after := e.attackers(king, occ, captured)
	if after == 0 {
		return ""
	}
	before := e.pos.Attackers(king, c.Other())
	if fresh := after &^ before; fresh != 0 && captured != sq && captured.Rank() == king.Rank() && fresh.First().Rank() == king.Rank() {
		// En passant takes two pawns off one rank at once: neither pawn is
		// pinned, but together they were the wall between king and rook.
		return fmt.Sprintf("taking en passant removes both pawns from rank %d at once: that opens the rank between your king and %s, so the capture would leave your king in check",
			king.Rank()+1, e.pieceList(fresh))
	}
	if fresh := after &^ before; fresh != 0 {
		return fmt.Sprintf("the %s is pinned to its king by %s: moving it to %s would expose your king", e.name(), e.pieceList(fresh), sq)
	}
	if before.Count() > 1 {
		return "your king is in double check: only a king move can get out of it"
	}
	return fmt.Sprintf("you must get out of check: this move leaves your king attacked by %s", e.pieceList(after))
}

// attackers lists the enemy pieces that would attack sq with the board
// occupancy occ, leaving out a piece captured on the square captured.
func (e explainer) attackers(sq chess.Square, occ chess.Bitboard, captured chess.Square) chess.Bitboard {
	them := e.color().Other()
	keep := ^chess.Bitboard(0)
	if captured != chess.NoSquare {
		keep = ^bit(captured)
	}
	pieces := func(t chess.PieceType) chess.Bitboard { return e.pos.Pieces(them, t) & keep }
	var att chess.Bitboard
	att |= chess.PawnAttacks(e.color(), sq) & pieces(chess.Pawn)
	att |= chess.KnightAttacks(sq) & pieces(chess.Knight)
	att |= chess.KingAttacks(sq) & pieces(chess.King)
	att |= chess.BishopAttacks(sq, occ) & (pieces(chess.Bishop) | pieces(chess.Queen))
	att |= chess.RookAttacks(sq, occ) & (pieces(chess.Rook) | pieces(chess.Queen))
	return att
}

// pieceList names the pieces on the squares of bb: "the bishop on b5" or
// "the rook on e8 and the knight on f3".
func (e explainer) pieceList(bb chess.Bitboard) string {
	var names []string
	for sq := chess.A1; sq <= chess.H8; sq++ {
		if bb.Has(sq) {
			names = append(names, fmt.Sprintf("the %s on %s", e.pos.PieceAt(sq).Type(), sq))
		}
	}
	return strings.Join(names, " and ")
}

// firstBetween returns the first piece strictly between a and b on a line
// (rank, file or diagonal), and its square; NoPiece when the way is clear or
// the squares are not on one line.
func (e explainer) firstBetween(a, b chess.Square) (chess.Piece, chess.Square) {
	df, dr := b.File()-a.File(), b.Rank()-a.Rank()
	if (df != 0 && dr != 0 && abs(df) != abs(dr)) || (df == 0 && dr == 0) {
		return chess.NoPiece, chess.NoSquare
	}
	sf, sr := sign(df), sign(dr)
	for f, r := a.File()+sf, a.Rank()+sr; f != b.File() || r != b.Rank(); f, r = f+sf, r+sr {
		sq := chess.NewSquare(f, r)
		if p := e.pos.PieceAt(sq); p != chess.NoPiece {
			return p, sq
		}
	}
	return chess.NoPiece, chess.NoSquare
}

func bit(sq chess.Square) chess.Bitboard { return chess.Bitboard(1) << uint(sq) }

func backRank(c chess.Color) int {
	if c == chess.White {
		return 0
	}
	return 7
}

func pawnStartRank(c chess.Color) int {
	if c == chess.White {
		return 1
	}
	return 6
}

func isLastRank(c chess.Color, sq chess.Square) bool { return sq.Rank() == 7-backRank(c) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
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
