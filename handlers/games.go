package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/games"
	"chesstutor/public"
	"chesstutor/store"
	"chesstutor/views"
	"chesstutor/words"
)

// registerGames lists the game pages and the game API (G1–G16, H1).
func (h *Handler) registerGames(e *echo.Echo, api *echo.Group) {
	e.GET("/play", h.showNewGame)
	e.POST("/play", h.startGame)
	e.GET("/play/:id", h.showGame)
	e.GET("/games", h.listGames)

	api.POST("/games", h.createGame)
	api.GET("/games/:id", h.getGame)
	api.GET("/games/:id/pgn", h.downloadPGN)
	api.POST("/games/:id/moves", h.playMove)
	api.POST("/games/:id/reply", h.gameAction((*games.Service).Reply))
	api.POST("/games/:id/undo", h.gameAction((*games.Service).Undo))
	api.POST("/games/:id/resign", h.gameAction((*games.Service).Resign))
	api.POST("/games/:id/draw", h.gameAction((*games.Service).OfferDraw))
	api.POST("/games/:id/draw/accept", h.gameAction((*games.Service).AcceptDraw))
	api.POST("/games/:id/draw/decline", h.gameAction((*games.Service).DeclineDraw))
	api.POST("/games/:id/flag", h.gameAction((*games.Service).Flag))
	api.POST("/games/:id/pause", h.gameAction((*games.Service).Pause))
	api.POST("/games/:id/resume", h.gameAction((*games.Service).Resume))
}

// gameError turns a refusal of the game service into the HTTP status of H1.
func gameError(err error) error {
	var ge *games.Error
	if errors.Is(err, context.Canceled) {
		// The browser went away (a reload, a closed tab); nobody reads this.
		return refuse(http.StatusRequestTimeout, "game.cancelled")
	}
	if !errors.As(err, &ge) {
		return err
	}
	status := map[games.Kind]int{
		games.Invalid:     http.StatusBadRequest,
		games.NotFound:    http.StatusNotFound,
		games.Conflict:    http.StatusConflict,
		games.Illegal:     http.StatusUnprocessableEntity,
		games.Unavailable: http.StatusServiceUnavailable,
		games.Forbidden:   http.StatusForbidden,
	}[ge.Kind]
	if status == 0 {
		status = http.StatusInternalServerError
	}
	return echo.NewHTTPError(status, ge.Message)
}

// createGame is POST /api/games.
func (h *Handler) createGame(c echo.Context) error {
	var req games.NewGame
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	st, err := h.games.Create(c.Request().Context(), visitorID(c), req)
	if err != nil {
		return gameError(err)
	}
	c.Response().Header().Set("Location", "/api/games/"+st.ID)
	return c.JSON(http.StatusCreated, h.createdAnswer(c, st.Word(h.w(c)))) // remote.go
}

