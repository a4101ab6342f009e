package handlers

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/quiz"
	"chesstutor/store"
	"chesstutor/views"
)

// The quiz (Q1–Q4). A round is created by a form post and stored; each
// answer is a form post (Post/Redirect/Get) or, with JavaScript, a JSON post
// to /api/quiz/rounds/:id/answers. Answers are stored once, so a repeated
// post shows the first result again and never counts twice.

// quizScore is one finished round as the /quiz page shows it.
type quizScore struct {
	store.QuizScore
	Percent int
}

// quizSparkline is an SVG polyline of recent scores, oldest on the left.
type quizSparkline struct {
	Points string
	Dots   []quizDot
	Label  string // the scores in words, for screen readers
}

type quizDot struct{ X, Y int }

// quizHomeData is the payload of quiz.html.
type quizHomeData struct {
	Questions int
	Missed    int
	Current   *store.QuizRound
	Scores    []quizScore
	Sparkline *quizSparkline
}

// quizFeedback is what a visitor sees after answering (Q3).
type quizFeedback struct {
	Correct     bool
	Already     bool   // this answer was given before; shown again, not counted again
	YourAnswer  string // the visitor's answer in words
	KeyText     string // the right answer in words
	Explanation string
	Lesson      string
}

// quizQuestionData is the payload of quiz-question.html.
type quizQuestionData struct {
	RoundID    string
	Index      int // 0-based
	Number     int // 1-based
	Total      int
	Answered   int
	Score      int
	Q          *quiz.Question
	Board      *views.Board
	Marked     []string
	Start      string // where keyboard focus enters a squares board ("e1")
	StartWhat  string // what stands there, in words ("the white king"), or ""
	Chosen     map[string]bool
	Key        map[string]bool // the right options, once answered
	Feedback   *quizFeedback
	Error      string
	FormAction string
	APIURL     string
	NextURL    string
	NextLabel  string
}

// quizReview is one missed question on the result page.
type quizReview struct {
	Number     int
	Q          *quiz.Question
	YourAnswer string
	KeyText    string
	Board      *views.Board
}

// quizResultData is the payload of quiz-result.html.
type quizResultData struct {
	Score, Total int
	Message      string
	Missed       []quizReview
	Scores       []quizScore
	Sparkline    *quizSparkline
}

// quizAnswerRequest is the JSON body of an answer.
type quizAnswerRequest struct {
	Index  *int     `json:"index"`
	Answer []string `json:"answer"`
}

// quizAnswerResponse is the JSON reply to an answer.
type quizAnswerResponse struct {
	Correct     bool     `json:"correct"`
	Already     bool     `json:"already"`
	Answer      []string `json:"answer"`
	Key         []string `json:"key"`
	Missed      []string `json:"missed"`
	Wrong       []string `json:"wrong"`
	YourAnswer  string   `json:"yourAnswer"`
	KeyText     string   `json:"keyText"`
	Explanation string   `json:"explanation"`
	Lesson      string   `json:"lesson"`
	Score       int      `json:"score"`
	Answered    int      `json:"answered"`
	Total       int      `json:"total"`
	Finished    bool     `json:"finished"`
	NextURL     string   `json:"nextUrl"`
	NextLabel   string   `json:"nextLabel"`
}

