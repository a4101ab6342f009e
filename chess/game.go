package chess

import (
	"fmt"
)

// Game is a game in progress: the start position, the moves played and the
// outcome. It applies the automatic endings of R7 and R8 after every move.
// A Game is not safe for concurrent use.
type Game struct {
	positions []*Position
	hashes    []uint64
	moves     []Move
	sans      []string
	outcome   Outcome
}

// NewGame starts a game from start. The position must be one a real game can
// reach the board with: exactly one king per side, no pawn on the first or
// last rank, and the side not to move not in check (R12).
func NewGame(start *Position) (*Game, error) {
	if start == nil {
		return nil, newError("game_no_position", "a game needs a start position")
	}
	for c := White; c <= Black; c++ {
		if n := start.Pieces(c, King).Count(); n != 1 {
			return nil, newError("game_kings", fmt.Sprintf("a game needs exactly one %s king, and this position has %d", c, n), "Color", c.String(), "Count", itoa(n))
		}
	}
	if pawns := (start.byType[Pawn] & (rank1 | rank8)); pawns != 0 {
		return nil, newError("game_pawn_rank", fmt.Sprintf("there is a pawn on %s; pawns never stand on the first or last rank in a game", pawns.First()), "Square", pawns.First().String())
	}
	if them := start.turn.Other(); start.IsAttacked(start.KingSquare(them), start.turn) {
		return nil, newError("game_wrong_check", fmt.Sprintf("the %s king is in check although it is %s's turn; that cannot happen in a game", them, start.turn), "Color", them.String(), "Turn", start.turn.String())
	}
	g := &Game{positions: []*Position{start}, hashes: []uint64{start.Hash()}}
	g.outcome = g.automaticOutcome()
	return g, nil
}

// Replay plays a game record as the site stores one: the start position's
// FEN and the moves in UCI. It is the one place a record becomes a Game;
// an error names the move that is not legal where it stands.
func Replay(startFEN string, uci []string) (*Game, error) {
	start, err := ParseFEN(startFEN)
	if err != nil {
		return nil, err
	}
	g, err := NewGame(start)
	if err != nil {
		return nil, err
	}
	for i, u := range uci {
		m, err := g.Position().ParseUCI(u)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return nil, fmt.Errorf("move %d %s: %w", i+1, u, err)
		}
	}
	return g, nil
}

// Position returns the current position.
func (g *Game) Position() *Position { return g.positions[len(g.positions)-1] }

// Positions returns every position of the game, the start first.
func (g *Game) Positions() []*Position { return append([]*Position(nil), g.positions...) }

// Moves returns the moves played.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// SANs returns the moves played in Standard Algebraic Notation.
func (g *Game) SANs() []string { return append([]string(nil), g.sans...) }

// Ply returns the number of half-moves played.
func (g *Game) Ply() int { return len(g.moves) }

// Outcome returns how the game stands: Result "*" while it goes on.
func (g *Game) Outcome() Outcome { return g.outcome }

// Play plays a legal move of the side to move. It returns an error, and
// changes nothing, when the game is over or the move is not legal.
func (g *Game) Play(m Move) error {
	if g.outcome.Over() {
		return newError("game_over", fmt.Sprintf("the game is over (%s); no more moves can be played", g.outcome.Code()), "Ending", g.outcome.Code())
	}
	pos := g.Position()
	san, legal := pos.legalSAN(m)
	if !legal {
		return newError("move_illegal", fmt.Sprintf("%s is not a legal move here", m.UCI()), "Text", m.UCI())
	}
	next := new(Position)
	pos.PlayInto(m, next)
	g.positions = append(g.positions, next)
	g.hashes = append(g.hashes, next.Hash())
	g.moves = append(g.moves, m)
	g.sans = append(g.sans, san)
	g.outcome = g.automaticOutcome()
	return nil
}

// Undo takes back the last move. It fails when no move has been played or
// when the game ended by resignation, agreement or timeout, which no move
// caused.
func (g *Game) Undo() error {
	if len(g.moves) == 0 {
		return newError("undo_nothing", "there is no move to take back")
	}
	switch g.outcome.Method {
	case Resignation, Agreement, Timeout:
		return newError("undo_over", fmt.Sprintf("the game ended by %s, so its moves can no longer be taken back", g.outcome.Code()), "Ending", g.outcome.Code())
	}
	n := len(g.moves) - 1
	g.positions = g.positions[:n+1]
	g.hashes = g.hashes[:n+1]
	g.moves = g.moves[:n]
	g.sans = g.sans[:n]
	g.outcome = g.automaticOutcome()
	return nil
}

// Resign ends the game: c gives up and the other side wins (R10). It does
// nothing when the game is already over.
func (g *Game) Resign(c Color) {
	if !g.outcome.Over() {
		g.outcome = win(c.Other(), Resignation)
	}
}

// AgreeDraw ends the game as a draw by agreement (R10). It does nothing when
// the game is already over.
func (g *Game) AgreeDraw() {
	if !g.outcome.Over() {
		g.outcome = draw(Agreement)
	}
}

// Timeout ends the game because c's time ran out (R9): the other side wins,
// unless it could never checkmate, and then the game is drawn. It does
// nothing when the game is already over.
func (g *Game) Timeout(c Color) {
	if g.outcome.Over() {
		return
	}
	o := win(c.Other(), Timeout)
	if CanNeverMate(g.Position(), c.Other()) {
		o.Result = "1/2-1/2"
	}
	g.outcome = o
}

// RepetitionCount returns how often the current position has occurred in
// the game, counting this time (R8: placement, side to move, castling rights
// and a legal en passant capture).
func (g *Game) RepetitionCount() int {
	h := g.hashes[len(g.hashes)-1]
	n := 0
	for _, x := range g.hashes {
		if x == h {
			n++
		}
	}
	return n
}

// automaticOutcome applies R7 and R8 to the current position. Checkmate
// comes first, so a mate on the hundredth half-move stands.
func (g *Game) automaticOutcome() Outcome {
	p := g.Position()
	if !p.hasLegalMove() {
		if p.InCheck() {
			return win(p.turn.Other(), Checkmate)
		}
		return draw(Stalemate)
	}
	switch {
	case p.InsufficientMaterial():
		return draw(InsufficientMaterial)
	case p.halfmove >= 100:
		return draw(FiftyMoveRule)
	case g.RepetitionCount() >= 3:
		return draw(ThreefoldRepetition)
	}
	return Ongoing
}
