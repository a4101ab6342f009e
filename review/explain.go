package review

import (
	"slices"

	"chesstutor/chess"
	"chesstutor/chess/engine"
)

// value is the beginner's scale (pawn 1, knight and bishop 3, rook 5,
// queen 9) that decides whether a piece was taken by a cheaper one; the
// king is above everything.
var value = [7]int{0, 1, 3, 3, 5, 9, 100}

// worthPawn is the least gain, in ExchangeGain centipawns, that counts as
// winning material.
const worthPawn = 100

// explain finds why the move m from before to after cost the mover
// winning chances: the first of these that holds, most instructive first.
// ab and aa are the engine's analyses of the two positions; pb the mover's
// winning chances before the move; prev the opponent's move that led to
// before (NoMove at the start), which tells a recapture from a capture.
//
// Every claim about material is backed twice: by the position (the
// exchange on the square, or the engine's expected line) and by the
// evaluation, which must have dropped by about as much (claimBacked).
// The engine's line alone once made a review say "fxe3 would have won a
// bishop" of a move that only took back a bishop just lost.
func explain(before, after *chess.Position, prev, m chess.Move, ab, aa Analysis, pb float64) Reason {
	c := before.Turn()
	best, reply := ab.Best, aa.Best
	if best == m {
		best = chess.NoMove
	}
	bestSAN := ""
	if best != chess.NoMove {
		bestSAN = before.SAN(best)
	}

	// A won game thrown away by leaving the opponent no move.
	if after.IsStalemate() && pb >= 60 && best != chess.NoMove {
		return Reason{Code: Stalemate, Move: bestSAN, Mate: boolInt(before.Play(best).IsCheckmate())}
	}
	// A forced mate the mover had and let go.
	if n := ab.Eval.MateFor(c); n > 0 && aa.Eval.MateFor(c) == 0 && !after.IsCheckmate() && best != chess.NoMove {
		return Reason{Code: MissedMate, Move: bestSAN, Mate: n}
	}
	// A forced mate the move allows.
	if n := aa.Eval.MateFor(c.Other()); n > 0 && ab.Eval.MateFor(c.Other()) == 0 {
		r := Reason{Code: AllowsMate, Mate: n}
		if reply != chess.NoMove {
			r.Move = after.SAN(reply)
		}
		return r
	}
	// How much the move cost in centipawns, to tell whether a capture is
	// the whole story or only the start of it.
	drop := ab.Eval.Clamped(c) - aa.Eval.Clamped(after.Turn())
	if c == chess.Black {
		drop = -drop
	}
	// A capture that wins what the move cost: a piece left or put where
	// it is lost. The reply itself is asked first, and explains the move
	// when it wins all but 250 cp of the cost. When it explains too
	// little (a check or a smaller capture comes first, as 3... Bxf2+
	// before fxg6 after 3. Qg6??), the opponent's richest capture does,
	// if it wins at least half the cost.
	missed := capturedGain(before, best) // what the better move wins by capturing, if it is one
	// The opponent had just taken on the better move's square: taking
	// back is a recapture, not a win of material (unless the move played
	// took back there too, with another piece).
	recapture := best != chess.NoMove && best.IsCapture() && prev != chess.NoMove && prev.IsCapture() && prev.To() == best.To() &&
		(!m.IsCapture() || m.To() != prev.To())
	hangs := func(cap chess.Move, need int) (Reason, bool) {
		gain := capturedGain(after, cap)
		if gain < max(need, worthPawn) || !claimBacked(gain, drop) {
			return Reason{}, false
		}
		if missed >= gain+worthPawn && (recapture || claimBacked(missed, drop)) {
			// The better move took more than this loses: a pawn left on
			// a7 is not the story when bxc4 would have won a knight, nor
			// c3 when Nxd4 would have taken back a bishop.
			return Reason{}, false
		}
		s := cap.To()
		victim, by := cap.Captured().Type(), cap.Piece().Type()
		r := Reason{Code: Hangs, Piece: victim, By: by, Square: s, Move: after.SAN(cap),
			Free: after.Attackers(s, c) == 0, Moved: s == m.To() && !m.IsCastle()}
		switch {
		case !r.Moved || !m.IsCapture():
			return r, true
		case value[m.Captured().Type()] < value[victim]:
			r.Code, r.Target = BadTrade, m.Captured().Type()
			return r, true
		}
		// The move took something worth as much: a fair trade, so the
		// cost lies elsewhere.
		return Reason{}, false
	}
	// When the better move was a capture too, the move may have missed
	// material and lost some: Black's queen left hanging on h4 and White's
	// put where it takes it (3. Qg4?? Qxg4 instead of 3. Qxh4). The reply
	// then also explains the move when it wins at least as much as the
	// miss and the two make all but 250 cp of the cost; the loss is told
	// first, with the capture as the better move.
	need := drop - 250
	if missed > 0 {
		need = min(need, max(drop-250-missed, missed))
	}
	if r, ok := hangs(reply, need); ok {
		return r
	}
	if r, ok := hangs(richestCapture(after), (drop+1)/2); ok {
		return r
	}
	// The reply forks two pieces, and the expected line wins one of them
	// (a "fork" that a pawn move answers costs nothing).
	if reply != chess.NoMove {
		if targets, squares := forks(after, reply); len(targets) >= 2 && forkWins(aa.PV, squares, drop) {
			return Reason{Code: AllowsFork, Move: after.SAN(reply), By: reply.Piece().Type(), Targets: targets[:2]}
		}
	}
	// The move walked into a pin (or opened one) that costs the piece.
	if p, ok := newPin(before, after, aa.PV); ok && claimBacked(value[after.PieceAt(p.pinned).Type()]*100, drop) {
		return Reason{Code: IntoPin, Piece: after.PieceAt(p.pinned).Type(), Square: p.pinned,
			By: after.PieceAt(p.pinner).Type(), From: p.pinner, Target: after.PieceAt(p.target).Type()}
	}
	if best != chess.NoMove {
		if recapture {
			return Reason{Code: MissedCapture, Move: bestSAN, Piece: best.Captured().Type(), By: best.Piece().Type(),
				Square: best.To(), Recapture: true}
		}
		// A capture that won material for nothing.
		if missed >= worthPawn && claimBacked(missed, drop) {
			victim, by := best.Captured().Type(), best.Piece().Type()
			free := before.Attackers(best.To(), c.Other()) == 0
			if free || value[by] < value[victim] {
				return Reason{Code: MissedCapture, Move: bestSAN, Piece: victim, By: by, Square: best.To(), Free: free}
			}
		}
		// A fork that the engine's line shows winning something.
		if targets, squares := forks(before, best); len(targets) >= 2 && forkWins(ab.PV, squares, drop) {
			return Reason{Code: MissedFork, Move: bestSAN, By: best.Piece().Type(), Targets: targets[:2]}
		}
	}
	r := Reason{Code: BetterMove, Move: bestSAN}
	if reply != chess.NoMove && !after.IsCheckmate() {
		r.Reply = after.SAN(reply)
		// What the opponent's line wins, when the evaluation agrees.
		if lost, piece := lineLoss(after, aa.PV, c); lost >= worthPawn && claimBacked(lost, drop) && explainsDrop(lost, drop) {
			r.Lost, r.Piece = lost/100, piece
		}
	}
	if r.Lost == 0 && best != chess.NoMove {
		// What the better move's line wins, when the evaluation agrees.
		if won, piece := lineLoss(before, ab.PV, c.Other()); won >= worthPawn && claimBacked(won, drop) && explainsDrop(won, drop) {
			r.Won, r.Target = won/100, piece
		}
	}
	return r
}

