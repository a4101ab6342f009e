package chess

import (
	"fmt"
	"math/bits"
)

// StartFEN is the standard starting position (R1).
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Color is the side a piece belongs to.
type Color uint8

// The two sides. White moves first.
const (
	White Color = iota
	Black
)

// Other returns the opposing side.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Name returns the side in English, "White" or "Black", for PGN tags,
// comments and logs. Visitors read the colours from the site's catalogue
// (color.white, color.black) in their language.
func (c Color) Name() string {
	if c == Black {
		return "Black"
	}
	return "White"
}

// PieceType is the kind of a piece, without its colour.
type PieceType uint8

// Piece types. NoPieceType marks "none", for example a move that does not promote.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

var pieceTypeNames = [...]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}

// String returns the lower-case English name ("knight"), or "" for NoPieceType.
func (t PieceType) String() string {
	if int(t) < len(pieceTypeNames) {
		return pieceTypeNames[t]
	}
	return ""
}

// Letter returns the upper-case letter of the piece type ('N' for a knight),
// or 0 for NoPieceType.
func (t PieceType) Letter() byte {
	if t >= Pawn && t <= King {
		return "PNBRQK"[t-1]
	}
	return 0
}

// Piece is a coloured piece: the colour in bit 3, the type in bits 0-2.
type Piece uint8

// Pieces. NoPiece is an empty square.
const (
	NoPiece     Piece = 0
	WhitePawn   Piece = Piece(Pawn)
	WhiteKnight Piece = Piece(Knight)
	WhiteBishop Piece = Piece(Bishop)
	WhiteRook   Piece = Piece(Rook)
	WhiteQueen  Piece = Piece(Queen)
	WhiteKing   Piece = Piece(King)
	BlackPawn   Piece = 8 | Piece(Pawn)
	BlackKnight Piece = 8 | Piece(Knight)
	BlackBishop Piece = 8 | Piece(Bishop)
	BlackRook   Piece = 8 | Piece(Rook)
	BlackQueen  Piece = 8 | Piece(Queen)
	BlackKing   Piece = 8 | Piece(King)
)

// NewPiece returns the piece of colour c and type t (NoPiece for NoPieceType).
func NewPiece(c Color, t PieceType) Piece {
	if t == NoPieceType || t > King {
		return NoPiece
	}
	return Piece(c)<<3 | Piece(t)
}

// Color returns the colour of the piece (White for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3 & 1) }

// Type returns the type of the piece.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// String returns the two-letter code of the page contract (H2): the colour
// w or b and an upper-case letter, such as "wK" or "bP"; "" for NoPiece.
func (p Piece) String() string {
	if p.Type() == NoPieceType || p.Type() > King {
		return ""
	}
	return string([]byte{"wb"[p.Color()], p.Type().Letter()})
}

// FENChar returns the FEN letter of the piece: upper case for White, lower
// case for Black, 0 for NoPiece.
func (p Piece) FENChar() byte {
	l := p.Type().Letter()
	if l == 0 {
		return 0
	}
	if p.Color() == Black {
		return l + 'a' - 'A'
	}
	return l
}

// Square is one of the 64 squares: A1 = 0, B1 = 1, …, H8 = 63.
type Square uint8

// Squares.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 8*iota + 0, 8*iota + 1, 8*iota + 2, 8*iota + 3, 8*iota + 4, 8*iota + 5, 8*iota + 6, 8*iota + 7
	A2, B2, C2, D2, E2, F2, G2, H2
	A3, B3, C3, D3, E3, F3, G3, H3
	A4, B4, C4, D4, E4, F4, G4, H4
	A5, B5, C5, D5, E5, F5, G5, H5
	A6, B6, C6, D6, E6, F6, G6, H6
	A7, B7, C7, D7, E7, F7, G7, H7
	A8, B8, C8, D8, E8, F8, G8, H8
)

// NoSquare means "no square", for example when there is no en passant target.
const NoSquare Square = 64

// NewSquare returns the square on file 0–7 (a–h) and rank 0–7 (1–8), or
// NoSquare when either is out of range.
func NewSquare(file, rank int) Square {
	if file < 0 || file > 7 || rank < 0 || rank > 7 {
		return NoSquare
	}
	return Square(rank*8 + file)
}

// File returns the file 0–7 (a–h).
func (s Square) File() int { return int(s & 7) }

// Rank returns the rank 0–7 (1–8).
func (s Square) Rank() int { return int(s >> 3) }

// Valid reports whether s is one of the 64 squares.
func (s Square) Valid() bool { return s < 64 }

// IsLight reports whether the square is a light square (h1 is light).
func (s Square) IsLight() bool { return (s.File()+s.Rank())%2 == 1 }

// String returns the square's name, such as "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s >= 64 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare parses a square name such as "e4".
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, newError("square", fmt.Sprintf("%q is not a square; a square is a file a–h and a rank 1–8, like e4", s), "Text", s)
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}

// Bitboard is a set of squares: bit i is square i.
type Bitboard uint64

// Has reports whether the set contains s.
func (b Bitboard) Has(s Square) bool { return s < 64 && b&(1<<s) != 0 }

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square in the set, or NoSquare if it is empty.
func (b Bitboard) First() Square {
	if b == 0 {
		return NoSquare
	}
	return Square(bits.TrailingZeros64(uint64(b)))
}

// PopFirst removes the lowest square from the set and returns it. The set
// must not be empty.
func (b *Bitboard) PopFirst() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// Squares returns the squares of the set in increasing order.
func (b Bitboard) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for b != 0 {
		out = append(out, b.PopFirst())
	}
	return out
}

// SquareBB returns the set holding only s (empty for NoSquare).
func SquareBB(s Square) Bitboard {
	if s >= 64 {
		return 0
	}
	return 1 << s
}

// Castling is a set of castling rights.
type Castling uint8

// Castling rights.
const (
	WhiteKingSide Castling = 1 << iota
	WhiteQueenSide
	BlackKingSide
	BlackQueenSide
	NoCastling  Castling = 0
	AllCastling Castling = 15
)

// String returns the FEN form of the rights, such as "KQkq" or "-".
func (c Castling) String() string {
	if c&AllCastling == 0 {
		return "-"
	}
	b := make([]byte, 0, 4)
	for i, r := range "KQkq" {
		if c&(1<<i) != 0 {
			b = append(b, byte(r))
		}
	}
	return string(b)
}
