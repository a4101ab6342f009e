package review

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"chesstutor/chess"
)

// Code names why a move cost something. Codes are stored and sent as they
// are; the words are Move.Sentence's.
type Code string

// The reasons, and what each Reason field means for them.
const (
	NoReason Code = ""
	// Hangs: the opponent's reply Move takes the mover's Piece on Square
	// with its By; Free when nothing defended it, Moved when it is the
	// piece that just moved.
	Hangs Code = "hangs"
	// BadTrade: the move captured a Target with the Piece, and the reply
	// Move takes the Piece back (with its By): a poor exchange.
	BadTrade Code = "bad-trade"
	// MissedCapture: Move, the engine's choice, took the opponent's Piece
	// on Square with a By, for free (Free) or with a cheaper piece.
	MissedCapture Code = "missed-capture"
	// MissedMate: the mover had a mate in Mate moves starting with Move.
	MissedMate Code = "missed-mate"
	// AllowsMate: the opponent now mates in Mate moves, starting with Move.
	AllowsMate Code = "allows-mate"
	// Stalemate: the move stalemated the opponent in a won game; Move was
	// better, and checkmated at once when Mate is 1.
	Stalemate Code = "stalemate"
	// MissedFork: Move, the engine's choice, attacked the Targets at once
	// with a By.
	MissedFork Code = "missed-fork"
	// AllowsFork: the reply Move forks the mover's Targets with a By.
	AllowsFork Code = "allows-fork"
	// IntoPin: the mover's Piece on Square is pinned to its Target by the
	// opponent's By on From, and the opponent wins it.
	IntoPin Code = "into-pin"
	// BetterMove: no pattern found; Move was better, and Reply is the
	// opponent's strong answer to the move played.
	BetterMove Code = "better"
)

var codes = []Code{Hangs, BadTrade, MissedCapture, MissedMate, AllowsMate, Stalemate, MissedFork, AllowsFork, IntoPin, BetterMove}

// Reason is why a move was an inaccuracy, a mistake or a blunder: a code
// and the pieces, squares and moves it is about (see the Code constants).
type Reason struct {
	Code    Code
	Move    string // SAN, in the position where it is played
	Reply   string // SAN of the opponent's answer (BetterMove)
	Piece   chess.PieceType
	By      chess.PieceType
	Target  chess.PieceType
	Targets []chess.PieceType
	Square  chess.Square
	From    chess.Square
	Mate    int
	Free    bool
	Moved   bool
}

// reasonWire is a Reason as stored and sent: names, not numbers.
type reasonWire struct {
	Code    Code     `json:"code"`
	Move    string   `json:"move,omitempty"`
	Reply   string   `json:"reply,omitempty"`
	Piece   string   `json:"piece,omitempty"`
	By      string   `json:"by,omitempty"`
	Target  string   `json:"target,omitempty"`
	Targets []string `json:"targets,omitempty"`
	Square  string   `json:"square,omitempty"`
	From    string   `json:"from,omitempty"`
	Mate    int      `json:"mate,omitempty"`
	Free    bool     `json:"free,omitempty"`
	Moved   bool     `json:"moved,omitempty"`
}

