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

// seeValue is the simple 1/3/3/5/9 scale used for move ordering.
var seeValue = [7]int{0, 100, 320, 330, 500, 950, 20000}

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
	handWeights.init()
	tunedWeights.init()
}

// weights are the numbers of the evaluation, in centipawns: material, the
// piece-square tables (built from a few plain ideas instead of hand-typed
// grids, see init), and the bonuses and penalties below. MG fields count in
// the middle game, EG fields in the end game. Two sets exist: the hand-set
// one, in the pawns a person counts, which analysis uses and levels 1–7
// were calibrated with (it leaves the threat, hanging-piece, safe-check
// and pawn-chain terms at zero), and the one tuned on the results of
// self-play games (tuned.go, written by cmd/tune), which level 8 plays with.
type weights struct {
	MgValue, EgValue [7]int // by chess.PieceType

	// Pawns gain as they advance, central pawns more in the opening.
	PawnFileMG                     [8]int
	PawnAdvanceMG, PawnAdvanceEG   int
	PawnCentreHome                 int // unmoved centre pawns block the pieces
	PawnSixthMG, PawnSixthEG       int
	KnightCentreMG, KnightCentreEG int // on the centre squares, less a step per square away
	KnightStepMG, KnightStepEG     int
	KnightHome                     int
	BishopCentreMG, BishopCentreEG int
	BishopStepMG, BishopStepEG     int
	BishopDiagonal, BishopHome     int
	RookFileMG                     [8]int
	RookSeventhMG, RookSeventhEG   int
	QueenCentreMG, QueenStepMG     int
	QueenAdvanced                  int // out too early
	QueenCentreEG, QueenStepEG     int
	KingFileMG                     [8]int // the king hides in a corner in the middle game
	KingRankMG, KingAdvancedMG     int
	KingCentreEG, KingStepEG       int    // and walks to the centre in the end game
	PassedMG, PassedEG             [8]int // by rank from the pawn's own side
	PassedEnemyKing, PassedOwnKing int    // end-game bonus per square of king distance, times rank / 2
	PassedBlocked                  int    // the share of the bonus kept, in 48ths, when a piece stands in front
	MobMG, MobEG                   [7]int // per reachable square
	MobCenter                      [7]int // minus an average number of squares
	Outpost                        [2]int // mg, eg
	RookOpen, RookHalfOpen         [2]int
	BishopPair                     [2]int
	Isolated, Doubled              [2]int
	Supported, Phalanx             [2]int // a pawn guarded by a pawn, or beside one
	PawnThreat                     [2]int // a piece attacked by a pawn
	MinorThreat                    [2]int // a rook or queen attacked by a knight or bishop
	RookThreat                     [2]int // a queen attacked by a rook
	Hanging                        [2]int // a piece attacked and not defended enough
	Shield, KingOpenFile           int
	AttackWeight                   [7]int // attack units per square near the enemy king
	SafeCheck                      [7]int // attack units for a safe check by a piece type
	KingDanger                     int    // the middle-game penalty is units² × KingDanger / 64
	Tempo                          int

	// mgPST and egPST hold material plus the square bonus, by colour,
	// piece type and square.
	mgPST, egPST [2][7][64]int
	// salt keeps the transposition-table entries of one set from being
	// read by a search with the other.
	salt uint64
}

var handWeights = weights{
	MgValue:        [7]int{0, 85, 325, 340, 480, 990, 0},
	EgValue:        [7]int{0, 105, 295, 310, 525, 950, 0},
	PawnFileMG:     [8]int{-6, -2, 4, 10, 10, 4, -2, -6},
	PawnAdvanceMG:  3,
	PawnAdvanceEG:  8,
	PawnCentreHome: 12,
	PawnSixthMG:    25, PawnSixthEG: 30,
	KnightCentreMG: 24, KnightCentreEG: 16, KnightStepMG: 10, KnightStepEG: 8, KnightHome: 10,
	BishopCentreMG: 12, BishopCentreEG: 8, BishopStepMG: 4, BishopStepEG: 4, BishopDiagonal: 8, BishopHome: 8,
	RookFileMG:    [8]int{-4, -2, 2, 6, 6, 2, -2, -4},
	RookSeventhMG: 20, RookSeventhEG: 15,
	QueenCentreMG: 4, QueenStepMG: 2, QueenAdvanced: 5, QueenCentreEG: 12, QueenStepEG: 4,
	KingFileMG: [8]int{20, 30, 10, -10, -10, 10, 30, 20},
	KingRankMG: 30, KingAdvancedMG: 20, KingCentreEG: 30, KingStepEG: 10,
	PassedMG:        [8]int{0, 5, 8, 15, 30, 55, 90, 0},
	PassedEG:        [8]int{0, 12, 18, 35, 60, 100, 160, 0},
	PassedEnemyKing: 5, PassedOwnKing: 2, PassedBlocked: 32,
	MobMG:        [7]int{0, 0, 4, 5, 3, 1, 0},
	MobEG:        [7]int{0, 0, 4, 5, 4, 2, 0},
	MobCenter:    [7]int{0, 0, 4, 6, 6, 12, 0},
	Outpost:      [2]int{22, 12},
	RookOpen:     [2]int{25, 10},
	RookHalfOpen: [2]int{12, 5},
	BishopPair:   [2]int{30, 50},
	Isolated:     [2]int{12, 15},
	Doubled:      [2]int{10, 20},
	PawnThreat:   [2]int{30, 20},
	Shield:       8, KingOpenFile: 20,
	AttackWeight: [7]int{0, 0, 2, 2, 3, 5, 0},
	KingDanger:   16,
	Tempo:        10,
	salt:         0x9e3779b97f4a7c15,
}

