package handlers

import (
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/games"
	"chesstutor/review"
	"chesstutor/views"
)

// registerReviews lists the review page and API (G23, H1); the review's
// PGN is in pgn.go.
func (h *Handler) registerReviews(e *echo.Echo, api *echo.Group) {
	e.GET("/play/:id/review", h.showReview)
	e.POST("/play/:id/review", h.startReviewForm)
	api.POST("/games/:id/review", h.requestReview)
	api.GET("/games/:id/review", h.getReview)
	api.GET("/games/:id/review/pgn", h.downloadReviewPGN)
}

// reviewError turns the review service's refusals into statuses.
func reviewError(err error) error {
	switch {
	case errors.Is(err, review.ErrNotRequested):
		return echo.NewHTTPError(http.StatusNotFound, "This game has not been reviewed yet. Ask for a review first.")
	case errors.Is(err, review.ErrNoMoves):
		return echo.NewHTTPError(http.StatusConflict, "This game has no moves to review yet.")
	}
	return gameError(err)
}

// reviewJSON is the review as GET /api/games/:id/review answers it.
type reviewJSON struct {
	Status   string  `json:"status"` // "pending" or "done"
	Progress float64 `json:"progress"`
	Done     int     `json:"done"`
	Total    int     `json:"total"`
	// Place is the review's place in the queue while it waits (1: next),
	// 0 once it runs or is done; Engine names the engine that reviews
	// ("built-in", or a UCI engine's name such as "Stockfish 15.1").
	Place   int                       `json:"place"`
	Engine  string                    `json:"engine"`
	Moves   []reviewMoveJSON          `json:"moves"`
	Summary map[string]reviewSideJSON `json:"summary"`
}

type reviewMoveJSON struct {
	Ply   int            `json:"ply"`
	SAN   string         `json:"san"`
	Class string         `json:"class"`
	Eval  map[string]int `json:"eval"` // {"cp": N} or {"mate": N}, White's side
	// Best is the engine's move in the position before, UCI.
	Best   string `json:"best"`
	Reason string `json:"reason"` // the sentence; "" for good moves
	// Why is the reason as codes (N7), for programs.
	Why *review.Reason `json:"why,omitempty"`
}

type reviewSideJSON struct {
	Counts map[string]int `json:"counts"`
	Key    []int          `json:"key"` // plies
}

func toReviewJSON(st *review.Status) reviewJSON {
	out := reviewJSON{Status: "done", Progress: st.Progress(), Done: st.Done, Total: st.Total, Place: st.Place, Engine: st.Engine,
		Moves: []reviewMoveJSON{}, Summary: map[string]reviewSideJSON{}}
	if st.Pending {
		out.Status = "pending"
	}
	for _, m := range st.Review.Moves {
		j := reviewMoveJSON{Ply: m.Ply, SAN: m.SAN, Class: m.Code(), Eval: evalJSON(m.Eval), Best: m.Move.UCI(),
			Reason: m.Sentence()}
		if m.Best != chess.NoMove {
			j.Best = m.Best.UCI()
		}
		if m.Reason.Code != review.NoReason {
			why := m.Reason
			j.Why = &why
		}
		out.Moves = append(out.Moves, j)
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		s := st.Review.Side(c)
		side := reviewSideJSON{Counts: map[string]int{}, Key: append([]int{}, s.Key...)}
		for cl := review.Best; cl <= review.Blunder; cl++ {
			side.Counts[cl.String()] = s.Counts[cl]
		}
		out.Summary[c.String()] = side
	}
	return out
}

func evalJSON(e review.Eval) map[string]int {
	if e.IsMate {
		return map[string]int{"mate": e.Mate}
	}
	return map[string]int{"cp": e.CP}
}

