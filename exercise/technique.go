package exercise

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/words"
)

// GoalMateTechnique is mating a lone king with king and queen or king and
// rook (X9) against the computer's best defence within Limit moves. Every
// move of the learner is judged: it is right when it mates, or when it
// neither stalemates nor gives the piece away and the mate can still come
// within the moves that are left, whatever the king does. The computer
// answers each right move with its best defence (Defence).
const GoalMateTechnique Goal = "mate-technique"

// MaxTechniqueLimit bounds the move limit: the check that mate can still
// come searches twice as many plies, and must stay quick.
const MaxTechniqueLimit = 6

// techniqueMaterial checks the position: the side to move has its king and
// one queen or rook, the other side a lone king.
func techniqueMaterial(pos *chess.Position) error {
	us, them := pos.Turn(), pos.Turn().Other()
	if pos.Occupancy(them).Count() != 1 {
		return fmt.Errorf("exercise: a mate-technique exercise needs a lone king for the defender")
	}
	q, r := pos.Pieces(us, chess.Queen).Count(), pos.Pieces(us, chess.Rook).Count()
	if pos.Occupancy(us).Count() != 2 || q+r != 1 {
		return fmt.Errorf("exercise: a mate-technique exercise needs king and queen or king and rook against the king")
	}
	return nil
}

// mateMemo remembers matesWithin's answers: the course's positions are
// judged once per language at start-up and again on every try. It stops
// growing at mateMemoSize entries, so visitors' games cannot fill memory.
var mateMemo sync.Map

const mateMemoSize = 4096

var mateMemoLen atomic.Int64

// matesWithin reports whether the side that has just moved in pos (the
// defender to move) mates within n moves against any defence, by a search
// of a fixed depth (so the answer never depends on timing).
func matesWithin(pos *chess.Position, n int) bool {
	if n <= 0 || len(pos.LegalMoves()) == 0 {
		return false
	}
	key := fmt.Sprintf("%s|%d", pos.FEN(), n)
	if v, ok := mateMemo.Load(key); ok {
		return v.(bool)
	}
	ok := searchMate(pos, n)
	if mateMemoLen.Load() < mateMemoSize {
		if _, loaded := mateMemo.LoadOrStore(key, ok); !loaded {
			mateMemoLen.Add(1)
		}
	}
	return ok
}

// searchMate is matesWithin without the memo.
func searchMate(pos *chess.Position, n int) bool {
	s := searchers.Get().(*engine.Searcher)
	defer searchers.Put(s)
	s.Clear()
	res := s.Search(context.Background(), pos, nil, engine.Limits{Depth: 2 * n})
	in := -engine.MateIn(res.Score)
	return in >= 1 && in <= n
}

// validateTechnique is Validate for GoalMateTechnique.
func (t Task) validateTechnique() error {
	if err := techniqueMaterial(t.Pos); err != nil {
		return err
	}
	if t.Limit < 1 || t.Limit > MaxTechniqueLimit {
		return fmt.Errorf("exercise: a mate-technique exercise needs limit: 1 to %d moves", MaxTechniqueLimit)
	}
	for _, m := range t.Pos.LegalMoves() {
		if t.Pos.Play(m).IsCheckmate() || matesWithin(t.Pos.Play(m), t.Limit-1) {
			return nil
		}
	}
	return fmt.Errorf("exercise: no mate within %d moves against the best defence", t.Limit)
}

// judgeTechnique grades move m of a mate-technique exercise played in pos
// with left moves left (this one included).
func judgeTechnique(pos *chess.Position, m chess.Move, left int) Verdict {
	after := pos.Play(m)
	san := pos.SAN(m)
	them := after.Turn()
	switch {
	case after.IsCheckmate():
		return Verdict{Correct: true, Solved: true, Reason: verdict("praise_mate", "Side", side(them))}
	case after.IsStalemate():
		return Verdict{Reason: verdict("stalemate", "Move", san, "Side", side(them))}
	}
	if c, gain := bestCapture(after, chess.NoSquare); gain > 0 {
		return Verdict{Reason: verdict("gives_away", "Move", san, "Taker", describeTaker(c),
			"Piece", piecePhrase("your", c.Captured().Type()), "Square", c.To())}
	}
	if left <= 1 {
		return Verdict{Reason: verdict("technique_out_of_moves", "Move", san)}
	}
	if !matesWithin(after, left-1) {
		return Verdict{Reason: verdict("technique_too_slow", "Move", san, "Count", left-1)}
	}
	reply := Defence(after)
	return Verdict{Correct: true, Reply: reply,
		Reason: verdict("technique_good", "Move", san, "Reply", after.SAN(reply), "Count", left-1)}
}

// parseTechniqueLine reads the moves already played in a mate-technique
// exercise: pairs of a learner's move and the computer's reply. Each move
// must be legal and each reply the computer's own, so the line is the
// game the page played; it must leave at least one move of the limit.
func (t Task) parseTechniqueLine(uci []string) ([]chess.Move, error) {
	if len(uci)%2 != 0 || len(uci)/2 >= t.Limit {
		return nil, words.Errorf("practice.refuse_line")
	}
	pos := t.Pos
	var line []chess.Move
	for i, u := range uci {
		m, err := pos.ParseUCI(u)
		if err != nil {
			return nil, words.Errorf("practice.refuse_line_move", "Text", clip(u, 8))
		}
		if i%2 == 1 && m != Defence(pos) {
			return nil, words.Errorf("practice.refuse_line_unknown")
		}
		line = append(line, m)
		pos = pos.Play(m)
		if len(pos.LegalMoves()) == 0 {
			return nil, words.Errorf("practice.refuse_line_unknown")
		}
	}
	return line, nil
}

// MovesLeft is how many moves the learner still has after line (pairs of
// moves and replies) in a mate-technique exercise.
func (t Task) MovesLeft(line []chess.Move) int { return t.Limit - len(line)/2 }
