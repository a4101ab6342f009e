package engine

import "chesstutor/chess"

// see is the static exchange evaluation of the capture (or promotion) m:
// the material the side to move wins or loses, in seeValue units, when
// both sides keep recapturing on m's target square with their least
// valuable attacker and either may stop when going on would lose. Pieces
// behind a capturer (a rook behind a rook, a queen behind a bishop) join
// in as the capturers leave. Pins are ignored, as usual.
func see(pos *chess.Position, m chess.Move) int {
	from, to := m.From(), m.To()
	occ := pos.Occupied()
	var gain [32]int
	gain[0] = seeValue[m.Captured().Type()]
	next := seeValue[m.Piece().Type()] // value of the piece now standing on to
	if p := m.Promotion(); p != chess.NoPieceType {
		gain[0] += seeValue[p] - seeValue[chess.Pawn]
		next = seeValue[p]
	}
	occ &^= chess.SquareBB(from)
	if m.IsEnPassant() {
		occ &^= chess.SquareBB(to ^ 8)
	}
	queens := pos.Pieces(chess.White, chess.Queen) | pos.Pieces(chess.Black, chess.Queen)
	diag := pos.Pieces(chess.White, chess.Bishop) | pos.Pieces(chess.Black, chess.Bishop) | queens
	straight := pos.Pieces(chess.White, chess.Rook) | pos.Pieces(chess.Black, chess.Rook) | queens
	attackers := chess.PawnAttacks(chess.Black, to)&pos.Pieces(chess.White, chess.Pawn) |
		chess.PawnAttacks(chess.White, to)&pos.Pieces(chess.Black, chess.Pawn) |
		chess.KnightAttacks(to)&(pos.Pieces(chess.White, chess.Knight)|pos.Pieces(chess.Black, chess.Knight)) |
		chess.KingAttacks(to)&(pos.Pieces(chess.White, chess.King)|pos.Pieces(chess.Black, chess.King)) |
		chess.BishopAttacks(to, occ)&diag |
		chess.RookAttacks(to, occ)&straight
	side := pos.Turn().Other()
	d := 0
	for d < len(gain)-1 {
		attackers &= occ
		// The least valuable attacker of side.
		var from chess.Bitboard
		var t chess.PieceType
		for t = chess.Pawn; t <= chess.King; t++ {
			if b := attackers & pos.Pieces(side, t); b != 0 {
				from = b & -b
				break
			}
		}
		if from == 0 {
			break
		}
		if t == chess.King && attackers&pos.Occupancy(side.Other()) != 0 {
			break // the king may not capture into a defended square
		}
		d++
		gain[d] = next - gain[d-1]
		next = seeValue[t]
		occ &^= from
		if t != chess.Knight && t != chess.Rook {
			attackers |= chess.BishopAttacks(to, occ) & diag
		}
		if t == chess.Rook || t == chess.Queen || t == chess.King {
			attackers |= chess.RookAttacks(to, occ) & straight
		}
		side = side.Other()
	}
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}
