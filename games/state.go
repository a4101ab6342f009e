package games

import (
	"time"

	"chesstutor/chess"
	"chesstutor/words"
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
	Level      *int   `json:"level,omitempty"` // the computer's level (0 included); none in a friend game
	Undo       bool   `json:"undo"`
	PassScreen bool   `json:"pass_screen"`
	TurnBoard  bool   `json:"turn_board"`
	// WhiteName and BlackName are the players' names in a friend game, or "".
	WhiteName string `json:"white_name"`
	BlackName string `json:"black_name"`
	// Waiting means the computer is to move and its reply is not in yet.
	Waiting bool   `json:"waiting"`
	Message string `json:"message,omitempty"`
	Created string `json:"created"`
	// Remote is the two-device part (seats, takeback, watchers; G24–G26).
	Remote *RemoteState `json:"remote,omitempty"`

	// The values the strings above were written from, so the game page,
	// hints and reviews never parse them back: the positions from the
	// start (the current one last) and the moves played.
	positions []*chess.Position
	played    []chess.Move

	// The sentences by code; Word fills Reason, Cause, Notes and Message
	// from them in the request's language.
	reason, cause, message words.Message
	notes                  []words.Message
}

// ComputerLevel is the computer's level in a game against it (0 in a
// friend game, which has none).
func (st *State) ComputerLevel() int {
	if st.Level == nil {
		return 0
	}
	return *st.Level
}

// Word fills the state's sentences (Reason, Cause, Notes, Message) in w's
// language and returns st, for the edge to encode.
func (st *State) Word(w *words.Words) *State {
	st.Reason, st.Cause, st.Message = "", "", ""
	if !st.reason.IsZero() {
		st.Reason = w.Msg(st.reason)
	}
	if !st.cause.IsZero() {
		st.Cause = w.Msg(st.cause)
	}
	if !st.message.IsZero() {
		st.Message = w.Msg(st.message)
	}
	if len(st.notes) > 0 {
		st.Notes = make([]string, 0, len(st.notes))
		for _, n := range st.notes {
			st.Notes = append(st.Notes, w.Msg(n))
		}
	}
	return st
}

// ReasonMessage is how the game ended, by code (zero while it goes on).
func (st *State) ReasonMessage() words.Message { return st.reason }

// Position is the current position.
func (st *State) Position() *chess.Position { return st.positions[len(st.positions)-1] }

// Start is the position the game started from.
func (st *State) Start() *chess.Position { return st.positions[0] }

// History is the game's positions, the start first and the current one
// last (one more than Played): what hints and reviews read instead of
// replaying the strings.
func (st *State) History() []*chess.Position { return st.positions }

// Played are the moves played, in order.
func (st *State) Played() []chess.Move { return st.played }

// LastPlayed is the last move played, or chess.NoMove before the first.
func (st *State) LastPlayed() chess.Move {
	if len(st.played) == 0 {
		return chess.NoMove
	}
	return st.played[len(st.played)-1]
}

// FullMoves is the move list numbered as a person reads it ("12. Nf3 Nc6").
func (st *State) FullMoves() []chess.FullMove { return chess.FullMoves(st.Start(), st.Moves) }

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
// machine values fixed by the API (docs/api.md) and kept apart from
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
		Undo: l.rec.Undo, PassScreen: l.rec.PassScreen,
		TurnBoard: l.rec.TurnBoard, message: l.message,
		WhiteName: l.rec.WhiteName, BlackName: l.rec.BlackName,
		Created:   l.rec.CreatedAt.UTC().Format(time.RFC3339),
		positions: g.Positions(), played: g.Moves(),
	}
	if l.rec.Mode == "computer" {
		st.Level = new(l.rec.Level)
	}
	if st.Remote = l.remoteState(now); st.Remote != nil && l.seat != "" {
		st.HumanColor = l.seat
	}
	if st.Moves == nil {
		st.Moves = []string{}
	}
	if l.abandoned() {
		st.Status, st.reason = statusAbandoned, words.M("game.abandoned")
	} else if o.Result != "*" {
		st.Status = apiStatus[o.Method]
		st.reason = EndingMessage(o)
		st.cause = cause(l, o)
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
		st.notes, st.Notes = notes(l), nil
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
func notes(l *loaded) []words.Message {
	var out []words.Message
	pos := l.game.Position()
	if hm := pos.HalfmoveClock(); hm >= 80 {
		out = append(out, words.M("game.note_fifty", "Count", hm))
	}
	if l.game.RepetitionCount() == 2 {
		out = append(out, words.M("game.note_repetition"))
	}
	return out
}

// EndingMessage says how a game ended, by code: catalogue key
// ending.<outcome code>_<winner> for a win, ending.<outcome code> for a
// draw (a drawn flag names the side whose time ran out). It is zero while
// the game goes on.
func EndingMessage(o chess.Outcome) words.Message {
	switch {
	case !o.Over():
		return words.Message{}
	case o.Code() == chess.TimeoutNoMate:
		return words.M("ending.timeout_no_mate_" + o.Winner.Other().String())
	case o.IsDraw():
		return words.M("ending." + o.Code())
	}
	return words.M("ending." + o.Code() + "_" + o.Winner.String())
}

// cause names the pattern behind an automatic draw, or explains a drawn
// flag (G15).
func cause(l *loaded, o chess.Outcome) words.Message {
	pos := l.game.Position()
	switch o.Method {
	case chess.ThreefoldRepetition:
		return words.M("game.cause_repetition")
	case chess.FiftyMoveRule:
		return words.M("game.cause_fifty")
	case chess.Stalemate:
		return words.M("game.cause_stalemate_" + pos.Turn().String())
	case chess.InsufficientMaterial:
		return materialCause(pos)
	case chess.Timeout:
		if l.remote() && l.rec.Remote.Claimed {
			return claimCause(l, o)
		}
		if o.Result == "1/2-1/2" {
			return words.M("game.cause_timeout_no_mate_" + parseColor(l.rec.EndColor).String())
		}
	}
	return words.Message{}
}

func materialCause(pos *chess.Position) words.Message {
	count := func(t chess.PieceType) int {
		return pos.Pieces(chess.White, t).Count() + pos.Pieces(chess.Black, t).Count()
	}
	switch n, b := count(chess.Knight), count(chess.Bishop); {
	case n == 0 && b == 0:
		return words.M("game.cause_material_kings")
	case n == 1 && b == 0:
		return words.M("game.cause_material_knight")
	case n == 0 && b == 1:
		return words.M("game.cause_material_bishop")
	default:
		return words.M("game.cause_material_bishops")
	}
}
