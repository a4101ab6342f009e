package review

import (
	"fmt"
	"strings"
	"sync"

	"chesstutor/chess"
)

// The opening book (issue 32): the main lines a beginner's opening book
// shows, written here from the openings' well-known move orders. A move
// that follows them from the first move on is "book" and never criticised,
// whatever a short search thinks of it; the first move off the book is
// judged as every other. Positions, not move orders, are matched, so a
// line reached by another order is book too.
var bookLines = []string{
	// Open games: 1. e4 e5.
	"e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4+ Bd2 Bxd2+ Nbxd2 d5", // Italian Game, Giuoco Piano
	"e4 e5 Nf3 Nc6 Bc4 Bc5 d3 Nf6 c3 d6 O-O O-O",                        // Giuoco Pianissimo
	"e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6 d3 d6 c3 O-O",
	"e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7 O-O O-O",          // Two Knights, quiet line
	"e4 e5 Nf3 Nc6 Bc4 Nf6 Ng5 d5 exd5 Na5 Bb5+ c6", // Two Knights, Ng5
	"e4 e5 Nf3 Nc6 Bc4 Nf6 d4 exd4 O-O Nxe4 Re1 d5",
	"e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3", // Ruy Lopez
	"e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4 d4 Nd6 Bxc6 dxc6 dxe5 Nf5",     // Berlin Defence
	"e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6",                        // Exchange Variation
	"e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6 Nxc6 bxc6 e5 Qe7",              // Scotch Game
	"e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Bc5 Be3 Qf6 c3 Nge7",
	"e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 Bb4 O-O O-O d3 d6", // Four Knights
	"e4 e5 Nf3 Nc6 Nc3 Nf6 d4 exd4 Nxd4 Bb4",
	"e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4 d4 d5 Bd3", // Petrov Defence
	"e4 e5 Nf3 d6 d4 exd4 Nxd4 Nf6 Nc3 Be7",    // Philidor Defence
	"e4 e5 Nc3 Nf6 Nf3 Nc6",                    // Vienna Game
	"e4 e5 Bc4 Nf6 d3 c6",                      // Bishop's Opening
	"e4 e5 f4 exf4 Nf3 g5",                     // King's Gambit accepted
	// Semi-open games.
	"e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5", // Sicilian, Najdorf
	"e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6 Be3 Bg7 f3 O-O",
	"e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5 Ndb5 d6", // Sicilian, Sveshnikov
	"e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6 Nc3 Bg7",
	"e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nf6 Nc3 d6",
	"e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6",   // Closed Sicilian
	"e4 c5 c3 Nf6 e5 Nd5 d4 cxd4 Nf3",     // Alapin
	"e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7 e5 Nfd7", // French Defence
	"e4 e6 d4 d5 Nc3 Bb4 e5 c5 a3 Bxc3+ bxc3",
	"e4 e6 d4 d5 e5 c5 c3 Nc6 Nf3 Qb6",
	"e4 e6 d4 d5 Nd2 Nf6 e5 Nfd7",
	"e4 e6 d4 d5 exd5 exd5 Nf3 Nf6",
	"e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6 h4 h6", // Caro-Kann
	"e4 c6 d4 d5 e5 Bf5 Nf3 e6",
	"e4 c6 d4 d5 exd5 cxd5 Bd3 Nc6 c3 Nf6",
	"e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 c6", // Scandinavian Defence
	"e4 d5 exd5 Nf6 d4 Nxd5 Nf3",
	"e4 d6 d4 Nf6 Nc3 g6 Nf3 Bg7 Be2 O-O", // Pirc Defence
	"e4 g6 d4 Bg7 Nc3 d6",                 // Modern Defence
	"e4 Nf6 e5 Nd5 d4 d6 Nf3",             // Alekhine Defence
	// Closed games: 1. d4 d5.
	"d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 Nbd7", // Queen's Gambit Declined
	"d4 d5 c4 e6 Nc3 Nf6 cxd5 exd5 Bg5 Be7",
	"d4 d5 c4 e6 Nf3 Nf6 Nc3 Be7 Bf4 O-O e3",
	"d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5",        // Slav Defence
	"d4 d5 c4 c6 Nc3 Nf6 e3 e6 Nf3 Nbd7",         // Semi-Slav
	"d4 d5 c4 dxc4 Nf3 Nf6 e3 e6 Bxc4 c5 O-O a6", // Queen's Gambit Accepted
	"d4 d5 c4 dxc4 e4 e5",
	"d4 d5 Nf3 Nf6 Bf4 e6 e3 c5 c3 Nc6", // London System
	"d4 d5 Bf4 Nf6 e3 e6 Nf3 c5 c3 Nc6",
	"d4 d5 Nf3 Nf6 e3 e6 Bd3 c5 c3 Nc6", // Colle System
	"d4 d5 Nf3 Nf6 c4 e6 Nc3 Be7",
	// Indian defences: 1. d4 Nf6.
	"d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5 O-O Nc6", // King's Indian
	"d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5 e4 Nxc3 bxc3 Bg7",    // Grünfeld
	"d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 Nf3 c5",         // Nimzo-Indian
	"d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3 Bxc3+ Qxc3",
	"d4 Nf6 c4 e6 Nf3 b6 g3 Bb7 Bg2 Be7 O-O O-O", // Queen's Indian
	"d4 Nf6 c4 e6 g3 d5 Bg2 Be7 Nf3 O-O",         // Catalan
	"d4 Nf6 Nf3 g6 Bf4 Bg7 e3 O-O",
	"d4 Nf6 Bf4 e6 e3 c5 c3",
	"d4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7", // Dutch Defence
	// Flank openings.
	"c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5 cxd5 Nxd5 Bg2", // English Opening
	"c4 Nf6 Nc3 e6 e4 d5 e5",
	"c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7",
	"Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4", // Réti Opening
	"Nf3 Nf6 c4 g6 Nc3 Bg7 e4 d6 d4 O-O",
}

// bookPositions holds every position the book's lines reach.
var bookPositions = sync.OnceValue(func() map[uint64]bool {
	out := map[uint64]bool{}
	for _, line := range bookLines {
		pos := standardStart()
		for _, san := range strings.Fields(line) {
			m, err := pos.ParseSAN(san)
			if err != nil {
				panic(fmt.Sprintf("review: book line %q: %s: %v", line, san, err))
			}
			pos = pos.Play(m)
			out[pos.Hash()] = true
		}
	}
	return out
})

const standardFEN = chess.StartFEN

func standardStart() *chess.Position {
	p, err := chess.ParseFEN(standardFEN)
	if err != nil {
		panic(err)
	}
	return p
}

// book reports whether the move to ply and every move before it reached a
// position of the book from the standard starting position.
func book(g *game, ply int) bool {
	if g.positions[0].FEN() != standardFEN {
		return false
	}
	bp := bookPositions()
	for i := 1; i <= ply; i++ {
		if !bp[g.positions[i].Hash()] {
			return false
		}
	}
	return true
}
