package chess

import "math/bits"

// The legal move generator. It computes the checkers and the pinned pieces
// once, then produces only legal moves: pinned pieces move along their pin
// line, moves in check must capture the checker or block, in double check
// only the king moves, and the king never steps onto an attacked square.

// AppendLegalMoves appends every legal move to dst and returns the extended
// slice. It does not allocate when dst has room for the moves (218 at most).
func (p *Position) AppendLegalMoves(dst []Move) []Move {
	return p.generate(dst, false)
}

// AppendCaptures appends the legal captures and promotions (including en
// passant) to dst, for the engine's quiescence search.
func (p *Position) AppendCaptures(dst []Move) []Move {
	return p.generate(dst, true)
}

func (p *Position) generate(dst []Move, noisy bool) []Move {
	us := p.turn
	them := us ^ 1
	own := p.byColor[us]
	enemy := p.byColor[them]
	occ := p.byType[0]
	k := (p.byType[King] & own).First()

	targetMask := ^own // squares a piece may land on
	if noisy {
		targetMask = enemy
	}
	checkMask := ^Bitboard(0)
	var pinned Bitboard

	if k != NoSquare {
		checkers := p.attackersTo(k, occ) & enemy
		// King moves first: they are legal in every situation.
		kingTargets := kingTable[k] & targetMask
		occNoKing := occ &^ (Bitboard(1) << k)
		kp := p.board[k]
		for kingTargets != 0 {
			to := Square(bits.TrailingZeros64(uint64(kingTargets)))
			kingTargets &= kingTargets - 1
			if !p.attacked(to, them, occNoKing) {
				dst = append(dst, newMove(k, to, kp, p.board[to]))
			}
		}
		if checkers != 0 {
			if checkers&(checkers-1) != 0 {
				return dst // double check: only the king may move
			}
			c := Square(bits.TrailingZeros64(uint64(checkers)))
			checkMask = between[k][c] | checkers
		} else if !noisy && p.castling != 0 {
			dst = p.appendCastling(dst, k, us)
		}
		// Pinned pieces: an enemy slider on a line to our king with exactly
		// one piece between, and that piece ours.
		snipers := (rookEmpty[k]&(p.byType[Rook]|p.byType[Queen]) |
			bishopEmpty[k]&(p.byType[Bishop]|p.byType[Queen])) & enemy
		for snipers != 0 {
			s := Square(bits.TrailingZeros64(uint64(snipers)))
			snipers &= snipers - 1
			b := between[k][s] & occ
			if b != 0 && b&(b-1) == 0 && b&own != 0 {
				pinned |= b
			}
		}
	} else {
		// A side without a king (teaching positions) has no check rules.
		kings := p.byType[King] & own
		for kings != 0 {
			from := Square(bits.TrailingZeros64(uint64(kings)))
			kings &= kings - 1
			dst = p.appendTargets(dst, from, kingTable[from]&targetMask)
		}
	}

	mask := targetMask & checkMask

	// Knights: a pinned knight can never move.
	knights := p.byType[Knight] & own &^ pinned
	for knights != 0 {
		from := Square(bits.TrailingZeros64(uint64(knights)))
		knights &= knights - 1
		dst = p.appendTargets(dst, from, knightTable[from]&mask)
	}
	// Sliders.
	diag := (p.byType[Bishop] | p.byType[Queen]) & own
	for diag != 0 {
		from := Square(bits.TrailingZeros64(uint64(diag)))
		diag &= diag - 1
		t := BishopAttacks(from, occ) & mask
		if pinned&(Bitboard(1)<<from) != 0 {
			t &= line[k][from]
		}
		dst = p.appendTargets(dst, from, t)
	}
	orth := (p.byType[Rook] | p.byType[Queen]) & own
	for orth != 0 {
		from := Square(bits.TrailingZeros64(uint64(orth)))
		orth &= orth - 1
		t := RookAttacks(from, occ) & mask
		if pinned&(Bitboard(1)<<from) != 0 {
			t &= line[k][from]
		}
		dst = p.appendTargets(dst, from, t)
	}

	// Pawns: unpinned ones in bulk, pinned ones one by one along their line.
	pawns := p.byType[Pawn] & own
	dst = p.appendPawnMoves(dst, pawns&^pinned, checkMask, noisy)
	for pp := pawns & pinned; pp != 0; {
		from := Square(bits.TrailingZeros64(uint64(pp)))
		pp &= pp - 1
		dst = p.appendPawnMoves(dst, Bitboard(1)<<from, checkMask&line[k][from], noisy)
	}
	if p.ep != NoSquare {
		cands := pawnTable[them][p.ep] & pawns
		pc := NewPiece(us, Pawn)
		for cands != 0 {
			from := Square(bits.TrailingZeros64(uint64(cands)))
			cands &= cands - 1
			if p.epLegal(from) {
				dst = append(dst, newMove(from, p.ep, pc, NewPiece(them, Pawn))|moveEnPassant)
			}
		}
	}
	return dst
}

