package engine

import (
	"math/rand/v2"

	"chesstutor/chess"
)

// weakness makes a search play like a weaker player (C2). Its zero value is
// full strength. Every random decision is drawn from a hash of the
// position, the move and a salt chosen afresh for each search, so that one
// search is consistent with itself (the same blind spot in every
// iteration) while the next move may see things differently.
type weakness struct {
	// noise is the largest error, in centipawns, added to the evaluation
	// of a position: a hazy judgement of who stands better.
	noise int
	// blind is the chance that one of the opponent's captures or checks
	// is not considered at all, at the opponent's replies up to blindPly
	// (1 = the reply to the move being chosen, 3 = also the reply after
	// that). A blind level leaves pieces hanging and walks into mates.
	blind    float64
	blindPly int
	// queenSafe keeps the capture of a queen always in view.
	queenSafe bool
	// overlook is the chance that one of the level's own moves does not
	// occur to it at all: a beginner does not see every capture or mate.
	overlook float64
	// unseen is the chance that one of the opponent's pieces is not
	// noticed as something to take: none of the level's captures of it
	// occur to it, however many of its pieces could take it. A child who
	// has just learned the moves takes a free piece about half the time.
	unseen float64
	// salt mixes the search into the hashes above and into the keys of
	// the transposition table, so that entries scored with one search's
	// blind spots are never reused by another search.
	salt uint64
}

func (w *weakness) active() bool {
	return w.noise > 0 || w.blind > 0 || w.overlook > 0 || w.unseen > 0
}

// mix is a 64-bit finaliser (splitmix64): nearby inputs give unrelated outputs.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// chance returns a number in [0, 1) fixed by the search's salt, the
// position and the move.
func (w *weakness) chance(key uint64, m chess.Move) float64 {
	return w.chanceOf(key, uint64(m))
}

// chanceOf is chance for any thing x decided about in the position key
// (a move, a square).
func (w *weakness) chanceOf(key, x uint64) float64 {
	return float64(mix(key^w.salt^mix(x+0x9e3779b97f4a7c15))>>11) / (1 << 53)
}

// evaluate is the static evaluation as this search sees it.
func (s *Searcher) evaluate(pos *chess.Position) int {
	e := evaluate(pos, s.weights)
	if n := s.weak.noise; n > 0 {
		e += int(mix(pos.Hash()^s.weak.salt)%uint64(2*n+1)) - n
	}
	return e
}

// ttKey is the transposition-table key of a position for this search.
func (s *Searcher) ttKey(key uint64) uint64 { return key ^ s.weak.salt ^ s.weights.salt }

// overlooks reports whether the search fails to consider move m, played
// by the opponent at ply from a position with hash key. Only captures and
// checks are overlooked (a quiet reply rarely changes the material), and
// never when the opponent is in check.
func (s *Searcher) overlooks(ply int, key uint64, m chess.Move, givesCheck, inCheck bool) bool {
	w := &s.weak
	if w.blind <= 0 || ply&1 == 0 || ply > w.blindPly || inCheck {
		return false
	}
	if !m.IsCapture() && !givesCheck {
		return false
	}
	if w.queenSafe && m.IsCapture() && m.Captured().Type() == chess.Queen {
		return false
	}
	return w.chance(key, m) < w.blind
}

// overlookRoot removes the root moves that do not occur to the level,
// keeping at least one: each own move with the chance overlook, and every
// capture of a piece the level does not notice (unseen, decided once per
// target square).
func (s *Searcher) overlookRoot(root *chess.Position, rm []RootMove) []RootMove {
	w := &s.weak
	if (w.overlook <= 0 && w.unseen <= 0) || len(rm) < 2 {
		return rm
	}
	kept := rm[:0]
	var first RootMove
	for i, r := range rm {
		if i == 0 {
			first = r
		}
		if w.overlook > 0 && w.chance(root.Hash()^0x5bd1e995, r.Move) < w.overlook {
			continue
		}
		if w.unseen > 0 && r.Move.IsCapture() && w.chanceOf(root.Hash()^0x27d4eb2f, uint64(capturedSquare(r.Move))) < w.unseen {
			continue
		}
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		kept = append(kept, first)
	}
	return kept
}

// capturedSquare is where the piece m captures stands (for en passant,
// beside the target square).
func capturedSquare(m chess.Move) chess.Square {
	if m.IsEnPassant() {
		return m.To() ^ 8
	}
	return m.To()
}

// SetSeed makes the searcher's choices repeatable: the same seed, position
// and level give the same move when the level's search ends by depth
// rather than by time (as levels 1–6 do on an idle machine).
func (s *Searcher) SetSeed(seed uint64) {
	s.rng = rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909))
}
