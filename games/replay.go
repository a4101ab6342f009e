package games

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"chesstutor/chess"
	"chesstutor/store"
	"chesstutor/words"
)

// This file reads stored games back: loading and replaying one, the
// visitor's list and the PGN download (G13).

// load reads the game and replays its moves.
func (s *Service) load(ctx context.Context, visitor, id string) (*loaded, error) {
	if !store.ValidID(id) {
		return nil, fail(NotFound, "not_found")
	}
	rec, err := s.store.Game(ctx, id)
	// A game played from two devices is open to its link's holders: the
	// seats act, everyone else watches (G24–G26).
	if errors.Is(err, store.ErrNotFound) || (err == nil && rec.Visitor != visitor && rec.Remote == nil) {
		return nil, fail(NotFound, "not_found")
	}
	if err != nil {
		return nil, err
	}
	l, err := replay(rec)
	if err != nil || rec.Remote == nil {
		return l, err
	}
	l.seat, l.awayClaim = seatOf(rec, visitor), s.away
	if l.watchers, err = s.remote.Watchers(ctx, id, s.now().Add(-watcherFresh)); err != nil {
		return nil, err
	}
	return l, nil
}

func replay(rec *store.Game) (*loaded, error) {
	g, err := chess.Replay(rec.StartFEN, rec.Moves)
	if err != nil {
		return nil, fmt.Errorf("games: game %s: %w", rec.ID, err)
	}
	// The stored ending is a code (N7): the moves give checkmate and the
	// draw rules; resignation, agreement and timeout are applied here.
	ending := chess.NoMethod
	if rec.Status != statusActive && rec.Status != store.StatusAbandoned {
		if ending, err = chess.ParseMethodCode(rec.Status); err != nil || ending == chess.NoMethod {
			return nil, fmt.Errorf("games: game %s: stored status %q is not an ending code", rec.ID, rec.Status)
		}
	}
	if ending != chess.NoMethod && !g.Outcome().Over() {
		c := parseColor(rec.EndColor)
		switch ending {
		case chess.Resignation:
			g.Resign(c)
		case chess.Agreement:
			g.AgreeDraw()
		case chess.Timeout:
			g.Timeout(c)
		}
	}
	if got := g.Outcome(); got.Method != ending || got.Result != rec.Result {
		return nil, fmt.Errorf("games: game %s: stored ending %q %s, but its moves give %q %s",
			rec.ID, rec.Status, rec.Result, got.Method.Code(), got.Result)
	}
	return &loaded{rec: rec, game: g}, nil
}

// PGN returns the game as a PGN to write and a file name for the
// download: the Seven Tag Roster, the time control, the start position,
// and its ending as a standard Termination where the moves do not tell it
// and as a closing comment. Like Get, it first ends a game whose flag has
// fallen. The edge may add notes (hints used, a review) before writing it.
func (s *Service) PGN(ctx context.Context, visitor, id string) (name string, doc *chess.PGN, err error) {
	l, st, err := s.update(ctx, visitor, id, nil, func(*loaded, time.Time) error { return errNoChange })
	if err != nil {
		return "", nil, err
	}
	white, black := l.playerNames()
	tags := map[string]string{
		"Event": "Casual game",
		"Site":  "Chess Steps",
		"Date":  l.rec.CreatedAt.UTC().Format("2006.01.02"),
		"Round": "-",
		"White": white,
		"Black": black,
	}
	if l.rec.ClockName != "none" {
		tags["TimeControl"] = fmt.Sprintf("%d+%d", l.rec.BaseMS/1000, l.rec.IncrementMS/1000)
	}
	doc = l.game.Record(tags)
	doc.Result = st.Result
	if l.abandoned() {
		doc.Termination = chess.TerminationAbandoned
	}
	// PGN is English whatever the reader's language (N9).
	doc.Ending = ""
	if r := words.Default().For(words.English).Msg(st.reason); r != "" {
		doc.Ending = sentence(r)
	}
	name = fmt.Sprintf("chess-%s-%s.pgn", l.rec.CreatedAt.UTC().Format("2006-01-02"), id[:8])
	return name, doc, nil
}

// List returns the visitor's games for the /games page, newest first.
func (s *Service) List(ctx context.Context, visitor string, limit int) ([]Summary, error) {
	recs, err := s.store.VisitorGames(ctx, visitor, limit)
	if err != nil {
		return nil, err
	}
	// A game whose running clock has run out is over (R9) even if nobody
	// has opened it since: end it here, as opening it would, so the list
	// never shows it as still going on. Only running clocks are loaded,
	// and a visitor has few unfinished games (N8).
	for i, r := range recs {
		if r.Status != statusActive || r.ClockName == "none" || r.ClockName == "" || r.RunningSince.IsZero() {
			continue
		}
		l, _, err := s.update(ctx, visitor, r.ID, nil, func(*loaded, time.Time) error { return errNoChange })
		if err != nil {
			return nil, err
		}
		recs[i] = l.rec
	}
	out := make([]Summary, 0, len(recs))
	for _, r := range recs {
		l := &loaded{rec: r}
		white, black := l.playerNames()
		// The list shows the reason without replaying every game: the
		// sentence is built from the stored codes.
		reason := words.M("game.abandoned")
		if r.Status != store.StatusAbandoned {
			o, err := chess.ParseOutcome(r.Reason, r.Result, parseColor(r.EndColor))
			if err != nil {
				return nil, fmt.Errorf("games: game %s: stored ending: %w", r.ID, err)
			}
			reason = EndingMessage(o)
		}
		sum := Summary{
			ID: r.ID, Mode: r.Mode, White: white, Black: black, Result: r.Result,
			Reason: reason, Active: r.Status == statusActive, Moves: (len(r.Moves) + 1) / 2,
			Clock: r.ClockName, Level: r.Level, Created: r.CreatedAt, Updated: r.UpdatedAt,
		}
		switch r.Mode {
		case "computer":
			sum.Opponent = words.M("game.opponent_computer_"+r.HumanColor, "Level", r.Level)
		case "friend":
			sum.Opponent = words.M("game.opponent_friend")
			if r.WhiteName != "" || r.BlackName != "" {
				sum.Opponent = words.M("game.opponent_names", "White", white, "Black", black)
			}
		default:
			sum.Opponent = words.M("game.opponent_friend")
		}
		out = append(out, sum)
	}
	return out, nil
}

// Summary is one line of the visitor's game list.
type Summary struct {
	ID, Mode, White, Black string // White and Black as the PGN names the players
	Result, Clock          string
	Opponent, Reason       words.Message
	Active                 bool
	Moves, Level           int
	Created, Updated       time.Time
}

func parseColor(s string) chess.Color {
	if s == "black" {
		return chess.Black
	}
	return chess.White
}

func trimChess(err error) string {
	return strings.TrimPrefix(err.Error(), "chess: ")
}

// sentence capitalises msg and ends it with a full stop.
func sentence(msg string) string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return msg
	}
	if c := msg[0]; c >= 'a' && c <= 'z' {
		msg = string(c-'a'+'A') + msg[1:]
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}