func (p *Position) appendTargets(dst []Move, from Square, targets Bitboard) []Move {
	pc := p.board[from]
	base := Move(from) | Move(pc)<<12
	for targets != 0 {
		to := Square(bits.TrailingZeros64(uint64(targets)))
		targets &= targets - 1
		dst = append(dst, base|Move(to)<<6|Move(p.board[to])<<16)
	}
	return dst
}

// appendPawnMoves generates pushes, captures and promotions (not en passant)
// for the given pawns, landing only on squares in mask.
func (p *Position) appendPawnMoves(dst []Move, pawns, mask Bitboard, noisy bool) []Move {
	if pawns == 0 {
		return dst
	}
	us := p.turn
	enemy := p.byColor[us^1]
	empty := ^p.byType[0]
	pc := NewPiece(us, Pawn)
	var push, double, capL, capR, promoRank Bitboard
	var up int
	if us == White {
		up = 8
		push = pawns << 8 & empty
		double = (push & rank3) << 8 & empty & mask
		capL = (pawns &^ fileA) << 7 & enemy & mask
		capR = (pawns &^ fileH) << 9 & enemy & mask
		promoRank = rank8
	} else {
		up = -8
		push = pawns >> 8 & empty
		double = (push & rank6) >> 8 & empty & mask
		capL = (pawns &^ fileA) >> 9 & enemy & mask
		capR = (pawns &^ fileH) >> 7 & enemy & mask
		promoRank = rank1
	}
	push &= mask
	if noisy {
		push &= promoRank
		double = 0
	}
	dst = p.pawnTargets(dst, push, up, pc, promoRank)
	for double != 0 {
		to := Square(bits.TrailingZeros64(uint64(double)))
		double &= double - 1
		dst = append(dst, newMove(Square(int(to)-2*up), to, pc, NoPiece))
	}
	dst = p.pawnTargets(dst, capL, up-1, pc, promoRank)
	dst = p.pawnTargets(dst, capR, up+1, pc, promoRank)
	return dst
}

func (p *Position) pawnTargets(dst []Move, targets Bitboard, delta int, pc Piece, promoRank Bitboard) []Move {
	for targets != 0 {
		to := Square(bits.TrailingZeros64(uint64(targets)))
		targets &= targets - 1
		m := newMove(Square(int(to)-delta), to, pc, p.board[to])
		if promoRank&(Bitboard(1)<<to) != 0 {
			dst = append(dst, m|Move(Queen)<<20, m|Move(Knight)<<20, m|Move(Rook)<<20, m|Move(Bishop)<<20)
		} else {
			dst = append(dst, m)
		}
	}
	return dst
}

func (p *Position) appendCastling(dst []Move, k Square, us Color) []Move {
	occ := p.byType[0]
	them := us ^ 1
	kingSide, queenSide := WhiteKingSide, WhiteQueenSide
	if us == Black {
		kingSide, queenSide = BlackKingSide, BlackQueenSide
	}
	kp := p.board[k]
	if p.castling&kingSide != 0 && occ&(Bitboard(3)<<(k+1)) == 0 &&
		!p.attacked(k+1, them, occ) && !p.attacked(k+2, them, occ) {
		dst = append(dst, newMove(k, k+2, kp, NoPiece)|moveCastle)
	}
	if p.castling&queenSide != 0 && occ&(Bitboard(7)<<(k-3)) == 0 &&
		!p.attacked(k-1, them, occ) && !p.attacked(k-2, them, occ) {
		dst = append(dst, newMove(k, k-2, kp, NoPiece)|moveCastle)
	}
	return dst
}
