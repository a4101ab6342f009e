package engine

import (
	"chesstutor/chess"
)

// The evaluation is tapered: every term has a middle-game and an end-game
// value, blended by the material left on the board (phase 24 = all pieces,
// 0 = kings and pawns). Scores are centipawns from the side to move's view.

const (
	phaseKnight = 1
	phaseBishop = 1
	phaseRook   = 2
	phaseQueen  = 4
	phaseTotal  = 4*phaseKnight + 4*phaseBishop + 4*phaseRook + 2*phaseQueen
)

// Material values, indexed by chess.PieceType.
var (
	mgValue = [7]int{0, 85, 325, 340, 480, 990, 0}
	egValue = [7]int{0, 105, 295, 310, 525, 950, 0}
)

// seeValue is the simple 1/3/3/5/9 scale used for move ordering.
var seeValue = [7]int{0, 100, 320, 330, 500, 950, 20000}

// pst[colour][pieceType][square] holds material plus the square bonus.
var mgPST, egPST [2][7][64]int

// Files and ranks as bitboards.
var (
	fileBB      [8]chess.Bitboard
	rankBB      [8]chess.Bitboard
	adjacentBB  [8]chess.Bitboard     // files beside file f
	passedMask  [2][64]chess.Bitboard // squares ahead on the same and adjacent files
	forwardFile [2][64]chess.Bitboard // squares ahead on the same file
	kingZone    [64]chess.Bitboard    // king square plus its neighbours and one more rank ahead-ish
	shieldMask  [2][64]chess.Bitboard // pawn-shield squares in front of a king
	distance    [64][64]int           // Chebyshev distance
	centerDist  [64]int               // distance of a square from the four centre squares
)

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func init() {
	for f := 0; f < 8; f++ {
		for r := 0; r < 8; r++ {
			fileBB[f] |= chess.SquareBB(chess.NewSquare(f, r))
			rankBB[r] |= chess.SquareBB(chess.NewSquare(f, r))
		}
	}
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjacentBB[f] |= fileBB[f-1]
		}
		if f < 7 {
			adjacentBB[f] |= fileBB[f+1]
		}
	}
	for s := chess.Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		for t := chess.Square(0); t < 64; t++ {
			distance[s][t] = max(abs(f-t.File()), abs(r-t.Rank()))
		}
		cf, cr := f, r
		if cf > 3 {
			cf = 7 - cf
		}
		if cr > 3 {
			cr = 7 - cr
		}
		centerDist[s] = (3 - cf) + (3 - cr) // 0 in the centre, 6 in a corner
		for rr := r + 1; rr < 8; rr++ {
			forwardFile[chess.White][s] |= chess.SquareBB(chess.NewSquare(f, rr))
		}
		for rr := r - 1; rr >= 0; rr-- {
			forwardFile[chess.Black][s] |= chess.SquareBB(chess.NewSquare(f, rr))
		}
		files := fileBB[f] | adjacentBB[f]
		for rr := r + 1; rr < 8; rr++ {
			passedMask[chess.White][s] |= files & rankBB[rr]
		}
		for rr := r - 1; rr >= 0; rr-- {
			passedMask[chess.Black][s] |= files & rankBB[rr]
		}
		kingZone[s] = chess.KingAttacks(s) | chess.SquareBB(s)
		for _, c := range []chess.Color{chess.White, chess.Black} {
			dir := 1
			if c == chess.Black {
				dir = -1
			}
			for df := -1; df <= 1; df++ {
				for dr := 1; dr <= 2; dr++ {
					if t := chess.NewSquare(f+df, r+dir*dr); t != chess.NoSquare {
						shieldMask[c][s] |= chess.SquareBB(t)
					}
				}
			}
		}
	}
	initPST()
}

