package chess

// Method is how a game ended.
type Method uint8

// Ways a game can end (R7–R10). NoMethod means the game goes on.
const (
	NoMethod Method = iota
	Checkmate
	Stalemate
	ThreefoldRepetition
	FiftyMoveRule
	InsufficientMaterial
	Timeout
	Resignation
	Agreement
)

var methodNames = [...]string{"", "checkmate", "stalemate", "threefold repetition",
	"fifty-move rule", "insufficient material", "timeout", "resignation", "agreement"}

// String returns the method in words, such as "threefold repetition", or ""
// for NoMethod.
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return ""
}

// Outcome is the result of a game and how it came about.
type Outcome struct {
	// Result is "1-0", "0-1", "1/2-1/2", or "*" while the game goes on.
	Result string
	// Method says how the game ended.
	Method Method
	// Winner is the side that won. For a draw on time it is the side whose
	// time did not run out (the side that could never checkmate); for other
	// draws it has no meaning.
	Winner Color
}

// Ongoing is the outcome of a game that has not ended.
var Ongoing = Outcome{Result: "*"}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Method != NoMethod }

// IsDraw reports whether the game ended in a draw.
func (o Outcome) IsDraw() bool { return o.Result == "1/2-1/2" }

func win(c Color, m Method) Outcome {
	if c == White {
		return Outcome{Result: "1-0", Method: m, Winner: White}
	}
	return Outcome{Result: "0-1", Method: m, Winner: Black}
}

func draw(m Method) Outcome { return Outcome{Result: "1/2-1/2", Method: m} }

// Reason returns the sentence a person reads, such as "Black wins by
// checkmate", "Draw by threefold repetition", "White wins on time" or "Draw:
// White's time ran out, but Black could never checkmate". It is "" while the
// game goes on.
func (o Outcome) Reason() string {
	switch o.Method {
	case NoMethod:
		return ""
	case Timeout:
		if o.IsDraw() {
			return "Draw: " + o.Winner.Other().title() + "'s time ran out, but " + o.Winner.title() + " could never checkmate"
		}
		return o.Winner.title() + " wins on time"
	case FiftyMoveRule:
		return "Draw by the fifty-move rule"
	}
	if o.IsDraw() {
		return "Draw by " + o.Method.String()
	}
	return o.Winner.title() + " wins by " + o.Method.String()
}

// InsufficientMaterial reports whether neither side can ever checkmate in
// exactly the cases of R8: king against king, king and bishop against king,
// king and knight against king, and kings with any number of bishops that
// all stand on squares of one colour. Other dead positions are not included.
func (p *Position) InsufficientMaterial() bool {
	if p.byType[Pawn]|p.byType[Rook]|p.byType[Queen] != 0 {
		return false
	}
	knights, bishops := p.byType[Knight], p.byType[Bishop]
	if knights != 0 {
		return knights.Count() == 1 && bishops == 0
	}
	return bishops&lightSquares == 0 || bishops&darkSquares == 0
}

// CanNeverMate reports whether colour c could never checkmate, in exactly
// the cases of R9: (a) c has a lone king; (b) c has king and one knight and
// nothing else while the other side has nothing but king and any number of
// queens; (c) c has king and bishops all on one colour and nothing else
// while the other side has no pawns, no knights and no bishop on the other
// colour.
func CanNeverMate(p *Position, c Color) bool {
	own := p.byColor[c&1] &^ p.byType[King]
	opp := p.byColor[c&1^1] &^ p.byType[King]
	if own == 0 {
		return true // (a)
	}
	if own == own&p.byType[Knight] && own.Count() == 1 {
		return opp == opp&p.byType[Queen] // (b)
	}
	if own == own&p.byType[Bishop] {
		var other Bitboard
		switch {
		case own&darkSquares == 0:
			other = darkSquares
		case own&lightSquares == 0:
			other = lightSquares
		default:
			return false
		}
		return opp&(p.byType[Pawn]|p.byType[Knight]) == 0 && opp&p.byType[Bishop]&other == 0 // (c)
	}
	return false
}
