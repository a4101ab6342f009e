package handlers

import (
	"errors"
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

// registerExercises adds the practice pages and the check API (X1, X4, H1).
func (h *Handler) registerExercises(e *echo.Echo, api *echo.Group) {
	e.GET("/practice", h.showPracticeIndex)
	e.GET("/learn/:slug/practice", h.showPractice)
	e.POST("/learn/:slug/practice", h.submitPractice)
	api.POST("/exercises/:id/check", h.checkExercise)
	// One handler, two names: the move pages ask /hint for a hint or the
	// answer, the other kinds ask /help for the answer; both record the
	// help for the stars (exercises_hint.go).
	api.POST("/exercises/:id/hint", h.helpExercise)
	api.POST("/exercises/:id/help", h.helpExercise)
}

// checkRequest is the body of POST /api/exercises/:id/check.
type checkRequest struct {
	Squares *[]string `json:"squares"`
}

// checkResponse is the answer to POST /api/exercises/:id/check (H1). The
// answer field lets the page show the answer without another request.
type checkResponse struct {
	Correct bool              `json:"correct"`
	Stars   int               `json:"stars"` // 1–3 once solved (X11), else 0
	Missed  []string          `json:"missed"`
	Wrong   []string          `json:"wrong"`
	Reasons map[string]string `json:"reasons"`
	Answer  []string          `json:"answer"`
}

// checkExercise grades the marked squares of one exercise and, when they
// are right, records it as solved for the visitor (X1, H1).
func (h *Handler) checkExercise(c echo.Context) error {
	ex, ok := h.course(c).Exercise(c.Param("id"))
	if !ok {
		return refuse(http.StatusNotFound, "exercise.refuse_no_exercise")
	}
	if ex.Kind == lessons.KindSetup {
		return h.checkSetupExercise(c, ex) // exercises_setup.go
	}
	if !ex.Marks() {
		return h.checkMoveExercise(c, ex) // exercises_move.go
	}
	marked, err := readCheckBody(c)
	if err != nil {
		return err
	}
	res := gradeMarks(ex, marked)
	stars, err := h.recordTry(c, ex, res.Correct, res.Correct) // stars.go
	if err != nil {
		return err
	}
	out := toCheckResponse(h.w(c), res)
	out.Stars = stars
	return c.JSON(http.StatusOK, out)
}

// gradeMarks grades the marked squares of an exercise answered by marks
// (lessons.Exercise.Marks): the squares a piece may move to, or the
// undefended pieces of the side to move.
func gradeMarks(ex *lessons.Exercise, marked []chess.Square) exercise.Result {
	if ex.Kind == lessons.KindUndefended {
		return exercise.CheckUndefended(ex.Pos, marked)
	}
	return exercise.Check(ex.Pos, ex.From, marked)
}

// markAnswer is the answer of an exercise answered by marks.
func markAnswer(ex *lessons.Exercise) []chess.Square {
	if ex.Kind == lessons.KindUndefended {
		return exercise.UndefendedAnswer(ex.Pos)
	}
	return exercise.Answer(ex.Pos, ex.From)
}

// markStart is where keyboard focus enters an exercise's board before
// anything is marked: the piece asked about, or the side's king.
func markStart(ex *lessons.Exercise) chess.Square {
	if ex.Kind == lessons.KindUndefended {
		return ex.Pos.KingSquare(ex.Pos.Turn())
	}
	return ex.From
}

// recordMiss counts a wrong try, for the teacher's "stuck" mark (T3).
func (h *Handler) recordMiss(c echo.Context, ex *lessons.Exercise) error {
	if err := h.store.RecordExerciseMiss(c.Request().Context(), visitorID(c), ex.ID); err != nil {
		return fmt.Errorf("handlers: record a miss of exercise %s: %w", ex.ID, err)
	}
	return nil
}

// readCheckBody reads {"squares": [...]} and returns the squares, or an
// HTTP error that says what is wrong with the body.
func readCheckBody(c echo.Context) ([]chess.Square, error) {
	var req checkRequest
	if err := bindJSON(c, &req); err != nil {
		return nil, err
	}
	if req.Squares == nil {
		return nil, refuse(http.StatusBadRequest, "exercise.refuse_no_squares")
	}
	return parseSquareList(*req.Squares)
}

// parseSquareList turns square names into squares; a list longer than the
// board, a bad name or a name given twice is an HTTP error.
func parseSquareList(names []string) ([]chess.Square, error) {
	if len(names) > exercise.MaxSquares {
		return nil, refuse(http.StatusRequestEntityTooLarge, "exercise.refuse_too_many", "Count", len(names))
	}
	seen := make(map[chess.Square]bool, len(names))
	sqs := make([]chess.Square, 0, len(names))
	for _, name := range names {
		sq, err := chess.ParseSquare(name)
		if err != nil {
			return nil, refuse(http.StatusBadRequest, "exercise.refuse_not_square", "Name", truncate(name, 12))
		}
		if seen[sq] {
			return nil, refuse(http.StatusBadRequest, "exercise.refuse_twice", "Square", sq)
		}
		seen[sq] = true
		sqs = append(sqs, sq)
	}
	return sqs, nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// toCheckResponse is the API's answer, its reasons in w's language.
func toCheckResponse(w *words.Words, res exercise.Result) checkResponse {
	out := checkResponse{
		Correct: res.Correct,
		Missed:  squareNames(res.Missed),
		Wrong:   squareNames(res.Wrong),
		Reasons: make(map[string]string, len(res.Reasons)),
		Answer:  squareNames(res.Answer),
	}
	for sq, why := range res.Reasons {
		out.Reasons[sq.String()] = w.Msg(why)
	}
	return out
}

func squareNames(sqs []chess.Square) []string {
	out := make([]string, len(sqs))
	for i, sq := range sqs {
		out[i] = sq.String()
	}
	return out
}

// practiceItem is one exercise in a list, with the visitor's tick.
type practiceItem struct {
	ID, Prompt, URL string
	Solved, Current bool
}

// practiceReason is one line of the list under the board after Check.
type practiceReason struct {
	Square, Reason string
}

// practiceResult is the result shown after Check, for the template.
type practiceResult struct {
	Correct       bool
	Missed, Wrong []practiceReason
}

// practicePage is the payload of views/pages/practice-exercise.html.
type practicePage struct {
	Lesson     *lessons.Lesson
	Exercise   *lessons.Exercise
	Index      int // 1-based position in the lesson
	Total      int
	Solved     bool          // solved on an earlier visit
	Piece      words.Message // the piece asked about: "the knight" (zero for Loose)
	Loose      bool          // an undefended exercise: mark the unguarded pieces
	Start      string        // where keyboard focus enters the board: the first mark, else the piece
	Board      views.Board
	Marked     []string
	Result     *practiceResult
	ShowAnswer bool
	Answer     []string
	AnswerList string // the answer as the sentence lists it: "b4, c3"
	Items      []practiceItem
	FormAction string
	APIURL     string
	NextURL    string
	NextLabel  string
}

// practiceGroup is one lesson's exercises on /practice.
type practiceGroup struct {
	Lesson *lessons.Lesson
	Items  []practiceItem
	Solved int
}

// practiceIndex is the payload of views/pages/practice.html.
type practiceIndex struct {
	Groups        []practiceGroup
	Solved, Total int
	ContinueURL   string
}

// exerciseURL is the practice page of one exercise (the lessons package
// writes the address, for lesson pages and practice pages alike).
func exerciseURL(ex *lessons.Exercise) string { return ex.PracticeURL() }

// showPracticeIndex lists every exercise, grouped by lesson, with ticks.
func (h *Handler) showPracticeIndex(c echo.Context) error {
	solved, err := h.solvedExercises(c)
	if err != nil {
		return err
	}
	var idx practiceIndex
	for _, l := range h.course(c).Lessons() {
		if len(l.Exercises) == 0 {
			continue
		}
		g := practiceGroup{Lesson: l}
		for _, ex := range l.Exercises {
			item := practiceItem{ID: ex.ID, Prompt: ex.Prompt, URL: exerciseURL(ex), Solved: solved[ex.ID]}
			if item.Solved {
				g.Solved++
			} else if idx.ContinueURL == "" {
				idx.ContinueURL = item.URL
			}
			g.Items = append(g.Items, item)
		}
		idx.Solved += g.Solved
		idx.Total += len(g.Items)
		idx.Groups = append(idx.Groups, g)
	}
	return h.render(c, http.StatusOK, "practice", idx)
}

// showPractice runs a lesson's exercises one after another. The marks and
// what to show live in the query (m=e4,d5&show=check|answer), so the page
// is the same on reload and the form needs no JavaScript (X4).
func (h *Handler) showPractice(c echo.Context) error {
	l, ex, err := h.practiceTarget(c)
	if err != nil {
		return err
	}
	if ex.Kind == lessons.KindSetup {
		return h.showSetupPractice(c, l, ex) // exercises_setup.go
	}
	if !ex.Marks() {
		return h.showMovePractice(c, l, ex) // exercises_move.go
	}
	marked, err := parseMarkList(splitMarks(c.QueryParam("m")))
	if err != nil {
		return err
	}
	solved, err := h.solvedExercises(c)
	if err != nil {
		return err
	}

	page := practicePage{
		Lesson:     l,
		Exercise:   ex,
		Total:      len(l.Exercises),
		Solved:     solved[ex.ID],
		Loose:      ex.Kind == lessons.KindUndefended,
		FormAction: exerciseURL(ex),
		APIURL:     "/api/exercises/" + url.PathEscape(ex.ID) + "/check",
	}
	if !page.Loose {
		page.Piece = words.M("piece.the_" + ex.Pos.PieceAt(ex.From).Type().String())
	}
	w := h.w(c)
	classes := map[chess.Square][]string{}
	switch c.QueryParam("show") {
	case "check":
		res := gradeMarks(ex, marked)
		page.Result = &practiceResult{Correct: res.Correct}
		for _, sq := range res.Hits {
			classes[sq] = append(classes[sq], "marked", "correct")
		}
		for _, sq := range res.Wrong {
			classes[sq] = append(classes[sq], "marked", "wrong")
			page.Result.Wrong = append(page.Result.Wrong, practiceReason{sq.String(), w.Msg(res.Reasons[sq])})
		}
		for _, sq := range res.Missed {
			classes[sq] = append(classes[sq], "missed")
			page.Result.Missed = append(page.Result.Missed, practiceReason{sq.String(), w.Msg(res.Reasons[sq])})
		}
	case "answer":
		marked = nil
		page.ShowAnswer = true
		for _, sq := range markAnswer(ex) {
			classes[sq] = append(classes[sq], "dest")
			page.Answer = append(page.Answer, sq.String())
		}
		page.AnswerList = strings.Join(page.Answer, ", ")
	default:
		for _, sq := range marked {
			classes[sq] = append(classes[sq], "marked")
		}
	}
	page.Marked = squareNames(marked)
	page.Start = markStart(ex).String()
	if len(marked) > 0 {
		page.Start = marked[0].String()
	}
	// The piece the exercise asks about is tinted (X8).
	if !page.Loose {
		classes[ex.From] = append(classes[ex.From], "subject")
	}
	page.Board = views.Board{
		Pos:         ex.Pos,
		Flipped:     ex.Pos.Turn() == chess.Black,
		Classes:     classes,
		Interactive: true,
		Attrs: map[string]string{
			"data-exercise":      ex.ID,
			"data-exercise-kind": string(ex.Kind),
			"data-from":          markStart(ex).String(),
		},
	}
	switch {
	case page.Result != nil:
		page.Board.Attrs["data-state"] = "checked" // exercise.js clears the result on the next mark
	case page.ShowAnswer:
		page.Board.Attrs["data-state"] = "answer"
	}

	for i, e := range l.Exercises {
		if e.ID == ex.ID {
			page.Index = i + 1
		}
		page.Items = append(page.Items, practiceItem{
			ID: e.ID, Prompt: e.Prompt, URL: exerciseURL(e), Solved: solved[e.ID], Current: e.ID == ex.ID,
		})
	}
	if page.NextURL, page.NextLabel, err = h.nextExercise(c, l, page.Index); err != nil {
		return err
	}
	return h.render(c, http.StatusOK, "practice-exercise", page)
}

// nextExercise is where Next leads, and its label in w's language: the
// lesson's next exercise; after the last one the next lesson to read
// (L12), so a learner who follows the green buttons reads every lesson:
// the next lesson not done yet, or the first unsolved exercise of a done
// one (read but not all solved); at the end of the course the overview.
func (h *Handler) nextExercise(c echo.Context, l *lessons.Lesson, index int) (string, string, error) {
	w := h.w(c)
	if index < len(l.Exercises) {
		return exerciseURL(l.Exercises[index]), w.T("exercise.next_exercise"), nil
	}
	report, err := h.store.VisitorProgress(c.Request().Context(), visitorID(c))
	if err != nil {
		return "", "", fmt.Errorf("handlers: load progress: %w", err)
	}
	for n := l.Next; n != nil; n = n.Next {
		if done, _ := lessonDone(report, n); !done {
			return "/learn/" + n.Slug, w.T("exercise.next_lesson", "Lesson", n.Title), nil
		}
		for _, ex := range n.Exercises {
			if _, ok := report.Solved[ex.ID]; !ok {
				return exerciseURL(ex), w.T("exercise.next_practice", "Lesson", n.Title), nil
			}
		}
	}
	return "/practice", w.T("exercise.all_exercises"), nil
}

// practiceTarget finds the lesson of the URL and the exercise chosen by
// ?ex= (the lesson's first one by default).
func (h *Handler) practiceTarget(c echo.Context) (*lessons.Lesson, *lessons.Exercise, error) {
	l, ok := h.course(c).Lesson(c.Param("slug"))
	if !ok {
		return nil, nil, refuse(http.StatusNotFound, "exercise.refuse_no_lesson")
	}
	if len(l.Exercises) == 0 {
		return nil, nil, refuse(http.StatusNotFound, "exercise.refuse_no_exercises")
	}
	id := c.QueryParam("ex")
	if id == "" {
		return l, l.Exercises[0], nil
	}
	for _, ex := range l.Exercises {
		if ex.ID == id {
			return l, ex, nil
		}
	}
	return nil, nil, refuse(http.StatusNotFound, "exercise.refuse_no_such_exercise")
}

// submitPractice handles the form on the practice page without JavaScript:
// a square button toggles its mark; Check grades (and records a solve);
// Try again keeps the right marks and drops the wrong ones; Start over
// clears every mark; Show answer reveals. It then redirects to the page
// with the new state in the query (post, redirect, get).
func (h *Handler) submitPractice(c echo.Context) error {
	_, ex, err := h.practiceTarget(c)
	if err != nil {
		return err
	}
	if ex.Kind == lessons.KindSetup {
		return h.submitSetupPractice(c, ex) // exercises_setup.go
	}
	if !ex.Marks() {
		return h.submitMovePractice(c, ex) // exercises_move.go
	}
	form, err := c.FormParams()
	if err != nil {
		return refuse(http.StatusBadRequest, "http.form_unreadable")
	}
	// A stale page may repeat a mark; parseMarkList keeps the first of each.
	marked, err := parseMarkList(form["marked"])
	if err != nil {
		return err
	}
	q := url.Values{"ex": {ex.ID}}
	switch action := form.Get("action"); {
	case form.Get("square") != "":
		sq, err := chess.ParseSquare(form.Get("square"))
		if err != nil {
			return refuse(http.StatusBadRequest, "exercise.refuse_bad_square")
		}
		marked = toggleSquare(marked, sq)
	case action == "check":
		res := gradeMarks(ex, marked)
		if _, err := h.recordTry(c, ex, res.Correct, res.Correct); err != nil {
			return err
		}
		q.Set("show", "check")
	case action == "reset":
		marked = gradeMarks(ex, marked).Hits
	case action == "restart":
		marked = nil
	case action == "answer":
		if err := h.recordHelp(c, ex); err != nil {
			return err
		}
		q.Set("show", "answer")
		marked = nil
	case action == "":
		// Nothing pressed that we know: show the page as it was.
	default:
		return refuse(http.StatusBadRequest, "exercise.refuse_unknown_button")
	}
	if len(marked) > 0 {
		q.Set("m", strings.Join(squareNames(marked), ","))
	}
	return c.Redirect(http.StatusSeeOther, "/learn/"+url.PathEscape(ex.Lesson)+"/practice?"+q.Encode())
}

func dedupe(names []string) []string {
	seen := map[string]bool{}
	out := names[:0:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func splitMarks(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// parseMarkList reads marks carried by the page (query or hidden fields);
// the same rules as the API, but duplicates are forgiven.
func parseMarkList(names []string) ([]chess.Square, error) {
	sqs, err := parseSquareList(dedupe(names))
	var he *echo.HTTPError
	if errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge {
		return nil, refuse(http.StatusBadRequest, "exercise.refuse_too_many_marks")
	}
	return sqs, err
}

func toggleSquare(marked []chess.Square, sq chess.Square) []chess.Square {
	for i, m := range marked {
		if m == sq {
			return append(marked[:i:i], marked[i+1:]...)
		}
	}
	return append(marked, sq)
}

// solvedExercises is the set of exercise ids the visitor has solved.
func (h *Handler) solvedExercises(c echo.Context) (map[string]bool, error) {
	rep, err := h.store.VisitorProgress(c.Request().Context(), visitorID(c))
	if err != nil {
		return nil, fmt.Errorf("handlers: load progress: %w", err)
	}
	solved := make(map[string]bool, len(rep.Solved))
	for id := range rep.Solved {
		solved[id] = true
	}
	return solved, nil
}
