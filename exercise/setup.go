package exercise

import (
	"fmt"

	"chesstutor/chess"
	"chesstutor/words"
)

// Setting up the board (X10): some pieces of the starting position stand
// on the board already and the rest wait in a tray; the learner places
// them. The answer is always the starting position, so every reason can
// name the rule of setting up that a misplaced piece breaks.

// StartFEN is the starting position every setup exercise builds.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Setup is one setup exercise: the board as it is given.
type Setup struct {
	Given *chess.Position
}

// SetupResult grades a board the learner has filled.
type SetupResult struct {
	Correct bool
	Right   []chess.Square // tray pieces on their own squares
	Wrong   []chess.Square // tray pieces on a square where they do not stand
	Missed  []chess.Square // squares still waiting for their piece
	// Reasons says, per wrong or missed square, which rule puts which
	// piece where: catalogue messages (exercise.setup_…).
	Reasons map[chess.Square]words.Message
}

var startPos = func() *chess.Position {
	p, err := chess.ParseFEN(StartFEN)
	if err != nil {
		panic(err)
	}
	return p
}()

// Validate checks that the given board is part of the starting position
// (each of its pieces on its starting square) and leaves something to
// place.
func (s Setup) Validate() error {
	if s.Given == nil {
		return fmt.Errorf("exercise: no position")
	}
	for sq := chess.A1; sq <= chess.H8; sq++ {
		if p := s.Given.PieceAt(sq); p != chess.NoPiece && startPos.PieceAt(sq) != p {
			return fmt.Errorf("exercise: a setup exercise gives pieces on their starting squares only, and %s is not one", sq)
		}
	}
	if len(s.Tray()) == 0 {
		return fmt.Errorf("exercise: every piece is on the board already, so there is nothing to set up")
	}
	return nil
}

// pieceOrder is the order of the tray: king, queen, rooks, bishops,
// knights, pawns; White before Black.
var pieceOrder = []chess.PieceType{chess.King, chess.Queen, chess.Rook, chess.Bishop, chess.Knight, chess.Pawn}

// Tray lists the pieces still to place, in a fixed order.
func (s Setup) Tray() []chess.Piece {
	var out []chess.Piece
	for _, c := range []chess.Color{chess.White, chess.Black} {
		for _, t := range pieceOrder {
			p := chess.NewPiece(c, t)
			for sq := chess.A1; sq <= chess.H8; sq++ {
				if startPos.PieceAt(sq) == p && s.Given.PieceAt(sq) != p {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// Home lists the squares where piece p stands at the start.
func Home(p chess.Piece) []chess.Square {
	var out []chess.Square
	for sq := chess.A1; sq <= chess.H8; sq++ {
		if startPos.PieceAt(sq) == p {
			out = append(out, sq)
		}
	}
	return out
}

// Check grades placed (square -> piece, the tray pieces the learner put
// down). It refuses a placement that the tray cannot make: a piece on a
// square already taken by the given board, or more of a piece than the
// tray holds. The refusals are catalogue messages.
func (s Setup) Check(placed map[chess.Square]chess.Piece) (SetupResult, error) {
	left := map[chess.Piece]int{}
	for _, p := range s.Tray() {
		left[p]++
	}
	for sq, p := range placed {
		if s.Given.PieceAt(sq) != chess.NoPiece {
			return SetupResult{}, words.Errorf("practice.refuse_setup_taken", "Square", sq)
		}
		if left[p] == 0 {
			return SetupResult{}, words.Errorf("practice.refuse_setup_piece")
		}
		left[p]--
	}
	res := SetupResult{Reasons: map[chess.Square]words.Message{}}
	for sq := chess.A1; sq <= chess.H8; sq++ {
		want := startPos.PieceAt(sq)
		got, ok := placed[sq]
		switch {
		case ok && got == want:
			res.Right = append(res.Right, sq)
		case ok:
			res.Wrong = append(res.Wrong, sq)
			res.Reasons[sq] = setupWord("wrong", "Piece", pieceName(got), "Square", sq, "Why", rule(got))
		}
		if want != chess.NoPiece && s.Given.PieceAt(sq) != want && (!ok || got != want) {
			res.Missed = append(res.Missed, sq)
			if !ok {
				res.Reasons[sq] = setupWord("missed", "Piece", pieceName(want), "Square", sq, "Why", rule(want))
			}
		}
	}
	res.Correct = len(res.Wrong) == 0 && len(res.Missed) == 0
	return res, nil
}

// Answer is the placement that solves the exercise.
func (s Setup) Answer() map[chess.Square]chess.Piece {
	out := map[chess.Square]chess.Piece{}
	for sq := chess.A1; sq <= chess.H8; sq++ {
		if p := startPos.PieceAt(sq); p != chess.NoPiece && s.Given.PieceAt(sq) != p {
			out[sq] = p
		}
	}
	return out
}

// setupWord is a reason of a setup exercise: its key under exercise.setup_.
func setupWord(key string, args ...any) words.Message {
	return words.M("exercise.setup_"+key, args...)
}

// pieceName is a piece with its colour: "the white queen".
func pieceName(p chess.Piece) words.Message { return words.M("board.piece_" + p.String()) }

// rule is the rule of setting up that places p.
func rule(p chess.Piece) words.Message {
	homes := Home(p)
	switch p.Type() {
	case chess.Pawn:
		return setupWord("rule_pawn_" + p.Color().String())
	case chess.Queen:
		return setupWord("rule_queen_"+p.Color().String(), "Square", homes[0])
	case chess.King:
		return setupWord("rule_king", "Square", homes[0])
	}
	return setupWord("rule_"+p.Type().String(), "First", homes[0], "Second", homes[1])
}
