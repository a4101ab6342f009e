package chess

import (
	"fmt"
	"sync/atomic"
)

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
// what machines compare (N7). They never change; wording does (see Wording).
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

// String returns the method in words, such as "threefold repetition", or ""
// for NoMethod. The words are for people and may be reworded; use Code to
// store or compare.
func (m Method) String() string {
	if int(m) < numMethods {
		return wording.Load().Methods[m]
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

// Reason returns the sentence a person reads, such as "Black wins by
// checkmate", "Draw by threefold repetition", "White wins on time" or "Draw:
// White's time ran out, but Black could never checkmate", in the current
// Wording. It is "" while the game goes on.
func (o Outcome) Reason() string {
	w := wording.Load()
	switch o.Method {
	case NoMethod:
		return ""
	case Timeout:
		if o.IsDraw() {
			return fmt.Sprintf(w.DrawOnTime, w.color(o.Winner.Other()), w.color(o.Winner))
		}
		return fmt.Sprintf(w.WinsOnTime, w.color(o.Winner))
	case FiftyMoveRule:
		return w.FiftyMoveDraw
	}
	if o.IsDraw() {
		return fmt.Sprintf(w.DrawBy, w.Methods[o.Method])
	}
	return fmt.Sprintf(w.WinsBy, w.color(o.Winner), w.Methods[o.Method])
}

// Wording holds every word and sentence pattern Method.String and
// Outcome.Reason use. They are for people only: nothing stored or compared
// depends on them (N7), so they can be reworded — or translated — without
// touching stored games.
type Wording struct {
	Methods       [numMethods]string // by Method: "checkmate", "threefold repetition", …
	White, Black  string             // the sides as a sentence names them
	WinsBy        string             // "%s wins by %s": winner, method
	DrawBy        string             // "Draw by %s": method
	WinsOnTime    string             // "%s wins on time": winner
	DrawOnTime    string             // flagged side, the side that could never mate
	FiftyMoveDraw string             // the whole sentence
}

func (w *Wording) color(c Color) string {
	if c == Black {
		return w.Black
	}
	return w.White
}

// Map returns a copy of w with f applied to every word and pattern (f must
// keep the %s verbs of the patterns). Tests use it to reword everything.
func (w Wording) Map(f func(string) string) Wording {
	for i := range w.Methods {
		if w.Methods[i] != "" {
			w.Methods[i] = f(w.Methods[i])
		}
	}
	for _, s := range []*string{&w.White, &w.Black, &w.WinsBy, &w.DrawBy, &w.WinsOnTime, &w.DrawOnTime, &w.FiftyMoveDraw} {
		*s = f(*s)
	}
	return w
}

// DefaultWording is the site's English wording.
func DefaultWording() Wording {
	return Wording{
		Methods: [numMethods]string{"", "checkmate", "stalemate", "threefold repetition",
			"fifty-move rule", "insufficient material", "timeout", "resignation", "agreement"},
		White: "White", Black: "Black",
		WinsBy:        "%s wins by %s",
		DrawBy:        "Draw by %s",
		WinsOnTime:    "%s wins on time",
		DrawOnTime:    "Draw: %s's time ran out, but %s could never checkmate",
		FiftyMoveDraw: "Draw by the fifty-move rule",
	}
}

var wording atomic.Pointer[Wording]

func init() {
	w := DefaultWording()
	wording.Store(&w)
}

// SetWording makes w the wording of every later sentence and returns the
// one it replaces. It is safe to call at any time; the site sets it at
// most once, at start, and tests use it to show that no stored data
// depends on the words.
func SetWording(w Wording) (previous Wording) {
	return *wording.Swap(&w)
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