// getGame is GET /api/games/:id.
func (h *Handler) getGame(c echo.Context) error {
	st, err := h.games.Get(c.Request().Context(), visitorID(c), c.Param("id"))
	if err != nil {
		return gameError(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, st.Word(h.w(c)))
}

type moveRequest struct {
	Move string `json:"move"`
	SAN  string `json:"san"`
	Ply  *int   `json:"ply"`
	// Reply false answers as soon as the move is played; the page then
	// asks for the computer's reply (POST .../reply) while it shows the
	// computer thinking (G17). Left out, the reply comes in this answer.
	Reply *bool `json:"reply"`
}

// playMove is POST /api/games/:id/moves.
func (h *Handler) playMove(c echo.Context) error {
	var req moveRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if req.Reply != nil && !*req.Reply {
		ctx = games.WithoutReply(ctx)
	}
	st, err := h.moveTyped(ctx, c, req.Ply, req.Move, req.SAN) // notation.go
	if err != nil {
		return gameError(err)
	}
	return c.JSON(http.StatusOK, st.Word(h.w(c)))
}

type plyRequest struct {
	Ply *int `json:"ply"`
}

// gameAction serves the actions that take only {"ply": N}: undo, resign,
// the draw offers, flag, pause, resume and the computer's reply.
func (h *Handler) gameAction(fn func(*games.Service, context.Context, string, string, *int) (*games.State, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		var req plyRequest
		if err := bindJSON(c, &req); err != nil {
			return err
		}
		st, err := fn(h.games, c.Request().Context(), visitorID(c), c.Param("id"), req.Ply)
		if err != nil {
			return gameError(err)
		}
		return c.JSON(http.StatusOK, st.Word(h.w(c)))
	}
}

// newGameForm is the payload of the play page.
type newGameForm struct {
	Error                       words.Message
	Mode, Color, Clock, FEN     string
	Level                       int
	Undo, PassScreen, TurnBoard bool
	WhiteName, BlackName        string // a friend game's players, optional
	MaxName                     int
	Levels                      []engine.Level
	Clocks                      []games.ClockChoice
}

func (h *Handler) newGameForm() newGameForm {
	f := newGameForm{Mode: "computer", Color: "white", Clock: "none", Level: engine.DefaultLevel, Undo: true, PassScreen: true,
		MaxName: store.MaxPlayerName}
	if h.games.HasComputer() {
		f.Levels = engine.Levels()
	}
	f.Clocks = games.ClockChoices()
	return f
}

// showNewGame is GET /play: the new-game form. ?fen= starts from a
// position (lessons link here with "play this position").
func (h *Handler) showNewGame(c echo.Context) error {
	f := h.newGameForm()
	f.FEN = c.QueryParam("fen")
	if m := c.QueryParam("mode"); m == "friend" || m == "remote" {
		f.Mode = m
	}
	return h.render(c, http.StatusOK, "play", f)
}

// startGame is POST /play, the plain form: it creates the game and sends
// the browser to its page.
func (h *Handler) startGame(c echo.Context) error {
	f := h.newGameForm()
	f.Mode, f.Color, f.Clock, f.FEN = c.FormValue("mode"), c.FormValue("color"), c.FormValue("clock"), c.FormValue("fen")
	f.Undo, f.PassScreen, f.TurnBoard = c.FormValue("undo") == "on", c.FormValue("pass_screen") == "on", c.FormValue("turn_board") == "on"
	if f.Mode == "friend" {
		// The name fields stay in the form whatever the mode; only a
		// friend game takes them.
		f.WhiteName, f.BlackName = c.FormValue("white_name"), c.FormValue("black_name")
	}
	if f.Color == "" {
		f.Color = "white"
	}
	var level *int // none: the service's default
	if v := c.FormValue("level"); v != "" && f.Mode == "computer" {
		n, err := strconv.Atoi(v)
		if err != nil {
			f.Error = words.M("game.choose_level", "Min", engine.MinLevel, "Max", engine.MaxLevel)
			return h.render(c, http.StatusBadRequest, "play", f)
		}
		level = &n
		f.Level = n
	}
	undo, pass := f.Undo, f.PassScreen
	st, err := h.games.Create(c.Request().Context(), visitorID(c), games.NewGame{
		Mode: f.Mode, Color: f.Color, Level: level, Clock: f.Clock, FEN: f.FEN,
		Undo: &undo, PassScreen: &pass, TurnBoard: f.TurnBoard,
		WhiteName: f.WhiteName, BlackName: f.BlackName,
	})
	var ge *games.Error
	if errors.As(err, &ge) {
		f.Error = ge.Message
		return h.render(c, http.StatusBadRequest, "play", f)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/play/"+st.ID)
}

// gamePage is the payload of the game page.
type gamePage struct {
	ID            string
	Title, Status words.Message
	Board         views.Board
	MovePairs     []chess.FullMove
	Facts         string      // gameFacts as JSON, for game.js
	SoundOn       bool        // the visitor's sound switch (cookie "sound")
	Remote        *remotePage // a game from two devices (remote.go)
}

// gameFacts are the shared facts game.js needs, rendered into the page as
// JSON so the browser keeps no copy of its own (issue 17). They hold no
// words, so one copy serves every language; the page's words come in its
// data-words (game.js.* in the catalogue).
type gameFacts struct {
	StartFEN string            `json:"start_fen"`
	Values   map[string]int    `json:"values"` // "N" -> 3, for the material count (G21)
	Sounds   map[string]string `json:"sounds"` // "move" -> its hashed URL (G20)
}

// gameFactsJSON is computed once: the facts are fixed for the life of the
// binary, and every game page carries them.
var gameFactsJSON = sync.OnceValue(newGameFacts)

func newGameFacts() string {
	f := gameFacts{StartFEN: chess.StartFEN, Values: map[string]int{}, Sounds: map[string]string{}}
	for t := chess.Pawn; t <= chess.Queen; t++ {
		f.Values[string(t.Letter())] = games.PieceValue(t)
	}
	sounds, _ := fs.ReadDir(public.Files, "sounds")
	for _, d := range sounds {
		f.Sounds[strings.TrimSuffix(d.Name(), path.Ext(d.Name()))] = public.URL("sounds/" + d.Name())
	}
	b, err := json.Marshal(f)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return string(b)
}

// showGame is GET /play/:id. The board is drawn on the server, so the
// position shows even without JavaScript; game.js then takes over.
func (h *Handler) showGame(c echo.Context) error {
	st, err := h.games.Get(c.Request().Context(), visitorID(c), c.Param("id"))
	if err != nil {
		return gameError(err)
	}
	if st.Remote != nil && st.Remote.Seat == "" && !st.Remote.Joined && !st.Remote.InviteExpired {
		return c.Redirect(http.StatusSeeOther, "/join/"+st.ID) // a free seat: the invite offers it
	}
	return h.render(c, http.StatusOK, "play_game", h.newGamePage(c, st))
}

// newGamePage is the game page's payload for st.
func (h *Handler) newGamePage(c echo.Context, st *games.State) gamePage {
	b := views.Board{Pos: st.Position(), Size: "full", Flipped: st.Mode == "computer" && st.HumanColor == "black",
		Classes: map[chess.Square][]string{}}
	if m := st.LastPlayed(); m != chess.NoMove {
		b.Classes[m.From()] = append(b.Classes[m.From()], "last-move")
		b.Classes[m.To()] = append(b.Classes[m.To()], "last-move")
	}
	b.Words = h.w(c)
	p := gamePage{ID: st.ID, Board: b, Title: words.M("game.title_friend"), Facts: gameFactsJSON(), SoundOn: true}
	if ck, err := c.Cookie("sound"); err == nil && ck.Value == "off" {
		p.SoundOn = false
	}
	if st.Mode == "computer" {
		p.Title = words.M("game.title_computer", "Level", st.ComputerLevel())
	}
	p.Status = words.M("game.js.to_move_" + st.Position().Turn().String())
	if st.Status != "active" {
		p.Status = st.ReasonMessage()
	}
	p.MovePairs = st.FullMoves()
	for i := range p.MovePairs {
		if p.MovePairs[i].White == "" {
			p.MovePairs[i].White = "…" // the game started with Black to move
		}
	}
	if st.Remote != nil {
		h.remoteGamePage(c, st, &p) // remote.go
	}
	return p
}

// listGames is GET /games: the visitor's saved games (G13).
func (h *Handler) listGames(c echo.Context) error {
	list, err := h.games.List(c.Request().Context(), visitorID(c), 200)
	if err != nil {
		return err
	}
	return h.render(c, http.StatusOK, "games", struct{ Games []games.Summary }{list})
}
