package chess

// Move is a move packed into an integer. It carries the moving piece and the
// captured piece so that playing it needs no look-up. The zero value is NoMove.
//
// Layout: bits 0–5 from, 6–11 to, 12–15 piece, 16–19 captured piece,
// 20–22 promotion type, bit 23 en passant, bit 24 castling.
type Move uint32

// NoMove is the zero Move: no move at all.
const NoMove Move = 0

const (
	moveEnPassant Move = 1 << 23
	moveCastle    Move = 1 << 24
)

func newMove(from, to Square, piece, captured Piece) Move {
	return Move(from) | Move(to)<<6 | Move(piece)<<12 | Move(captured)<<16
}

// From returns the square the piece leaves.
func (m Move) From() Square { return Square(m & 63) }

// To returns the square the piece lands on (for castling, the king's square).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Piece returns the moving piece.
func (m Move) Piece() Piece { return Piece(m >> 12 & 15) }

// Captured returns the captured piece (the pawn for en passant), or NoPiece.
func (m Move) Captured() Piece { return Piece(m >> 16 & 15) }

// Promotion returns the piece type a pawn becomes, or NoPieceType.
func (m Move) Promotion() PieceType { return PieceType(m >> 20 & 7) }

// IsCapture reports whether the move takes a piece.
func (m Move) IsCapture() bool { return m&(15<<16) != 0 }

// IsEnPassant reports whether the move is an en passant capture.
func (m Move) IsEnPassant() bool { return m&moveEnPassant != 0 }

// IsCastle reports whether the move is castling.
func (m Move) IsCastle() bool { return m&moveCastle != 0 }

// IsPromotion reports whether a pawn promotes.
func (m Move) IsPromotion() bool { return m&(7<<20) != 0 }

// UCI returns the move in long algebraic notation: "e2e4", "e7e8q", "e1g1";
// "0000" for NoMove.
func (m Move) UCI() string {
	if m == NoMove {
		return "0000"
	}
	b := []byte{
		byte('a' + m.From().File()), byte('1' + m.From().Rank()),
		byte('a' + m.To().File()), byte('1' + m.To().Rank()),
	}
	if p := m.Promotion(); p != NoPieceType {
		b = append(b, p.Letter()+'a'-'A')
	}
	return string(b)
}

// String returns the UCI form of the move.
func (m Move) String() string { return m.UCI() }