// showQuiz is the quiz start page: past scores, missed questions, start.
func (h *Handler) showQuiz(c echo.Context) error {
	ctx := c.Request().Context()
	v := visitorID(c)
	d := quizHomeData{Questions: h.quiz.Len()}
	missed, err := h.store.MissedQuizQuestions(ctx, v)
	if err != nil {
		return err
	}
	for _, id := range missed {
		if _, ok := h.quiz.Question(id); ok {
			d.Missed++
		}
	}
	cur, err := h.store.CurrentQuizRound(ctx, v)
	switch {
	case err == nil:
		d.Current = cur
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	if d.Scores, d.Sparkline, err = h.quizScores(c); err != nil {
		return err
	}
	return h.render(c, http.StatusOK, "quiz", d)
}

// quizScores loads the visitor's recent scores, newest first, and their sparkline.
func (h *Handler) quizScores(c echo.Context) ([]quizScore, *quizSparkline, error) {
	raw, err := h.store.QuizScores(c.Request().Context(), visitorID(c), 12)
	if err != nil {
		return nil, nil, err
	}
	scores := make([]quizScore, len(raw))
	for i, s := range raw {
		scores[i] = quizScore{QuizScore: s, Percent: quizPercent(s.Score, s.Total)}
	}
	return scores, quizSparklineFor(scores), nil
}

func quizPercent(part, whole int) int {
	if whole <= 0 {
		return 0
	}
	return part * 100 / whole
}

// quizSparklineFor draws scores (newest first) in a 100×30 box, oldest on the left.
func quizSparklineFor(scores []quizScore) *quizSparkline {
	if len(scores) < 2 {
		return nil
	}
	s := &quizSparkline{}
	var pts, words []string
	n := len(scores)
	for i := range n {
		sc := scores[n-1-i]
		words = append(words, fmt.Sprintf("%d of %d", sc.Score, sc.Total))
		x := 4 + i*92/(n-1)
		y := 26 - sc.Percent*22/100
		s.Dots = append(s.Dots, quizDot{x, y})
		pts = append(pts, fmt.Sprintf("%d,%d", x, y))
	}
	s.Points = strings.Join(pts, " ")
	s.Label = fmt.Sprintf("Your last %d scores, oldest first: %s", n, strings.Join(words, ", "))
	return s
}

// startQuiz draws a new round: missed questions first, then across topics (Q4).
func (h *Handler) startQuiz(c echo.Context) error {
	ctx := c.Request().Context()
	v := visitorID(c)
	missed, err := h.store.MissedQuizQuestions(ctx, v)
	if err != nil {
		return err
	}
	seen, err := h.store.SeenQuizQuestions(ctx, v)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	ids := h.quiz.Pick(quiz.RoundSize, missed, seen, rng)
	r, err := h.store.StartQuizRound(ctx, v, ids)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, quizRoundURL(r.ID))
}

func quizRoundURL(id string) string { return "/quiz/rounds/" + url.PathEscape(id) }

func quizQuestionURL(id string, index int) string {
	return fmt.Sprintf("%s?q=%d", quizRoundURL(id), index+1)
}

// loadQuizRound loads the visitor's round named in the URL.
func (h *Handler) loadQuizRound(c echo.Context) (*store.QuizRound, error) {
	noRound := echo.NewHTTPError(http.StatusNotFound, "There is no quiz round at this address. Start a new round from the quiz page.")
	id := c.Param("id")
	if len(id) != 32 {
		return nil, noRound
	}
	r, err := h.store.QuizRound(c.Request().Context(), visitorID(c), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, noRound
	}
	return r, err
}

// roundQuestion is the question at index (0-based, already checked) of the
// round; 410 Gone when the bank no longer has it.
func (h *Handler) roundQuestion(r *store.QuizRound, index int) (*quiz.Question, error) {
	q, ok := h.quiz.Question(r.Questions[index])
	if !ok {
		return nil, echo.NewHTTPError(http.StatusGone, "This question has been removed from the quiz. Start a new round from the quiz page.")
	}
	return q, nil
}

// quizIndex reads a 1-based question number and returns it 0-based.
func quizIndex(r *store.QuizRound, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > len(r.Questions) {
		return 0, echo.NewHTTPError(http.StatusNotFound,
			fmt.Sprintf("This round has questions 1 to %d only.", len(r.Questions)))
	}
	return n - 1, nil
}

// showQuizRound shows a question (the next one, or ?q=N), or the result
// page when every question is answered and none is asked for.
func (h *Handler) showQuizRound(c echo.Context) error {
	r, err := h.loadQuizRound(c)
	if err != nil {
		return err
	}
	index := r.Next()
	if q := c.QueryParam("q"); q != "" {
		if index, err = quizIndex(r, q); err != nil {
			return err
		}
	}
	if index < 0 {
		return h.showQuizResult(c, r)
	}
	d, err := h.quizQuestion(r, index)
	if err != nil {
		return err
	}
	return h.render(c, http.StatusOK, "quiz-question", d)
}

