package puzzles

import (
	"chesstutor/chess"
)

// Theme is a puzzle's theme code, stored and sent as it is; its words are
// the catalogue's puzzles.theme_<code> (with "-" as "_").
type Theme string

// The themes, in the order the theme chooser lists them.
const (
	MateIn1          Theme = "mate-in-1"
	MateIn2          Theme = "mate-in-2"
	MateIn3          Theme = "mate-in-3"
	BackRankMate     Theme = "back-rank-mate"
	HangingPiece     Theme = "hanging-piece"
	Fork             Theme = "fork"
	Pin              Theme = "pin"
	Skewer           Theme = "skewer"
	DiscoveredAttack Theme = "discovered-attack"
	DoubleCheck      Theme = "double-check"
	Promotion        Theme = "promotion"
	EnPassant        Theme = "en-passant"
	Material         Theme = "material"
	Defence          Theme = "defence"
	Endgame          Theme = "endgame"
)

// AllThemes lists every theme in the chooser's order.
var AllThemes = []Theme{MateIn1, MateIn2, MateIn3, BackRankMate, HangingPiece, Fork, Pin, Skewer,
	DiscoveredAttack, DoubleCheck, Promotion, EnPassant, Material, Defence, Endgame}

// value is the beginner's scale; the king is worth more than anything.
var value = [7]int{0, 1, 3, 3, 5, 9, 100}

// Value returns a piece type's worth on the beginner's scale (pawn 1,
// knight and bishop 3, rook 5, queen 9, king 100).
func Value(t chess.PieceType) int { return value[t] }

// Balance is side c's material minus the other side's, on the beginner's
// scale without kings.
func Balance(pos *chess.Position, c chess.Color) int {
	n := 0
	for t := chess.Pawn; t <= chess.Queen; t++ {
		n += value[t] * (pos.Pieces(c, t).Count() - pos.Pieces(c.Other(), t).Count())
	}
	return n
}

// Tag finds the themes of a puzzle from its moves: start is the solver's
// position, solution the line (solver's moves at even indices), defence
// whether the generator found it as "the only move that saves".
func Tag(start *chess.Position, solution []chess.Move, defence bool) []Theme {
	var out []Theme
	add := func(t Theme) {
		for _, have := range out {
			if have == t {
				return
			}
		}
		out = append(out, t)
	}
	solver := start.Turn()
	positions := []*chess.Position{start}
	for _, m := range solution {
		positions = append(positions, positions[len(positions)-1].Play(m))
	}
	end := positions[len(positions)-1]
	mate := end.IsCheckmate()
	if mate {
		switch (len(solution) + 1) / 2 {
		case 1:
			add(MateIn1)
		case 2:
			add(MateIn2)
		case 3:
			add(MateIn3)
		}
		if backRank(end) {
			add(BackRankMate)
		}
	}
	// captures[i]: the square the solver's move i captures on, if any.
	for i := 0; i < len(solution); i += 2 {
		before, after, m := positions[i], positions[i+1], solution[i]
		if m.IsPromotion() {
			add(Promotion)
		}
		if m.IsEnPassant() {
			add(EnPassant)
		}
		if after.InCheck() && after.Attackers(after.KingSquare(solver.Other()), solver).Count() >= 2 {
			add(DoubleCheck)
		}
		later := laterCaptures(positions, solution, i+2)
		if forkTargets := forked(after, m); len(forkTargets) >= 2 && anyIn(later, forkTargets) {
			add(Fork)
		}
		if pinned := pinnedSquares(after, solver, m.To(), chess.NoSquare); len(pinned) > 0 && anyIn(later, pinned) {
			add(Pin)
		}
		if m.IsCapture() {
			// The solver takes a piece that was pinned: it could not step
			// away from the attack. In the first move of a win of material
			// any pin counts; else a pin by another piece than the one
			// that takes (a queen that pins and then takes with mate is
			// not a pin puzzle).
			byAny := i == 0 && !mate && contains(pinnedSquares(before, solver, chess.NoSquare, chess.NoSquare), m.To())
			byOther := value[m.Captured().Type()] >= 3 && contains(pinnedSquares(before, solver, chess.NoSquare, m.From()), m.To())
			if byAny || byOther {
				add(Pin)
			}
		}
		if pinned := pinnedSquares(after, solver, chess.NoSquare, chess.NoSquare); anyIn(attackedBy(after, m), pinned) && anyIn(later, pinned) {
			// The moved piece attacks a pinned piece, which is won later.
			add(Pin)
		}
		if pinStopsCapture(after, m.To()) {
			add(Pin)
		}
		if behind := skewered(after, m); len(behind) > 0 && anyIn(later, behind) {
			add(Skewer)
		}
		disc, threats := discovered(before, after, m)
		switch {
		case len(disc) > 0 && (contains(disc, after.KingSquare(solver.Other())) || anyIn(later, disc)):
			add(DiscoveredAttack)
		case len(threats) > 0 && (after.InCheck() || len(forked(after, m)) > 0 || m.IsCapture()) &&
			(!m.IsCapture() || worth(after, threats) >= value[m.Captured().Type()]):
			// Two threats at once: the moved piece checks, attacks or
			// takes, and the piece it uncovered attacks another (worth at
			// least what the move took: else the capture alone is the
			// point).
			add(DiscoveredAttack)
		}
	}
	if !mate && len(solution) == 1 && !defence && solution[0].IsCapture() {
		m := solution[0]
		if value[m.Captured().Type()] >= 3 && start.Attackers(m.To(), solver.Other()) == 0 {
			add(HangingPiece)
		}
	}
	if !mate && !defence {
		add(Material)
	}
	if defence {
		add(Defence)
	}
	pieces := 0
	for _, c := range []chess.Color{chess.White, chess.Black} {
		for t := chess.Knight; t <= chess.Queen; t++ {
			pieces += start.Pieces(c, t).Count()
		}
	}
	if pieces <= 4 {
		add(Endgame)
	}
	return out
}

