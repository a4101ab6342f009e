package handlers

import (
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/views"
)

// This file serves the setup exercises (X10): pieces from a tray placed on
// their starting squares. The practice page works as a form (the state in
// the query: p=e1wK,d1wQ the placed pieces, pick=wQ the piece in hand,
// show=check|answer) and is enhanced by public/js/setup-exercise.js,
// which asks the check API.

// setupCheckRequest is the body of POST /api/exercises/:id/check for a
// setup exercise: {"placed": {"e1": "wK", "d1": "wQ"}}.
type setupCheckRequest struct {
	Placed map[string]string `json:"placed"`
}

// setupCheckResponse answers a setup check. Answer is the solution
// (square -> piece), so the page can show it without another request.
type setupCheckResponse struct {
	Correct bool              `json:"correct"`
	Solved  bool              `json:"solved"`
	Stars   int               `json:"stars"` // 1–3 once solved (X11), else 0
	Right   []string          `json:"right"`
	Wrong   []string          `json:"wrong"`
	Missed  []string          `json:"missed"`
	Reasons map[string]string `json:"reasons"`
	Answer  map[string]string `json:"answer"`
}

// parsePiece reads a piece code such as "wK".
func parsePiece(code string) (chess.Piece, bool) {
	if len(code) != 2 || (code[0] != 'w' && code[0] != 'b') {
		return chess.NoPiece, false
	}
	c := chess.White
	if code[0] == 'b' {
		c = chess.Black
	}
	for t := chess.Pawn; t <= chess.King; t++ {
		if t.Letter() == code[1] {
			return chess.NewPiece(c, t), true
		}
	}
	return chess.NoPiece, false
}

// checkSetupExercise grades a setup exercise (the API branch of
// checkExercise) and records a solve.
func (h *Handler) checkSetupExercise(c echo.Context, ex *lessons.Exercise) error {
	var req setupCheckRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Placed == nil {
		return refuse(http.StatusBadRequest, "practice.refuse_setup_bad")
	}
	if len(req.Placed) > 64 {
		return refuse(http.StatusRequestEntityTooLarge, "exercise.refuse_too_many", "Count", len(req.Placed))
	}
	placed := make(map[chess.Square]chess.Piece, len(req.Placed))
	for name, code := range req.Placed {
		sq, err := chess.ParseSquare(name)
		p, ok := parsePiece(code)
		if err != nil || !ok {
			return refuse(http.StatusBadRequest, "practice.refuse_setup_bad")
		}
		placed[sq] = p
	}
	res, err := ex.Setup().Check(placed)
	if err != nil {
		return err
	}
	stars, err := h.recordTry(c, ex, res.Correct, res.Correct)
	if err != nil {
		return err
	}
	w := h.w(c)
	out := setupCheckResponse{
		Correct: res.Correct, Solved: res.Correct, Stars: stars,
		Right: squareNames(res.Right), Wrong: squareNames(res.Wrong), Missed: squareNames(res.Missed),
		Reasons: make(map[string]string, len(res.Reasons)), Answer: map[string]string{},
	}
	for sq, why := range res.Reasons {
		out.Reasons[sq.String()] = w.Msg(why)
	}
	for sq, p := range ex.Setup().Answer() {
		out.Answer[sq.String()] = p.String()
	}
	return c.JSON(http.StatusOK, out)
}

// trayPiece is one piece waiting in the tray.
type trayPiece struct {
	Code, Name string // "wQ", "white queen"
	Picked     bool   // in hand (the form's state)
}

// setupPage is the payload of views/pages/practice-setup.html.
type setupPage struct {
	Lesson     *lessons.Lesson
	Exercise   *lessons.Exercise
	Index      int
	Total      int
	Solved     bool
	Prompt     string
	Board      views.Board
	Tray       []trayPiece
	Placed     string // the placed pieces as the query carries them: "e1wK,d1wQ"
	Pick       string // the piece in hand, "wQ" or ""
	Result     *practiceResult
	ShowAnswer bool
	Items      []practiceItem
	Action     string
	APIURL     string
	NextURL    string
	NextLabel  string
}

