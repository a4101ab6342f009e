// Package review looks back at a finished game (G23): the engine analyses
// every position (Analyse), every move is classed from best to blunder by
// how much of the mover's winning chances it gave away, and mistakes get a
// reason worked out from the position — a piece left to be taken, a mate
// missed or allowed, a stalemate thrown in, a capture, fork or pin missed —
// which Move.Sentence turns into words a beginner can follow (Build).
//
// Everything a Review holds is codes and numbers (N7): a Reason is a code
// with the squares, pieces and moves it talks about, and its sentence is
// built only when it is shown, so wording can change without touching a
// stored review.
//
// # Winning chances
//
// An engine score in centipawns (cp, from White's side) becomes White's
// winning chances in percent with the logistic curve
//
//	W(cp) = 100 / (1 + exp(-0.00368208 · cp))
//
// whose constant was fitted by lichess to the results of real games: 0 cp
// is 50 %, +100 cp (a pawn up) about 59 %, +300 cp (a piece) about 75 %,
// +900 cp (a queen) about 96 %. A forced mate counts as 100 % for the side
// that mates. Working in winning chances rather than centipawns is what
// makes a review fair to a beginner: dropping a knight while a queen ahead
// changes little, dropping it in an equal position changes everything.
// The curve was fitted to Stockfish's centipawns; the built-in engine's
// are put on that scale first (Normalise).
//
// # Classes
//
// A move's loss is the mover's winning chances before it minus after it,
// in percentage points, each side of the move scored by the engine:
//
//	best        the engine's own choice, or less than 1 point lost
//	good        less than 5 points
//	inaccuracy  5 to 10 points (about a pawn given away in a level game)
//	mistake     10 to 20 points (about two pawns or the exchange)
//	blunder     20 points or more (a piece, or the game)
//
// Two floors make sure the moments a beginner must learn from are never
// waved through: missing a mate in one or two is at least a mistake, and
// stalemating the opponent from a won position is a blunder.
package review

import (
	"fmt"
	"math"

	"chesstutor/chess"
)

// Class is how good a move was, from best to blunder.
type Class uint8

// The classes, best first. The zero value is Best.
const (
	Best Class = iota
	Good
	Inaccuracy
	Mistake
	Blunder
)

var classCodes = [...]string{"best", "good", "inaccuracy", "mistake", "blunder"}

// String returns the class code: "best", "good", "inaccuracy", "mistake" or
// "blunder" (the API's `class` and the pages' `data-class`).
func (c Class) String() string {
	if int(c) < len(classCodes) {
		return classCodes[c]
	}
	return ""
}

// ParseClass returns the class with the given code.
func ParseClass(s string) (Class, error) {
	for i, code := range classCodes {
		if code == s {
			return Class(i), nil
		}
	}
	return 0, fmt.Errorf("review: unknown move class %q", s)
}

// The class thresholds, in percentage points of winning chances lost.
const (
	bestLoss       = 1.0
	goodLoss       = 5.0
	inaccuracyLoss = 10.0
	mistakeLoss    = 20.0
)

// Classify returns the class of a move that lost loss percentage points of
// the mover's winning chances; engineMove reports whether it was the
// engine's own choice.
func Classify(loss float64, engineMove bool) Class {
	switch {
	case engineMove || loss < bestLoss:
		return Best
	case loss < goodLoss:
		return Good
	case loss < inaccuracyLoss:
		return Inaccuracy
	case loss < mistakeLoss:
		return Mistake
	}
	return Blunder
}

// Eval is the value of a position from White's side: centipawns, or a
// forced mate. Mate > 0 means White mates in Mate moves, Mate < 0 that
// Black does; a position that is already checkmate has IsMate set and
// Mate 0 (the side to move is the one mated).
type Eval struct {
	CP     int
	Mate   int
	IsMate bool
}

// MateCP is the centipawn value the graph and the PGN give a forced mate.
const MateCP = 10000

// winSlope is the constant of the winning-chances curve (see the package
// documentation).
const winSlope = 0.00368208

// WinPercent returns White's winning chances in percent for a score of cp
// centipawns from White's side.
func WinPercent(cp int) float64 {
	return 100 / (1 + math.Exp(-winSlope*float64(cp)))
}

// White returns White's winning chances in the position, in percent; toMove
// is the side to move, which says who is mated when IsMate and Mate is 0.
func (e Eval) White(toMove chess.Color) float64 {
	if e.IsMate {
		switch {
		case e.Mate > 0:
			return 100
		case e.Mate < 0:
			return 0
		case toMove == chess.White:
			return 0
		}
		return 100
	}
	return WinPercent(e.CP)
}

// For returns side c's winning chances in percent.
func (e Eval) For(c, toMove chess.Color) float64 {
	w := e.White(toMove)
	if c == chess.Black {
		return 100 - w
	}
	return w
}

// MateFor returns the number of moves in which side c mates by force, or 0
// when it does not (a position already checkmate counts as 0 too).
func (e Eval) MateFor(c chess.Color) int {
	if !e.IsMate {
		return 0
	}
	if c == chess.White && e.Mate > 0 {
		return e.Mate
	}
	if c == chess.Black && e.Mate < 0 {
		return -e.Mate
	}
	return 0
}

// Clamped returns the evaluation in centipawns from White's side, a forced
// mate as ±MateCP, for the graph.
func (e Eval) Clamped(toMove chess.Color) int {
	if !e.IsMate {
		return max(-MateCP, min(MateCP, e.CP))
	}
	if e.White(toMove) >= 50 {
		return MateCP
	}
	return -MateCP
}

// Move is one reviewed move.
type Move struct {
	Ply   int         // 1 for the first move of the game
	Color chess.Color // the side that played it
	Move  chess.Move
	SAN   string
	Class Class
	// Eval is the position after the move, from White's side.
	Eval Eval
	// Loss is the mover's winning chances lost, in percentage points.
	Loss float64
	// Best is the engine's move in the position before, NoMove when the
	// played move was it; BestSAN is its notation.
	Best    chess.Move
	BestSAN string
	// Book is set for an opening move that follows the book's main lines
	// (see book.go); its Class is Best and its Code "book".
	Book bool
	// Reason says why a mistake or blunder was one (or what an inaccuracy
	// missed); its Code is empty for the better moves.
	Reason Reason
}

// BookCode is the code of a book move, in place of its class's.
const BookCode = "book"

// Code is the move's class code, or BookCode for a book move: what the
// API's `class` and the page's `data-class` say.
func (m Move) Code() string {
	if m.Book {
		return BookCode
	}
	return m.Class.String()
}

// Summary counts one side's moves by class and picks its key moments.
type Summary struct {
	Counts [5]int // indexed by Class
	// Key holds the plies of up to three moments that decided the game
	// for this side: its costliest moves, in game order.
	Key []int
}

// Review is a reviewed game.
type Review struct {
	Moves        []Move
	White, Black Summary
}

// Side returns the summary of side c.
func (r *Review) Side(c chess.Color) *Summary {
	if c == chess.White {
		return &r.White
	}
	return &r.Black
}