func contains(ss []chess.Square, s chess.Square) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func anyIn(a, b []chess.Square) bool {
	for _, s := range a {
		if contains(b, s) {
			return true
		}
	}
	return false
}

// laterCaptures lists the squares the solver captures on from solution
// index from on.
func laterCaptures(positions []*chess.Position, solution []chess.Move, from int) []chess.Square {
	var out []chess.Square
	for i := from; i < len(solution); i += 2 {
		if solution[i].IsCapture() {
			out = append(out, solution[i].To())
		}
		if positions[i+1].IsCheckmate() {
			out = append(out, positions[i+1].KingSquare(positions[i+1].Turn()))
		}
	}
	return out
}

// attacks is the squares a piece of type t and colour c on s attacks.
func attacks(t chess.PieceType, c chess.Color, s chess.Square, occ chess.Bitboard) chess.Bitboard {
	switch t {
	case chess.Pawn:
		return chess.PawnAttacks(c, s)
	case chess.Knight:
		return chess.KnightAttacks(s)
	case chess.Bishop:
		return chess.BishopAttacks(s, occ)
	case chess.Rook:
		return chess.RookAttacks(s, occ)
	case chess.Queen:
		return chess.QueenAttacks(s, occ)
	case chess.King:
		return chess.KingAttacks(s)
	}
	return 0
}

// forked lists the squares of the opponent's pieces the moved piece
// attacks after m that it threatens to win: the king, a piece worth more
// than it, or an undefended piece worth a knight or more.
func forked(after *chess.Position, m chess.Move) []chess.Square {
	p := m.Piece()
	if m.IsPromotion() {
		p = chess.NewPiece(p.Color(), m.Promotion())
	}
	them := p.Color().Other()
	var out []chess.Square
	att := attacks(p.Type(), p.Color(), m.To(), after.Occupied()) & after.Occupancy(them)
	for att != 0 {
		s := att.PopFirst()
		t := after.PieceAt(s).Type()
		if t == chess.King || value[t] > value[p.Type()] || value[t] >= 3 && after.Attackers(s, them) == 0 {
			out = append(out, s)
		}
	}
	return out
}

// rays are the eight directions as file and rank steps.
var rays = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// lineSquares walks from s in direction d and returns the first two
// occupied squares (NoSquare when there are none).
func lineSquares(pos *chess.Position, s chess.Square, d [2]int) (chess.Square, chess.Square) {
	first := chess.NoSquare
	f, r := s.File()+d[0], s.Rank()+d[1]
	for f >= 0 && f < 8 && r >= 0 && r < 8 {
		sq := chess.NewSquare(f, r)
		if pos.PieceAt(sq) != chess.NoPiece {
			if first == chess.NoSquare {
				first = sq
			} else {
				return first, sq
			}
		}
		f, r = f+d[0], r+d[1]
	}
	return first, chess.NoSquare
}

func slides(t chess.PieceType, d [2]int) bool {
	diagonal := d[0] != 0 && d[1] != 0
	return t == chess.Queen || t == chess.Rook && !diagonal || t == chess.Bishop && diagonal
}

// pinnedSquares lists the opponent's pieces pinned by side c's sliders
// (only the one on from, unless from is NoSquare; never the one on except)
// to their king or to a piece worth more.
func pinnedSquares(pos *chess.Position, c chess.Color, from, except chess.Square) []chess.Square {
	var out []chess.Square
	sliders := pos.Pieces(c, chess.Bishop) | pos.Pieces(c, chess.Rook) | pos.Pieces(c, chess.Queen)
	for sliders != 0 {
		s := sliders.PopFirst()
		if from != chess.NoSquare && s != from || s == except {
			continue
		}
		t := pos.PieceAt(s).Type()
		for _, d := range rays {
			if !slides(t, d) {
				continue
			}
			a, b := lineSquares(pos, s, d)
			if a == chess.NoSquare || b == chess.NoSquare {
				continue
			}
			pa, pb := pos.PieceAt(a), pos.PieceAt(b)
			if pa.Color() != c.Other() || pb.Color() != c.Other() || pa.Type() == chess.King {
				continue
			}
			if pb.Type() == chess.King || value[pb.Type()] > value[pa.Type()] && value[pb.Type()] > value[t] {
				out = append(out, a)
			}
		}
	}
	return out
}

