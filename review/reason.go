package review

import (
	"encoding/json"
	"fmt"
	"slices"

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
	// on Square with a By, for free (Free) or with a cheaper piece; or,
	// with Recapture, took back on Square where the opponent had just
	// captured.
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
	// opponent's strong answer to the move played. Lost, when set, is the
	// material (in pawns) the answer's line wins, Piece the most valuable
	// piece it takes; else Won is what Move's line would have won, Target
	// the most valuable piece it takes.
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
	// Recapture: MissedCapture's move took back (see MissedCapture).
	Recapture bool
	// Lost and Won: BetterMove's material, in pawns (see BetterMove).
	Lost, Won int
	// Decided is set when the game was decided before the move: "lost"
	// when the mover's chances were already at most 10 %, "won" when
	// they were at least 90 % and stayed so. A free piece or a mate
	// walked into is still called a blunder then, and the words say the
	// game was already decided.
	Decided string
}

// Decided values.
const (
	AlreadyLost = "lost"
	AlreadyWon  = "won"
)

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
	// Recapture, Lost, Won, Decided: see Reason.
	Recapture bool   `json:"recapture,omitempty"`
	Lost      int    `json:"lost,omitempty"`
	Won       int    `json:"won,omitempty"`
	Decided   string `json:"decided,omitempty"`
}

// MarshalJSON writes the reason with piece names and square names.
func (r Reason) MarshalJSON() ([]byte, error) {
	w := reasonWire{Code: r.Code, Move: r.Move, Reply: r.Reply, Piece: r.Piece.String(), By: r.By.String(),
		Target: r.Target.String(), Mate: r.Mate, Free: r.Free, Moved: r.Moved, Recapture: r.Recapture,
		Lost: r.Lost, Won: r.Won, Decided: r.Decided}
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
	if w.Decided != "" && w.Decided != AlreadyLost && w.Decided != AlreadyWon {
		return fmt.Errorf("review: unknown decided %q", w.Decided)
	}
	out := Reason{Code: w.Code, Move: w.Move, Reply: w.Reply, Mate: w.Mate, Free: w.Free, Moved: w.Moved,
		Recapture: w.Recapture, Lost: w.Lost, Won: w.Won, Decided: w.Decided}
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
