package review

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/games"
	"chesstutor/store"
)

// Help while playing (G23): against the first levels a player may ask the
// computer which piece to move, then which move, and may show the
// opponent's capture threats. Hints used are recorded, and the PGN says so.

// MaxHelpLevel is the strongest level that offers hints and threats.
const MaxHelpLevel = 4

// Refusals of the help.
var (
	ErrNoHelp      = errors.New("review: hints and threats are offered in games against levels 0 to 4")
	ErrNotYourMove = errors.New("review: it is not the player's move")
	ErrStalePly    = errors.New("review: the game has moved on")
	ErrBadStep     = errors.New("review: a hint step is \"piece\" or \"move\"")
)

// hintLimits bound the search behind a hint: a sound move, found quickly.
var hintLimits = engine.Limits{Depth: 12, Time: 500 * time.Millisecond}

// Hint is the help given: the piece to move (From, Piece) and, at the
// second step, the move itself.
type Hint struct {
	Step  string // store.HintPiece or store.HintMove
	From  chess.Square
	Piece chess.PieceType
	Move  chess.Move // NoMove at the first step
	SAN   string
}

// Threat is a capture the opponent could make next if the player did
// nothing: By on From takes Target on To, and wins something doing so.
type Threat struct {
	From, To   chess.Square
	By, Target chess.PieceType
}

// hintCache remembers the move behind each game's current hint, so the
// second press names a move of the piece the first press showed.
type hintCache struct {
	mu    sync.Mutex
	moves map[string]cachedHint
}

type cachedHint struct {
	fen  string
	move chess.Move
}

const hintCacheSize = 10000

func (c *hintCache) get(id, fen string) (chess.Move, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.moves[id]
	return h.move, ok && h.fen == fen
}

func (c *hintCache) put(id, fen string, m chess.Move) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.moves == nil || len(c.moves) >= hintCacheSize {
		c.moves = map[string]cachedHint{} // a rare reset; hints are cheap to find again
	}
	c.moves[id] = cachedHint{fen: fen, move: m}
}

// helpGame loads the visitor's game and checks it offers help now.
func (s *Service) helpGame(ctx context.Context, visitor, id string) (*games.State, *chess.Position, error) {
	st, err := s.games.Get(ctx, visitor, id)
	if err != nil {
		return nil, nil, err
	}
	if st.Mode != "computer" || st.Level == nil || st.ComputerLevel() > MaxHelpLevel {
		return nil, nil, ErrNoHelp
	}
	return st, st.Position(), nil
}

// Hint answers the player's press of Hint in the position at ply: step
// "piece" names the piece to move, "move" the move. Both are recorded.
func (s *Service) Hint(ctx context.Context, visitor, id string, ply int, step string) (*Hint, error) {
	if step != store.HintPiece && step != store.HintMove {
		return nil, ErrBadStep
	}
	st, pos, err := s.helpGame(ctx, visitor, id)
	if err != nil {
		return nil, err
	}
	if st.Status != "active" || st.Turn != st.HumanColor || st.Waiting {
		return nil, ErrNotYourMove
	}
	if ply != st.Ply {
		return nil, ErrStalePly
	}
	m, ok := s.hints.get(id, st.FEN)
	if !ok {
		if m, err = s.bestMove(ctx, st, pos); err != nil {
			return nil, err
		}
		s.hints.put(id, st.FEN, m)
	}
	if s.hintStore != nil {
		if err := s.hintStore.AddHint(ctx, id, store.Hint{Ply: ply, Step: step}); err != nil {
			return nil, err
		}
	}
	h := &Hint{Step: step, From: m.From(), Piece: m.Piece().Type()}
	if step == store.HintMove {
		h.Move, h.SAN = m, pos.SAN(m)
	}
	return h, nil
}

// bestMove searches the game's position for the hint, knowing the game's
// history so a repetition counts.
func (s *Service) bestMove(ctx context.Context, st *games.State, pos *chess.Position) (chess.Move, error) {
	before := st.History()
	history := make([]uint64, len(before)-1)
	for i, p := range before[:len(before)-1] {
		history[i] = p.Hash()
	}
	lim := hintLimits
	if s.depth > 0 {
		lim = engine.Limits{Depth: min(s.depth, hintLimits.Depth)}
	}
	res, err := s.engine.Analyse(ctx, pos, history, lim)
	if err != nil {
		return chess.NoMove, err
	}
	if res.Move == chess.NoMove {
		return chess.NoMove, ErrNotYourMove
	}
	return res.Move, nil
}

// Threats lists the opponent's capture threats against the player in the
// game's position: the captures the opponent could make if it were its
// move that win something (the target undefended, worth more than the
// attacker, or lost in the exchange). While the computer is to move there
// are none to show.
func (s *Service) Threats(ctx context.Context, visitor, id string) ([]Threat, error) {
	st, pos, err := s.helpGame(ctx, visitor, id)
	if err != nil {
		return nil, err
	}
	if st.Status != "active" || st.Turn != st.HumanColor {
		return []Threat{}, nil
	}
	return Threats(pos), nil
}

// Threats lists the side not to move's captures in pos that win material,
// most valuable target first (see Service.Threats). When the side to move
// is in check, the threat is the check itself.
func Threats(pos *chess.Position) []Threat {
	us := pos.Turn()
	out := []Threat{}
	if pos.InCheck() {
		k := pos.KingSquare(us)
		att := pos.Attackers(k, us.Other())
		for att != 0 {
			from := att.PopFirst()
			out = append(out, Threat{From: from, To: k, By: pos.PieceAt(from).Type(), Target: chess.King})
		}
		return out
	}
	var them chess.Position
	pos.PlayNull(&them)
	for _, m := range them.AppendCaptures(nil) {
		if m.IsEnPassant() || m.Captured() == chess.NoPiece {
			continue // an en passant chance vanishes after any move
		}
		by, target := m.Piece().Type(), m.Captured().Type()
		free := pos.Attackers(m.To(), us) == 0
		if free || value[by] < value[target] || engine.ExchangeGain(&them, m) > 0 {
			if !slices.ContainsFunc(out, func(t Threat) bool { return t.From == m.From() && t.To == m.To() }) {
				out = append(out, Threat{From: m.From(), To: m.To(), By: by, Target: target})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Threat) int { return value[b.Target] - value[a.Target] })
	return out
}
