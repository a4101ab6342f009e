package chess_test

import (
	"fmt"
	"strings"

	"chesstutor/chess"
)

// Example parses a position, lists the legal moves in SAN, and plays a short
// game to checkmate.
func Example() {
	pos, err := chess.ParseFEN("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
	if err != nil {
		fmt.Println(err)
		return
	}
	var sans []string
	for _, m := range pos.LegalMoves() {
		if m.Piece().Type() == chess.Rook {
			sans = append(sans, pos.SAN(m))
		}
	}
	fmt.Println("Rook moves:", strings.Join(sans, " "))

	g, err := chess.NewGame(pos)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := g.Position().ParseSAN("Ra8")
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := g.Play(m); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("Moves:", strings.Join(g.SANs(), " "))
	fmt.Println(g.Outcome().Result, g.Outcome().Reason())

	// The fool's mate from the starting position.
	start, _ := chess.ParseFEN(chess.StartFEN)
	g, _ = chess.NewGame(start)
	for _, s := range []string{"f3", "e5", "g4", "Qh4#"} {
		m, err := g.Position().ParseSAN(s)
		if err != nil {
			fmt.Println(err)
			return
		}
		g.Play(m)
	}
	fmt.Println(g.Outcome().Reason())
	fmt.Print(g.PGN(map[string]string{"Event": "Fool's mate"}))
	// Output:
	// Rook moves: Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1+ Ra2 Ra3 Ra4 Ra5 Ra6 Ra7 Ra8#
	// Moves: Ra8#
	// 1-0 White wins by checkmate
	// Black wins by checkmate
	// [Event "Fool's mate"]
	// [Site "?"]
	// [Date "????.??.??"]
	// [Round "?"]
	// [White "?"]
	// [Black "?"]
	// [Result "0-1"]
	//
	// 1. f3 e5 2. g4 Qh4# {Black wins by checkmate.} 0-1
}
