// Package chess holds the rules of chess for the site (R1–R13): squares,
// pieces, positions, a fast strictly legal move generator on bitboards,
// FEN, SAN, UCI and PGN notation, and games with their outcomes.
//
// Positions are immutable values: Play returns a new position and leaves
// the old one alone. The engine uses PlayInto and AppendLegalMoves, which do
// not allocate. Every error starts with "chess:" and says what is wrong; no
// input string makes the package panic.
//
// A short tour:
//
//	pos, err := chess.ParseFEN("7k/8/8/8/8/8/8/R6K w - - 0 1")
//	if err != nil { … }
//	for _, m := range pos.LegalMoves() {
//		fmt.Println(pos.SAN(m)) // Kg1, Kg2, Kh2, Rb1, …, Ra8#
//	}
//
//	g, _ := chess.NewGame(pos)
//	m, _ := pos.ParseSAN("Ra8#")
//	g.Play(m)
//	fmt.Println(g.Outcome().Reason()) // White wins by checkmate
//
// See Example for a program that runs.
package chess
