package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/views"
	"chesstutor/words"
)

// This file serves the "play the move" exercises (X6) and the "click the
// named square" exercises (X7) of the lessons: their practice page, its
// form without JavaScript, and their branch of the check API.

// moveCheckRequest is the body of POST /api/exercises/:id/check for a move
// exercise ({"move": "e2e4"}, and for the second move of a mate in two the
// line so far: {"move": "a7a8", "line": ["b1b7", "h8g8"]}) or a name
// exercise ({"square": "e4"}).
type moveCheckRequest struct {
	Move   *string  `json:"move"`
	Line   []string `json:"line"`
	Square *string  `json:"square"`
}

// moveCheckResponse answers a move or name check. Reply is the computer's
// answer in a mate in two (UCI, "" otherwise); FEN is the position after
// the move (a right one: the position to go on from, with Moves its legal
// moves in UCI, so the page needs no other request; a wrong but legal
// one: the position the page shows for a moment before taking the move
// back). Check is the square of a king the move puts in check.
type moveCheckResponse struct {
	Correct  bool     `json:"correct"`
	Solved   bool     `json:"solved"`
	Reason   string   `json:"reason"`
	Reply    string   `json:"reply"`
	ReplySAN string   `json:"replySan,omitempty"`
	SAN      string   `json:"san,omitempty"`
	FEN      string   `json:"fen,omitempty"`
	Moves    []string `json:"moves,omitempty"`
	Check    string   `json:"check,omitempty"`
	// Said is the move as the page shows it when that is not its
	// notation alone: in words beside it, before the notation lesson.
	Said string `json:"said,omitempty"`
}

// checkMoveExercise grades a move or name exercise (the API branch of
// checkExercise) and records a solve.
func (h *Handler) checkMoveExercise(c echo.Context, ex *lessons.Exercise) error {
	var req moveCheckRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if ex.Kind == lessons.KindName {
		if req.Square == nil || req.Move != nil || req.Line != nil {
			return refuse(http.StatusBadRequest, "practice.refuse_square_missing")
		}
		sq, err := chess.ParseSquare(strings.TrimSpace(*req.Square))
		if err != nil {
			return refuse(http.StatusBadRequest, "practice.refuse_square", "Text", truncate(*req.Square, 12))
		}
		res := exercise.FindSquare(ex.Target, sq)
		if err := h.recordMoveSolve(c, ex, res.Correct, res.Correct); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, moveCheckResponse{Correct: res.Correct, Solved: res.Correct, Reason: h.w(c).Msg(res.Reason)})
	}
	if req.Move == nil || req.Square != nil {
		return refuse(http.StatusBadRequest, "practice.refuse_move_missing")
	}
	task := ex.Task()
	line, err := task.ParseLine(req.Line)
	if err != nil {
		return err
	}
	at, err := task.Try(line, *req.Move)
	if err != nil {
		return err
	}
	if err := h.recordMoveSolve(c, ex, at.Verdict.Solved, at.Verdict.Correct); err != nil {
		return err
	}
	reason := at.Verdict.Reason
	out := moveCheckResponse{Correct: at.Verdict.Correct, Solved: at.Verdict.Solved, SAN: at.SAN}
	if h.beforeNotation(c, ex) {
		reason = h.sayMoves(c, reason)
		if at.SAN != "" {
			out.Said = h.sayMove(c, at.SAN)
		}
	}
	out.Reason = h.w(c).Msg(reason)
	if at.After != nil {
		out.FEN = at.After.FEN()
		if at.After.InCheck() {
			out.Check = at.After.KingSquare(at.After.Turn()).String()
		}
	}
	if at.After != nil && at.Verdict.Correct {
		for _, m := range at.After.LegalMoves() {
			out.Moves = append(out.Moves, m.UCI())
		}
	}
	if r := at.Verdict.Reply; r != chess.NoMove {
		out.Reply = r.UCI()
		out.ReplySAN = at.ReplySAN(ex.Pos)
	}
	return c.JSON(http.StatusOK, out)
}

// recordMoveSolve stores a solved exercise, or counts a wrong move (a right
// first move of a mate in two is neither).
func (h *Handler) recordMoveSolve(c echo.Context, ex *lessons.Exercise, solved, correct bool) error {
	if !correct {
		return h.recordMiss(c, ex)
	}
	if !solved {
		return nil
	}
	if err := h.store.MarkExerciseSolved(c.Request().Context(), visitorID(c), ex.ID, ex.Lesson); err != nil {
		return fmt.Errorf("handlers: mark exercise %s solved: %w", ex.ID, err)
	}
	return nil
}

