package handlers

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/views"
)

// The square-name trainer (X7): Practice → Square names. With JavaScript
// a round runs in the page and its score is posted at the end; without,
// every answer is one form post carrying the round in hidden fields.

// registerTrainer adds the trainer's page, its form and its score API.
func (h *Handler) registerTrainer(e *echo.Echo, api *echo.Group) {
	e.GET("/practice/squares", h.showTrainer)
	e.POST("/practice/squares", h.submitTrainer)
	api.POST("/trainer/scores", h.saveTrainerScore)
}

// trainerPage is the payload of views/pages/trainer.html.
type trainerPage struct {
	View, Mode string
	Best       int
	HasBest    bool
	Running    bool
	Done       bool
	NewBest    bool
	Target     string
	Left       int // whole seconds left in the round
	Seconds    int // length of a round
	Score      int
	Misses     int
	State      url.Values // the round, for the hidden fields
	Last       *moveVerdict
	Board      views.Board
	ViewLinks  []trainerLink
	ModeLinks  []trainerLink
	APIURL     string
	FormAction string
}

// trainerLink is one choice of view or mode.
type trainerLink struct {
	Label, URL string
	Current    bool
}

// trainerScoreRequest is the body of POST /api/trainer/scores.
type trainerScoreRequest struct {
	View   string `json:"view"`
	Mode   string `json:"mode"`
	Score  *int   `json:"score"`
	Misses int    `json:"misses"`
}

// trainerScoreResponse answers it.
type trainerScoreResponse struct {
	Best    int  `json:"best"`
	NewBest bool `json:"newBest"`
}

func trainerChoice(q url.Values) (view, mode string, err error) {
	view, mode = q.Get("view"), q.Get("mode")
	if view == "" {
		view = "white"
	}
	if mode == "" {
		mode = exercise.TrainerFind
	}
	if view != "white" && view != "black" {
		return "", "", refuse(http.StatusBadRequest, "trainer.refuse_view")
	}
	if mode != exercise.TrainerFind && mode != exercise.TrainerName {
		return "", "", refuse(http.StatusBadRequest, "trainer.refuse_mode")
	}
	return view, mode, nil
}

// readTrainerState reads a round from the query or form; ok is false when
// no round is under way.
func readTrainerState(v url.Values, view, mode string) (exercise.TrainerState, bool, error) {
	if v.Get("seed") == "" {
		return exercise.TrainerState{}, false, nil
	}
	bad := refuse(http.StatusBadRequest, "trainer.refuse_round")
	seed, err1 := strconv.ParseUint(v.Get("seed"), 10, 64)
	t0, err2 := strconv.ParseInt(v.Get("t0"), 10, 64)
	n, err3 := strconv.Atoi(v.Get("n"))
	miss, err4 := strconv.Atoi(v.Get("miss"))
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return exercise.TrainerState{}, false, bad
	}
	return exercise.TrainerState{View: view, Mode: mode, Seed: seed, Started: time.UnixMilli(t0), N: n, Score: n - miss, Misses: miss}, true, nil
}

func trainerQuery(s exercise.TrainerState) url.Values {
	return url.Values{
		"view": {s.View}, "mode": {s.Mode},
		"seed": {strconv.FormatUint(s.Seed, 10)}, "t0": {strconv.FormatInt(s.Started.UnixMilli(), 10)},
		"n": {strconv.Itoa(s.N)}, "miss": {strconv.Itoa(s.Misses)},
	}
}

// showTrainer renders the trainer: the start screen, a round under way
// (without JavaScript) or a finished round.
func (h *Handler) showTrainer(c echo.Context) error {
	q := c.QueryParams()
	view, mode, err := trainerChoice(q)
	if err != nil {
		return err
	}
	best, err := h.store.TrainerBest(c.Request().Context(), visitorID(c))
	if err != nil {
		return fmt.Errorf("handlers: trainer best: %w", err)
	}
	w := h.w(c)
	page := trainerPage{
		View: view, Mode: mode, Seconds: int(exercise.TrainerRound / time.Second),
		APIURL: "/api/trainer/scores", FormAction: "/practice/squares",
	}
	page.Best, page.HasBest = best[view+"/"+mode]
	for _, v := range []string{"white", "black"} {
		page.ViewLinks = append(page.ViewLinks, trainerLink{w.T("trainer.view_" + v), "/practice/squares?" + url.Values{"view": {v}, "mode": {mode}}.Encode(), v == view})
	}
	for _, m := range []string{exercise.TrainerFind, exercise.TrainerName} {
		page.ModeLinks = append(page.ModeLinks, trainerLink{w.T("trainer.mode_" + m), "/practice/squares?" + url.Values{"view": {view}, "mode": {m}}.Encode(), m == mode})
	}
	empty, _ := chess.ParseFEN("8/8/8/8/8/8/8/8 w - - 0 1")
	page.Board = views.Board{Pos: empty, Flipped: view == "black", Interactive: mode == exercise.TrainerFind,
		Attrs: map[string]string{"data-trainer-board": ""}}

	st, running, err := readTrainerState(q, view, mode)
	if err != nil {
		return err
	}
	if q.Get("done") != "" {
		score, err := strconv.Atoi(q.Get("done"))
		if err != nil || score < 0 || score > exercise.MaxTrainerScore {
			return refuse(http.StatusBadRequest, "trainer.refuse_score")
		}
		page.Done, page.Score = true, score
		page.NewBest = q.Get("new") == "1"
		return h.render(c, http.StatusOK, "trainer", page)
	}
	if running {
		now := h.now()
		if err := st.Validate(now); err != nil {
			return refuse(http.StatusBadRequest, "trainer.refuse_round")
		}
		page.Running = true
		page.State = trainerQuery(st)
		page.Score, page.Misses = st.Score, st.Misses
		page.Left = int((st.Left(now) + time.Second - 1) / time.Second)
		target := st.Target()
		page.Target = target.String()
		page.Board.Attrs["data-target"] = page.Target
		classes := map[chess.Square][]string{}
		if tried := q.Get("tried"); tried != "" {
			sq, err := chess.ParseSquare(tried)
			if err != nil {
				return refuse(http.StatusBadRequest, "exercise.refuse_bad_square")
			}
			right := q.Get("last") == "right"
			page.Last = &moveVerdict{Correct: right, Move: sq.String()}
			if right {
				page.Last.Reason = w.T("trainer.js.yes", "Square", sq)
			} else if st.N > 0 {
				// The round has moved on: the miss is about the square before.
				was := exercise.TrainerTarget(st.Seed, st.N-1)
				page.Last.Reason = w.Msg(exercise.FindSquare(was, sq).Reason)
				if mode == exercise.TrainerFind {
					classes[sq] = append(classes[sq], "wrong")
				}
				classes[was] = append(classes[was], "missed")
			}
		}
		if mode == exercise.TrainerName {
			classes[target] = append(classes[target], "target")
		}
		page.Board.Classes = classes
	}
	return h.render(c, http.StatusOK, "trainer", page)
}