// claimBacked reports whether an evaluation that dropped by drop
// centipawns backs a claim that gain centipawns of material were lost or
// missed: the drop must be at least the gain less a pawn and a half (the
// engine values position too; a piece lost for a strong attack is not
// "lost"). A drop of five pawns or more backs any larger claim: Stockfish
// as analysis engine scores a queen about 6.5 pawns, not the beginner's
// 9 (its pawn is normalised to winning chances), so "your queen can be
// taken for free" would otherwise never be said of the worst blunder.
func claimBacked(gain, drop int) bool { return drop >= gain-150 || (drop >= 500 && gain >= drop) }

// explainsDrop reports whether material of gain centipawns is most of a
// drop of drop centipawns (all but two pawns): "wins your pawn" of a move
// that cost three and a half pawns tells a child the wrong lesson.
func explainsDrop(gain, drop int) bool { return gain >= drop-200 }

// lineLoss plays the expected line pv from pos and returns the material
// side c ends it down (in centipawns on the beginner's scale, 0 when none)
// and the most valuable piece of c's that the line takes, counting only
// positions where no capture is pending (the line's last quiet point), so
// an exchange half made is not counted as a loss.
func lineLoss(pos *chess.Position, pv []chess.Move, c chess.Color) (int, chess.PieceType) {
	balance := func(p *chess.Position) int {
		n := 0
		for t := chess.Pawn; t < chess.King; t++ {
			n += value[t] * 100 * (p.Pieces(c, t).Count() - p.Pieces(c.Other(), t).Count())
		}
		return n
	}
	start := balance(pos)
	lost, most := 0, chess.NoPieceType
	taken := chess.NoPieceType
	for i, mv := range pv {
		if !pos.IsLegal(mv) {
			break
		}
		if mv.IsCapture() && pos.Turn() != c {
			if t := mv.Captured().Type(); value[t] > value[taken] {
				taken = t
			}
		}
		pos = pos.Play(mv)
		if i+1 < len(pv) && pv[i+1].IsCapture() {
			continue // an exchange under way
		}
		lost, most = start-balance(pos), taken
	}
	if lost <= 0 {
		return 0, chess.NoPieceType
	}
	return lost, most
}

// forkWins reports whether the expected line pv, which starts with a
// fork of the pieces on squares, captures on one of them within its next
// three moves of the forking side, and the evaluation dropped by at least
// two pawns: a fork that costs nothing is not a reason.
func forkWins(pv []chess.Move, squares []chess.Square, drop int) bool {
	if drop < 2*worthPawn {
		return false
	}
	for i := 2; i < len(pv) && i <= 6; i += 2 {
		if pv[i].IsCapture() && slices.Contains(squares, pv[i].To()) {
			return true
		}
	}
	return false
}

