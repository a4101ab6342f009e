package chess

import "slices"

// Position is a chess position. Positions are values that never change once
// built: playing a move makes a new position. The struct is small so that
// the engine can copy it instead of undoing moves.
type Position struct {
	board    [64]Piece
	byType   [7]Bitboard // index 0 holds every occupied square
	byColor  [2]Bitboard
	hash     uint64 // Zobrist key of placement, side to move and castling rights
	fullmove int32
	halfmove int32
	ep       Square // the FEN en passant target, or NoSquare
	turn     Color
	castling Castling
}

var (
	zobristPiece    [16][64]uint64
	zobristCastling [16]uint64
	zobristEP       [8]uint64
	zobristTurn     uint64

	// castleKeep[s] holds the rights that survive a move from or to s.
	castleKeep [64]Castling
)

func init() {
	r := prng(0x9E3779B97F4A7C15)
	for p := range zobristPiece {
		for s := range zobristPiece[p] {
			zobristPiece[p][s] = r.next()
		}
	}
	for i := 1; i < len(zobristCastling); i++ {
		zobristCastling[i] = r.next() // no rights at all keys to 0
	}
	for i := range zobristEP {
		zobristEP[i] = r.next()
	}
	zobristTurn = r.next()
	for s := range castleKeep {
		castleKeep[s] = AllCastling
	}
	castleKeep[A1] &^= WhiteQueenSide
	castleKeep[H1] &^= WhiteKingSide
	castleKeep[E1] &^= WhiteKingSide | WhiteQueenSide
	castleKeep[A8] &^= BlackQueenSide
	castleKeep[H8] &^= BlackKingSide
	castleKeep[E8] &^= BlackKingSide | BlackQueenSide
}

// Turn returns the side to move.
func (p *Position) Turn() Color { return p.turn }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece {
	if s >= 64 {
		return NoPiece
	}
	return p.board[s]
}

// Pieces returns the squares of the pieces of colour c and type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard {
	if t > King {
		return 0
	}
	return p.byType[t] & p.byColor[c&1]
}

// Occupancy returns the squares of every piece of colour c.
func (p *Position) Occupancy(c Color) Bitboard { return p.byColor[c&1] }

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.byType[0] }

// KingSquare returns the square of c's king, or NoSquare if c has none
// (teaching positions, R12).
func (p *Position) KingSquare(c Color) Square {
	return (p.byType[King] & p.byColor[c&1]).First()
}

// CastlingRights returns the castling rights that still exist.
func (p *Position) CastlingRights() Castling { return p.castling }

// CanCastle reports whether c still has the right to castle on that side
// (neither the king nor that rook has moved). It says nothing about whether
// castling is legal right now.
func (p *Position) CanCastle(c Color, kingSide bool) bool {
	r := WhiteKingSide
	if !kingSide {
		r = WhiteQueenSide
	}
	if c == Black {
		r <<= 2
	}
	return p.castling&r != 0
}

// EnPassant returns the en passant target square of FEN (the square a pawn
// just skipped), or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// HalfmoveClock returns the number of half-moves since the last capture or
// pawn move.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber returns the move number, starting at 1 and growing after
// each Black move.
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// Hash returns the Zobrist key of the position: placement, side to move,
// castling rights, and the en passant file only when an en passant capture
// is legal. Positions with equal hashes are the "same position" of R8.
func (p *Position) Hash() uint64 {
	if p.ep != NoSquare && p.epCapturePossible() {
		return p.hash ^ zobristEP[p.ep.File()]
	}
	return p.hash
}

func (p *Position) put(pc Piece, s Square) {
	b := Bitboard(1) << s
	p.board[s] = pc
	p.byType[0] |= b
	p.byType[pc.Type()] |= b
	p.byColor[pc.Color()] |= b
	p.hash ^= zobristPiece[pc][s]
}

func (p *Position) remove(s Square) {
	pc := p.board[s]
	b := Bitboard(1) << s
	p.board[s] = NoPiece
	p.byType[0] &^= b
	p.byType[pc.Type()] &^= b
	p.byColor[pc.Color()] &^= b
	p.hash ^= zobristPiece[pc][s]
}