// skewered lists the squares behind a king, queen or rook that the moved
// slider attacks, where a lesser piece stands to be won once it moves.
func skewered(after *chess.Position, m chess.Move) []chess.Square {
	p := after.PieceAt(m.To())
	var out []chess.Square
	for _, d := range rays {
		if !slides(p.Type(), d) {
			continue
		}
		a, b := lineSquares(after, m.To(), d)
		if a == chess.NoSquare || b == chess.NoSquare {
			continue
		}
		pa, pb := after.PieceAt(a), after.PieceAt(b)
		if pa.Color() != p.Color().Other() || pb.Color() != p.Color().Other() {
			continue
		}
		if (pa.Type() == chess.King || value[pa.Type()] > value[pb.Type()]) && value[pb.Type()] >= 3 {
			out = append(out, b)
		}
	}
	return out
}

// discovered lists the opponent's king or pieces worth a knight or more
// that the solver's other pieces attack after m but did not before: the
// moved piece uncovered a line. threats are those of them that the
// uncovered piece threatens to win: the king, a piece worth more than it,
// or an undefended one.
func discovered(before, after *chess.Position, m chess.Move) (out, threats []chess.Square) {
	c := before.Turn()
	them := after.Occupancy(c.Other())
	sliders := after.Pieces(c, chess.Bishop) | after.Pieces(c, chess.Rook) | after.Pieces(c, chess.Queen)
	for sliders != 0 {
		s := sliders.PopFirst()
		if s == m.To() {
			continue
		}
		t := after.PieceAt(s).Type()
		now := attacks(t, c, s, after.Occupied()) & them
		was := attacks(t, c, s, before.Occupied())
		gained := now &^ was
		for gained != 0 {
			sq := gained.PopFirst()
			target := after.PieceAt(sq).Type()
			if value[target] < 3 {
				continue
			}
			out = append(out, sq)
			if target == chess.King || value[target] > value[t] || after.Attackers(sq, c.Other()) == 0 {
				threats = append(threats, sq)
			}
		}
	}
	return out, threats
}

// worth is the most valuable of the pieces on squares.
func worth(pos *chess.Position, squares []chess.Square) int {
	best := 0
	for _, s := range squares {
		best = max(best, value[pos.PieceAt(s).Type()])
	}
	return best
}

// attackedBy lists the opponent's pieces the piece that made m attacks
// after it.
func attackedBy(after *chess.Position, m chess.Move) []chess.Square {
	p := after.PieceAt(m.To())
	if p == chess.NoPiece {
		return nil
	}
	return (attacks(p.Type(), p.Color(), m.To(), after.Occupied()) & after.Occupancy(p.Color().Other())).Squares()
}

// pinnedToKing reports whether the piece on s, not a king, stands between
// its own king and an enemy rook, bishop or queen on that line, so that
// it may move only along the line.
func pinnedToKing(pos *chess.Position, s chess.Square) bool {
	pc := pos.PieceAt(s)
	if pc == chess.NoPiece || pc.Type() == chess.King {
		return false
	}
	k := pos.KingSquare(pc.Color())
	for _, d := range rays {
		a, b := lineSquares(pos, k, d)
		if a != s || b == chess.NoSquare {
			continue
		}
		if pb := pos.PieceAt(b); pb.Color() != pc.Color() && slides(pb.Type(), d) {
			return true
		}
	}
	return false
}

// pinStopsCapture reports whether the solver's piece that just moved to
// to (a knight or more, or one giving check) is attacked by an opponent's
// piece that may not take it because it is pinned to its king: the pin
// is what lets the move stand. A double check is not counted (nothing but
// the king may move then anyway).
func pinStopsCapture(after *chess.Position, to chess.Square) bool {
	p := after.PieceAt(to)
	them := after.Turn()
	if p == chess.NoPiece || p.Color() == them || value[p.Type()] < 3 && !after.InCheck() {
		return false
	}
	if after.Attackers(after.KingSquare(them), p.Color()).Count() >= 2 {
		return false
	}
	att := after.Attackers(to, them)
	for att != 0 {
		s := att.PopFirst()
		if pinnedToKing(after, s) && !contains(after.Destinations(s), to) {
			return true
		}
	}
	return false
}

// backRank reports a mate of a king on its first rank by a rook or queen
// along that rank.
func backRank(end *chess.Position) bool {
	mated := end.Turn()
	k := end.KingSquare(mated)
	home := 0
	if mated == chess.Black {
		home = 7
	}
	if k.Rank() != home {
		return false
	}
	checkers := end.Attackers(k, mated.Other())
	for checkers != 0 {
		s := checkers.PopFirst()
		t := end.PieceAt(s).Type()
		if (t == chess.Rook || t == chess.Queen) && s.Rank() == home {
			return true
		}
	}
	return false
}
