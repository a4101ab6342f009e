package chess

import "fmt"

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

// numMethods counts the methods, NoMethod included.
const numMethods = int(Agreement) + 1

// methodCodes are the stable codes of the methods: what storage holds and
// what machines compare (N7). They never change.
var methodCodes = [numMethods]string{"", "checkmate", "stalemate", "threefold-repetition",
	"fifty-move-rule", "insufficient-material", "timeout", "resignation", "agreement"}

// TimeoutNoMate is the outcome code of a timeout that is a draw because the
// side whose time did not run out could never checkmate (R9).
const TimeoutNoMate = "timeout-no-mate"

// Code returns the method's stable code, such as "threefold-repetition",
// or "" for NoMethod. Store and compare codes, never String.
func (m Method) Code() string {
	if int(m) < len(methodCodes) {
		return methodCodes[m]
	}
	return ""
}

// ParseMethodCode returns the method whose Code is code. The empty code is
// NoMethod.
func ParseMethodCode(code string) (Method, error) {
	for m, c := range methodCodes {
		if c == code {
			return Method(m), nil
		}
	}
	return NoMethod, fmt.Errorf("chess: unknown ending code %q", code)
}

// methodNames are the methods in English, for PGN comments and logs.
var methodNames = [numMethods]string{"", "checkmate", "stalemate", "threefold repetition",
	"fifty-move rule", "insufficient material", "timeout", "resignation", "agreement"}

// String returns the method in English, such as "threefold repetition", or
// "" for NoMethod (PGN comments, logs); use Code to store or compare.
func (m Method) String() string {
	if int(m) < numMethods {
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

// Code returns the outcome's stable code: the method's code, except that a
// timeout that is a draw is TimeoutNoMate. It is "" while the game goes on.
func (o Outcome) Code() string {
	if o.Method == Timeout && o.IsDraw() {
		return TimeoutNoMate
	}
	return o.Method.Code()
}

// ParseOutcome rebuilds a finished game's outcome from what is stored: its
// outcome code (see Outcome.Code), its result and, for a timeout, the side
// whose time ran out. It refuses a code and result that do not fit
// together, such as a checkmate drawn or a stalemate won.
func ParseOutcome(code, result string, flagged Color) (Outcome, error) {
	m, err := ParseMethodCode(code)
	drawnTimeout := code == TimeoutNoMate
	if drawnTimeout {
		m, err = Timeout, nil
	}
	if err != nil {
		return Outcome{}, err
	}
	switch {
	case m == NoMethod:
		if result != "*" {
			return Outcome{}, fmt.Errorf("chess: result %q with no ending", result)
		}
		return Ongoing, nil
	case drawnTimeout:
		if result != "1/2-1/2" {
			return Outcome{}, fmt.Errorf("chess: ending %q with result %q", code, result)
		}
		if flagged != White && flagged != Black {
			return Outcome{}, fmt.Errorf("chess: ending %q without the side whose time ran out", code)
		}
		return Outcome{Result: result, Method: Timeout, Winner: flagged.Other()}, nil
	}
	decisive := m == Checkmate || m == Timeout || m == Resignation
	switch {
	case decisive && result == "1-0":
		return win(White, m), nil
	case decisive && result == "0-1":
		return win(Black, m), nil
	case !decisive && result == "1/2-1/2":
		return draw(m), nil
	}
	return Outcome{}, fmt.Errorf("chess: ending %q with result %q", code, result)
}

// Reason describes the ending in English, such as "Black wins by
// checkmate" or "Draw: White's time ran out, but Black could never
// checkmate", for PGN comments and logs; it is "" while the game goes on.
// Visitors read endings from the site's catalogue instead (by Code and
// Winner), in their language.
func (o Outcome) Reason() string {
	switch o.Method {
	case NoMethod:
		return ""
	case Timeout:
		if o.IsDraw() {
			return fmt.Sprintf("Draw: %s's time ran out, but %s could never checkmate", o.Winner.Other().Name(), o.Winner.Name())
		}
		return o.Winner.Name() + " wins on time"
	case FiftyMoveRule:
		return "Draw by the fifty-move rule"
	}
	if o.IsDraw() {
		return "Draw by " + o.Method.String()
	}
	return o.Winner.Name() + " wins by " + o.Method.String()
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