// Play returns the position after the legal move m; the receiver does not
// change. It returns nil when m is not a legal move in this position.
func (p *Position) Play(m Move) *Position {
	if !p.IsLegal(m) {
		return nil
	}
	var n Position
	p.PlayInto(m, &n)
	return &n
}

// PlayInto writes the position after m into dst without allocating. m must
// be a legal move of p (from its generators or parsers); dst may be p.
func (p *Position) PlayInto(m Move, dst *Position) {
	if dst != p {
		*dst = *p
	}
	from, to := m.From(), m.To()
	pc := m.Piece()
	us := dst.turn
	fromTo := Bitboard(1)<<from | Bitboard(1)<<to

	dst.halfmove++
	if m&(15<<16) != 0 {
		capSq := to
		if m&moveEnPassant != 0 {
			capSq = to ^ 8
		}
		dst.remove(capSq)
		dst.halfmove = 0
	}
	// Move the piece.
	dst.board[from] = NoPiece
	dst.byType[0] ^= Bitboard(1) << from
	dst.byType[0] |= Bitboard(1) << to
	dst.byColor[us] ^= fromTo
	dst.hash ^= zobristPiece[pc][from]
	if promo := m.Promotion(); promo != NoPieceType {
		dst.byType[Pawn] &^= Bitboard(1) << from
		np := NewPiece(us, promo)
		dst.byType[promo] |= Bitboard(1) << to
		dst.board[to] = np
		dst.hash ^= zobristPiece[np][to]
	} else {
		dst.byType[pc.Type()] ^= fromTo
		dst.board[to] = pc
		dst.hash ^= zobristPiece[pc][to]
	}
	if m&moveCastle != 0 {
		rf, rt := to+1, to-1 // king side: h-file rook to the f-file
		if to.File() == 2 {
			rf, rt = to-2, to+1
		}
		rook := dst.board[rf]
		dst.remove(rf)
		dst.put(rook, rt)
	}
	if dst.ep != NoSquare {
		dst.ep = NoSquare
	}
	if pc.Type() == Pawn {
		dst.halfmove = 0
		if from^to == 16 {
			dst.ep = (from + to) / 2
		}
	}
	if c := dst.castling & castleKeep[from] & castleKeep[to]; c != dst.castling {
		dst.hash ^= zobristCastling[dst.castling] ^ zobristCastling[c]
		dst.castling = c
	}
	if us == Black {
		dst.fullmove++
	}
	dst.turn = us ^ 1
	dst.hash ^= zobristTurn
}

// PlayNull writes into dst the position where the side to move passes (for
// the engine's null-move search). It must not be used when in check.
func (p *Position) PlayNull(dst *Position) {
	if dst != p {
		*dst = *p
	}
	dst.ep = NoSquare
	dst.halfmove++
	if dst.turn == Black {
		dst.fullmove++
	}
	dst.turn ^= 1
	dst.hash ^= zobristTurn
}

// attackersTo returns the pieces of both colours attacking s given occupancy occ.
func (p *Position) attackersTo(s Square, occ Bitboard) Bitboard {
	return (pawnTable[Black][s] & p.byType[Pawn] & p.byColor[White]) |
		(pawnTable[White][s] & p.byType[Pawn] & p.byColor[Black]) |
		(knightTable[s] & p.byType[Knight]) |
		(kingTable[s] & p.byType[King]) |
		(BishopAttacks(s, occ) & (p.byType[Bishop] | p.byType[Queen])) |
		(RookAttacks(s, occ) & (p.byType[Rook] | p.byType[Queen]))
}

// attacked reports whether colour by attacks s given occupancy occ.
func (p *Position) attacked(s Square, by Color, occ Bitboard) bool {
	them := p.byColor[by]
	if pawnTable[by^1][s]&p.byType[Pawn]&them != 0 ||
		knightTable[s]&p.byType[Knight]&them != 0 ||
		kingTable[s]&p.byType[King]&them != 0 {
		return true
	}
	if RookAttacks(s, occ)&(p.byType[Rook]|p.byType[Queen])&them != 0 {
		return true
	}
	return BishopAttacks(s, occ)&(p.byType[Bishop]|p.byType[Queen])&them != 0
}

