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
	"chesstutor/words"
)

// registerReviews lists the review page and API (G23, H1); the review's
// PGN is in pgn.go.
func (h *Handler) registerReviews(e *echo.Echo, api *echo.Group) {
	e.GET("/play/:id/review", h.showReview)
	e.POST("/play/:id/review", h.startReviewForm)
	api.POST("/games/:id/review", h.requestReview)
	api.GET("/games/:id/review", h.getReview)
	api.GET("/games/:id/review/pgn", h.downloadReviewPGN)
	api.POST("/games/:id/review/retry", h.retryMistake)
}

// reviewError turns the review service's refusals into statuses.
func reviewError(err error) error {
	switch {
	case errors.Is(err, review.ErrNotRequested):
		return refuse(http.StatusNotFound, "review.refuse_not_requested")
	case errors.Is(err, review.ErrNotSeated):
		return refuse(http.StatusForbidden, "review.refuse_not_seated")
	case errors.Is(err, review.ErrNoMoves):
		return refuse(http.StatusConflict, "review.refuse_no_moves")
	case errors.Is(err, review.ErrRetryPly):
		return refuse(http.StatusBadRequest, "review.retry.refuse_ply")
	case errors.Is(err, review.ErrRetryMove):
		return refuse(http.StatusUnprocessableEntity, "review.retry.refuse_move")
	case errors.Is(err, review.ErrRetryPending):
		return refuse(http.StatusConflict, "review.retry.refuse_pending")
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

// explanation words a reviewed move's reason in w's language, its moves
// the way w shows them (words.SAN): the sentences of review.Move.Explain,
// one after the other.
func explanation(w *words.Words, m review.Move) string {
	out := ""
	for _, msg := range m.Explain() {
		if out != "" {
			out += " "
		}
		out += w.Msg(msg)
	}
	return out
}

func toReviewJSON(st *review.Status, w *words.Words) reviewJSON {
	out := reviewJSON{Status: "done", Progress: st.Progress(), Done: st.Done, Total: st.Total, Place: st.Place, Engine: st.Engine,
		Moves: []reviewMoveJSON{}, Summary: map[string]reviewSideJSON{}}
	if st.Pending {
		out.Status = "pending"
	}
	for _, m := range st.Review.Moves {
		j := reviewMoveJSON{Ply: m.Ply, SAN: m.SAN, Class: m.Code(), Eval: evalJSON(m.Eval), Best: m.Move.UCI(),
			Reason: explanation(w, m)}
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
	return c.JSON(http.StatusAccepted, toReviewJSON(st, h.w(c)))
}

// getReview is GET /api/games/:id/review.
func (h *Handler) getReview(c echo.Context) error {
	st, err := h.reviews.Get(c.Request().Context(), visitorID(c), c.Param("id"))
	if err != nil {
		return reviewError(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, toReviewJSON(st, h.w(c)))
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

// retryJSON is POST /api/games/:id/review/retry's verdict.
type retryJSON struct {
	Ply     int    `json:"ply"`
	Correct bool   `json:"correct"`
	Result  string `json:"result"` // "correct" or "wrong" (data-retry-result)
	Move    string `json:"move"`   // the move tried, UCI
	SAN     string `json:"san"`    // as the visitor reads moves
	Best    string `json:"best"`   // the engine's move, UCI
	BestSAN string `json:"best_san"`
	FEN     string `json:"fen"` // the position after the move tried
	Reason  string `json:"reason"`
}

// retryMistake is POST /api/games/:id/review/retry with {"ply":N,
// "move":"e2e4"}: the move tried instead of the mistake at ply N, judged
// (G27).
func (h *Handler) retryMistake(c echo.Context) error {
	var req struct {
		Ply  *int   `json:"ply"`
		Move string `json:"move"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Ply == nil {
		return refuse(http.StatusBadRequest, "review.retry.refuse_ply", "Ply", "?")
	}
	r, err := h.reviews.Retry(c.Request().Context(), visitorID(c), c.Param("id"), *req.Ply, req.Move)
	if err != nil {
		if errors.Is(err, review.ErrRetryPly) {
			return refuse(http.StatusBadRequest, "review.retry.refuse_ply", "Ply", *req.Ply)
		}
		return reviewError(err)
	}
	w, letters := h.w(c), h.shownLetters(c)
	out := retryJSON{Ply: r.Ply, Correct: r.Correct, Result: "wrong", Move: r.Move.UCI(), SAN: letters.Write(r.SAN),
		Best: r.Engine.UCI(), BestSAN: letters.Write(r.EngineSAN), FEN: r.After.FEN()}
	switch {
	case r.Same:
		out.Reason = w.T("review.retry.same")
	case r.Best:
		out.Reason = w.T("review.retry.correct_best", "Move", out.SAN)
	case r.Correct:
		out.Reason = w.T("review.retry.correct", "Move", out.SAN, "Best", out.BestSAN)
	default:
		out.Reason = w.T("review.retry.wrong", "Move", out.SAN, "Before", int(math.Round(r.Could)), "After", int(math.Round(r.Kept)))
	}
	if r.Correct {
		out.Result = "correct"
	}
	return c.JSON(http.StatusOK, out)
}

var classMarks = map[review.Class]string{review.Inaccuracy: "?!", review.Mistake: "?", review.Blunder: "??"}

// reviewPage is the data of views/pages/review.html.
type reviewPage struct {
	ID        string
	Title     words.Message
	Requested bool // a review exists (pending or done)
	Pending   bool
	Done      int
	Total     int
	Percent   int
	Place     int    // the review's place in the queue while it waits (1: next), else 0
	Engine    string // which engine reviewed, in words
	NoMoves   bool
	Result    string // the game's ending in words, or "" while it goes on
	Arrow     string // the caption of the better move's arrow, or ""

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
	Label    string // "12… ♕g5"
	SAN      string // as the visitor reads moves
	Class    string // code
	Word     string // "Blunder"
	Mark     string // "??"
	Sentence string
	Best     string // SAN of the better move, for mistakes and blunders
	Eval     string // "+0.3, White is better", "White mates in 2 moves"
	Current  bool
	// Retry offers to try the position before this mistake again (G27):
	// the legal moves there, UCI, space-separated.
	Retry      bool
	RetryMoves string
}

type reviewPair struct {
	Number       int
	White, Black *reviewMoveView
}

type reviewNav struct {
	Step, Label, Href string
	Ply               int
	Disabled          bool
	Primary           bool
}

type reviewSide struct {
	Name   string // "You (white)", "The computer, level 2 (black)", "White"
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
	w, letters := h.w(c), h.shownLetters(c)
	p := reviewPage{ID: game.ID, Title: words.M("review.title"), NoMoves: len(game.UCI) == 0}
	if game.Mode == "computer" {
		p.Title = words.M("review.title_level", "Level", game.ComputerLevel())
	}
	if game.Status != "active" {
		p.Result = game.Word(w).Reason
	}
	flipped := game.Mode == "computer" && game.HumanColor == "black"
	st, err := h.reviews.Get(ctx, visitorID(c), game.ID)
	if errors.Is(err, review.ErrNotRequested) {
		p.Board = views.RenderBoard(views.Board{Pos: game.Position(), Flipped: flipped, Words: w})
		return h.render(c, http.StatusOK, "review", p)
	}
	if err != nil {
		return reviewError(err)
	}
	p.Requested, p.Pending, p.Done, p.Total = true, st.Pending, st.Done, st.Total
	p.Percent = int(math.Round(st.Progress() * 100))
	p.Place = st.Place
	p.Engine = engineWords(w, st.Engine)

	moves := make([]*reviewMoveView, len(st.SANs))
	for i, san := range st.SANs {
		v := &reviewMoveView{Ply: i + 1, SAN: letters.Write(san), Label: moveLabel(st.Positions[i], letters.Write(san))}
		if i < len(st.Review.Moves) {
			m := st.Review.Moves[i]
			v.Class, v.Word, v.Mark = m.Code(), w.T("review.class."+m.Code()), classMarks[m.Class]
			v.Sentence = explanation(w, m)
			v.Eval = evalWords(w, m.Eval)
			if m.Class >= review.Mistake && m.BestSAN != "" {
				v.Best = letters.Write(m.BestSAN)
			}
		}
		moves[i] = v
	}

	p.Ply = len(st.SANs)
	if q := c.QueryParam("ply"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 || n > len(st.SANs) {
			return refuse(http.StatusBadRequest, "review.refuse_ply", "Text", strconv.Quote(clipTyped(q)), "Last", len(st.SANs))
		}
		p.Ply = n
	} else if len(st.Review.Moves) > 0 {
		p.Ply = firstKey(st.Review, game.HumanColor)
	}
	if p.Ply > 0 {
		p.Current = moves[p.Ply-1]
		p.Current.Current = true
		if p.Ply <= len(st.Review.Moves) {
			m := st.Review.Moves[p.Ply-1]
			mine := game.Mode != "computer" || game.HumanColor == m.Color.String()
			if m.Class >= review.Mistake && m.Best != chess.NoMove && mine {
				legal := st.Positions[p.Ply-1].LegalMoves()
				uci := make([]string, len(legal))
				for i, mv := range legal {
					uci[i] = mv.UCI()
				}
				p.Current.Retry, p.Current.RetryMoves = true, strings.Join(uci, " ")
			}
		}
	}
	p.Board, p.Arrow = reviewBoard(w, letters, st, p.Ply, flipped)
	p.Nav = reviewNavigation(w, st, p.Ply)
	p.Graph = evalGraph(w, letters, st, p.Ply)
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
		p.Sides = append(p.Sides, reviewSideOf(w, st, c, game, moves))
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
// read: "+1.2, White is better".
func evalWords(w *words.Words, e review.Eval) string {
	if e.IsMate {
		switch {
		case e.Mate > 0:
			return w.T("review.eval.white_mates", "Count", e.Mate)
		case e.Mate < 0:
			return w.T("review.eval.black_mates", "Count", -e.Mate)
		}
		return w.T("review.eval.checkmate")
	}
	pawns := strconv.FormatFloat(math.Abs(float64(e.CP)/100), 'f', 1, 64)
	switch {
	case e.CP >= 10:
		return w.T("review.eval.white_better", "Pawns", pawns)
	case e.CP <= -10:
		return w.T("review.eval.black_better", "Pawns", pawns)
	}
	return w.T("review.eval.level")
}

// reviewBoard draws the position after ply moves, the move played tinted;
// for a mistake or blunder it draws the position before the move instead,
// the move played tinted and the better move as an arrow, so the arrow
// starts where the piece stood (data-shows="before"). It returns the
// arrow's caption too.
func reviewBoard(w *words.Words, letters chess.Letters, st *review.Status, ply int, flipped bool) (template.HTML, string) {
	b := views.Board{Pos: st.Positions[ply], Flipped: flipped, Words: w, Classes: map[chess.Square][]string{},
		Attrs: map[string]string{"data-review-board": "", "data-ply": strconv.Itoa(ply), "data-shows": "after"}}
	caption := ""
	if ply > 0 {
		m := st.Moves[ply-1]
		b.Classes[m.From()] = append(b.Classes[m.From()], "last-move")
		b.Classes[m.To()] = append(b.Classes[m.To()], "last-move")
		if ply <= len(st.Review.Moves) {
			if rm := st.Review.Moves[ply-1]; rm.Class >= review.Mistake && rm.Best != chess.NoMove {
				b.Pos = st.Positions[ply-1]
				b.Attrs["data-shows"] = "before"
				// Its squares are buttons, for the keyboard when the
				// learner tries the position again (review.js).
				b.Interactive, b.ButtonName = true, "retry"
				b.Arrows = []views.Arrow{{From: rm.Best.From(), To: rm.Best.To()}}
				caption = w.T("review.arrow", "Move", letters.Write(rm.BestSAN))
				b.Caption = caption
				b.Attrs["data-best"] = rm.Best.UCI()
			}
		}
	}
	return views.RenderBoard(b), caption
}

// reviewNavigation is the step controls: Start, Previous, Next and Next
// mistake, each with its data-review-step code (H2).
func reviewNavigation(w *words.Words, st *review.Status, ply int) []reviewNav {
	last := len(st.SANs)
	next := -1
	for _, m := range st.Review.Moves {
		if m.Ply > ply && m.Class >= review.Mistake {
			next = m.Ply
			break
		}
	}
	nav := []reviewNav{
		{Step: "start", Label: w.T("review.step_start"), Ply: 0, Disabled: ply == 0},
		{Step: "prev", Label: w.T("review.step_prev"), Ply: max(ply-1, 0), Disabled: ply == 0},
		{Step: "next", Label: w.T("review.step_next"), Ply: min(ply+1, last), Disabled: ply == last, Primary: true},
		{Step: "next-mistake", Label: w.T("review.step_next_mistake"), Ply: next, Disabled: next < 0},
	}
	for i := range nav {
		if !nav[i].Disabled {
			nav[i].Href = fmt.Sprintf("?ply=%d#review-board", nav[i].Ply)
		}
	}
	return nav
}

func reviewSideOf(w *words.Words, st *review.Status, c chess.Color, game *games.State, moves []*reviewMoveView) reviewSide {
	s := st.Review.Side(c)
	side := reviewSide{Name: w.T("color." + c.String()), Color: c.String()}
	if game.Mode == "computer" {
		if game.HumanColor == c.String() {
			side.Name = w.T("review.side_you", "Color", w.T("color."+c.String()))
		} else {
			side.Name = w.T("review.side_computer", "Level", game.ComputerLevel(), "Color", w.T("color."+c.String()))
		}
	}
	for _, cl := range []review.Class{review.Blunder, review.Mistake, review.Inaccuracy} {
		side.Counts = append(side.Counts, reviewCount{Class: cl.String(), Word: w.T("review.count."+cl.String(), "Count", s.Counts[cl]), N: s.Counts[cl]})
	}
	side.Clean = s.Counts[review.Blunder]+s.Counts[review.Mistake]+s.Counts[review.Inaccuracy] == 0
	for _, ply := range s.Key {
		side.Key = append(side.Key, moves[ply-1])
	}
	return side
}

// evalGraph is the graph of White's winning chances after every analysed
// position (views.EvalGraph), each point marked with the class of a move
// that cost something and titled with the move in words.
func evalGraph(w *words.Words, letters chess.Letters, st *review.Status, ply int) template.HTML {
	points := make([]views.GraphPoint, len(st.Evals))
	for i, e := range st.Evals {
		p := views.GraphPoint{White: e.White(st.Positions[i].Turn()), Title: w.T("review.start_position")}
		if i > 0 {
			p.Title = moveLabel(st.Positions[i-1], letters.Write(st.SANs[i-1]))
			if i <= len(st.Review.Moves) {
				m := st.Review.Moves[i-1]
				p.Title = w.T("review.graph_point", "Move", p.Title, "Class", w.T("review.class_lower."+m.Code()))
				if m.Class >= review.Inaccuracy {
					p.Mark, p.Large = m.Class.String(), m.Class >= review.Mistake
				}
			}
		}
		points[i] = p
	}
	return views.EvalGraph(len(st.SANs), points, ply)
}

// engineWords says which engine reviewed: the site's own (review.BuiltinEngine)
// or the UCI engine by its name ("Stockfish 15.1"); "" for a review kept
// from before engines were recorded.
func engineWords(w *words.Words, engine string) string {
	switch engine {
	case "":
		return ""
	case review.BuiltinEngine:
		return w.T("review.engine_builtin")
	}
	return w.T("review.engine_named", "Engine", engine)
}
