package chess

import (
	"fmt"
	"strings"
)

// The codes of the errors of ParseSAN, ParseTyped and ParseUCI: *Error
// values (catalogue key chess.<code>). Each carries Text, the text as it
// was entered, and Color, the side to move; the other values it carries
// are listed beside it. Text not written like a move at all is also a
// *SyntaxError.
const (
	CodeSANEmpty            = "san_empty"              // syntax
	CodeSANTooLong          = "san_too_long"           // syntax
	CodeSANNotNotation      = "san_not_notation"       // syntax
	CodeSANNoSquare         = "san_no_square"          // syntax: does not end in a square
	CodeSANCastleKingSide   = "san_castle_king_side"   // cannot castle king side here
	CodeSANCastleQueenSide  = "san_castle_queen_side"  // cannot castle queen side here
	CodeSANPromotionPiece   = "san_promotion_piece"    // promotes to a king or a pawn
	CodeSANNothingToCapture = "san_nothing_to_capture" // Square
	CodeSANAmbiguous        = "san_ambiguous"          // Moves: each move it could be, SAN, ", " between
	CodeSANNeedsPromotion   = "san_needs_promotion"    // Square: the last rank, but no piece named
	CodeSANOnlyPawnPromotes = "san_only_pawn_promotes"
	CodeSANIllegalPromotion = "san_illegal_promotion"
	// "san_no_" + the piece ("san_no_queen"): the side has no such piece.
	// "san_illegal_" + the piece ("san_illegal_knight"): none of them can
	// go to Square. Piece is the piece's name ("knight").
	CodeSANNoPiece        = "san_no_"
	CodeSANIllegal        = "san_illegal_"
	CodeUCISyntax         = "uci_syntax" // syntax
	CodeUCIPromotion      = "uci_promotion_piece"
	CodeUCINeedsPromotion = "uci_needs_promotion"
	CodeUCINoPiece        = "uci_no_piece" // Square: nothing on the start square
	CodeUCIIllegal        = "uci_illegal"
)

// SyntaxError is the *Error of text not written like a move at all, as
// opposed to a move that is not legal in the position. errors.As finds
// the *Error inside it.
type SyntaxError struct{ Err *Error }

func (e *SyntaxError) Error() string { return e.Err.Error() }

// Unwrap returns the *Error inside.
func (e *SyntaxError) Unwrap() error { return e.Err }

// moveErr returns the *Error of a move text that names no legal move here.
func (p *Position) moveErr(code, text string, kv ...string) *Error {
	e := newError(code, "", append([]string{"Text", text, "Color", p.turn.String()}, kv...)...)
	e.msg = moveMessage(e)
	return e
}

// syntaxErr returns the error of text not written like a move.
func (p *Position) syntaxErr(code, text string) *SyntaxError {
	return &SyntaxError{p.moveErr(code, text)}
}

// retext makes err, a parse error, carry text as the text entered (the
// text as typed, where ParseSAN read another spelling of it).
func retext(err error, text string) {
	if e, ok := err.(*Error); ok {
		if e.Args == nil {
			e.Args = map[string]string{}
		}
		e.Args["Text"] = text
		e.msg = moveMessage(e)
	} else if se, ok := err.(*SyntaxError); ok {
		retext(se.Err, text)
	}
}

// moveMessage is the English of a parse error, for logs and Go callers.
func moveMessage(e *Error) string {
	q, side := e.Args["Text"], "White"
	if e.Args["Color"] == "black" {
		side = "Black"
	}
	switch code := e.Code; {
	case code == CodeSANEmpty:
		return "the move is empty; type a move such as e4 or Nf3"
	case code == CodeSANTooLong:
		return fmt.Sprintf("%q is too long to be a move", q)
	case code == CodeSANNotNotation:
		return fmt.Sprintf("%q is not a move in algebraic notation; write it like e4, Nf3, exd5, O-O or e8=Q", q)
	case code == CodeSANNoSquare:
		return fmt.Sprintf("%q does not end in a square such as e4, so it is not a move in algebraic notation", q)
	case code == CodeSANCastleKingSide:
		return fmt.Sprintf("%s cannot castle on the king side here", side)
	case code == CodeSANCastleQueenSide:
		return fmt.Sprintf("%s cannot castle on the queen side here", side)
	case code == CodeSANPromotionPiece:
		return fmt.Sprintf("in %q a pawn may only become a queen, rook, bishop or knight", q)
	case code == CodeSANNothingToCapture:
		return fmt.Sprintf("%q says it captures, but there is nothing to capture on %s", q, e.Args["Square"])
	case code == CodeSANAmbiguous:
		return fmt.Sprintf("%q is ambiguous; it could be %s", q, strings.ReplaceAll(e.Args["Moves"], ", ", " or "))
	case code == CodeSANNeedsPromotion:
		return fmt.Sprintf("%q moves a pawn to the last rank; say what it becomes, like %s=Q", q, e.Args["Square"])
	case code == CodeSANOnlyPawnPromotes:
		return fmt.Sprintf("in %q only a pawn can promote", q)
	case code == CodeSANIllegalPromotion:
		return fmt.Sprintf("%q is not a legal promotion here", q)
	case strings.HasPrefix(code, CodeSANNoPiece):
		return fmt.Sprintf("%q is not legal here: %s has no %s", q, side, e.Args["Piece"])
	case strings.HasPrefix(code, CodeSANIllegal):
		return fmt.Sprintf("%q is not legal here: no %s %s can move to %s", q, e.Args["Color"], e.Args["Piece"], e.Args["Square"])
	case code == CodeUCISyntax:
		return fmt.Sprintf("%q is not a UCI move; write it like e2e4 or e7e8q", q)
	case code == CodeUCIPromotion:
		return fmt.Sprintf("%q ends in %q; a pawn may only become q, r, b or n", q, q[max(len(q)-1, 0):])
	case code == CodeUCINeedsPromotion:
		return fmt.Sprintf("%q moves a pawn to the last rank; add what it becomes, like %sq", q, q)
	case code == CodeUCINoPiece:
		return fmt.Sprintf("%q is not legal here: there is no piece on %s", q, e.Args["Square"])
	case code == CodeUCIIllegal:
		return fmt.Sprintf("%q is not a legal move here", q)
	}
	return fmt.Sprintf("%q is not a move (%s)", q, e.Code)
}
