package games

import (
	"fmt"
	"time"

	"chesstutor/chess"
)

// State is the game as the API and the page see it (H1).
type State struct {
	ID       string   `json:"id"`
	FEN      string   `json:"fen"`
	StartFEN string   `json:"start_fen"`
	Turn     string   `json:"turn"`
	Ply      int      `json:"ply"`
	Moves    []string `json:"moves"` // SAN
	UCI      []string `json:"uci"`
	Legal    []string `json:"legal"` // UCI; empty when nobody may move here
	Status   string   `json:"status"`
	Result   string   `json:"result"`
	Reason   string   `json:"reason"`
	// Cause explains an automatic draw in words (G15).
	Cause  string `json:"cause,omitempty"`
	Winner string `json:"winner,omitempty"`
	// Positions lists the FEN after each ply (the start first) once the
	// game is over, for the move-by-move review (G14).
	Positions []string `json:"positions,omitempty"`

	Clock   *ClockSetting `json:"clock,omitempty"`
	Clocks  *Clocks       `json:"clocks,omitempty"`
	Running string        `json:"running"` // the colour whose clock runs now, or ""

	LastMove      string   `json:"last_move"`
	Check         string   `json:"check"`
	Repetition    int      `json:"repetition"`
	HalfmoveClock int      `json:"halfmove_clock"`
	Fullmove      int      `json:"fullmove"`
	Notes         []string `json:"notes"` // live draw-rule notes (G15)
	DrawOffer     string   `json:"draw_offer"`

	Mode       string `json:"mode"`
	HumanColor string `json:"human_color"`
	Level      int    `json:"level,omitempty"`
	Undo       bool   `json:"undo"`
	PassScreen bool   `json:"pass_screen"`
	TurnBoard  bool   `json:"turn_board"`
	// Waiting means the computer is to move and its reply is not in yet.
	Waiting bool   `json:"waiting"`
	Message string `json:"message,omitempty"`
	Created string `json:"created"`

	// The values the strings above were written from, for the game page
	// (it draws the board on the server without parsing them back).
	pos, start *chess.Position
	last       chess.Move
}

// Position is the current position.
func (st *State) Position() *chess.Position { return st.pos }

// LastPlayed is the last move played, or chess.NoMove before the first.
func (st *State) LastPlayed() chess.Move { return st.last }

// FullMoves is the move list numbered as a person reads it ("12. Nf3 Nc6").
func (st *State) FullMoves() []chess.FullMove { return chess.FullMoves(st.start, st.Moves) }

// ClockSetting is the game's time control.
type ClockSetting struct {
	Name        string `json:"name"`
	BaseMS      int64  `json:"base_ms"`
	IncrementMS int64  `json:"increment_ms"`
}

// statusActive is the status code of a game that goes on, in storage and
// in the API.
const statusActive = "active"

// apiStatus is the API's status of a finished game, by method. These are
// machine values fixed by the API (README, "HTTP API") and kept apart from
// the words of sentences, so rewording never changes an answer; storage
// holds chess.Method codes instead.
var apiStatus = map[chess.Method]string{
	chess.Checkmate:            "checkmate",
	chess.Stalemate:            "stalemate",
	chess.ThreefoldRepetition:  "threefold repetition",
	chess.FiftyMoveRule:        "fifty-move rule",
	chess.InsufficientMaterial: "insufficient material",
	chess.Timeout:              "timeout",
	chess.Resignation:          "resignation",
	chess.Agreement:            "agreement",
}

// Clocks are the times left, in milliseconds.
type Clocks struct {
	White int64 `json:"white"`
	Black int64 `json:"black"`
}