// parsePlaced reads the placed pieces of the query or form ("e1wK,d1wQ").
func parsePlaced(s string) (map[chess.Square]chess.Piece, error) {
	placed := map[chess.Square]chess.Piece{}
	for _, item := range splitMarks(s) {
		if len(item) != 4 {
			return nil, refuse(http.StatusBadRequest, "practice.refuse_setup_bad")
		}
		sq, err := chess.ParseSquare(item[:2])
		p, ok := parsePiece(item[2:])
		if err != nil || !ok {
			return nil, refuse(http.StatusBadRequest, "practice.refuse_setup_bad")
		}
		placed[sq] = p
	}
	if len(placed) > 64 {
		return nil, refuse(http.StatusBadRequest, "exercise.refuse_too_many_marks")
	}
	return placed, nil
}

// formatPlaced writes placed pieces for the query, in square order.
func formatPlaced(placed map[chess.Square]chess.Piece) string {
	sqs := make([]chess.Square, 0, len(placed))
	for sq := range placed {
		sqs = append(sqs, sq)
	}
	sort.Slice(sqs, func(i, j int) bool { return sqs[i] < sqs[j] })
	items := make([]string, len(sqs))
	for i, sq := range sqs {
		items[i] = sq.String() + placed[sq].String()
	}
	return strings.Join(items, ",")
}

// trayLeft is the tray without the pieces already placed.
func trayLeft(s exercise.Setup, placed map[chess.Square]chess.Piece) []chess.Piece {
	used := map[chess.Piece]int{}
	for _, p := range placed {
		used[p]++
	}
	var out []chess.Piece
	for _, p := range s.Tray() {
		if used[p] > 0 {
			used[p]--
			continue
		}
		out = append(out, p)
	}
	return out
}

// showSetupPractice renders a setup exercise in the state of the query.
func (h *Handler) showSetupPractice(c echo.Context, l *lessons.Lesson, ex *lessons.Exercise) error {
	solved, err := h.solvedExercises(c)
	if err != nil {
		return err
	}
	w := h.w(c)
	q := c.QueryParams()
	placed, err := parsePlaced(q.Get("p"))
	if err != nil {
		return err
	}
	setup := ex.Setup()
	page := setupPage{
		Lesson: l, Exercise: ex, Total: len(l.Exercises), Solved: solved[ex.ID], Prompt: ex.Prompt,
		Action: exerciseURL(ex), APIURL: "/api/exercises/" + url.PathEscape(ex.ID) + "/check",
	}
	for i, e := range l.Exercises {
		if e.ID == ex.ID {
			page.Index = i + 1
		}
		page.Items = append(page.Items, practiceItem{ID: e.ID, Prompt: e.Prompt, URL: exerciseURL(e), Solved: solved[e.ID], Current: e.ID == ex.ID})
	}
	if page.NextURL, page.NextLabel, err = h.nextExercise(c, l, page.Index); err != nil {
		return err
	}

	classes := map[chess.Square][]string{}
	switch q.Get("show") {
	case "check":
		res, err := setup.Check(placed)
		if err != nil {
			return err
		}
		page.Result = &practiceResult{Correct: res.Correct}
		for _, sq := range res.Right {
			classes[sq] = append(classes[sq], "correct")
		}
		for _, sq := range res.Wrong {
			classes[sq] = append(classes[sq], "wrong")
			page.Result.Wrong = append(page.Result.Wrong, practiceReason{sq.String(), w.Msg(res.Reasons[sq])})
		}
		for _, sq := range res.Missed {
			classes[sq] = append(classes[sq], "missed")
			if why, ok := res.Reasons[sq]; ok {
				page.Result.Missed = append(page.Result.Missed, practiceReason{sq.String(), w.Msg(why)})
			}
		}
	case "answer":
		placed = setup.Answer()
		page.ShowAnswer = true
	}
	page.Placed = formatPlaced(placed)
	pick, _ := parsePiece(q.Get("pick"))
	left := trayLeft(setup, placed)
	for _, p := range left {
		t := trayPiece{Code: p.String(), Name: w.T("board.piece_" + p.String())}
		if p == pick && page.Pick == "" {
			t.Picked = true
			page.Pick = t.Code
		}
		page.Tray = append(page.Tray, t)
	}
	// The board shows the given pieces and the placed ones.
	pos := boardWith(ex.Pos, placed)
	attrs := map[string]string{"data-exercise": ex.ID, "data-exercise-kind": "setup", "data-given": ex.Pos.FEN()}
	if page.Result != nil || page.ShowAnswer {
		attrs["data-state"] = "checked"
	}
	page.Board = views.Board{Pos: pos, Classes: classes, Interactive: true, Attrs: attrs}
	return h.render(c, http.StatusOK, "practice-setup", page)
}