// requestReview is POST /api/games/:id/review: 202 and the review so far.
func (h *Handler) requestReview(c echo.Context) error {
	st, err := h.reviews.Request(c.Request().Context(), visitorID(c), c.Param("id"))
	if err != nil {
		return reviewError(err)
	}
	c.Response().Header().Set("Location", "/api/games/"+st.GameID+"/review")
	return c.JSON(http.StatusAccepted, toReviewJSON(st))
}

// getReview is GET /api/games/:id/review.
func (h *Handler) getReview(c echo.Context) error {
	st, err := h.reviews.Get(c.Request().Context(), visitorID(c), c.Param("id"))
	if err != nil {
		return reviewError(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, toReviewJSON(st))
}

// startReviewForm is POST /play/:id/review, the page's button without
// JavaScript (and the game's end card): it asks for the review and shows
// the review page.
func (h *Handler) startReviewForm(c echo.Context) error {
	st, err := h.reviews.Request(c.Request().Context(), visitorID(c), c.Param("id"))
	if err != nil {
		return reviewError(err)
	}
	return c.Redirect(http.StatusSeeOther, "/play/"+st.GameID+"/review")
}

var classWords = map[review.Class]string{
	review.Best: "Best move", review.Good: "Good move", review.Inaccuracy: "Inaccuracy",
	review.Mistake: "Mistake", review.Blunder: "Blunder",
}

var classMarks = map[review.Class]string{review.Inaccuracy: "?!", review.Mistake: "?", review.Blunder: "??"}

// reviewPage is the data of views/pages/review.html.
type reviewPage struct {
	ID        string
	Title     string
	Requested bool // a review exists (pending or done)
	Pending   bool
	Done      int
	Total     int
	Percent   int
	NoMoves   bool
	Result    string // the game's ending in words, or "" while it goes on

	Ply     int // the position shown: after this many moves
	Board   template.HTML
	Current *reviewMoveView // nil at the start position
	Nav     []reviewNav
	Graph   template.HTML
	Pairs   []reviewPair
	Sides   []reviewSide
}

type reviewMoveView struct {
	Ply      int
	Label    string // "12… Qg5"
	SAN      string
	Class    string // code
	Word     string // "Blunder"
	Mark     string // "??"
	Sentence string
	Best     string // SAN of the better move, for mistakes and blunders
	Eval     string // "+0.3", "White mates in 2"
	Current  bool
}

type reviewPair struct {
	Number       int
	White, Black *reviewMoveView
}

type reviewNav struct {
	Label, Href string
	Ply         int
	Disabled    bool
	Primary     bool
}

type reviewSide struct {
	Name   string // "You", "The computer", "White"
	Color  string
	Counts []reviewCount
	Clean  bool // no inaccuracy, mistake or blunder
	Key    []*reviewMoveView
}

type reviewCount struct {
	Class, Word string
	N           int
}

// showReview is GET /play/:id/review: the review so far, the board at the
// chosen move (?ply=N), the graph and the move list. Without JavaScript it
// works by links and a refresh link while the review runs.
func (h *Handler) showReview(c echo.Context) error {
	ctx := c.Request().Context()
	game, err := h.games.Get(ctx, visitorID(c), c.Param("id"))
	if err != nil {
		return gameError(err)
	}
	p := reviewPage{ID: game.ID, Title: "Review of your game", NoMoves: len(game.UCI) == 0}
	if game.Mode == "computer" {
		p.Title = fmt.Sprintf("Review of your game against level %d", game.ComputerLevel())
	}
	if game.Status != "active" {
		p.Result = game.Reason
	}
	flipped := game.Mode == "computer" && game.HumanColor == "black"
	st, err := h.reviews.Get(ctx, visitorID(c), game.ID)
	if errors.Is(err, review.ErrNotRequested) {
		p.Board = views.RenderBoard(views.Board{Pos: game.Position(), Flipped: flipped})
		return h.render(c, http.StatusOK, "review", p)
	}
	if err != nil {
		return reviewError(err)
	}
	p.Requested, p.Pending, p.Done, p.Total = true, st.Pending, st.Done, st.Total
	p.Percent = int(math.Round(st.Progress() * 100))

	moves := make([]*reviewMoveView, len(st.SANs))
	for i, san := range st.SANs {
		v := &reviewMoveView{Ply: i + 1, SAN: san, Label: moveLabel(st.Positions[i], san)}
		if i < len(st.Review.Moves) {
			m := st.Review.Moves[i]
			v.Class, v.Word, v.Mark = m.Class.String(), classWords[m.Class], classMarks[m.Class]
			v.Sentence = m.Sentence()
			v.Eval = evalWords(m.Eval, st.Positions[i+1].Turn())
			if m.Class >= review.Mistake {
				v.Best = m.BestSAN
			}
		}
		moves[i] = v
	}

	p.Ply = len(st.SANs)
	if q := c.QueryParam("ply"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 || n > len(st.SANs) {
			return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf("There is no move %q in this game: choose a number from 0 to %d.", q, len(st.SANs)))
		}
		p.Ply = n
	} else if len(st.Review.Moves) > 0 {
		p.Ply = firstKey(st.Review, game.HumanColor)
	}
	if p.Ply > 0 {
		p.Current = moves[p.Ply-1]
		p.Current.Current = true
	}
	p.Board = reviewBoard(st, p.Ply, flipped)
	p.Nav = reviewNavigation(st, p.Ply)
	p.Graph = evalGraph(st, p.Ply)
	for i := 0; i < len(moves); i++ {
		pair := reviewPair{Number: st.Positions[i].FullmoveNumber()}
		if st.Positions[i].Turn() == chess.Black {
			pair.Black = moves[i]
		} else {
			pair.White = moves[i]
			if i+1 < len(moves) {
				pair.Black = moves[i+1]
				i++
			}
		}
		p.Pairs = append(p.Pairs, pair)
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		p.Sides = append(p.Sides, reviewSideOf(st, c, game, moves))
	}
	return h.render(c, http.StatusOK, "review", p)
}