func (l *loaded) state(now time.Time) *State {
	g := l.game
	pos := g.Position()
	o := g.Outcome()
	st := &State{
		ID: l.rec.ID, FEN: pos.FEN(), StartFEN: l.rec.StartFEN, Turn: pos.Turn().String(),
		Ply: g.Ply(), Moves: g.SANs(), UCI: append([]string{}, l.rec.Moves...), Legal: []string{},
		Status: statusActive, Result: o.Result, Repetition: g.RepetitionCount(),
		HalfmoveClock: pos.HalfmoveClock(), Fullmove: pos.FullmoveNumber(), Notes: []string{},
		DrawOffer: l.rec.DrawOffer, Mode: l.rec.Mode, HumanColor: l.rec.HumanColor,
		Level: l.rec.Level, Undo: l.rec.Undo, PassScreen: l.rec.PassScreen,
		TurnBoard: l.rec.TurnBoard, Message: l.message,
		Created: l.rec.CreatedAt.UTC().Format(time.RFC3339),
		pos:     pos, start: g.Positions()[0],
	}
	if ms := g.Moves(); len(ms) > 0 {
		st.last = ms[len(ms)-1]
	}
	if st.Moves == nil {
		st.Moves = []string{}
	}
	if l.abandoned() {
		st.Status, st.Reason = statusAbandoned, abandonedSentence
	} else if o.Result != "*" {
		st.Status = apiStatus[o.Method]
		st.Reason = o.Reason()
		st.Cause = cause(l, o)
		if o.Result != "1/2-1/2" {
			st.Winner = o.Winner.String()
		}
		for _, p := range g.Positions() {
			st.Positions = append(st.Positions, p.FEN())
		}
	} else {
		if l.computerToMove() {
			st.Waiting = true
		} else {
			for _, m := range pos.LegalMoves() {
				st.Legal = append(st.Legal, m.UCI())
			}
		}
		st.Notes = notes(l)
	}
	if n := len(l.rec.Moves); n > 0 {
		st.LastMove = l.rec.Moves[n-1]
	}
	if pos.InCheck() {
		st.Check = pos.KingSquare(pos.Turn()).String()
	}
	if l.timed() {
		st.Clock = &ClockSetting{Name: l.rec.ClockName, BaseMS: l.rec.BaseMS, IncrementMS: l.rec.IncrementMS}
		c := l.remaining(now)
		st.Clocks = &Clocks{White: max(c.White, 0), Black: max(c.Black, 0)}
		if !l.rec.RunningSince.IsZero() && l.active() {
			st.Running = pos.Turn().String()
		}
	}
	return st
}

// notes are the live explanations of the draw rules (G15).
func notes(l *loaded) []string {
	var out []string
	pos := l.game.Position()
	if hm := pos.HalfmoveClock(); hm >= 80 {
		out = append(out, fmt.Sprintf("Fifty-move count: %d of 100 half-moves without a capture or a pawn move. At 100 the game is a draw.", hm))
	}
	if l.game.RepetitionCount() == 2 {
		out = append(out, "This position has occurred twice. If it comes a third time, the game is a draw.")
	}
	return out
}

// cause names the pattern behind an automatic draw, or explains a drawn
// flag (G15).
func cause(l *loaded, o chess.Outcome) string {
	pos := l.game.Position()
	switch o.Method {
	case chess.ThreefoldRepetition:
		return "The same position occurred three times, with the same player to move and the same castling and en passant rights."
	case chess.FiftyMoveRule:
		return "Fifty moves by each side (100 half-moves) went by with no capture and no pawn move."
	case chess.Stalemate:
		return fmt.Sprintf("%s has no legal move, and the %s king is not in check. That is stalemate, and stalemate is a draw.", pos.Turn().Name(), pos.Turn())
	case chess.InsufficientMaterial:
		return materialCause(pos)
	case chess.Timeout:
		if o.Result == "1/2-1/2" {
			flagged := parseColor(l.rec.EndColor)
			return fmt.Sprintf("%s's time ran out, but %s has too little left to ever checkmate, so the game is a draw.", flagged.Name(), flagged.Other().Name())
		}
	}
	return ""
}

func materialCause(pos *chess.Position) string {
	count := func(t chess.PieceType) int {
		return pos.Pieces(chess.White, t).Count() + pos.Pieces(chess.Black, t).Count()
	}
	switch n, b := count(chess.Knight), count(chess.Bishop); {
	case n == 0 && b == 0:
		return "Only the two kings are left. Neither side can ever checkmate."
	case n == 1 && b == 0:
		return "Only a king and a knight against a lone king are left. A knight alone can never checkmate."
	case n == 0 && b == 1:
		return "Only a king and a bishop against a lone king are left. A bishop alone can never checkmate."
	default:
		return "Only kings and bishops standing on squares of one colour are left. They can never checkmate."
	}
}
