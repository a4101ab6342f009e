package handlers

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/puzzles"
	"chesstutor/review"
	"chesstutor/views"
	"chesstutor/words"
)

// Puzzles (P1–P7): /puzzles plays the next puzzle near the visitor's
// rating, /puzzles/{id} one puzzle, /puzzles/streak the streak and
// /puzzles/daily the puzzle of the day. Every page is a form first: a
// square button selects a piece or plays it, and the state lives in the
// query (ply, sel, promo, wrong); puzzle.js plays the same page through
// the JSON API.

// registerPuzzles adds the puzzle pages and the API.
func (h *Handler) registerPuzzles(e *echo.Echo, api *echo.Group) {
	e.GET("/puzzles", h.showNextPuzzle)
	e.GET("/puzzles/daily", h.showDailyPuzzle)
	e.GET("/puzzles/streak", h.showStreak)
	e.POST("/puzzles/streak", h.startStreakForm)
	e.GET("/puzzles/:id", h.showPuzzle)
	e.POST("/puzzles/:id", h.submitPuzzle)
	api.GET("/puzzles/next", h.nextPuzzleJSON)
	api.GET("/puzzles/themes", h.puzzleThemesJSON)
	api.GET("/puzzles/me", h.puzzleMeJSON)
	api.POST("/puzzles/streak", h.startStreakJSON)
	api.GET("/puzzles/:id", h.puzzleJSON)
	api.POST("/puzzles/:id/move", h.puzzleMoveJSON)
	api.POST("/puzzles/:id/hint", h.puzzleHintJSON)
	api.POST("/puzzles/:id/solution", h.puzzleSolutionJSON)
}

// puzzleError maps the puzzle service's refusals to statuses and words.
func puzzleError(err error) error {
	switch {
	case errors.Is(err, puzzles.ErrNotFound):
		return refuse(http.StatusNotFound, "puzzles.refuse_unknown")
	case errors.Is(err, puzzles.ErrStalePly):
		return refuse(http.StatusConflict, "puzzles.refuse_stale")
	case errors.Is(err, puzzles.ErrIllegal):
		return refuse(http.StatusUnprocessableEntity, "puzzles.refuse_illegal")
	case errors.Is(err, puzzles.ErrNotInStreak):
		return refuse(http.StatusConflict, "puzzles.refuse_streak")
	case errors.Is(err, puzzles.ErrNoTheme):
		return refuse(http.StatusNotFound, "puzzles.refuse_theme")
	}
	return err
}

func (h *Handler) puzzleByID(id string) (*puzzles.Puzzle, error) {
	if !puzzles.ValidID(id) {
		return nil, refuse(http.StatusNotFound, "puzzles.refuse_unknown")
	}
	p, err := h.puzzles.Set().Get(id)
	return p, puzzleError(err)
}

// themeParam reads ?theme=, refusing a theme that does not exist.
func themeParam(c echo.Context) (puzzles.Theme, error) {
	t := puzzles.Theme(c.QueryParam("theme"))
	if t == "" {
		return "", nil
	}
	for _, have := range puzzles.AllThemes {
		if have == t {
			return t, nil
		}
	}
	return "", refuse(http.StatusBadRequest, "puzzles.refuse_theme")
}

// ---- JSON API (H1) ----

// puzzleJSONBody is a puzzle as the API sends it: its start, not its
// solution.
type puzzleJSONBody struct {
	ID       string   `json:"id"`
	FEN      string   `json:"fen"`
	Color    string   `json:"color"`
	LastMove string   `json:"last_move"`
	Themes   []string `json:"themes"`
	Rating   int      `json:"rating"`
	// Moves is the number of the solver's moves in the solution.
	Moves int `json:"moves"`
	// Legal lists the solver's legal moves at the start, UCI.
	Legal []string `json:"legal"`
}