// MarshalJSON writes the reason with piece names and square names.
func (r Reason) MarshalJSON() ([]byte, error) {
	w := reasonWire{Code: r.Code, Move: r.Move, Reply: r.Reply, Piece: r.Piece.String(), By: r.By.String(),
		Target: r.Target.String(), Mate: r.Mate, Free: r.Free, Moved: r.Moved}
	for _, t := range r.Targets {
		w.Targets = append(w.Targets, t.String())
	}
	if r.Square != 0 || r.Code == Hangs || r.Code == MissedCapture || r.Code == IntoPin {
		w.Square = r.Square.String()
	}
	if r.Code == IntoPin {
		w.From = r.From.String()
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads what MarshalJSON wrote and refuses anything else.
func (r *Reason) UnmarshalJSON(b []byte) error {
	var w reasonWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Code != NoReason && !slices.Contains(codes, w.Code) {
		return fmt.Errorf("review: unknown reason code %q", w.Code)
	}
	out := Reason{Code: w.Code, Move: w.Move, Reply: w.Reply, Mate: w.Mate, Free: w.Free, Moved: w.Moved}
	var err error
	for _, f := range []struct {
		name string
		dst  *chess.PieceType
	}{{w.Piece, &out.Piece}, {w.By, &out.By}, {w.Target, &out.Target}} {
		if *f.dst, err = pieceType(f.name); err != nil {
			return err
		}
	}
	for _, name := range w.Targets {
		t, err := pieceType(name)
		if err != nil {
			return err
		}
		out.Targets = append(out.Targets, t)
	}
	for _, f := range []struct {
		name string
		dst  *chess.Square
	}{{w.Square, &out.Square}, {w.From, &out.From}} {
		if f.name == "" {
			continue
		}
		if *f.dst, err = chess.ParseSquare(f.name); err != nil {
			return fmt.Errorf("review: %w", err)
		}
	}
	*r = out
	return nil
}

func pieceType(name string) (chess.PieceType, error) {
	if name == "" {
		return chess.NoPieceType, nil
	}
	for t := chess.Pawn; t <= chess.King; t++ {
		if t.String() == name {
			return t, nil
		}
	}
	return 0, fmt.Errorf("review: unknown piece %q", name)
}

var numberWords = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

func number(n int) string {
	if n >= 0 && n < len(numberWords) {
		return numberWords[n]
	}
	return fmt.Sprint(n)
}

func sideName(c chess.Color) string {
	if c == chess.White {
		return "White"
	}
	return "Black"
}

// list joins piece names: "the king and the rook", "the king, the queen
// and the rook".
func list(ts []chess.PieceType, article string) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = article + " " + t.String()
	}
	if len(parts) <= 2 {
		return strings.Join(parts, " and ")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Sentence explains the move in a beginner's words, speaking to the side
// that played it ("After Qg5, White's knight takes your queen for free.
// Better was Nc6."). It is empty for the moves that cost nothing.
func (m Move) Sentence() string {
	r := m.Reason
	opp := sideName(m.Color.Other())
	better := ""
	if m.BestSAN != "" {
		better = " Better was " + m.BestSAN + "."
	}
	switch r.Code {
	case Hangs:
		where := ""
		if !r.Moved {
			where = " on " + r.Square.String()
		}
		switch {
		case r.Free:
			return fmt.Sprintf("After %s, %s's %s takes your %s%s for free.%s", m.SAN, opp, r.By, r.Piece, where, better)
		case value[r.By] < value[r.Piece]:
			return fmt.Sprintf("After %s, %s's %s can take your %s%s, and a %s is worth more than a %s.%s",
				m.SAN, opp, r.By, r.Piece, where, r.Piece, r.By, better)
		}
		return fmt.Sprintf("After %s, %s wins your %s on %s: it is attacked more times than it is defended.%s",
			m.SAN, opp, r.Piece, r.Square, better)
	case BadTrade:
		return fmt.Sprintf("After %s, %s's %s takes your %s back: you gave a %s for a %s.%s",
			m.SAN, opp, r.By, r.Piece, r.Piece, r.Target, better)
	case MissedCapture:
		if r.Free {
			return fmt.Sprintf("%s would have won a %s: it was not defended.", r.Move, r.Piece)
		}
		return fmt.Sprintf("%s would have won material: the %s is worth more than the %s that takes it.", r.Move, r.Piece, r.By)
	case MissedMate:
		switch r.Mate {
		case 1:
			return fmt.Sprintf("You missed mate in one: %s.", r.Move)
		case 2:
			return fmt.Sprintf("You missed mate in two, starting with %s.", r.Move)
		}
		return fmt.Sprintf("You had a forced mate in %s, starting with %s.", number(r.Mate), r.Move)
	case AllowsMate:
		switch {
		case r.Mate == 1 && r.Move != "":
			return fmt.Sprintf("This lets %s checkmate in one: %s.%s", opp, r.Move, better)
		case r.Mate <= 3:
			return fmt.Sprintf("This lets %s checkmate in %s.%s", opp, number(r.Mate), better)
		}
		return fmt.Sprintf("This lets %s force checkmate in %s moves.%s", opp, number(r.Mate), better)
	case Stalemate:
		if r.Mate == 1 {
			return fmt.Sprintf("Stalemate! %s would have checkmated instead.", r.Move)
		}
		return fmt.Sprintf("Stalemate! The game ends in a draw, but %s would have kept your winning position.", r.Move)
	case MissedFork:
		return fmt.Sprintf("%s would have forked %s.", r.Move, list(r.Targets, "the"))
	case AllowsFork:
		return fmt.Sprintf("After %s, %s's %s can fork %s with %s.%s", m.SAN, opp, r.By, list(r.Targets, "your"), r.Move, better)
	case IntoPin:
		if r.Target == chess.King {
			return fmt.Sprintf("After %s, your %s on %s is pinned to your king by %s's %s on %s, and %s can win it.%s",
				m.SAN, r.Piece, r.Square, opp, r.By, r.From, opp, better)
		}
		return fmt.Sprintf("After %s, your %s on %s is pinned to your %s by %s's %s on %s: if it moves, your %s is lost.%s",
			m.SAN, r.Piece, r.Square, r.Target, opp, r.By, r.From, r.Target, better)
	case BetterMove:
		if r.Move == "" {
			return ""
		}
		answer := ""
		if r.Reply != "" && m.Class >= Mistake {
			answer = fmt.Sprintf("After %s, %s has a strong answer: %s. ", m.SAN, opp, r.Reply)
		}
		switch m.Class {
		case Inaccuracy:
			return fmt.Sprintf("%s was a little better.", r.Move)
		case Mistake:
			return fmt.Sprintf("%s%s was better.", answer, r.Move)
		}
		return fmt.Sprintf("%s%s was much better.", answer, r.Move)
	}
	return ""
}
