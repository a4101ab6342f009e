package chess

import (
	"fmt"
	"math/bits"
)

// Precomputed attack tables, built once when the package loads.

const (
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7
	rank1 Bitboard = 0xFF
	rank2 Bitboard = rank1 << 8
	rank3 Bitboard = rank1 << 16
	rank6 Bitboard = rank1 << 40
	rank7 Bitboard = rank1 << 48
	rank8 Bitboard = rank1 << 56

	lightSquares Bitboard = 0x55AA55AA55AA55AA
	darkSquares  Bitboard = ^lightSquares
)

var (
	knightTable [64]Bitboard
	kingTable   [64]Bitboard
	pawnTable   [2][64]Bitboard
	between     [64][64]Bitboard // squares strictly between two aligned squares
	line        [64][64]Bitboard // the whole line through two aligned squares
	rookEmpty   [64]Bitboard
	bishopEmpty [64]Bitboard

	rookMagics   [64]magic
	bishopMagics [64]magic
	rookTable    [0x19000]Bitboard
	bishopTable  [0x1480]Bitboard
)

// magic is one square's entry of the "fancy" magic bitboard scheme.
type magic struct {
	mask    Bitboard
	magic   uint64
	attacks []Bitboard
	shift   uint8
}

func (m *magic) index(occ Bitboard) uint {
	return uint(uint64(occ&m.mask) * m.magic >> m.shift)
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func slidingAttack(dirs *[4][2]int, s Square, occ Bitboard) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			sq := NewSquare(f, r)
			att |= 1 << sq
			if occ&(1<<sq) != 0 {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return att
}

func stepAttacks(s Square, steps [][2]int) Bitboard {
	var att Bitboard
	for _, d := range steps {
		if t := NewSquare(s.File()+d[0], s.Rank()+d[1]); t != NoSquare {
			att |= 1 << t
		}
	}
	return att
}

func init() {
	knightSteps := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingSteps := [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for s := A1; s <= H8; s++ {
		knightTable[s] = stepAttacks(s, knightSteps)
		kingTable[s] = stepAttacks(s, kingSteps)
		pawnTable[White][s] = stepAttacks(s, [][2]int{{-1, 1}, {1, 1}})
		pawnTable[Black][s] = stepAttacks(s, [][2]int{{-1, -1}, {1, -1}})
		rookEmpty[s] = slidingAttack(&rookDirs, s, 0)
		bishopEmpty[s] = slidingAttack(&bishopDirs, s, 0)
	}
	initMagics(rookTable[:], &rookMagics, &rookDirs, &rookMagicNumbers)
	initMagics(bishopTable[:], &bishopMagics, &bishopDirs, &bishopMagicNumbers)
	for a := A1; a <= H8; a++ {
		for b := A1; b <= H8; b++ {
			if a == b {
				continue
			}
			ab := Bitboard(1)<<a | Bitboard(1)<<b
			if rookEmpty[a].Has(b) {
				line[a][b] = rookEmpty[a]&rookEmpty[b] | ab
				between[a][b] = slidingAttack(&rookDirs, a, ab) & slidingAttack(&rookDirs, b, ab)
			} else if bishopEmpty[a].Has(b) {
				line[a][b] = bishopEmpty[a]&bishopEmpty[b] | ab
				between[a][b] = slidingAttack(&bishopDirs, a, ab) & slidingAttack(&bishopDirs, b, ab)
			}
		}
	}
}

// prng is the xorshift64* generator used to search magic numbers; fixed
// seeds make the search short and the tables the same on every start.
type prng uint64

func (p *prng) next() uint64 {
	s := uint64(*p)
	s ^= s >> 12
	s ^= s << 25
	s ^= s >> 27
	*p = prng(s)
	return s * 2685821657736338717
}

func (p *prng) sparse() uint64 { return p.next() & p.next() & p.next() }

// initMagics fills a slider's magic entries and attack table from its
// stored magic numbers. A number that sends two occupancies with different
// attacks to one slot would make move generation wrong, so it panics.
func initMagics(table []Bitboard, magics *[64]magic, dirs *[4][2]int, numbers *[64]uint64) {
	offset := 0
	for s := A1; s <= H8; s++ {
		m := &magics[s]
		m.mask = magicMask(dirs, s)
		m.shift = uint8(64 - m.mask.Count())
		m.magic = numbers[s]
		size := 1 << m.mask.Count()
		m.attacks = table[offset : offset+size : offset+size]
		for b := Bitboard(0); ; {
			idx, att := m.index(b), slidingAttack(dirs, s, b)
			// A slider always attacks a neighbour, so an empty slot is
			// one not filled yet.
			if old := m.attacks[idx]; old != 0 && old != att {
				panic(fmt.Sprintf("chess: the magic number of square %v sends two occupancies to one slot", s))
			}
			m.attacks[idx] = att
			b = (b - m.mask) & m.mask
			if b == 0 {
				break
			}
		}
		offset += size
	}
}

// magicMask is the squares whose occupancy changes a slider's attacks from
// s: its rays on an empty board without the board's edges.
func magicMask(dirs *[4][2]int, s Square) Bitboard {
	edges := ((rank1 | rank8) &^ (rank1 << (8 * s.Rank()))) | ((fileA | fileH) &^ (fileA << s.File()))
	return slidingAttack(dirs, s, 0) &^ edges
}

// findMagics searches for a magic number for every square, as Stockfish
// does (sparse random numbers from a seed for each rank, tried until one
// sends no two occupancies with different attacks to one slot). The
// numbers it finds are stored in magics.go, because the search cost every
// program and test binary that uses the package 0.15–0.3 s at start;
// TestStoredMagicsAreFound runs it again.
func findMagics(dirs *[4][2]int) [64]uint64 {
	seeds := [8]uint64{728, 10316, 55013, 32803, 12281, 15100, 16645, 255}
	var occupancy, reference, attacks [4096]Bitboard
	var epoch [4096]int
	var found [64]uint64
	cnt := 0
	for s := A1; s <= H8; s++ {
		m := magic{mask: magicMask(dirs, s)}
		m.shift = uint8(64 - m.mask.Count())
		size := 0
		for b := Bitboard(0); ; {
			occupancy[size] = b
			reference[size] = slidingAttack(dirs, s, b)
			size++
			b = (b - m.mask) & m.mask
			if b == 0 {
				break
			}
		}
		rng := prng(seeds[s.Rank()])
		for i := 0; i < size; {
			for m.magic = 0; bits.OnesCount64(m.magic*uint64(m.mask)>>56) < 6; {
				m.magic = rng.sparse()
			}
			cnt++
			for i = 0; i < size; i++ {
				idx := m.index(occupancy[i])
				if epoch[idx] < cnt {
					epoch[idx] = cnt
					attacks[idx] = reference[i]
				} else if attacks[idx] != reference[i] {
					break
				}
			}
		}
		found[s] = m.magic
	}
	return found
}

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return knightTable[s&63] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingTable[s&63] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnTable[c&1][s&63] }

// BishopAttacks returns the squares a bishop on s attacks when the squares in
// occ are occupied (the first blocker in each direction is included).
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s&63]
	return m.attacks[m.index(occ)]
}

// RookAttacks returns the squares a rook on s attacks when the squares in occ
// are occupied.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s&63]
	return m.attacks[m.index(occ)]
}

// QueenAttacks returns the squares a queen on s attacks when the squares in
// occ are occupied.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return BishopAttacks(s, occ) | RookAttacks(s, occ)
}