func (h *Handler) puzzleBody(c echo.Context, p *puzzles.Puzzle) (puzzleJSONBody, error) {
	r, err := h.puzzles.Rating(c.Request().Context(), p)
	if err != nil {
		return puzzleJSONBody{}, err
	}
	out := puzzleJSONBody{ID: p.ID, FEN: p.Start().FEN(), Color: p.Color().String(), LastMove: p.Last.UCI(),
		Themes: []string{}, Rating: int(math.Round(r.R)), Moves: p.SolverMoves(), Legal: legalUCI(p.Start())}
	for _, t := range p.Themes {
		out.Themes = append(out.Themes, string(t))
	}
	return out, nil
}

func legalUCI(pos *chess.Position) []string {
	out := []string{}
	for _, m := range pos.LegalMoves() {
		out = append(out, m.UCI())
	}
	return out
}

// nextPuzzleJSON is GET /api/puzzles/next[?theme=].
func (h *Handler) nextPuzzleJSON(c echo.Context) error {
	theme, err := themeParam(c)
	if err != nil {
		return err
	}
	p, err := h.puzzles.Next(c.Request().Context(), visitorID(c), theme)
	if err != nil {
		return puzzleError(err)
	}
	body, err := h.puzzleBody(c, p)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, body)
}

// puzzleJSON is GET /api/puzzles/{id}: the puzzle from its start.
func (h *Handler) puzzleJSON(c echo.Context) error {
	p, err := h.puzzleByID(c.Param("id"))
	if err != nil {
		return err
	}
	body, err := h.puzzleBody(c, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, body)
}

type themeCountJSON struct {
	Theme string `json:"theme"`
	Count int    `json:"count"`
	Name  string `json:"name"` // in the request's language
}

// puzzleThemesJSON is GET /api/puzzles/themes.
func (h *Handler) puzzleThemesJSON(c echo.Context) error {
	out := []themeCountJSON{}
	for _, tc := range h.puzzles.Set().Themes() {
		out = append(out, themeCountJSON{Theme: string(tc.Theme), Count: tc.Count, Name: themeName(h.w(c), tc.Theme)})
	}
	return c.JSON(http.StatusOK, out)
}

func themeName(w *words.Words, t puzzles.Theme) string {
	return w.T("puzzles.theme_" + strings.ReplaceAll(string(t), "-", "_"))
}

type puzzleMeJSONBody struct {
	Rating     int `json:"rating"`
	RD         int `json:"rd"`
	Solved     int `json:"solved"`
	Failed     int `json:"failed"`
	StreakBest int `json:"streak_best"`
	Streak     int `json:"streak"`
}

// puzzleMeJSON is GET /api/puzzles/me.
func (h *Handler) puzzleMeJSON(c echo.Context) error {
	pl, err := h.puzzles.Player(c.Request().Context(), visitorID(c))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, puzzleMeJSONBody{Rating: int(math.Round(pl.Rating.R)), RD: int(math.Round(pl.Rating.RD)),
		Solved: pl.Solved, Failed: pl.Failed, StreakBest: pl.StreakBest, Streak: pl.StreakCurrent})
}

type puzzleMoveRequest struct {
	Move string `json:"move"`
	Ply  *int   `json:"ply"`
	// Mode is "streak" for a move in the visitor's streak.
	Mode string `json:"mode"`
}

type ratingChangeJSON struct {
	Before int `json:"before"`
	After  int `json:"after"`
}

type puzzleMoveResponse struct {
	Correct bool   `json:"correct"`
	Done    bool   `json:"done"`
	Reply   string `json:"reply"` // UCI: the solution's answer, or the punishing reply to a wrong move
	Reason  string `json:"reason"`
	// Why is the review's reason as codes (N7), for programs.
	Why    *review.Reason   `json:"why,omitempty"`
	Rating ratingChangeJSON `json:"rating"`
	Rated  bool             `json:"rated"`
	// Ply is the number of half-moves played after this answer: after a
	// wrong move, the same as before (the position stays).
	Ply      int      `json:"ply"`
	FEN      string   `json:"fen"`   // the position at Ply
	Legal    []string `json:"legal"` // the solver's legal moves at Ply, UCI
	SAN      string   `json:"san"`
	ReplySAN string   `json:"reply_san"`
	// Punished is the position after the wrong move and its reply, shown
	// briefly before the move is taken back.
	Punished string `json:"punished,omitempty"`
	Streak   *int   `json:"streak,omitempty"`
	// StreakOver: the streak ended with this move (its length in Streak).
	StreakOver bool `json:"streak_over,omitempty"`
	StreakBest int  `json:"streak_best,omitempty"`
}