func (w *weights) init() {
	for s := chess.Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank() // White's view
		cd := centerDist[s]
		var mg, eg [7]int
		if r >= 1 && r <= 6 {
			mg[chess.Pawn] = w.PawnFileMG[f]*min(r-1, 3)/2 + w.PawnAdvanceMG*(r-1)
			eg[chess.Pawn] = w.PawnAdvanceEG * (r - 1)
			if r == 1 && (f == 3 || f == 4) {
				mg[chess.Pawn] -= w.PawnCentreHome
			}
			if r == 6 {
				mg[chess.Pawn] += w.PawnSixthMG
				eg[chess.Pawn] += w.PawnSixthEG
			}
		}
		mg[chess.Knight] = w.KnightCentreMG - w.KnightStepMG*cd
		eg[chess.Knight] = w.KnightCentreEG - w.KnightStepEG*cd
		if r == 0 {
			mg[chess.Knight] -= w.KnightHome
		}
		mg[chess.Bishop] = w.BishopCentreMG - w.BishopStepMG*cd
		eg[chess.Bishop] = w.BishopCentreEG - w.BishopStepEG*cd
		if f == r || f+r == 7 {
			mg[chess.Bishop] += w.BishopDiagonal
		}
		if r == 0 {
			mg[chess.Bishop] -= w.BishopHome
		}
		mg[chess.Rook] = w.RookFileMG[f]
		if r == 6 {
			mg[chess.Rook] += w.RookSeventhMG
			eg[chess.Rook] += w.RookSeventhEG
		}
		mg[chess.Queen] = w.QueenCentreMG - w.QueenStepMG*cd
		if r >= 4 {
			mg[chess.Queen] -= w.QueenAdvanced
		}
		eg[chess.Queen] = w.QueenCentreEG - w.QueenStepEG*cd
		mg[chess.King] = w.KingFileMG[f] - w.KingRankMG*r
		if r > 1 {
			mg[chess.King] -= w.KingAdvancedMG
		}
		eg[chess.King] = w.KingCentreEG - w.KingStepEG*cd
		for t := chess.Pawn; t <= chess.King; t++ {
			w.mgPST[chess.White][t][s] = w.MgValue[t] + mg[t]
			w.egPST[chess.White][t][s] = w.EgValue[t] + eg[t]
			w.mgPST[chess.Black][t][s^56] = w.MgValue[t] + mg[t]
			w.egPST[chess.Black][t][s^56] = w.EgValue[t] + eg[t]
		}
	}
}

// Evaluate returns the static evaluation of pos in centipawns from the point
// of view of the side to move, with the hand-set weights.
func Evaluate(pos *chess.Position) int { return evaluate(pos, &handWeights) }