// submitTrainer is the trainer without JavaScript: Start begins a round;
// a square button (find mode) or the typed name (name mode) answers.
func (h *Handler) submitTrainer(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return refuse(http.StatusBadRequest, "http.form_unreadable")
	}
	view, mode, err := trainerChoice(form)
	if err != nil {
		return err
	}
	back := func(q url.Values) error { return c.Redirect(http.StatusSeeOther, "/practice/squares?"+q.Encode()) }
	now := h.now()
	if form.Get("action") == "start" {
		var raw [8]byte
		if _, err := rand.Read(raw[:]); err != nil {
			return fmt.Errorf("handlers: trainer seed: %w", err)
		}
		st := exercise.TrainerState{View: view, Mode: mode, Seed: binary.LittleEndian.Uint64(raw[:]) >> 1, Started: now}
		return back(trainerQuery(st))
	}
	st, running, err := readTrainerState(form, view, mode)
	if err != nil {
		return err
	}
	if !running {
		return back(url.Values{"view": {view}, "mode": {mode}})
	}
	if err := st.Validate(now); err != nil {
		return refuse(http.StatusBadRequest, "trainer.refuse_round")
	}
	answer := form.Get("square")
	if mode == exercise.TrainerName {
		answer = form.Get("answer")
	}
	answer = strings.ToLower(strings.TrimSpace(answer))
	sq, err := chess.ParseSquare(answer)
	if err != nil && st.Left(now) > 0 {
		q := trainerQuery(st)
		return back(q) // a name that is no square: ask again, no point lost
	}
	res, over := st.Answer(sq, now)
	if over {
		_, newBest, err := h.recordTrainerScore(c, view, mode, st.Score)
		if err != nil {
			return err
		}
		q := url.Values{"view": {view}, "mode": {mode}, "done": {strconv.Itoa(st.Score)}}
		if newBest {
			q.Set("new", "1")
		}
		return back(q)
	}
	q := trainerQuery(st)
	q.Set("tried", sq.String())
	if res.Correct {
		q.Set("last", "right")
	} else {
		q.Set("last", "wrong")
	}
	return back(q)
}

// recordTrainerScore saves a finished round and says whether it beat the
// visitor's best.
func (h *Handler) recordTrainerScore(c echo.Context, view, mode string, score int) (int, bool, error) {
	ctx := c.Request().Context()
	before, err := h.store.TrainerBest(ctx, visitorID(c))
	if err != nil {
		return 0, false, fmt.Errorf("handlers: trainer best: %w", err)
	}
	old, had := before[view+"/"+mode]
	best, err := h.store.SaveTrainerScore(ctx, visitorID(c), view, mode, score)
	if err != nil {
		return 0, false, fmt.Errorf("handlers: save trainer score: %w", err)
	}
	return best, score > 0 && (!had || score > old), nil
}

// saveTrainerScore stores the score of a round played in the page.
func (h *Handler) saveTrainerScore(c echo.Context) error {
	var req trainerScoreRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	view, mode, err := trainerChoice(url.Values{"view": {req.View}, "mode": {req.Mode}})
	if err != nil {
		return err
	}
	if req.View == "" || req.Mode == "" || req.Score == nil {
		return refuse(http.StatusBadRequest, "trainer.refuse_body")
	}
	if *req.Score < 0 || *req.Score > exercise.MaxTrainerScore || req.Misses < 0 || req.Misses > 10*exercise.MaxTrainerScore {
		return refuse(http.StatusBadRequest, "trainer.refuse_impossible", "Seconds", int(exercise.TrainerRound/time.Second), "Score", *req.Score)
	}
	best, newBest, err := h.recordTrainerScore(c, view, mode, *req.Score)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, trainerScoreResponse{Best: best, NewBest: newBest})
}