// capturedGain returns what the capture mv wins in pos by the exchange on
// its square, or 0 when mv is no capture or wins nothing.
func capturedGain(pos *chess.Position, mv chess.Move) int {
	if mv == chess.NoMove || !mv.IsCapture() {
		return 0
	}
	return max(engine.ExchangeGain(pos, mv), 0)
}

// richestCapture returns the capture that wins the most material in pos
// by the exchange on its square, or NoMove when none wins any.
func richestCapture(pos *chess.Position) chess.Move {
	best, most := chess.NoMove, 0
	for _, mv := range pos.AppendCaptures(nil) { // with quiet promotions, which gain nothing here
		if g := capturedGain(pos, mv); g > most {
			best, most = mv, g
		}
	}
	return best
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// attacks returns the squares a piece of type t and colour c on s attacks
// with occupancy occ.
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

// forks returns the pieces the piece moved by mv attacks at once in a way
// that threatens to win one of them: the king, a piece worth more than the
// forking one, or a piece nobody defends. Pawns are not counted. The
// result is sorted most valuable first, with the targets' squares; fewer
// than two means no fork.
func forks(pos *chess.Position, mv chess.Move) ([]chess.PieceType, []chess.Square) {
	c := pos.Turn()
	after := pos.Play(mv)
	t := mv.Piece().Type()
	if p := mv.Promotion(); p != chess.NoPieceType {
		t = p
	}
	// A forking piece that is simply taken forks nothing: it must stand
	// where no cheaper or equal piece attacks it, and be defended if
	// attacked at all.
	if them := after.Attackers(mv.To(), c.Other()); them != 0 {
		if after.Attackers(mv.To(), c) == 0 {
			return nil, nil
		}
		for them != 0 {
			if value[after.PieceAt(them.PopFirst()).Type()] <= value[t] {
				return nil, nil
			}
		}
	}
	var targets []chess.PieceType
	var squares []chess.Square
	hit := attacks(t, c, mv.To(), after.Occupied()) & after.Occupancy(c.Other())
	for hit != 0 {
		s := hit.PopFirst()
		v := after.PieceAt(s).Type()
		if v == chess.Pawn {
			continue
		}
		if v == chess.King || value[v] > value[t] || after.Attackers(s, c.Other()) == 0 {
			targets = append(targets, v)
			squares = append(squares, s)
		}
	}
	slices.SortFunc(targets, func(a, b chess.PieceType) int { return value[b] - value[a] })
	return targets, squares
}

// pin is a piece of one side that cannot move without exposing target (the
// king, or a piece worth more than the pinner) to the pinner.
type pin struct{ pinned, pinner, target chess.Square }

// pins returns the pins against side c in pos.
func pins(pos *chess.Position, c chess.Color) []pin {
	var out []pin
	occ := pos.Occupied()
	them := c.Other()
	straight := pos.Pieces(them, chess.Rook) | pos.Pieces(them, chess.Queen)
	diagonal := pos.Pieces(them, chess.Bishop) | pos.Pieces(them, chess.Queen)
	targets := pos.Pieces(c, chess.King) | pos.Pieces(c, chess.Queen) | pos.Pieces(c, chess.Rook)
	for targets != 0 {
		t := targets.PopFirst()
		tv := value[pos.PieceAt(t).Type()]
		for _, line := range [2]struct {
			sliders chess.Bitboard
			ray     func(chess.Square, chess.Bitboard) chess.Bitboard
		}{{straight, chess.RookAttacks}, {diagonal, chess.BishopAttacks}} {
			cand := line.sliders & line.ray(t, 0)
			for cand != 0 {
				s := cand.PopFirst()
				if value[pos.PieceAt(s).Type()] >= tv {
					continue // a queen "pinning" a knight to a rook wins nothing
				}
				between := line.ray(s, chess.SquareBB(t)) & line.ray(t, chess.SquareBB(s)) & occ
				if between.Count() != 1 || between&pos.Occupancy(c) == 0 {
					continue
				}
				p := between.First()
				if pv := pos.PieceAt(p).Type(); pv == chess.King || value[pv] >= tv {
					continue
				}
				out = append(out, pin{pinned: p, pinner: s, target: t})
			}
		}
	}
	return out
}

// newPin returns a pin against the mover in after that was not there in
// before and that costs the pinned piece in the opponent's expected line
// pv (a capture on the pinned square within its first three moves).
func newPin(before, after *chess.Position, pv []chess.Move) (pin, bool) {
	c := before.Turn()
	old := pins(before, c)
	for _, p := range pins(after, c) {
		if slices.Contains(old, p) {
			continue
		}
		for i := 0; i < len(pv) && i < 5; i += 2 {
			if pv[i].To() == p.pinned && pv[i].IsCapture() {
				return p, true
			}
		}
	}
	return pin{}, false
}
