// Package exercise grades the "click every square the piece may move to"
// exercises (X1–X5). The answer is always the set of legal destinations that
// the rules package computes (X3); this package only compares the visitor's
// marks with it and explains every difference (X5). Explanations are
// messages of the catalogue (words.Message: a key and its arguments); the
// edge words them in the visitor's language.
package exercise

import (
	"sort"

	"chesstutor/chess"
	"chesstutor/words"
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
	// Reasons explains each missed and each wrong square: a message of
	// the catalogue (exercise.why_…) the edge words.
	Reasons map[chess.Square]words.Message
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
	res := Result{Reasons: map[chess.Square]words.Message{}}
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
// the reason Check would give if sq were missed or wrongly marked.
func Reason(pos *chess.Position, from, sq chess.Square) words.Message {
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

// the is the moving piece as "the knight", your as "your knight".
func (e explainer) the() words.Message  { return piecePhrase("the", e.piece.Type()) }
func (e explainer) your() words.Message { return piecePhrase("your", e.piece.Type()) }

// piecePhrase is a piece as a noun phrase of the catalogue: kind is
// "the", "your", "own", "enemy" or "name" (piece.the_knight, …).
func piecePhrase(kind string, t chess.PieceType) words.Message {
	return words.M("piece." + kind + "_" + t.String())
}

// describe names a piece from the mover's point of view: "your own pawn"
// or "the enemy knight".
func (e explainer) describe(p chess.Piece) words.Message {
	if p.Color() == e.color() {
		return piecePhrase("own", p.Type())
	}
	return piecePhrase("enemy", p.Type())
}

// why is a reason of this package: its key under exercise.why_.
func why(key string, args ...any) words.Message { return words.M("exercise.why_"+key, args...) }

// missed explains why sq belongs to the answer.
func (e explainer) missed(sq chess.Square) words.Message {
	c := e.color()
	target := e.pos.PieceAt(sq)
	t := e.piece.Type()
	inCheck := e.pos.KingSquare(c) != chess.NoSquare && e.pos.InCheck()

	switch {
	case t == chess.King && abs(sq.File()-e.from.File()) == 2:
		if sq.File() < e.from.File() {
			return why("missed_castle_long", "Square", sq)
		}
		return why("missed_castle_short", "Square", sq)
	case t == chess.Pawn && sq == e.pos.EnPassant() && sq.File() != e.from.File() && target == chess.NoPiece:
		victim := chess.NewSquare(sq.File(), e.from.Rank())
		return why("missed_en_passant", "Victim", victim, "Square", sq)
	case t == chess.Pawn && isLastRank(c, sq):
		if target != chess.NoPiece {
			return why("missed_promotion_capture", "Target", e.describe(target), "Square", sq)
		}
		return why("missed_promotion", "Square", sq)
	case target != chess.NoPiece && inCheck && e.pos.Attackers(e.pos.KingSquare(c), c.Other()).Has(sq):
		return why("missed_capture_checker", "Piece", piecePhrase("name", target.Type()), "Square", sq)
	case target != chess.NoPiece:
		return why("missed_capture", "Target", e.describe(target), "Square", sq)
	case inCheck && t == chess.King:
		return why("missed_king_escapes", "Square", sq)
	case inCheck:
		return why("missed_block", "Piece", e.your(), "Square", sq)
	case t == chess.King:
		return why("missed_king_step", "Square", sq)
	case t == chess.Knight:
		return why("missed_knight", "Square", sq)
	case t == chess.Pawn && abs(sq.Rank()-e.from.Rank()) == 2:
		return why("missed_pawn_double", "Square", sq)
	case t == chess.Pawn:
		return why("missed_pawn_step", "Square", sq)
	default:
		return why("missed_slide", "Piece", e.the(), "Square", sq)
	}
}

// wrong explains why the piece may not move to sq.
func (e explainer) wrong(sq chess.Square) words.Message {
	if e.piece == chess.NoPiece {
		return why("no_piece", "Square", e.from)
	}
	if sq == e.from {
		return why("same_square", "Piece", e.your(), "Square", sq)
	}
	if m := e.pattern(sq); !m.IsZero() {
		return m
	}
	if m := e.safety(sq); !m.IsZero() {
		return m
	}
	// Every rule this package knows says yes, yet the rules package says no.
	return why(ReasonUnexplained, "Piece", e.your(), "Square", sq)
}

// ReasonUnexplained is the key (after exercise.why_) of the reason given
// when no rule this package knows explains a wrong square; tests make sure
// the course never needs it.
const ReasonUnexplained = "unexplained"

// pattern explains a square the piece cannot reach by the way it moves,
// ignoring whether its own king would be safe; zero when it can.
func (e explainer) pattern(sq chess.Square) words.Message {
	df := sq.File() - e.from.File()
	dr := sq.Rank() - e.from.Rank()
	target := e.pos.PieceAt(sq)
	own := target != chess.NoPiece && target.Color() == e.color()

	switch e.piece.Type() {
	case chess.Pawn:
		return e.pawnPattern(sq, df, dr, target)
	case chess.Knight:
		if !chess.KnightAttacks(e.from).Has(sq) {
			return why("knight_not_l")
		}
	case chess.Bishop:
		if abs(df) != abs(dr) {
			return why("bishop_off_diagonal", "Square", sq)
		}
	case chess.Rook:
		if df != 0 && dr != 0 {
			return why("rook_off_line", "Square", sq)
		}
	case chess.Queen:
		if df != 0 && dr != 0 && abs(df) != abs(dr) {
			return why("queen_off_lines", "Square", sq)
		}
	case chess.King:
		if dr == 0 && abs(df) == 2 {
			return e.castling(sq)
		}
		if abs(df) > 1 || abs(dr) > 1 {
			return why("king_one_square")
		}
	}
	if own {
		return why("own_piece", "Piece", e.describe(target), "Square", sq)
	}
	if blocker, at := e.firstBetween(e.from, sq); blocker != chess.NoPiece {
		return why("path_blocked", "Blocker", e.describe(blocker), "At", at, "Piece", e.the())
	}
	return words.Message{}
}

func (e explainer) pawnPattern(sq chess.Square, df, dr int, target chess.Piece) words.Message {
	c := e.color()
	fwd := 1
	if c == chess.Black {
		fwd = -1
	}
	dr *= fwd // now counted in the pawn's own direction
	switch {
	case dr <= 0:
		return why("pawn_backwards")
	case df == 0 && dr == 1:
		if target != chess.NoPiece {
			return why("pawn_blocked", "Piece", e.describe(target), "Square", sq)
		}
	case df == 0 && dr == 2:
		if e.from.Rank() != pawnStartRank(c) {
			return why("pawn_double_moved")
		}
		mid := chess.NewSquare(e.from.File(), e.from.Rank()+fwd)
		if p := e.pos.PieceAt(mid); p != chess.NoPiece {
			return why("pawn_double_over", "Piece", e.describe(p), "Square", mid)
		}
		if target != chess.NoPiece {
			return why("pawn_double_blocked", "Piece", e.describe(target), "Square", sq)
		}
	case abs(df) == 1 && dr == 1:
		if target != chess.NoPiece && target.Color() == c {
			return why("own_piece", "Piece", e.describe(target), "Square", sq)
		}
		if target == chess.NoPiece && sq != e.pos.EnPassant() {
			beside := chess.NewSquare(sq.File(), e.from.Rank())
			if p := e.pos.PieceAt(beside); p == chess.NewPiece(c.Other(), chess.Pawn) && e.from.Rank() == pawnStartRank(c)+3*fwd {
				return why("en_passant_expired", "Square", beside)
			}
			return why("pawn_diagonal_empty", "Square", sq)
		}
	default:
		return why("pawn_pattern")
	}
	return words.Message{}
}

// castling explains why the king on from may not castle to sq, or returns
// zero when every condition is met on the board.
func (e explainer) castling(sq chess.Square) words.Message {
	c := e.color()
	home := chess.NewSquare(4, backRank(c))
	if e.from != home || sq.Rank() != home.Rank() {
		return why("castle_not_home")
	}
	kingSide := sq.File() > e.from.File()
	rookSq := chess.NewSquare(0, home.Rank())
	if kingSide {
		rookSq = chess.NewSquare(7, home.Rank())
	}
	if !e.pos.CanCastle(c, kingSide) {
		if e.pos.PieceAt(rookSq) != chess.NewPiece(c, chess.Rook) {
			return why("castle_no_rook", "Square", rookSq)
		}
		if !e.pos.CanCastle(c, !kingSide) {
			// Both rights are gone: the position cannot tell whether the
			// king moved or both rooks did, so the reason says so.
			return why("castle_no_rights")
		}
		return why("castle_rook_moved", "Square", rookSq)
	}
	if p, at := e.firstBetween(e.from, rookSq); p != chess.NoPiece {
		return why("castle_between", "Piece", e.describe(p), "Square", at)
	}
	if e.pos.InCheck() {
		return why("castle_in_check")
	}
	step := 1
	if !kingSide {
		step = -1
	}
	cross := chess.NewSquare(e.from.File()+step, home.Rank())
	occ := e.pos.Occupied() &^ bit(e.from)
	if att := e.attackers(cross, occ, chess.NoSquare); att != 0 {
		return why("castle_cross_attacked", "Square", cross, "Attackers", e.pieceList(att))
	}
	if att := e.attackers(sq, occ, chess.NoSquare); att != 0 {
		return why("castle_land_attacked", "Square", sq, "Attackers", e.pieceList(att))
	}
	return words.Message{}
}

// safety explains a move the piece could make by its pattern that would
// leave its own king attacked; zero when the king stays safe.
func (e explainer) safety(sq chess.Square) words.Message {
	c := e.color()
	king := e.pos.KingSquare(c)
	if king == chess.NoSquare {
		return words.Message{} // R12: no check rules for a side without a king
	}
	captured := sq
	if e.piece.Type() == chess.Pawn && sq == e.pos.EnPassant() && sq.File() != e.from.File() && e.pos.PieceAt(sq) == chess.NoPiece {
		captured = chess.NewSquare(sq.File(), e.from.Rank())
	}
	occ := (e.pos.Occupied() &^ bit(e.from) &^ bit(captured)) | bit(sq)

	if e.piece.Type() == chess.King {
		if enemy := e.pos.KingSquare(c.Other()); enemy != chess.NoSquare && chess.KingAttacks(enemy).Has(sq) {
			return why("kings_touch", "Square", enemy)
		}
		if att := e.attackers(sq, occ, captured); att != 0 {
			return why("king_into_check", "Attackers", e.pieceList(att))
		}
		return words.Message{}
	}
	after := e.attackers(king, occ, captured)
	if after == 0 {
		return words.Message{}
	}
	before := e.pos.Attackers(king, c.Other())
	if fresh := after &^ before; fresh != 0 && captured != sq && captured.Rank() == king.Rank() && fresh.First().Rank() == king.Rank() {
		// En passant takes two pawns off one rank at once: neither pawn is
		// pinned, but together they were the wall between king and rook.
		return why("en_passant_opens_rank", "Rank", king.Rank()+1, "Attackers", e.pieceList(fresh))
	}
	if fresh := after &^ before; fresh != 0 {
		return why("pinned", "Piece", e.the(), "Attackers", e.pieceList(fresh), "Square", sq)
	}
	if before.Count() > 1 {
		return why("double_check")
	}
	return why("still_in_check", "Attackers", e.pieceList(after))
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
func (e explainer) pieceList(bb chess.Bitboard) words.Message {
	var list words.Message
	for sq := chess.A1; sq <= chess.H8; sq++ {
		if !bb.Has(sq) {
			continue
		}
		item := pieceOn(e.pos.PieceAt(sq).Type(), sq)
		if list.IsZero() {
			list = item
		} else {
			list = words.M("piece.and", "First", list, "Second", item)
		}
	}
	return list
}

// pieceOn is "the knight on f3".
func pieceOn(t chess.PieceType, sq chess.Square) words.Message {
	return words.M("piece.on", "Piece", piecePhrase("the", t), "Square", sq)
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