// initPST builds the piece-square tables from a few plain ideas instead of
// hand-typed grids: knights and bishops love the centre, pawns gain as they
// advance (central pawns more in the opening), rooks like the seventh rank,
// the king hides in a corner in the middle game and walks to the centre in
// the end game.
func initPST() {
	for s := chess.Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank() // White's view
		cd := centerDist[s]
		var mg, eg [7]int
		// Pawns.
		centralFile := [8]int{-6, -2, 4, 10, 10, 4, -2, -6}[f]
		if r >= 1 && r <= 6 {
			mg[chess.Pawn] = centralFile*min(r-1, 3)/2 + 3*(r-1)
			eg[chess.Pawn] = 8 * (r - 1)
			if r == 1 && (f == 3 || f == 4) {
				mg[chess.Pawn] -= 12 // unmoved centre pawns block the pieces
			}
			if r == 6 {
				mg[chess.Pawn] += 25
				eg[chess.Pawn] += 30
			}
		}
		// Knights: strongly central, bad on the rim.
		mg[chess.Knight] = 24 - 10*cd
		eg[chess.Knight] = 16 - 8*cd
		if r == 0 {
			mg[chess.Knight] -= 10
		}
		// Bishops: central and on long diagonals.
		mg[chess.Bishop] = 12 - 4*cd
		eg[chess.Bishop] = 8 - 4*cd
		if f == r || f+r == 7 {
			mg[chess.Bishop] += 8
		}
		if r == 0 {
			mg[chess.Bishop] -= 8
		}
		// Rooks: the seventh rank and central files.
		mg[chess.Rook] = [8]int{-4, -2, 2, 6, 6, 2, -2, -4}[f]
		eg[chess.Rook] = 0
		if r == 6 {
			mg[chess.Rook] += 20
			eg[chess.Rook] += 15
		}
		// Queen: mildly central, not out too early.
		mg[chess.Queen] = 4 - 2*cd
		if r >= 4 {
			mg[chess.Queen] -= 5
		}
		eg[chess.Queen] = 12 - 4*cd
		// King: corners and the back rank in the middle game, centre in the end game.
		mg[chess.King] = [8]int{20, 30, 10, -10, -10, 10, 30, 20}[f] - 30*r
		if r > 1 {
			mg[chess.King] -= 20
		}
		eg[chess.King] = 30 - 10*cd
		for t := chess.Pawn; t <= chess.King; t++ {
			mgPST[chess.White][t][s] = mgValue[t] + mg[t]
			egPST[chess.White][t][s] = egValue[t] + eg[t]
			mgPST[chess.Black][t][s^56] = mgValue[t] + mg[t]
			egPST[chess.Black][t][s^56] = egValue[t] + eg[t]
		}
	}
}

// Bonus and penalty weights.
var (
	passedMG = [8]int{0, 5, 8, 15, 30, 55, 90, 0}
	passedEG = [8]int{0, 12, 18, 35, 60, 100, 160, 0}
	// Mobility per reachable square, minus an average number of squares.
	mobMG     = [7]int{0, 0, 4, 5, 3, 1, 0}
	mobEG     = [7]int{0, 0, 4, 5, 4, 2, 0}
	mobCenter = [7]int{0, 0, 4, 6, 6, 12, 0}
	// Attack weights on the squares around a king.
	attackWeight = [7]int{0, 0, 2, 2, 3, 5, 0}
)