// boardWith is the given position with the placed pieces added.
func boardWith(given *chess.Position, placed map[chess.Square]chess.Piece) *chess.Position {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			sq := chess.NewSquare(file, rank)
			p := given.PieceAt(sq)
			if pl, ok := placed[sq]; ok && p == chess.NoPiece {
				p = pl
			}
			if p == chess.NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(p.FENChar())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" w - - 0 1")
	pos, err := chess.ParseFEN(b.String())
	if err != nil {
		return given // cannot happen: the squares were checked
	}
	return pos
}

// submitSetupPractice is the form without JavaScript: a tray button picks
// a piece up; a square button puts the piece in hand there, or takes a
// placed piece back; Check grades (and records a solve); Start over
// empties the board of placed pieces; Show answer fills it. It redirects
// to the page with the new state in the query (post, redirect, get).
func (h *Handler) submitSetupPractice(c echo.Context, ex *lessons.Exercise) error {
	form, err := c.FormParams()
	if err != nil {
		return refuse(http.StatusBadRequest, "practice.refuse_form")
	}
	placed, err := parsePlaced(form.Get("placed"))
	if err != nil {
		return err
	}
	setup := ex.Setup()
	q := url.Values{"ex": {ex.ID}}
	pick := form.Get("pick")
	switch action := form.Get("action"); {
	case form.Get("tray") != "":
		if _, ok := parsePiece(form.Get("tray")); !ok {
			return refuse(http.StatusBadRequest, "practice.refuse_setup_bad")
		}
		pick = form.Get("tray")
	case form.Get("square") != "":
		sq, err := chess.ParseSquare(form.Get("square"))
		if err != nil {
			return refuse(http.StatusBadRequest, "practice.refuse_board_square")
		}
		p, ok := parsePiece(pick)
		switch {
		case placed[sq] != chess.NoPiece:
			delete(placed, sq) // a placed piece goes back to the tray
		case ex.Pos.PieceAt(sq) != chess.NoPiece:
			// A given piece stays; nothing to do.
		case ok:
			placed[sq] = p
			if _, err := setup.Check(placed); err != nil {
				return err
			}
			pick = ""
		}
	case action == "check":
		res, err := setup.Check(placed)
		if err != nil {
			return err
		}
		if _, err := h.recordTry(c, ex, res.Correct, res.Correct); err != nil {
			return err
		}
		q.Set("show", "check")
	case action == "restart":
		placed, pick = nil, ""
	case action == "answer":
		if err := h.recordHelp(c, ex); err != nil {
			return err
		}
		placed, pick = nil, ""
		q.Set("show", "answer")
	case action == "":
	default:
		return refuse(http.StatusBadRequest, "exercise.refuse_unknown_button")
	}
	if s := formatPlaced(placed); s != "" {
		q.Set("p", s)
	}
	if pick != "" {
		q.Set("pick", pick)
	}
	return c.Redirect(http.StatusSeeOther, "/learn/"+url.PathEscape(ex.Lesson)+"/practice?"+q.Encode())
}
