package games

import (
	"context"
	"crypto/rand"
	"strings"
	"unicode"
	"unicode/utf8"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/store"
)

// NewGame is what the new-game form or POST /api/games asks for.
type NewGame struct {
	Mode  string `json:"mode"`  // "friend" or "computer"
	Color string `json:"color"` // "white", "black" or "random" (the human's colour against the computer)
	// Level is engine.MinLevel..engine.MaxLevel against the computer; nil
	// (no "level" in the JSON) is engine.DefaultLevel. An explicit 0 is
	// level 0, the weakest.
	Level      *int   `json:"level"`
	Clock      string `json:"clock"` // a ClockChoice's Name; "" is "none"
	FEN        string `json:"fen"`   // optional start position
	Undo       *bool  `json:"undo"`  // default on (G16)
	PassScreen *bool  `json:"pass_screen"`
	TurnBoard  bool   `json:"turn_board"`
	// WhiteName and BlackName name the players of a friend game
	// (optional; see playerName).
	WhiteName string `json:"white_name"`
	BlackName string `json:"black_name"`
}

// Create starts a game for visitor. Against the computer playing White,
// the computer's first move is made before returning when time allows.
func (s *Service) Create(ctx context.Context, visitor string, req NewGame) (*State, error) {
	rec, err := s.newRecord(visitor, req)
	if err != nil {
		return nil, err
	}
	start, err := chess.ParseFEN(rec.StartFEN)
	if err != nil {
		return nil, failChess(Invalid, err, "refuse_fen")
	}
	g, err := chess.NewGame(start)
	if err != nil {
		return nil, failChess(Invalid, err, "refuse_start")
	}
	if g.Outcome().Result != "*" {
		return nil, fail(Invalid, "refuse_finished", "Ending", EndingMessage(g.Outcome()))
	}
	rec.StartFEN = start.FEN()
	// At most s.max unfinished games per visitor: the least recently
	// played ones are closed as abandoned to make room (N8).
	if _, err := s.store.CapActiveGames(ctx, visitor, s.max-1); err != nil {
		return nil, err
	}
	if err := s.store.CreateGame(ctx, rec); err != nil {
		return nil, err
	}
	l := &loaded{rec: rec, game: g, seat: seatOf(rec, visitor)}
	if l.computerToMove() {
		return s.computerReply(ctx, visitor, l)
	}
	return l.state(s.now()), nil
}

func (s *Service) newRecord(visitor string, req NewGame) (*store.Game, error) {
	rec := &store.Game{Visitor: visitor, Status: statusActive, Result: "*", Undo: true}
	switch req.Mode {
	case "friend", "computer", store.ModeRemote:
		rec.Mode = req.Mode
	case "":
		return nil, fail(Invalid, "refuse_mode_missing")
	default:
		return nil, fail(Invalid, "refuse_mode", "Text", clip(req.Mode))
	}
	switch req.Color {
	case "white", "black":
		rec.HumanColor = req.Color
	case "", "random":
		rec.HumanColor = "white"
		if req.Color == "random" && randomBit() {
			rec.HumanColor = "black"
		}
	default:
		return nil, fail(Invalid, "refuse_color", "Text", clip(req.Color))
	}
	if rec.Mode == "friend" {
		rec.HumanColor = "white"
	}
	if rec.Mode == "computer" {
		if s.engine == nil {
			return nil, fail(Unavailable, "refuse_computer_down")
		}
		switch l := req.Level; {
		case l == nil:
			rec.Level = engine.DefaultLevel
		case *l < engine.MinLevel || *l > engine.MaxLevel:
			return nil, fail(Invalid, "refuse_level", "Min", engine.MinLevel, "Max", engine.MaxLevel, "Level", *l)
		default:
			rec.Level = *l
		}
	}
	name := req.Clock
	if name == "" {
		name = "none"
	}
	c, ok := clockChoice(name)
	if !ok {
		return nil, fail(Invalid, "refuse_clock", "Text", clip(req.Clock), "Names", clockNamesText())
	}
	rec.ClockName = name
	rec.BaseMS = int64(float64(c.Base.Milliseconds()) * s.scale)
	rec.IncrementMS = int64(float64(c.Increment.Milliseconds()) * s.scale)
	if req.Undo != nil {
		rec.Undo = *req.Undo
	}
	rec.PassScreen = rec.Mode == "friend"
	if req.PassScreen != nil {
		rec.PassScreen = *req.PassScreen && rec.Mode == "friend"
	}
	rec.TurnBoard = req.TurnBoard && rec.Mode == "friend"
	var err error
	if rec.WhiteName, err = playerName(req.WhiteName); err != nil {
		return nil, err
	}
	if rec.BlackName, err = playerName(req.BlackName); err != nil {
		return nil, err
	}
	if rec.Mode != "friend" && (rec.WhiteName != "" || rec.BlackName != "") {
		return nil, fail(Invalid, "refuse_names_friend")
	}
	if rec.Mode == store.ModeRemote {
		if err := s.newRemote(rec); err != nil {
			return nil, err
		}
	}
	rec.StartFEN = chess.StartFEN
	if f := strings.TrimSpace(req.FEN); f != "" {
		if len(f) > 120 {
			return nil, fail(Invalid, "refuse_fen_long")
		}
		rec.StartFEN = f
	}
	rec.Clocks = store.ClockPair{White: rec.BaseMS, Black: rec.BaseMS}
	rec.Snapshots = []store.ClockPair{rec.Clocks}
	rec.ID = store.NewID()
	rec.CreatedAt = s.now()
	return rec, nil
}

func randomBit() bool {
	var b [1]byte
	rand.Read(b[:])
	return b[0]&1 == 1
}

// playerName checks a player's name from the form or the API: trimmed,
// at most store.MaxPlayerName characters, and plain text (no control
// characters, no markup), so that it can go into a page, a PGN tag and
// an export as it is.
func playerName(s string) (string, error) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		return "", fail(Invalid, "refuse_name_chars")
	}
	if n := utf8.RuneCountInString(s); n > store.MaxPlayerName {
		return "", fail(Invalid, "refuse_name_long", "Max", store.MaxPlayerName, "Count", n)
	}
	for _, r := range s {
		if unicode.IsControl(r) || strings.ContainsRune(`<>"\{}[]`, r) || unicode.Is(unicode.Cf, r) {
			return "", fail(Invalid, "refuse_name_chars")
		}
	}
	return s, nil
}