// quizQuestion prepares a question page; answered questions show feedback.
func (h *Handler) quizQuestion(r *store.QuizRound, index int) (*quizQuestionData, error) {
	q, err := h.roundQuestion(r, index)
	if err != nil {
		return nil, err
	}
	d := &quizQuestionData{
		RoundID:    r.ID,
		Index:      index,
		Number:     index + 1,
		Total:      len(r.Questions),
		Answered:   len(r.Answers),
		Score:      r.Score(),
		Q:          q,
		Chosen:     map[string]bool{},
		FormAction: fmt.Sprintf("%s/questions/%d", quizRoundURL(r.ID), index+1),
		APIURL:     "/api/quiz/rounds/" + url.PathEscape(r.ID) + "/answers",
	}
	if a, ok := r.Answer(index); ok {
		answer := strings.Fields(a.Answer)
		d.Feedback = quizFeedbackFor(q, answer, a.Correct, false)
		d.Key = map[string]bool{}
		for _, k := range q.Key() {
			d.Key[k] = true
		}
		d.NextURL, d.NextLabel = quizNextStep(r)
		if q.Kind == quiz.Squares {
			d.Marked = answer
		} else {
			for _, id := range answer {
				d.Chosen[id] = true
			}
		}
	}
	d.setBoard(quizBoard(q, d.Marked, d.Feedback != nil))
	return d, nil
}

// setBoard shows b and names the square where keyboard focus enters it:
// the first mark, else the square the question is about, else the king
// of the side to move, else e4. The help line says the same square.
func (d *quizQuestionData) setBoard(b *views.Board) {
	d.Board = b
	if b == nil || !b.Interactive {
		return
	}
	start := chess.E4
	switch k := d.Q.Pos.KingSquare(d.Q.Pos.Turn()); {
	case len(d.Marked) > 0:
		if sq, err := chess.ParseSquare(d.Marked[0]); err == nil {
			start = sq
		}
	case d.Q.From != chess.NoSquare:
		start = d.Q.From
	case k != chess.NoSquare:
		start = k
	}
	d.Start, d.StartWhat = start.String(), ""
	if p := d.Q.Pos.PieceAt(start); p != chess.NoPiece {
		d.StartWhat = "the " + p.Color().String() + " " + p.Type().String()
	}
	b.Attrs["data-start"] = d.Start
}

// quizNextStep is where the visitor goes after an answer.
func quizNextStep(r *store.QuizRound) (string, string) {
	if next := r.Next(); next >= 0 {
		return quizQuestionURL(r.ID, next), "Next question"
	}
	return quizRoundURL(r.ID), "See your score"
}

func quizFeedbackFor(q *quiz.Question, answer []string, correct, already bool) *quizFeedback {
	return &quizFeedback{
		Correct:     correct,
		Already:     already,
		YourAnswer:  quizAnswerText(q, answer),
		KeyText:     q.KeyText(),
		Explanation: q.Explanation,
		Lesson:      q.Lesson,
	}
}

// quizAnswerText puts a stored answer into words.
func quizAnswerText(q *quiz.Question, answer []string) string {
	if q.Kind == quiz.Squares {
		return strings.Join(answer, ", ")
	}
	var parts []string
	for _, id := range answer {
		if t := q.OptionText(id); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "; ")
}