func modeOf(s string) (puzzles.Mode, error) {
	switch s {
	case "", "single":
		return puzzles.Single, nil
	case "streak":
		return puzzles.StreakMode, nil
	}
	return 0, refuse(http.StatusBadRequest, "puzzles.refuse_mode")
}

// puzzleMoveJSON is POST /api/puzzles/{id}/move.
func (h *Handler) puzzleMoveJSON(c echo.Context) error {
	p, err := h.puzzleByID(c.Param("id"))
	if err != nil {
		return err
	}
	var req puzzleMoveRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Ply == nil {
		return refuse(http.StatusBadRequest, "puzzles.refuse_ply")
	}
	mode, err := modeOf(req.Mode)
	if err != nil {
		return err
	}
	out, _, err := h.playPuzzleMove(c, p, *req.Ply, req.Move, mode)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// playPuzzleMove plays one move for the visitor and words the answer.
func (h *Handler) playPuzzleMove(c echo.Context, p *puzzles.Puzzle, ply int, move string, mode puzzles.Mode) (puzzleMoveResponse, puzzles.Outcome, error) {
	if ply < 0 || ply >= p.Plies() || ply%2 != 0 {
		return puzzleMoveResponse{}, puzzles.Outcome{}, puzzleError(puzzles.ErrStalePly)
	}
	pos := p.Position(ply)
	m, err := pos.ParseUCI(strings.ToLower(strings.TrimSpace(move)))
	if err != nil {
		return puzzleMoveResponse{}, puzzles.Outcome{}, refuse(http.StatusUnprocessableEntity, "puzzles.refuse_illegal")
	}
	res, err := h.puzzles.Move(c.Request().Context(), visitorID(c), p, ply, m, mode)
	if err != nil {
		return puzzleMoveResponse{}, puzzles.Outcome{}, puzzleError(err)
	}
	letters := h.shownLetters(c)
	out := puzzleMoveResponse{Correct: res.Correct, Done: res.Done, Rated: res.Rated, Ply: res.Ply,
		Rating: ratingChangeJSON{Before: int(math.Round(res.Before.R)), After: int(math.Round(res.After.R))},
		SAN:    letters.Write(pos.SAN(m))}
	at := p.Position(res.Ply)
	if !res.Correct {
		at = pos
		out.Reason = h.wrongMoveWords(c, pos, m, res)
		if res.Punish != chess.NoMove {
			out.Reply = res.Punish.UCI()
			out.ReplySAN = letters.Write(pos.Play(m).SAN(res.Punish))
			out.Punished = pos.Play(m).Play(res.Punish).FEN()
		}
		if res.Review != nil && res.Review.Reason.Code != review.NoReason {
			why := res.Review.Reason
			out.Why = &why
		}
	} else if res.Reply != chess.NoMove {
		out.Reply = res.Reply.UCI()
		out.ReplySAN = letters.Write(pos.Play(m).SAN(res.Reply))
	}
	if res.Done && res.Correct {
		at = pos.Play(m)
	}
	out.FEN = at.FEN()
	out.Legal = []string{}
	if !res.Done {
		out.Legal = legalUCI(at)
	}
	if mode == puzzles.StreakMode && (res.Done || !res.Correct) {
		n := res.Streak
		out.Streak, out.StreakOver, out.StreakBest = &n, res.StreakEnded, res.StreakBest
	}
	return out, res, nil
}

// wrongMoveWords explains a wrong move in the visitor's words: the
// punishing reply and the review's reason for it (P3).
func (h *Handler) wrongMoveWords(c echo.Context, pos *chess.Position, m chess.Move, res puzzles.Outcome) string {
	w, letters := h.w(c), h.shownLetters(c)
	move := letters.Write(pos.SAN(m))
	after := pos.Play(m)
	if after.IsStalemate() {
		return w.T("puzzles.why.stalemate", "Move", move)
	}
	if res.Punish == chess.NoMove {
		return w.T("puzzles.why.look_again", "Move", move)
	}
	reply := letters.Write(after.SAN(res.Punish))
	var r review.Reason
	if res.Review != nil {
		r = res.Review.Reason
	}
	piece := func(t chess.PieceType) string { return w.T("piece.your_" + t.String()) }
	switch r.Code {
	case review.Hangs:
		if r.Free {
			return w.T("puzzles.why.hangs_free", "Move", move, "Reply", reply, "Piece", piece(r.Piece))
		}
		return w.T("puzzles.why.hangs", "Move", move, "Reply", reply, "Piece", piece(r.Piece))
	case review.BadTrade:
		return w.T("puzzles.why.bad_trade", "Move", move, "Reply", reply)
	case review.AllowsMate:
		if r.Mate == 1 {
			return w.T("puzzles.why.allows_mate_1", "Move", move, "Reply", reply)
		}
		return w.T("puzzles.why.allows_mate", "Move", move, "Reply", reply, "Count", r.Mate)
	case review.AllowsFork:
		return w.T("puzzles.why.allows_fork", "Move", move, "Reply", reply)
	case review.IntoPin:
		return w.T("puzzles.why.into_pin", "Move", move, "Reply", reply, "Piece", piece(r.Piece))
	case review.MissedMate:
		return w.T("puzzles.why.missed_mate", "Move", move, "Reply", reply)
	}
	return w.T("puzzles.why.advantage_gone", "Move", move, "Reply", reply)
}

type puzzleHintResponse struct {
	From  string `json:"from"`
	Piece string `json:"piece"`
	Hint  string `json:"hint"`
}

type puzzlePlyRequest struct {
	Ply  *int   `json:"ply"`
	Mode string `json:"mode"`
}

// puzzleHintJSON is POST /api/puzzles/{id}/hint {"ply"}: the piece that
// moves. A hint counts the first attempt as failed.
func (h *Handler) puzzleHintJSON(c echo.Context) error {
	p, err := h.puzzleByID(c.Param("id"))
	if err != nil {
		return err
	}
	var req puzzlePlyRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Ply == nil || *req.Ply < 0 || *req.Ply >= p.Plies() || *req.Ply%2 != 0 {
		return puzzleError(puzzles.ErrStalePly)
	}
	mode, err := modeOf(req.Mode)
	if err != nil {
		return err
	}
	if _, err := h.puzzles.GiveUp(c.Request().Context(), visitorID(c), p, mode); err != nil {
		return puzzleError(err)
	}
	return c.JSON(http.StatusOK, h.hintFor(c, p, *req.Ply))
}

func (h *Handler) hintFor(c echo.Context, p *puzzles.Puzzle, ply int) puzzleHintResponse {
	m := p.Solution[ply]
	t := m.Piece().Type()
	return puzzleHintResponse{From: m.From().String(), Piece: t.String(),
		Hint: h.w(c).T("puzzles.hint_text", "Piece", h.w(c).T("piece.the_"+t.String()), "Square", m.From().String())}
}

type puzzleSolutionResponse struct {
	Moves []string `json:"moves"` // UCI, the solver's first
	SAN   []string `json:"san"`
	Text  string   `json:"text"`
}

// puzzleSolutionJSON is POST /api/puzzles/{id}/solution: the whole line.
// Seeing it counts the first attempt as failed.
func (h *Handler) puzzleSolutionJSON(c echo.Context) error {
	p, err := h.puzzleByID(c.Param("id"))
	if err != nil {
		return err
	}
	var req puzzlePlyRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	mode, err := modeOf(req.Mode)
	if err != nil {
		return err
	}
	if _, err := h.puzzles.GiveUp(c.Request().Context(), visitorID(c), p, mode); err != nil {
		return puzzleError(err)
	}
	return c.JSON(http.StatusOK, h.solutionFor(c, p))
}

func (h *Handler) solutionFor(c echo.Context, p *puzzles.Puzzle) puzzleSolutionResponse {
	out := puzzleSolutionResponse{Moves: []string{}, SAN: []string{}}
	letters := h.shownLetters(c)
	pos := p.Start()
	for _, m := range p.Solution {
		out.Moves = append(out.Moves, m.UCI())
		out.SAN = append(out.SAN, letters.Write(pos.SAN(m)))
		pos = pos.Play(m)
	}
	out.Text = h.w(c).T("puzzles.solution_text", "Moves", strings.Join(out.SAN, " "))
	return out
}

// startStreakJSON is POST /api/puzzles/streak: a new streak and its first
// puzzle.
func (h *Handler) startStreakJSON(c echo.Context) error {
	p, err := h.puzzles.StartStreak(c.Request().Context(), visitorID(c))
	if err != nil {
		return puzzleError(err)
	}
	if p == nil {
		return puzzleError(puzzles.ErrNotFound)
	}
	body, err := h.puzzleBody(c, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, body)
}

// ---- Pages ----

// puzzlePage is the payload of views/pages/puzzle.html.
type puzzlePage struct {
	Puzzle *puzzles.Puzzle
	Kind   string // "next", "daily", "streak" or "one"
	Theme  string
	Themes []themeChoice
	Prompt string
	// LastMove tells what the opponent just played, in the visitor's notation.
	LastMove string
	Board    views.Board
	Ply      int
	Legal    string // UCI, space-separated
	Action   string // the form's URL
	Query    string // the page's own state for links that keep it (theme, mode)
	NextURL  string
	Rating   int
	// Played: after the form's move, what happened.
	Verdict *puzzleVerdict
	Hint    string
	Answer  string
	Promote string
	Sel     string
	Streak  *streakState
	Solved  bool
	// Notice: the streak's last puzzle was solved (the form's way there).
	Notice string
	Shown  ratingChangeJSON
	Rated  bool
}

type themeChoice struct {
	Theme, Name string
	Count       int
	Current     bool
}

type puzzleVerdict struct {
	Correct, Done bool
	Move, Reason  string
	// Reply is the opponent's answer in the visitor's notation.
	Reply string
	// BackURL takes the wrong move back.
	BackURL string
}

type streakState struct {
	Current, Best int
	Over          bool
	Length        int
	Running       bool
}

// showNextPuzzle is GET /puzzles: the next puzzle near the visitor's
// rating, of the chosen theme.
func (h *Handler) showNextPuzzle(c echo.Context) error {
	theme, err := themeParam(c)
	if err != nil {
		return err
	}
	p, err := h.puzzles.Next(c.Request().Context(), visitorID(c), theme)
	if err != nil {
		return puzzleError(err)
	}
	return h.renderPuzzle(c, p, "next")
}

// showDailyPuzzle is GET /puzzles/daily.
func (h *Handler) showDailyPuzzle(c echo.Context) error {
	p := h.puzzles.Daily()
	if p == nil {
		return puzzleError(puzzles.ErrNotFound)
	}
	return h.renderPuzzle(c, p, "daily")
}

// showPuzzle is GET /puzzles/{id}.
func (h *Handler) showPuzzle(c echo.Context) error {
	p, err := h.puzzleByID(c.Param("id"))
	if err != nil {
		return err
	}
	kind := "one"
	switch c.QueryParam("mode") {
	case "streak":
		kind = "streak"
	case "daily":
		kind = "daily"
	}
	return h.renderPuzzle(c, p, kind)
}

// showStreak is GET /puzzles/streak: the streak's current puzzle, or the
// button that starts one.
func (h *Handler) showStreak(c echo.Context) error {
	p, _, err := h.puzzles.StreakPuzzle(c.Request().Context(), visitorID(c))
	if err != nil {
		return err
	}
	if p == nil {
		pl, err := h.puzzles.Player(c.Request().Context(), visitorID(c))
		if err != nil {
			return err
		}
		st := &streakState{Best: pl.StreakBest}
		if n, err := strconv.Atoi(c.QueryParam("over")); err == nil && n >= 0 {
			st.Over, st.Length = true, n
		}
		return h.render(c, http.StatusOK, "puzzle-streak", st)
	}
	return h.renderPuzzle(c, p, "streak")
}

// startStreakForm is POST /puzzles/streak.
func (h *Handler) startStreakForm(c echo.Context) error {
	if _, err := h.puzzles.StartStreak(c.Request().Context(), visitorID(c)); err != nil {
		return puzzleError(err)
	}
	return c.Redirect(http.StatusSeeOther, "/puzzles/streak")
}

// renderPuzzle draws the puzzle page in the state the query holds.
func (h *Handler) renderPuzzle(c echo.Context, p *puzzles.Puzzle, kind string) error {
	ctx := c.Request().Context()
	w, letters := h.w(c), h.shownLetters(c)
	q := c.QueryParams()
	page := puzzlePage{Puzzle: p, Kind: kind, Theme: q.Get("theme"), Action: "/puzzles/" + p.ID}
	keep := url.Values{}
	switch kind {
	case "streak":
		keep.Set("mode", "streak")
	case "daily":
		keep.Set("mode", "daily")
	}
	if page.Theme != "" {
		if _, err := themeParam(c); err != nil {
			return err
		}
		keep.Set("theme", page.Theme)
	}
	page.Query = keep.Encode()
	page.NextURL = "/puzzles"
	if page.Theme != "" {
		page.NextURL += "?theme=" + url.QueryEscape(page.Theme)
	}
	for _, tc := range h.puzzles.Set().Themes() {
		page.Themes = append(page.Themes, themeChoice{Theme: string(tc.Theme), Name: themeName(w, tc.Theme), Count: tc.Count,
			Current: string(tc.Theme) == page.Theme})
	}
	pl, err := h.puzzles.Player(ctx, visitorID(c))
	if err != nil {
		return err
	}
	page.Rating = int(math.Round(pl.Rating.R))
	if kind == "streak" {
		page.Streak = &streakState{Current: pl.StreakCurrent, Best: pl.StreakBest, Running: true}
		page.NextURL = "/puzzles/streak"
		if q.Get("won") != "" && pl.StreakCurrent > 0 {
			page.Notice = w.T("puzzles.solved")
		}
	}
	ply := 0
	if s := q.Get("ply"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n%2 != 0 || n >= p.Plies() {
			return puzzleError(puzzles.ErrStalePly)
		}
		ply = n
	}
	page.Ply = ply
	pos := p.Position(ply)
	classes := map[chess.Square][]string{}
	mark := func(m chess.Move, class string) {
		classes[m.From()] = append(classes[m.From()], class)
		classes[m.To()] = append(classes[m.To()], class)
	}
	lastMove := p.Last
	if ply > 0 {
		lastMove = p.Solution[ply-1]
	}
	mark(lastMove, "last-move")
	side := w.T("puzzles.side_" + p.Color().String())
	page.Prompt = w.T("puzzles.prompt", "Side", side)
	if p.Has(puzzles.Defence) {
		page.Prompt = w.T("puzzles.prompt_defence", "Side", side)
	}
	if ply > 0 {
		page.Prompt = w.T("puzzles.prompt_go_on", "Move", letters.Write(p.Position(ply-1).SAN(lastMove)))
	} else {
		page.LastMove = w.T("puzzles.last_move", "Move", letters.Write(p.Before().SAN(p.Last)))
	}
	shown := pos
	switch {
	case q.Get("solved") != "":
		page.Solved = true
		last := p.Solution[len(p.Solution)-1]
		if q.Get("solved") != "1" {
			if m, err := p.Position(p.Plies() - 1).ParseUCI(q.Get("solved")); err == nil {
				last = m
			}
		}
		before := p.Position(p.Plies() - 1)
		shown = before.Play(last)
		classes = map[chess.Square][]string{}
		mark(last, "correct")
		page.Verdict = &puzzleVerdict{Correct: true, Done: true, Move: letters.Write(before.SAN(last))}
		page.Prompt = w.T("puzzles.solved")
		if r := q.Get("r"); r != "" {
			if a, b, ok := strings.Cut(r, "-"); ok {
				page.Shown.Before, _ = strconv.Atoi(a)
				page.Shown.After, _ = strconv.Atoi(b)
				page.Rated = true
			}
		}
	case q.Get("wrong") != "":
		m, err := pos.ParseUCI(q.Get("wrong"))
		if err != nil {
			return refuse(http.StatusBadRequest, "puzzles.refuse_illegal")
		}
		v, err := p.Try(ply, m)
		if err != nil || v.Correct {
			return puzzleError(puzzles.ErrIllegal)
		}
		punish, rm, err := h.puzzles.Explain(ctx, pos, m)
		if err != nil {
			return err
		}
		res := puzzles.Outcome{Punish: punish, Review: rm}
		page.Verdict = &puzzleVerdict{Move: letters.Write(pos.SAN(m)), Reason: h.wrongMoveWords(c, pos, m, res)}
		back := url.Values{}
		for k, vs := range keep {
			back[k] = vs
		}
		if ply > 0 {
			back.Set("ply", strconv.Itoa(ply))
		}
		page.Verdict.BackURL = "/puzzles/" + p.ID
		if len(back) > 0 {
			page.Verdict.BackURL += "?" + back.Encode()
		}
		classes = map[chess.Square][]string{}
		mark(m, "wrong")
		shown = pos.Play(m)
		if punish != chess.NoMove {
			page.Verdict.Reply = letters.Write(shown.SAN(punish))
			shown = shown.Play(punish)
			mark(punish, "last-move")
		}
		if kind == "streak" {
			if n, err := strconv.Atoi(q.Get("over")); err == nil {
				page.Streak.Over, page.Streak.Length, page.Streak.Running = true, n, false
			}
		}
	case q.Get("hint") != "":
		hint := h.hintFor(c, p, ply)
		page.Hint = hint.Hint
		from, _ := chess.ParseSquare(hint.From)
		classes[from] = append(classes[from], "target")
	case q.Get("answer") != "":
		page.Answer = h.solutionFor(c, p).Text
		mark(p.Solution[ply], "target")
	case q.Get("promo") != "":
		m, err := pos.ParseUCI(q.Get("promo") + "q")
		if err != nil {
			return refuse(http.StatusBadRequest, "puzzles.refuse_illegal")
		}
		page.Promote = m.From().String() + m.To().String()
		classes[m.From()] = append(classes[m.From()], "selected")
	case q.Get("sel") != "":
		sel, err := chess.ParseSquare(q.Get("sel"))
		if err != nil {
			return refuse(http.StatusBadRequest, "practice.refuse_board_square")
		}
		page.Sel = sel.String()
		classes[sel] = append(classes[sel], "selected")
		for _, d := range pos.Destinations(sel) {
			classes[d] = append(classes[d], "dest")
		}
	}
	if page.Verdict == nil && !page.Solved {
		page.Legal = strings.Join(legalUCI(pos), " ")
	}
	attrs := map[string]string{"data-puzzle": p.ID, "data-ply": strconv.Itoa(ply)}
	page.Board = views.Board{Pos: shown, Flipped: p.Color() == chess.Black, Classes: classes,
		Interactive: page.Verdict == nil && !page.Solved, Attrs: attrs, Words: w}
	return h.render(c, http.StatusOK, "puzzle", page)
}

// submitPuzzle is POST /puzzles/{id}, the page without JavaScript: a
// square button selects a piece or plays the selected one; the hint and
// solution buttons show them. It redirects to the page with the new state
// in the query (post, redirect, get).
func (h *Handler) submitPuzzle(c echo.Context) error {
	p, err := h.puzzleByID(c.Param("id"))
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return refuse(http.StatusBadRequest, "practice.refuse_form")
	}
	q := url.Values{}
	mode := puzzles.Single
	switch form.Get("mode") {
	case "streak":
		mode = puzzles.StreakMode
		q.Set("mode", "streak")
	case "daily":
		q.Set("mode", "daily")
	}
	if t := form.Get("theme"); t != "" {
		q.Set("theme", t)
	}
	ply, err := strconv.Atoi(form.Get("ply"))
	if err != nil || ply < 0 || ply%2 != 0 || ply >= p.Plies() {
		return puzzleError(puzzles.ErrStalePly)
	}
	if ply > 0 {
		q.Set("ply", strconv.Itoa(ply))
	}
	back := func() error {
		u := "/puzzles/" + p.ID
		if len(q) > 0 {
			u += "?" + q.Encode()
		}
		return c.Redirect(http.StatusSeeOther, u)
	}
	pos := p.Position(ply)
	var move string
	switch {
	case form.Get("action") == "hint" || form.Get("action") == "answer":
		if _, err := h.puzzles.GiveUp(c.Request().Context(), visitorID(c), p, mode); err != nil {
			return puzzleError(err)
		}
		q.Set(form.Get("action"), "1")
		return back()
	case form.Get("action") != "":
		return refuse(http.StatusBadRequest, "practice.refuse_button")
	case form.Get("promote") != "":
		move = form.Get("promote")
	case form.Get("square") != "":
		sq, err := chess.ParseSquare(form.Get("square"))
		if err != nil {
			return refuse(http.StatusBadRequest, "practice.refuse_board_square")
		}
		sel, selErr := chess.ParseSquare(form.Get("sel"))
		pc := pos.PieceAt(sq)
		switch {
		case pc != chess.NoPiece && pc.Color() == pos.Turn() && (selErr != nil || sel != sq):
			q.Set("sel", sq.String())
			return back()
		case selErr != nil || sel == sq:
			return back()
		}
		move = sel.String() + sq.String()
		if pos.PieceAt(sel).Type() == chess.Pawn && (sq.Rank() == 0 || sq.Rank() == 7) {
			if _, err := pos.ParseUCI(move + "q"); err == nil {
				q.Set("promo", move)
				return back()
			}
		}
	default:
		return back()
	}
	if _, err := pos.ParseUCI(move); err != nil {
		return back() // not a legal move: the board stays, nothing counts
	}
	out, res, err := h.playPuzzleMove(c, p, ply, move, mode)
	if err != nil {
		return err
	}
	switch {
	case !res.Correct:
		q.Set("wrong", move)
		if mode == puzzles.StreakMode && out.StreakOver {
			q.Set("over", strconv.Itoa(res.Streak))
		}
	case res.Done:
		q.Del("ply")
		q.Set("solved", move)
		if res.Rated {
			q.Set("r", fmt.Sprintf("%d-%d", out.Rating.Before, out.Rating.After))
		}
		if mode == puzzles.StreakMode {
			return c.Redirect(http.StatusSeeOther, "/puzzles/streak?won=1")
		}
	default:
		q.Set("ply", strconv.Itoa(res.Ply))
	}
	return back()
}

// dailyCard is the home page's card of the puzzle of the day (P5).
type dailyCard struct {
	Board  views.Board
	Prompt string
}

func (h *Handler) dailyCard(c echo.Context) *dailyCard {
	p := h.puzzles.Daily()
	if p == nil {
		return nil
	}
	w := h.w(c)
	classes := map[chess.Square][]string{p.Last.From(): {"last-move"}, p.Last.To(): {"last-move"}}
	return &dailyCard{
		Board:  views.Board{Pos: p.Start(), Flipped: p.Color() == chess.Black, Classes: classes, Size: "diagram", Words: w},
		Prompt: w.T("puzzles.prompt", "Side", w.T("puzzles.side_"+p.Color().String())),
	}
}