// firstKey picks the move to show first: the visitor's first mistake or
// blunder (against the computer, White's in a friend game), else their
// first key moment, else the game's first mistake, else the end.
func firstKey(r *review.Review, human string) int {
	c := chess.White
	if human == "black" {
		c = chess.Black
	}
	for _, m := range r.Moves {
		if m.Color == c && m.Class >= review.Mistake {
			return m.Ply
		}
	}
	if key := r.Side(c).Key; len(key) > 0 {
		return key[0]
	}
	for _, m := range r.Moves {
		if m.Class >= review.Mistake {
			return m.Ply
		}
	}
	return len(r.Moves)
}

func moveLabel(before *chess.Position, san string) string {
	if before.Turn() == chess.White {
		return fmt.Sprintf("%d. %s", before.FullmoveNumber(), san)
	}
	return fmt.Sprintf("%d… %s", before.FullmoveNumber(), san)
}

// evalWords says an evaluation from White's side in words a beginner can
// read: "+1.2 (White is better)".
func evalWords(e review.Eval, toMove chess.Color) string {
	if e.IsMate {
		switch {
		case e.Mate > 0:
			return fmt.Sprintf("White mates in %d", e.Mate)
		case e.Mate < 0:
			return fmt.Sprintf("Black mates in %d", -e.Mate)
		}
		return "Checkmate"
	}
	v := float64(e.CP) / 100
	s := strconv.FormatFloat(math.Abs(v), 'f', 1, 64)
	switch {
	case e.CP >= 10:
		return "+" + s + ", White is better"
	case e.CP <= -10:
		return "−" + s + ", Black is better"
	}
	return "0.0, level"
}