// quizBoard draws the question's diagram: clickable for squares
// questions until answered, then with the right, missed and wrong squares.
func quizBoard(q *quiz.Question, marked []string, answered bool) *views.Board {
	if q.Pos == nil {
		return nil
	}
	b := &views.Board{
		Pos:     q.Pos,
		Classes: map[chess.Square][]string{},
		Labels:  map[chess.Square]string{},
		Attrs:   map[string]string{"data-quiz-board": q.ID},
	}
	if q.From != chess.NoSquare {
		b.Highlights = []chess.Square{q.From}
	}
	if q.LastMove != chess.NoMove {
		b.Classes[q.LastMove.From()] = append(b.Classes[q.LastMove.From()], "last-move")
		b.Classes[q.LastMove.To()] = append(b.Classes[q.LastMove.To()], "last-move")
	}
	if q.Kind != quiz.Squares {
		b.Size = "diagram"
		return b
	}
	key := q.Key()
	for _, s := range marked {
		sq, err := chess.ParseSquare(s)
		if err != nil {
			continue
		}
		switch {
		case !answered:
			b.Classes[sq] = append(b.Classes[sq], "marked")
		case slices.Contains(key, s):
			b.Classes[sq] = append(b.Classes[sq], "marked", "correct")
		default:
			b.Classes[sq] = append(b.Classes[sq], "marked", "wrong")
		}
	}
	if answered {
		for _, s := range key {
			if !slices.Contains(marked, s) {
				sq, _ := chess.ParseSquare(s)
				b.Classes[sq] = append(b.Classes[sq], "missed")
			}
		}
		return b
	}
	b.Interactive = true
	b.ButtonName = "square"
	return b
}

// answerQuizForm handles the no-JavaScript form: a square button toggles a
// mark (the page is shown again, nothing is stored); the answer button
// grades, stores once and redirects to the feedback (Post/Redirect/Get).
func (h *Handler) answerQuizForm(c echo.Context) error {
	r, err := h.loadQuizRound(c)
	if err != nil {
		return err
	}
	index, err := quizIndex(r, c.Param("n"))
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read. Please try again.")
	}
	if _, done := r.Answer(index); done {
		return c.Redirect(http.StatusSeeOther, quizQuestionURL(r.ID, index))
	}
	q, err := h.roundQuestion(r, index)
	if err != nil {
		return err
	}
	values := form["choice"]
	if q.Kind == quiz.Squares {
		values = form["marked"]
		if sq := form.Get("square"); sq != "" && form.Get("action") == "" {
			return h.toggleQuizSquare(c, r, index, values, sq)
		}
	}
	result, err := q.Grade(values)
	if errors.Is(err, quiz.ErrBadAnswer) {
		d, derr := h.quizQuestion(r, index)
		if derr != nil {
			return derr
		}
		d.Error = quizBadAnswer(err)
		for _, v := range values {
			d.Chosen[v] = true
		}
		return h.render(c, http.StatusBadRequest, "quiz-question", d)
	}
	if err != nil {
		return err
	}
	if _, _, err := h.store.AnswerQuiz(c.Request().Context(), visitorID(c), r.ID, index,
		strings.Join(result.Answer, " "), result.Correct); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, quizQuestionURL(r.ID, index))
}

// toggleQuizSquare re-renders a squares question with one mark toggled.
func (h *Handler) toggleQuizSquare(c echo.Context, r *store.QuizRound, index int, marked []string, square string) error {
	sq, err := chess.ParseSquare(strings.ToLower(square))
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf("%q is not a square on the board.", square))
	}
	var next []string
	for _, m := range marked {
		if s, err := chess.ParseSquare(strings.ToLower(m)); err == nil && s != sq && !slices.Contains(next, s.String()) {
			next = append(next, s.String())
		}
	}
	if !slices.Contains(marked, sq.String()) {
		next = append(next, sq.String())
	}
	slices.Sort(next)
	d, err := h.quizQuestion(r, index)
	if err != nil {
		return err
	}
	d.Marked = next
	d.setBoard(quizBoard(d.Q, next, false))
	return h.render(c, http.StatusOK, "quiz-question", d)
}

