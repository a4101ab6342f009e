package chess

import (
	"fmt"
	"strings"
)

// ParseCode names why typed text was not read as a move. The codes are
// stable, so the edge of the site can word them in the reader's language;
// the package itself words them in English only for Error (logs, tests).
type ParseCode string

// The codes of ParseSAN and ParseTyped. The first four are syntax errors
// (the text is not written like a move; a *SyntaxError), the rest are
// moves that are not legal in the position (a *ParseError). The fields of
// the error each code fills are listed beside it.
const (
	CodeEmpty            ParseCode = "empty"              // nothing typed
	CodeTooLong          ParseCode = "too_long"           // Text
	CodeNotNotation      ParseCode = "not_notation"       // Text
	CodeNoSquare         ParseCode = "no_square"          // Text: does not end in a square
	CodeCannotCastle     ParseCode = "cannot_castle"      // Side, Long (queen side)
	CodePromotionPiece   ParseCode = "promotion_piece"    // Text: promotes to a king or pawn
	CodeNothingToCapture ParseCode = "nothing_to_capture" // Text, Square
	CodeAmbiguous        ParseCode = "ambiguous"          // Text, Moves
	CodeNeedsPromotion   ParseCode = "needs_promotion"    // Text, Square
	CodeOnlyPawnPromotes ParseCode = "only_pawn_promotes" // Text
	CodeIllegalPromotion ParseCode = "illegal_promotion"  // Text
	CodeNoSuchPiece      ParseCode = "no_such_piece"      // Text, Side, Piece
	CodeIllegal          ParseCode = "illegal"            // Text, Side, Piece, Square
)

// The codes of ParseUCI: CodeUCISyntax is a *SyntaxError, the others are
// *ParseErrors.
const (
	CodeUCISyntax         ParseCode = "uci_syntax"          // Text
	CodeUCIPromotionPiece ParseCode = "uci_promotion_piece" // Text
	CodeUCINeedsPromotion ParseCode = "uci_needs_promotion" // Text
	CodeUCINoPiece        ParseCode = "uci_no_piece"        // Text, Square: nothing on the start square
	CodeUCIIllegal        ParseCode = "uci_illegal"         // Text
)

// ParseError is why ParseSAN, ParseTyped or ParseUCI read no legal move:
// a code, the text as it was entered, and the facts the words need.
type ParseError struct {
	Code   ParseCode
	Text   string    // the text entered, as typed
	Side   Color     // the side to move
	Piece  PieceType // the piece the text names
	Square Square    // the square the code is about
	Long   bool      // CodeCannotCastle: castling on the queen side
	Moves  []string  // CodeAmbiguous: each move the text could be, in SAN
}

// SyntaxError is a ParseError for text not written like a move at all, as
// opposed to a move that is not legal in the position. errors.As finds the
// *ParseError inside it.
type SyntaxError struct{ ParseError }

// Unwrap returns the ParseError inside, so errors.As with a *ParseError
// target reads every parse error the same way.
func (e *SyntaxError) Unwrap() error { return &e.ParseError }

func (p *Position) parseErr(code ParseCode, text string) *ParseError {
	return &ParseError{Code: code, Text: text, Side: p.turn, Square: NoSquare}
}

func syntaxErr(code ParseCode, text string) *SyntaxError {
	return &SyntaxError{ParseError{Code: code, Text: text, Square: NoSquare}}
}

// Error says what is wrong in English, starting with "chess: ". Visitors
// read the code worded at the edge instead.
func (e *ParseError) Error() string {
	q := e.Text
	switch e.Code {
	case CodeEmpty:
		return "chess: the move is empty; type a move such as e4 or Nf3"
	case CodeTooLong:
		return fmt.Sprintf("chess: %q is too long to be a move", q)
	case CodeNotNotation:
		return fmt.Sprintf("chess: %q is not a move in algebraic notation; write it like e4, Nf3, exd5, O-O or e8=Q", q)
	case CodeNoSquare:
		return fmt.Sprintf("chess: %q does not end in a square such as e4, so it is not a move in algebraic notation", q)
	case CodeCannotCastle:
		side := "king side"
		if e.Long {
			side = "queen side"
		}
		return fmt.Sprintf("chess: %s cannot castle on the %s here", e.Side.Name(), side)
	case CodePromotionPiece:
		return fmt.Sprintf("chess: in %q a pawn may only become a queen, rook, bishop or knight", q)
	case CodeNothingToCapture:
		return fmt.Sprintf("chess: %q says it captures, but there is nothing to capture on %s", q, e.Square)
	case CodeAmbiguous:
		return fmt.Sprintf("chess: %q is ambiguous; it could be %s", q, strings.Join(e.Moves, " or "))
	case CodeNeedsPromotion:
		return fmt.Sprintf("chess: %q moves a pawn to the last rank; say what it becomes, like %s=Q", q, e.Square)
	case CodeOnlyPawnPromotes:
		return fmt.Sprintf("chess: in %q only a pawn can promote", q)
	case CodeIllegalPromotion:
		return fmt.Sprintf("chess: %q is not a legal promotion here", q)
	case CodeNoSuchPiece:
		return fmt.Sprintf("chess: %q is not legal here: %s has no %s", q, e.Side.Name(), e.Piece)
	case CodeIllegal:
		return fmt.Sprintf("chess: %q is not legal here: no %s %s can move to %s", q, e.Side, e.Piece, e.Square)
	case CodeUCISyntax:
		return fmt.Sprintf("chess: %q is not a UCI move; write it like e2e4 or e7e8q", q)
	case CodeUCIPromotionPiece:
		last := ""
		if q != "" {
			last = q[len(q)-1:]
		}
		return fmt.Sprintf("chess: %q ends in %q; a pawn may only become q, r, b or n", q, last)
	case CodeUCINeedsPromotion:
		return fmt.Sprintf("chess: %q moves a pawn to the last rank; add what it becomes, like %sq", q, q)
	case CodeUCINoPiece:
		return fmt.Sprintf("chess: %q is not legal here: there is no piece on %s", q, e.Square)
	case CodeUCIIllegal:
		return fmt.Sprintf("chess: %q is not a legal move here", q)
	}
	return fmt.Sprintf("chess: %q is not a move (%s)", q, e.Code)
}