// reviewBoard draws the position after ply moves: the move played tinted,
// and for a mistake or blunder the better move as an arrow.
func reviewBoard(st *review.Status, ply int, flipped bool) template.HTML {
	b := views.Board{Pos: st.Positions[ply], Flipped: flipped, Classes: map[chess.Square][]string{},
		Attrs: map[string]string{"data-review-board": "", "data-ply": strconv.Itoa(ply)}}
	if ply > 0 {
		m := st.Moves[ply-1]
		b.Classes[m.From()] = append(b.Classes[m.From()], "last-move")
		b.Classes[m.To()] = append(b.Classes[m.To()], "last-move")
		if ply <= len(st.Review.Moves) {
			if rm := st.Review.Moves[ply-1]; rm.Class >= review.Mistake && rm.Best != chess.NoMove {
				b.Arrows = []views.Arrow{{From: rm.Best.From(), To: rm.Best.To()}}
				b.Caption = "The arrow shows the better move, " + rm.BestSAN + "."
				b.Attrs["data-best"] = rm.Best.UCI()
			}
		}
	}
	return views.RenderBoard(b)
}

func reviewNavigation(st *review.Status, ply int) []reviewNav {
	last := len(st.SANs)
	next := -1
	for _, m := range st.Review.Moves {
		if m.Ply > ply && m.Class >= review.Mistake {
			next = m.Ply
			break
		}
	}
	href := func(n int) string { return fmt.Sprintf("?ply=%d#review-board", n) }
	nav := []reviewNav{
		{Label: "Start", Ply: 0, Disabled: ply == 0},
		{Label: "Previous", Ply: max(ply-1, 0), Disabled: ply == 0},
		{Label: "Next", Ply: min(ply+1, last), Disabled: ply == last, Primary: true},
		{Label: "Next mistake", Ply: next, Disabled: next < 0},
	}
	for i := range nav {
		if !nav[i].Disabled {
			nav[i].Href = href(nav[i].Ply)
		}
	}
	return nav
}

func reviewSideOf(st *review.Status, c chess.Color, game *games.State, moves []*reviewMoveView) reviewSide {
	s := st.Review.Side(c)
	side := reviewSide{Name: titleColor(c), Color: c.String()}
	if game.Mode == "computer" {
		if game.HumanColor == c.String() {
			side.Name = "You (" + c.String() + ")"
		} else {
			side.Name = fmt.Sprintf("The computer, level %d (%s)", game.ComputerLevel(), c.String())
		}
	}
	for _, cl := range []review.Class{review.Blunder, review.Mistake, review.Inaccuracy} {
		side.Counts = append(side.Counts, reviewCount{Class: cl.String(), Word: plural(s.Counts[cl], strings.ToLower(classWords[cl])), N: s.Counts[cl]})
	}
	side.Clean = s.Counts[review.Blunder]+s.Counts[review.Mistake]+s.Counts[review.Inaccuracy] == 0
	for _, ply := range s.Key {
		side.Key = append(side.Key, moves[ply-1])
	}
	return side
}

func titleColor(c chess.Color) string {
	if c == chess.White {
		return "White"
	}
	return "Black"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// evalGraph is the graph of White's winning chances after every analysed
// position (views.EvalGraph), each point marked with the class of a move
// that cost something and titled with the move in words.
func evalGraph(st *review.Status, ply int) template.HTML {
	points := make([]views.GraphPoint, len(st.Evals))
	for i, e := range st.Evals {
		p := views.GraphPoint{White: e.White(st.Positions[i].Turn()), Title: "Start position"}
		if i > 0 {
			p.Title = moveLabel(st.Positions[i-1], st.SANs[i-1])
			if i <= len(st.Review.Moves) {
				m := st.Review.Moves[i-1]
				p.Title += ", " + strings.ToLower(classWords[m.Class])
				if m.Class >= review.Inaccuracy {
					p.Mark, p.Large = m.Class.String(), m.Class >= review.Mistake
				}
			}
		}
		points[i] = p
	}
	return views.EvalGraph(len(st.SANs), points, ply)
}