func evaluate(pos *chess.Position, w *weights) int {
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
	// Squares each colour attacks: by piece type, by anything, and by at
	// least two pieces.
	var attackedBy [2][7]chess.Bitboard
	var attacked, attacked2 [2]chess.Bitboard
	for c := chess.White; c <= chess.Black; c++ {
		attackedBy[c][chess.Pawn] = pawnAtt[c]
		attacked[c] = pawnAtt[c]
		if kings[c] != chess.NoSquare {
			ka := chess.KingAttacks(kings[c])
			attackedBy[c][chess.King] = ka
			attacked2[c] = attacked[c] & ka
			attacked[c] |= ka
		}
	}

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
				mg[c] += w.mgPST[c][t][s]
				eg[c] += w.egPST[c][t][s]
				var att chess.Bitboard
				switch t {
				case chess.Knight:
					phase += phaseKnight
					nonPawn[c] += 3
					att = chess.KnightAttacks(s)
					if outpost(c, s, pawns, pawnAtt) {
						mg[c] += w.Outpost[0]
						eg[c] += w.Outpost[1]
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
							mg[c] += w.RookOpen[0]
							eg[c] += w.RookOpen[1]
						} else {
							mg[c] += w.RookHalfOpen[0]
							eg[c] += w.RookHalfOpen[1]
						}
					}
				case chess.Queen:
					phase += phaseQueen
					nonPawn[c] += 9
					att = chess.QueenAttacks(s, occ)
				default:
					continue
				}
				attackedBy[c][t] |= att
				attacked2[c] |= attacked[c] & att
				attacked[c] |= att
				n := (att & safe).Count()
				mg[c] += w.MobMG[t] * (n - w.MobCenter[t])
				eg[c] += w.MobEG[t] * (n - w.MobCenter[t])
				if a := att & zone; a != 0 {
					kingAttackers[them]++
					kingAttack[them] += w.AttackWeight[t] * a.Count()
				}
			}
		}
		if pos.Pieces(c, chess.Bishop).Count() >= 2 {
			mg[c] += w.BishopPair[0]
			eg[c] += w.BishopPair[1]
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
				mg[c] -= w.Isolated[0]
				eg[c] -= w.Isolated[1]
			}
			if forwardFile[c][s]&pawns[c] != 0 {
				mg[c] -= w.Doubled[0]
				eg[c] -= w.Doubled[1]
			}
			if passedMask[c][s]&pawns[them] == 0 && forwardFile[c][s]&pawns[c] == 0 {
				rel := s.Rank()
				if c == chess.Black {
					rel = 7 - rel
				}
				mg[c] += w.PassedMG[rel]
				bonus := w.PassedEG[rel]
				// In the end game a passed pawn is worth more when its own
				// king is near and the enemy king is far from its path.
				if kings[them] != chess.NoSquare && kings[c] != chess.NoSquare {
					stop := s + 8
					if c == chess.Black {
						stop = s - 8
					}
					if stop < 64 {
						bonus += (w.PassedEnemyKing*distance[kings[them]][stop] - w.PassedOwnKing*distance[kings[c]][stop]) * rel / 2
					}
				}
				if forwardFile[c][s]&occ != 0 {
					bonus = bonus * w.PassedBlocked / 48
				}
				eg[c] += bonus
			}
		}
	}

	for c := chess.White; c <= chess.Black; c++ {
		if n := (pawns[c] & pawnAtt[c]).Count(); n > 0 {
			mg[c] += w.Supported[0] * n
			eg[c] += w.Supported[1] * n
		}
		beside := (pawns[c]&^fileBB[7])<<1 | (pawns[c]&^fileBB[0])>>1
		if n := (pawns[c] & beside).Count(); n > 0 {
			mg[c] += w.Phalanx[0] * n
			eg[c] += w.Phalanx[1] * n
		}
	}

	// Threats: pieces attacked by a pawn or by a lesser piece, and pieces
	// left hanging.
	for c := chess.White; c <= chess.Black; c++ {
		them := c.Other()
		targets := own[them] &^ pawns[them] &^ pos.Pieces(them, chess.King)
		if n := (pawnAtt[c] & targets).Count(); n > 0 {
			mg[c] += w.PawnThreat[0] * n
			eg[c] += w.PawnThreat[1] * n
		}
		heavy := pos.Pieces(them, chess.Rook) | pos.Pieces(them, chess.Queen)
		if n := ((attackedBy[c][chess.Knight] | attackedBy[c][chess.Bishop]) & heavy).Count(); n > 0 {
			mg[c] += w.MinorThreat[0] * n
			eg[c] += w.MinorThreat[1] * n
		}
		if n := (attackedBy[c][chess.Rook] & pos.Pieces(them, chess.Queen)).Count(); n > 0 {
			mg[c] += w.RookThreat[0] * n
			eg[c] += w.RookThreat[1] * n
		}
		// Undefended pieces under attack, and pieces attacked twice but
		// defended once and not by a pawn.
		weak := targets & attacked[c] &^ attacked[them]
		weak |= targets & attacked2[c] &^ attacked2[them] &^ pawnAtt[them]
		if n := weak.Count(); n > 0 {
			mg[c] += w.Hanging[0] * n
			eg[c] += w.Hanging[1] * n
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
		mg[c] += w.Shield * min(shield, 3)
		f := k.File()
		if fileBB[f]&pawns[c] == 0 {
			mg[c] -= w.KingOpenFile
		}
		if kingAttackers[c] >= 2 && pos.Pieces(them, chess.Queen) != 0 {
			u := kingAttack[c]
			// Checks the enemy can give from squares we do not guard.
			safe := ^attacked[c] &^ own[them]
			diag, line := chess.BishopAttacks(k, occ)&safe, chess.RookAttacks(k, occ)&safe
			if chess.KnightAttacks(k)&safe&attackedBy[them][chess.Knight] != 0 {
				u += w.SafeCheck[chess.Knight]
			}
			if diag&attackedBy[them][chess.Bishop] != 0 {
				u += w.SafeCheck[chess.Bishop]
			}
			if line&attackedBy[them][chess.Rook] != 0 {
				u += w.SafeCheck[chess.Rook]
			}
			if (diag|line)&attackedBy[them][chess.Queen] != 0 {
				u += w.SafeCheck[chess.Queen]
			}
			u = max(u, 0)
			mg[c] -= min(u*u*w.KingDanger/64, 500)
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
	return score + w.Tempo // the side to move has the initiative
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