// Attackers returns the pieces of colour by that attack s.
func (p *Position) Attackers(s Square, by Color) Bitboard {
	if s >= 64 {
		return 0
	}
	return p.attackersTo(s, p.byType[0]) & p.byColor[by&1]
}

// IsAttacked reports whether a piece of colour by attacks s.
func (p *Position) IsAttacked(s Square, by Color) bool {
	if s >= 64 {
		return false
	}
	return p.attacked(s, by&1, p.byType[0])
}

// InCheck reports whether the side to move has a king and it is attacked.
func (p *Position) InCheck() bool {
	k := p.KingSquare(p.turn)
	return k != NoSquare && p.attacked(k, p.turn^1, p.byType[0])
}

// IsCheckmate reports whether the side to move is in check and has no legal move.
func (p *Position) IsCheckmate() bool {
	return p.InCheck() && !p.hasLegalMove()
}

// IsStalemate reports whether the side to move is not in check and has no
// legal move. A side without a king and without moves counts as stalemated.
func (p *Position) IsStalemate() bool {
	return !p.InCheck() && !p.hasLegalMove()
}

func (p *Position) hasLegalMove() bool {
	var buf [256]Move
	return len(p.AppendLegalMoves(buf[:0])) > 0
}

// epCapturePossible reports whether an en passant capture is legal now.
func (p *Position) epCapturePossible() bool {
	us := p.turn
	cands := pawnTable[us^1][p.ep] & p.byType[Pawn] & p.byColor[us]
	for cands != 0 {
		if p.epLegal(cands.PopFirst()) {
			return true
		}
	}
	return false
}

// epLegal reports whether the pawn on from may capture en passant without
// leaving its king attacked (including the discovered check along the rank).
func (p *Position) epLegal(from Square) bool {
	us := p.turn
	k := p.KingSquare(us)
	if k == NoSquare {
		return true
	}
	capSq := p.ep ^ 8
	occ := p.byType[0] ^ Bitboard(1)<<from ^ Bitboard(1)<<capSq | Bitboard(1)<<p.ep
	att := p.attackersTo(k, occ) & p.byColor[us^1] &^ (Bitboard(1) << capSq)
	return att == 0
}

// IsLegal reports whether m is a legal move in the position.
func (p *Position) IsLegal(m Move) bool {
	if m == NoMove {
		return false
	}
	var buf [256]Move
	return slices.Contains(p.AppendLegalMoves(buf[:0]), m)
}

// LegalMoves returns every legal move.
func (p *Position) LegalMoves() []Move {
	var buf [256]Move
	moves := p.AppendLegalMoves(buf[:0])
	out := make([]Move, len(moves))
	copy(out, moves)
	return out
}

// Destinations returns the squares the piece on from may move to, each once
// (a promotion counts once). It is empty when the square is empty or the
// piece's side is not to move.
func (p *Position) Destinations(from Square) []Square {
	var buf [256]Move
	var seen Bitboard
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if m.From() == from {
			seen |= Bitboard(1) << m.To()
		}
	}
	return seen.Squares()
}

// Perft counts the leaf nodes of the legal move tree of the given depth.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var buf [256]Move
	moves := p.AppendLegalMoves(buf[:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	var child Position
	for _, m := range moves {
		p.PlayInto(m, &child)
		n += child.Perft(depth - 1)
	}
	return n
}

// Undefended returns the pieces of colour c, the king left out, that no
// other piece of c attacks: the pieces a teacher calls loose, which the
// other side may take without losing anything back. A defender counts
// whether or not it is pinned, as children are taught to count them.
func (p *Position) Undefended(c Color) Bitboard {
	var out Bitboard
	own := p.byColor[c&1] &^ p.byType[King]
	for bb := own; bb != 0; {
		s := bb.First()
		bb &^= 1 << uint(s)
		if p.attackersTo(s, p.byType[0])&p.byColor[c&1] == 0 {
			out |= 1 << uint(s)
		}
	}
	return out
}