// quizBadAnswer turns a grading error into a sentence for the page.
func quizBadAnswer(err error) string {
	msg := strings.TrimPrefix(err.Error(), quiz.ErrBadAnswer.Error()+": ")
	if msg == "" {
		return "That answer could not be read."
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + "."
}

// answerQuizAPI grades an answer sent as JSON and returns the feedback.
func (h *Handler) answerQuizAPI(c echo.Context) error {
	r, err := h.loadQuizRound(c)
	if err != nil {
		return err
	}
	var req quizAnswerRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Index == nil {
		return echo.NewHTTPError(http.StatusBadRequest, `Say which question you answer: "index" is its number, from 1.`)
	}
	index, err := quizIndex(r, strconv.Itoa(*req.Index))
	if err != nil {
		return err
	}
	q, err := h.roundQuestion(r, index)
	if err != nil {
		return err
	}
	if stored, done := r.Answer(index); done {
		// Answered before: the first answer stands and is reported again.
		result, err := q.Grade(strings.Fields(stored.Answer))
		if err != nil {
			return err
		}
		return quizReply(c, r, q, result, true)
	}
	if len(req.Answer) > 64 {
		return echo.NewHTTPError(http.StatusBadRequest, "That answer has far too many parts.")
	}
	result, err := q.Grade(req.Answer)
	if errors.Is(err, quiz.ErrBadAnswer) {
		return echo.NewHTTPError(http.StatusBadRequest, quizBadAnswer(err))
	}
	if err != nil {
		return err
	}
	r, recorded, err := h.store.AnswerQuiz(c.Request().Context(), visitorID(c), r.ID, index,
		strings.Join(result.Answer, " "), result.Correct)
	if err != nil {
		return err
	}
	if !recorded {
		// Another request answered first: report what it stored.
		stored, _ := r.Answer(index)
		if result, err = q.Grade(strings.Fields(stored.Answer)); err != nil {
			return err
		}
	}
	return quizReply(c, r, q, result, !recorded)
}

// quizReply writes the JSON feedback for one graded answer.
func quizReply(c echo.Context, r *store.QuizRound, q *quiz.Question, result quiz.Result, already bool) error {
	next, label := quizNextStep(r)
	fb := quizFeedbackFor(q, result.Answer, result.Correct, already)
	return c.JSON(http.StatusOK, quizAnswerResponse{
		Correct:     result.Correct,
		Already:     already,
		Answer:      result.Answer,
		Key:         result.Key,
		Missed:      quizList(result.Missed),
		Wrong:       quizList(result.Wrong),
		YourAnswer:  fb.YourAnswer,
		KeyText:     fb.KeyText,
		Explanation: fb.Explanation,
		Lesson:      fb.Lesson,
		Score:       r.Score(),
		Answered:    len(r.Answers),
		Total:       len(r.Questions),
		Finished:    r.Finished(),
		NextURL:     next,
		NextLabel:   label,
	})
}

func quizList(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// showQuizResult is the end of a round: the score and the missed questions.
func (h *Handler) showQuizResult(c echo.Context, r *store.QuizRound) error {
	d := quizResultData{Score: r.Score(), Total: len(r.Questions)}
	for _, a := range r.Answers {
		if a.Correct {
			continue
		}
		q, ok := h.quiz.Question(a.Question)
		if !ok {
			continue
		}
		answer := strings.Fields(a.Answer)
		review := quizReview{Number: a.Index + 1, Q: q, YourAnswer: quizAnswerText(q, answer), KeyText: q.KeyText()}
		var marked []string
		if q.Kind == quiz.Squares {
			marked = answer
		}
		review.Board = quizBoard(q, marked, true)
		if review.Board != nil {
			review.Board.Size = "diagram"
		}
		d.Missed = append(d.Missed, review)
	}
	switch p := quizPercent(d.Score, d.Total); {
	case p == 100:
		d.Message = "Every answer right. You know the rules!"
	case p >= 80:
		d.Message = "Very good. Look over the questions you missed below; they come back in your next round."
	case p >= 50:
		d.Message = "A good start. Read the explanations below, then try another round: the questions you missed come first."
	default:
		d.Message = "The rules take a little time. Read the explanations and the lessons they link to, then try again: the questions you missed come back first."
	}
	var err error
	if d.Scores, d.Sparkline, err = h.quizScores(c); err != nil {
		return err
	}
	return h.render(c, http.StatusOK, "quiz-result", d)
}

// registerQuiz lists the quiz routes; Register calls it.
func (h *Handler) registerQuiz(e *echo.Echo, api *echo.Group) {
	e.GET("/quiz", h.showQuiz)
	e.POST("/quiz/rounds", h.startQuiz)
	e.GET("/quiz/rounds/:id", h.showQuizRound)
	e.POST("/quiz/rounds/:id/questions/:n", h.answerQuizForm)
	api.POST("/quiz/rounds/:id/answers", h.answerQuizAPI)
}