// movePage is the payload of views/pages/practice-move.html.
type movePage struct {
	Lesson    *lessons.Lesson
	Exercise  *lessons.Exercise
	Index     int
	Total     int
	Solved    bool
	Kind      string // "move" or "name"
	Goal      string
	Prompt    string
	Board     views.Board
	Moves     string // legal moves of the shown position, UCI, space-separated
	Line      string // mate in two: "b1b7,h8g8" after a right first move
	Selected  string
	Promote   string // "e7e8": ask which piece
	Verdict   *moveVerdict
	Help      *helpResponse // a hint or the answer, asked for by the form (?show=hint|answer)
	Items     []practiceItem
	Action    string
	APIURL    string
	HelpURL   string
	NextURL   string
	NextLabel string
}

// moveVerdict is the result shown after a try.
type moveVerdict struct {
	Correct, Solved bool
	Move, Reason    string
}

// showMovePractice renders a move or name exercise. The state lives in the
// query: sel (a selected square), promo (a move waiting for its piece),
// line (a mate in two half done) and tried (the move or square tried).
func (h *Handler) showMovePractice(c echo.Context, l *lessons.Lesson, ex *lessons.Exercise) error {
	solved, err := h.solvedExercises(c)
	if err != nil {
		return err
	}
	page := movePage{
		Lesson: l, Exercise: ex, Total: len(l.Exercises), Solved: solved[ex.ID],
		Kind: string(ex.Kind), Goal: string(ex.Goal), Prompt: ex.Prompt,
		Action: exerciseURL(ex), APIURL: "/api/exercises/" + url.PathEscape(ex.ID) + "/check",
		HelpURL: "/api/exercises/" + url.PathEscape(ex.ID) + "/help",
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
	attrs := map[string]string{"data-exercise": ex.ID, "data-exercise-kind": string(ex.Kind)}
	q := c.QueryParams()

	if ex.Kind == lessons.KindName {
		attrs["data-target"] = ex.Target.String()
		if tried := q.Get("tried"); tried != "" {
			sq, err := chess.ParseSquare(tried)
			if err != nil {
				return refuse(http.StatusBadRequest, "practice.refuse_board_square")
			}
			res := exercise.FindSquare(ex.Target, sq)
			page.Verdict = &moveVerdict{Correct: res.Correct, Solved: res.Correct, Move: sq.String(), Reason: h.w(c).Msg(res.Reason)}
			if res.Correct {
				classes[sq] = append(classes[sq], "correct")
			} else {
				classes[sq] = append(classes[sq], "wrong")
				classes[ex.Target] = append(classes[ex.Target], "missed")
			}
		}
		page.Board = views.Board{Pos: ex.Pos, Flipped: ex.Flipped, Classes: classes, Interactive: true, Attrs: attrs}
		return h.render(c, http.StatusOK, "practice-move", page)
	}

	attrs["data-goal"] = string(ex.Goal)
	task := ex.Task()
	line, err := task.ParseLine(splitMarks(q.Get("line")))
	if err != nil {
		return err
	}
	pos := ex.Pos
	for _, m := range line {
		pos = pos.Play(m)
	}
	if len(line) == 2 {
		page.Line = line[0].UCI() + "," + line[1].UCI()
		page.Prompt = h.w(c).T("exercise.move_js.mate_prompt", "Move", words.SAN(ex.Pos.SAN(line[0])), "Reply", words.SAN(ex.Pos.Play(line[0]).SAN(line[1])))
		classes[line[1].From()] = append(classes[line[1].From()], "last-move")
		classes[line[1].To()] = append(classes[line[1].To()], "last-move")
	}
	switch tried := q.Get("tried"); {
	case tried != "":
		at, err := task.Try(line, tried)
		if err != nil {
			return err
		}
		reason, said := at.Verdict.Reason, h.shownLetters(c).Write(at.SAN)
		if h.beforeNotation(c, ex) {
			reason = h.sayMoves(c, reason)
			if at.SAN != "" {
				said = h.sayMove(c, at.SAN)
			}
		}
		page.Verdict = &moveVerdict{Correct: at.Verdict.Correct, Solved: at.Verdict.Solved, Move: said, Reason: h.w(c).Msg(reason)}
		if at.SAN == "" {
			page.Verdict.Move = tried
		}
		if at.After != nil && at.Verdict.Correct {
			if len(at.Line) == 2 { // a right first move: go on from the reply
				page.Line = at.Line[0].UCI() + "," + at.Line[1].UCI()
				page.Prompt = h.w(c).T("exercise.move_js.mate_prompt", "Move", words.SAN(at.SAN), "Reply", words.SAN(at.ReplySAN(ex.Pos)))
				page.Verdict = &moveVerdict{Correct: true, Move: at.SAN, Reason: h.w(c).Msg(at.Verdict.Reason)}
			}
			pos = at.After
		}
		attrs["data-state"] = "checked"
	case q.Get("show") == "hint" || q.Get("show") == "answer":
		help := h.help(c, ex, task.Help(line), q.Get("show"))
		page.Help = &help
		from, _ := chess.ParseSquare(help.Square)
		classes[from] = append(classes[from], "hint")
		if help.Move != "" {
			if m, err := pos.ParseUCI(help.Move); err == nil {
				classes[m.To()] = append(classes[m.To()], "dest")
			}
		}
	case q.Get("promo") != "":
		from, to, _, err := exercise.ParseMove(q.Get("promo"))
		if err != nil {
			return err
		}
		page.Promote = q.Get("promo")
		classes[from] = append(classes[from], "selected")
		classes[to] = append(classes[to], "dest")
	case q.Get("sel") != "":
		sel, err := chess.ParseSquare(q.Get("sel"))
		if err != nil {
			return refuse(http.StatusBadRequest, "practice.refuse_board_square")
		}
		page.Selected = sel.String()
		classes[sel] = append(classes[sel], "selected")
		for _, d := range pos.Destinations(sel) {
			classes[d] = append(classes[d], "dest")
		}
	}
	if ex.From != chess.NoSquare && len(line) == 0 && page.Verdict == nil {
		classes[ex.From] = append(classes[ex.From], "target")
	}
	var moves []string
	for _, m := range pos.LegalMoves() {
		moves = append(moves, m.UCI())
	}
	page.Moves = strings.Join(moves, " ")
	page.Board = views.Board{Pos: pos, Flipped: ex.Pos.Turn() == chess.Black, Classes: classes, Interactive: true, Attrs: attrs}
	return h.render(c, http.StatusOK, "practice-move", page)
}

// submitMovePractice is the form without JavaScript: a square button
// selects a piece or plays the selected piece there; a promotion button
// finishes a promotion; Try again starts over. It redirects to the page
// with the new state in the query (post, redirect, get).
func (h *Handler) submitMovePractice(c echo.Context, ex *lessons.Exercise) error {
	form, err := c.FormParams()
	if err != nil {
		return refuse(http.StatusBadRequest, "practice.refuse_form")
	}
	q := url.Values{"ex": {ex.ID}}
	back := func() error {
		return c.Redirect(http.StatusSeeOther, "/learn/"+url.PathEscape(ex.Lesson)+"/practice?"+q.Encode())
	}
	if form.Get("action") == "reset" {
		return back()
	}
	if a := form.Get("action"); ex.Kind == lessons.KindMove && (a == "hint" || a == "answer") {
		q.Set("show", a)
		if l := form.Get("line"); l != "" {
			q.Set("line", l)
		}
		return back()
	}
	if form.Get("action") != "" {
		return refuse(http.StatusBadRequest, "practice.refuse_button")
	}
	if ex.Kind == lessons.KindName {
		sq, err := chess.ParseSquare(form.Get("square"))
		if err != nil {
			return refuse(http.StatusBadRequest, "practice.refuse_board_square")
		}
		if err := h.recordMoveSolve(c, ex, sq == ex.Target, sq == ex.Target); err != nil {
			return err
		}
		q.Set("tried", sq.String())
		return back()
	}
	task := ex.Task()
	line, err := task.ParseLine(splitMarks(form.Get("line")))
	if err != nil {
		return err
	}
	if len(line) == 2 {
		q.Set("line", line[0].UCI()+","+line[1].UCI())
	}
	pos := ex.Pos
	for _, m := range line {
		pos = pos.Play(m)
	}
	var text string
	switch {
	case form.Get("promote") != "":
		text = form.Get("promote")
	case form.Get("square") != "":
		sq, err := chess.ParseSquare(form.Get("square"))
		if err != nil {
			return refuse(http.StatusBadRequest, "practice.refuse_board_square")
		}
		sel, selErr := chess.ParseSquare(form.Get("sel"))
		p := pos.PieceAt(sq)
		switch {
		case p != chess.NoPiece && p.Color() == pos.Turn() && (selErr != nil || sel != sq):
			q.Set("sel", sq.String()) // select (or switch to) a piece of the side to move
			return back()
		case selErr != nil || sel == sq:
			return back() // nothing selected, or the selected piece clicked again
		}
		text = sel.String() + sq.String()
		if pos.PieceAt(sel).Type() == chess.Pawn && (sq.Rank() == 0 || sq.Rank() == 7) {
			for _, d := range pos.Destinations(sel) {
				if d == sq {
					q.Set("promo", text)
					return back()
				}
			}
		}
	default:
		return back()
	}
	at, err := task.Try(line, text)
	if err != nil {
		return err
	}
	if err := h.recordMoveSolve(c, ex, at.Verdict.Solved, at.Verdict.Correct); err != nil {
		return err
	}
	q.Set("tried", strings.ToLower(strings.TrimSpace(text)))
	return back()
}