// Evaluate returns the static evaluation of pos in centipawns from the point
// of view of the side to move.
func Evaluate(pos *chess.Position) int {
	var mg, eg [2]int
	phase := 0
	occ := pos.Occupied()
	pawns := [2]chess.Bitboard{pos.Pieces(chess.White, chess.Pawn), pos.Pieces(chess.Black, chess.Pawn)}
	own := [2]chess.Bitboard{pos.Occupancy(chess.White), pos.Occupancy(chess.Black)}
	kings := [2]chess.Square{pos.KingSquare(chess.White), pos.KingSquare(chess.Black)}

	// Squares attacked by pawns, which pieces avoid.
	var pawnAtt [2]chess.Bitboard
	pawnAtt[chess.White] = (pawns[chess.White]&^fileBB[0])<<7 | (pawns[chess.White]&^fileBB[7])<<9
	pawnAtt[chess.Black] = (pawns[chess.Black]&^fileBB[0])>>9 | (pawns[chess.Black]&^fileBB[7])>>7

	var kingAttack [2]int // attack units against colour c's king
	var kingAttackers [2]int
	nonPawn := [2]int{}

	for c := chess.White; c <= chess.Black; c++ {
		them := c.Other()
		var zone chess.Bitboard
		if kings[them] != chess.NoSquare {
			zone = kingZone[kings[them]]
		}
		safe := ^own[c] &^ pawnAtt[them]
		for t := chess.Pawn; t <= chess.King; t++ {
			bb := pos.Pieces(c, t)
			for bb != 0 {
				s := bb.PopFirst()
				mg[c] += mgPST[c][t][s]
				eg[c] += egPST[c][t][s]
				var att chess.Bitboard
				switch t {
				case chess.Knight:
					phase += phaseKnight
					nonPawn[c] += 3
					att = chess.KnightAttacks(s)
					if outpost(c, s, pawns, pawnAtt) {
						mg[c] += 22
						eg[c] += 12
					}
				case chess.Bishop:
					phase += phaseBishop
					nonPawn[c] += 3
					att = chess.BishopAttacks(s, occ)
				case chess.Rook:
					phase += phaseRook
					nonPawn[c] += 5
					att = chess.RookAttacks(s, occ)
					f := s.File()
					if fileBB[f]&pawns[c] == 0 {
						if fileBB[f]&pawns[them] == 0 {
							mg[c] += 25
							eg[c] += 10
						} else {
							mg[c] += 12
							eg[c] += 5
						}
					}
				case chess.Queen:
					phase += phaseQueen
					nonPawn[c] += 9
					att = chess.QueenAttacks(s, occ)
				default:
					continue
				}
				n := (att & safe).Count()
				mg[c] += mobMG[t] * (n - mobCenter[t])
				eg[c] += mobEG[t] * (n - mobCenter[t])
				if a := att & zone; a != 0 {
					kingAttackers[them]++
					kingAttack[them] += attackWeight[t] * a.Count()
				}
			}
		}
		if pos.Pieces(c, chess.Bishop).Count() >= 2 {
			mg[c] += 30
			eg[c] += 50
		}
	}

	// Pawn structure.
	for c := chess.White; c <= chess.Black; c++ {
		them := c.Other()
		bb := pawns[c]
		for bb != 0 {
			s := bb.PopFirst()
			f := s.File()
			if adjacentBB[f]&pawns[c] == 0 {
				mg[c] -= 12
				eg[c] -= 15
			}
			if forwardFile[c][s]&pawns[c] != 0 {
				mg[c] -= 10
				eg[c] -= 20
			}
			if passedMask[c][s]&pawns[them] == 0 && forwardFile[c][s]&pawns[c] == 0 {
				rel := s.Rank()
				if c == chess.Black {
					rel = 7 - rel
				}
				mg[c] += passedMG[rel]
				bonus := passedEG[rel]
				// In the end game a passed pawn is worth more when its own
				// king is near and the enemy king is far from its path.
				if kings[them] != chess.NoSquare && kings[c] != chess.NoSquare {
					stop := s + 8
					if c == chess.Black {
						stop = s - 8
					}
					if stop < 64 {
						bonus += (5*distance[kings[them]][stop] - 2*distance[kings[c]][stop]) * rel / 2
					}
				}
				if forwardFile[c][s]&occ != 0 {
					bonus = bonus * 2 / 3 // blocked
				}
				eg[c] += bonus
			}
		}
	}

	// Threats: pieces attacked by a pawn.
	for c := chess.White; c <= chess.Black; c++ {
		them := c.Other()
		targets := own[them] &^ pawns[them] &^ pos.Pieces(them, chess.King)
		if n := (pawnAtt[c] & targets).Count(); n > 0 {
			mg[c] += 30 * n
			eg[c] += 20 * n
		}
	}

	// King safety: a pawn shield, and the pressure of enemy pieces around
	// the king, which counts only while the enemy still has a queen.
	for c := chess.White; c <= chess.Black; c++ {
		them := c.Other()
		k := kings[c]
		if k == chess.NoSquare {
			continue
		}
		shield := (shieldMask[c][k] & pawns[c]).Count()
		mg[c] += 8 * min(shield, 3)
		f := k.File()
		if fileBB[f]&pawns[c] == 0 {
			mg[c] -= 20 // open file at the king
		}
		if kingAttackers[c] >= 2 && pos.Pieces(them, chess.Queen) != 0 {
			u := kingAttack[c]
			mg[c] -= min(u*u/4, 500)
		}
	}

	p := min(phase, phaseTotal)
	us, them := pos.Turn(), pos.Turn().Other()
	mgScore := mg[us] - mg[them]
	egScore := eg[us] - eg[them]
	score := (mgScore*p + egScore*(phaseTotal-p)) / phaseTotal

	// Drawish material: with no pawns, an advantage of less than a rook
	// in pieces rarely wins.
	strong := us
	if score < 0 {
		strong = them
	}
	if pawns[strong] == 0 && nonPawn[strong]-nonPawn[strong.Other()] < 4 {
		score /= 4
	}

	// Mop-up: with a winning material edge and no pawns left for the
	// loser, drive the lone king to the edge and bring our king near, so
	// that the search finds the mate instead of shuffling.
	loser := strong.Other()
	if pawns[loser] == 0 && nonPawn[loser] == 0 && nonPawn[strong] >= 5 && kings[loser] != chess.NoSquare && kings[strong] != chess.NoSquare {
		mop := 10*centerDist[kings[loser]] + 4*(7-distance[kings[strong]][kings[loser]])
		if strong == us {
			score += mop
		} else {
			score -= mop
		}
	}
	return score + 10 // the side to move has the initiative
}

// outpost reports whether a knight of colour c on s stands on an outpost:
// in the enemy half or the centre ranks, guarded by its own pawn, and out
// of reach of the enemy pawns.
func outpost(c chess.Color, s chess.Square, pawns, pawnAtt [2]chess.Bitboard) bool {
	rel := s.Rank()
	if c == chess.Black {
		rel = 7 - rel
	}
	if rel < 3 || rel > 5 || pawnAtt[c]&chess.SquareBB(s) == 0 {
		return false
	}
	// Enemy pawns on the adjacent files ahead of the knight could chase it.
	return passedMask[c][s]&^fileBB[s.File()]&pawns[c.Other()] == 0
}
