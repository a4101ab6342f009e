package handlers

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/quiz"
	"chesstutor/quiz/rounds"
	"chesstutor/store"
	"chesstutor/views"
	"chesstutor/words"
)

// The quiz (Q1–Q4). A round is created by a form post and stored; each
// answer is a form post (Post/Redirect/Get) or, with JavaScript, a JSON post
// to /api/quiz/rounds/:id/answers. Answers are stored once, so a repeated
// post shows the first result again and never counts twice.

// quizView is a question in the visitor's words; the embedded question
// keeps what is the same in every language (id, kind, key, lesson link).
type quizView struct {
	*quiz.Question
	Prompt      string
	Explanation string
	Topic       string
	Moves       string // draw questions: the moves played, in the visitor's letters
	Options     []quizOption
}

// quizOption is one answer a visitor may choose, in words.
type quizOption struct {
	ID, Text string
}

// quizWords puts a question into w's words.
func quizWords(w *words.Words, q *quiz.Question) *quizView {
	text := q.Text(w.Lang())
	v := &quizView{
		Question:    q,
		Prompt:      text.Prompt,
		Explanation: text.Explanation,
		Topic:       w.Msg(q.TopicTitle()),
		Moves:       q.MovesText(sanLetters(w)),
	}
	for _, o := range q.Options {
		v.Options = append(v.Options, quizOption{ID: o.ID, Text: quizOptionText(w, q, o.ID)})
	}
	return v
}

// quizOptionText is an option's words: a fixed answer's from the
// catalogue, a multiple-choice option's from the question's file.
func quizOptionText(w *words.Words, q *quiz.Question, id string) string {
	for _, o := range q.Options {
		if o.ID == id && !o.Words.IsZero() {
			return w.Msg(o.Words)
		}
	}
	return q.Text(w.Lang()).Options[id]
}

// quizAnswerText puts an answer (or the key) into words: the squares, or
// the chosen options' words.
func quizAnswerText(w *words.Words, q *quiz.Question, answer []string) string {
	if q.Board() {
		return strings.Join(answer, w.T("quiz.list_sep"))
	}
	var parts []string
	for _, id := range answer {
		if t := quizOptionText(w, q, id); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, w.T("quiz.options_sep"))
}

// sanLetters writes a SAN move with the piece letters of w's language
// (quiz.move_letters: king, queen, rook, bishop, knight), so the moves
// under a question read as its prompt does ("Rxd2" in Spanish).
func sanLetters(w *words.Words) func(string) string {
	letters := strings.Fields(w.T("quiz.move_letters"))
	if len(letters) != 5 {
		return nil
	}
	swap := map[byte]string{'K': letters[0], 'Q': letters[1], 'R': letters[2], 'B': letters[3], 'N': letters[4]}
	return func(san string) string {
		if san == "" {
			return san
		}
		if l, ok := swap[san[0]]; ok {
			san = l + san[1:]
		}
		if i := strings.IndexByte(san, '='); i >= 0 && i+1 < len(san) {
			if l, ok := swap[san[i+1]]; ok {
				san = san[:i+1] + l + san[i+2:]
			}
		}
		return san
	}
}

// quizScore is one finished round as the quiz pages and the home page
// show it: the score and its date in the visitor's words.
type quizScore struct {
	Score, Total, Percent int
	At                    time.Time
	When                  string
}

// quizHomeData is the payload of quiz.html.
type quizHomeData struct {
	Questions int
	RoundSize int
	Missed    int
	Current   *store.QuizRound
	Scores    []quizScore
	Sparkline *views.Sparkline
}

// showQuiz is the quiz start page: past scores, missed questions, start.
func (h *Handler) showQuiz(c echo.Context) error {
	o, err := h.rounds.Overview(c.Request().Context(), visitorID(c))
	if err != nil {
		return err
	}
	w := h.w(c)
	scores := quizScoresIn(w, o.Scores)
	d := quizHomeData{Questions: o.Questions, RoundSize: quiz.RoundSize, Missed: o.Missed, Current: o.Current,
		Scores: scores, Sparkline: quizSparklineFor(w, scores)}
	return h.render(c, http.StatusOK, "quiz", d)
}

// quizScores loads the visitor's recent scores, newest first, and their
// sparkline, in the request's words.
func (h *Handler) quizScores(c echo.Context) ([]quizScore, *views.Sparkline, error) {
	raw, err := h.rounds.Scores(c.Request().Context(), visitorID(c))
	if err != nil {
		return nil, nil, err
	}
	w := h.w(c)
	scores := quizScoresIn(w, raw)
	return scores, quizSparklineFor(w, scores), nil
}

// quizScoresIn dates each score in w's words.
func quizScoresIn(w *words.Words, raw []rounds.Score) []quizScore {
	scores := make([]quizScore, len(raw))
	for i, sc := range raw {
		at := sc.At
		scores[i] = quizScore{Score: sc.Score, Total: sc.Total, Percent: sc.Percent, At: at,
			When: w.T("quiz.date", "Date", w.Date(at), "Time", at.Format("15:04"))}
	}
	return scores
}

// quizSparklineFor draws scores (newest first) as a sparkline, oldest on
// the left, with the scores in words for screen readers.
func quizSparklineFor(w *words.Words, scores []quizScore) *views.Sparkline {
	n := len(scores)
	percents, said := make([]int, n), make([]string, n)
	for i := range n {
		sc := scores[n-1-i]
		percents[i] = sc.Percent
		said[i] = w.T("quiz.score_of", "Score", sc.Score, "Total", sc.Total)
	}
	return views.NewSparkline(percents, w.T("quiz.sparkline", "Count", n, "Scores", strings.Join(said, w.T("quiz.list_sep"))))
}

// startQuiz draws a new round: missed questions first, then across topics (Q4).
func (h *Handler) startQuiz(c echo.Context) error {
	r, err := h.rounds.Start(c.Request().Context(), visitorID(c))
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, quizRoundURL(r.ID))
}

func quizRoundURL(id string) string { return "/quiz/rounds/" + url.PathEscape(id) }

func quizQuestionURL(id string, index int) string {
	return fmt.Sprintf("%s?q=%d", quizRoundURL(id), index+1)
}

// roundError turns a refusal of the quiz service into its HTTP status.
func roundError(err error) error {
	var re *rounds.Error
	if !errors.As(err, &re) {
		return err
	}
	status := map[rounds.Kind]int{
		rounds.NotFound: http.StatusNotFound,
		rounds.Gone:     http.StatusGone,
		rounds.Invalid:  http.StatusBadRequest,
	}[re.Kind]
	// The refusal's code and arguments, worded by handleError (refuse).
	return echo.NewHTTPError(status, re.Message)
}

// loadQuizRound loads the visitor's round named in the URL.
func (h *Handler) loadQuizRound(c echo.Context) (*store.QuizRound, error) {
	r, err := h.rounds.Round(c.Request().Context(), visitorID(c), c.Param("id"))
	return r, roundError(err)
}

// quizIndex reads a 1-based question number and returns it 0-based.
func quizIndex(r *store.QuizRound, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		n = 0
	}
	index, err := rounds.Index(r, n)
	return index, roundError(err)
}

// quizQuestionData is the payload of quiz-question.html.
type quizQuestionData struct {
	RoundID    string
	Index      int // 0-based
	Number     int // 1-based
	Total      int
	Answered   int
	Score      int
	Q          *quizView
	Board      *views.Board
	Marked     []string
	Start      string        // where keyboard focus enters a squares board ("e1")
	StartHelp  template.HTML // that square for the help line, with what stands there
	Chosen     map[string]bool
	Key        map[string]bool // the right options, once answered
	Feedback   *quizFeedback
	Error      string
	FormAction string
	APIURL     string
	NextURL    string
	NextLabel  string
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
	d, err := h.quizQuestion(h.w(c), r, index)
	if err != nil {
		return err
	}
	return h.render(c, http.StatusOK, "quiz-question", d)
}

// quizQuestion prepares a question page in w's words; answered questions
// show feedback.
func (h *Handler) quizQuestion(w *words.Words, r *store.QuizRound, index int) (*quizQuestionData, error) {
	q, err := h.rounds.Question(r, index)
	if err != nil {
		return nil, roundError(err)
	}
	d := &quizQuestionData{
		RoundID:    r.ID,
		Index:      index,
		Number:     index + 1,
		Total:      len(r.Questions),
		Answered:   len(r.Answers),
		Score:      r.Score(),
		Q:          quizWords(w, q),
		Chosen:     map[string]bool{},
		FormAction: fmt.Sprintf("%s/questions/%d", quizRoundURL(r.ID), index+1),
		APIURL:     "/api/quiz/rounds/" + url.PathEscape(r.ID) + "/answers",
	}
	if a, ok := r.Answer(index); ok {
		answer := strings.Fields(a.Answer)
		d.Feedback = quizFeedbackFor(w, q, answer, a.Correct, false)
		d.Key = map[string]bool{}
		for _, k := range q.Key() {
			d.Key[k] = true
		}
		d.NextURL, d.NextLabel = quizNextStep(w, r)
		if q.Board() {
			d.Marked = answer
		} else {
			for _, id := range answer {
				d.Chosen[id] = true
			}
		}
	}
	d.setBoard(w, quizBoard(q, d.Marked, d.Feedback != nil))
	return d, nil
}

// setBoard shows b and names the square where keyboard focus enters it:
// the first mark, else the square the question is about, else the king
// of the side to move, else e4. The help line says the same square, in
// w's words.
func (d *quizQuestionData) setBoard(w *words.Words, b *views.Board) {
	d.Board = b
	if b == nil || !b.Interactive {
		return
	}
	pos := d.Q.Pos
	start := chess.E4
	switch k := pos.KingSquare(pos.Turn()); {
	case len(d.Marked) > 0:
		if sq, err := chess.ParseSquare(d.Marked[0]); err == nil {
			start = sq
		}
	case d.Q.From != chess.NoSquare:
		start = d.Q.From
	case k != chess.NoSquare:
		start = k
	}
	d.Start = start.String()
	p := pos.PieceAt(start)
	piece := words.M("board.piece_" + p.String())
	switch {
	case p != chess.NoPiece && len(d.Marked) > 0:
		d.StartHelp = w.HTML("quiz.help_start_piece_mark", "Square", d.Start, "Piece", piece)
	case p != chess.NoPiece:
		d.StartHelp = w.HTML("quiz.help_start_piece", "Square", d.Start, "Piece", piece)
	case len(d.Marked) > 0:
		d.StartHelp = w.HTML("quiz.help_start_mark", "Square", d.Start)
	default:
		d.StartHelp = w.HTML("quiz.help_start", "Square", d.Start)
	}
	b.Attrs["data-start"] = d.Start
}

// quizNextStep is where the visitor goes after an answer, and the words
// of the link.
func quizNextStep(w *words.Words, r *store.QuizRound) (string, string) {
	if next := r.Next(); next >= 0 {
		return quizQuestionURL(r.ID, next), w.T("quiz.next_question")
	}
	return quizRoundURL(r.ID), w.T("quiz.see_score")
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

func quizFeedbackFor(w *words.Words, q *quiz.Question, answer []string, correct, already bool) *quizFeedback {
	return &quizFeedback{
		Correct:     correct,
		Already:     already,
		YourAnswer:  quizAnswerText(w, q, answer),
		KeyText:     quizAnswerText(w, q, q.Key()),
		Explanation: q.Text(w.Lang()).Explanation,
		Lesson:      q.Lesson,
	}
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
		// A square-name question may be asked from Black's side.
		Flipped: q.Kind == quiz.Name && q.Pos.Turn() == chess.Black,
	}
	if q.From != chess.NoSquare {
		b.Highlights = []chess.Square{q.From}
	}
	if q.LastMove != chess.NoMove {
		b.Classes[q.LastMove.From()] = append(b.Classes[q.LastMove.From()], "last-move")
		b.Classes[q.LastMove.To()] = append(b.Classes[q.LastMove.To()], "last-move")
	}
	if !q.Board() {
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
		return refuse(http.StatusBadRequest, "quiz.refuse_form")
	}
	if _, done := r.Answer(index); done {
		return c.Redirect(http.StatusSeeOther, quizQuestionURL(r.ID, index))
	}
	q, err := h.rounds.Question(r, index)
	if err != nil {
		return roundError(err)
	}
	values := form["choice"]
	if q.Board() {
		values = form["marked"]
		if sq := form.Get("square"); sq != "" && form.Get("action") == "" {
			return h.toggleQuizSquare(c, r, index, values, sq)
		}
	}
	_, err = h.rounds.Answer(c.Request().Context(), visitorID(c), r, index, values)
	var re *rounds.Error
	if errors.As(err, &re) && re.Kind == rounds.Invalid {
		w := h.w(c)
		d, derr := h.quizQuestion(w, r, index)
		if derr != nil {
			return derr
		}
		d.Error = w.Msg(re.Message)
		for _, v := range values {
			d.Chosen[v] = true
		}
		return h.render(c, http.StatusBadRequest, "quiz-question", d)
	}
	if err != nil {
		return roundError(err)
	}
	return c.Redirect(http.StatusSeeOther, quizQuestionURL(r.ID, index))
}

// toggleQuizSquare re-renders a squares question with one mark toggled.
func (h *Handler) toggleQuizSquare(c echo.Context, r *store.QuizRound, index int, marked []string, square string) error {
	sq, err := chess.ParseSquare(strings.ToLower(square))
	if err != nil {
		return refuse(http.StatusBadRequest, "quiz.refuse_not_square", "Square", square)
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
	w := h.w(c)
	d, err := h.quizQuestion(w, r, index)
	if err != nil {
		return err
	}
	d.Marked = next
	d.setBoard(w, quizBoard(d.Q.Question, next, false))
	return h.render(c, http.StatusOK, "quiz-question", d)
}

// quizAnswerRequest is the JSON body of an answer.
type quizAnswerRequest struct {
	Index  *int     `json:"index"`
	Answer []string `json:"answer"`
}

// quizAnswerResponse is the JSON reply to an answer. The machine fields
// (answer, key, missed, wrong) hold option keys and square names; the
// words (yourAnswer, keyText, explanation, nextLabel) are in the
// request's language.
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
		return refuse(http.StatusBadRequest, "quiz.refuse_no_index")
	}
	index, err := quizIndex(r, strconv.Itoa(*req.Index))
	if err != nil {
		return err
	}
	g, err := h.rounds.Answer(c.Request().Context(), visitorID(c), r, index, req.Answer)
	if err != nil {
		return roundError(err)
	}
	return quizReply(c, h.w(c), g.Round, g.Q, g.Result, g.Already)
}

// quizReply writes the JSON feedback for one graded answer, its words in w's language.
func quizReply(c echo.Context, w *words.Words, r *store.QuizRound, q *quiz.Question, result quiz.Result, already bool) error {
	next, label := quizNextStep(w, r)
	fb := quizFeedbackFor(w, q, result.Answer, result.Correct, already)
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

// quizReview is one missed question on the result page.
type quizReview struct {
	Number     int
	Q          *quizView
	YourAnswer string
	KeyText    string
	Board      *views.Board
}

// quizResultData is the payload of quiz-result.html.
type quizResultData struct {
	Score, Total int
	Message      words.Message
	Missed       []quizReview
	Scores       []quizScore
	Sparkline    *views.Sparkline
}

// showQuizResult is the end of a round: the score and the missed questions.
func (h *Handler) showQuizResult(c echo.Context, r *store.QuizRound) error {
	w := h.w(c)
	sum := h.rounds.Summarise(r)
	d := quizResultData{Score: sum.Score, Total: sum.Total, Message: sum.Message}
	for _, m := range sum.Missed {
		review := quizReview{Number: m.Number, Q: quizWords(w, m.Q), YourAnswer: quizAnswerText(w, m.Q, m.Answer),
			KeyText: quizAnswerText(w, m.Q, m.Q.Key())}
		var marked []string
		if m.Q.Board() {
			marked = m.Answer
		}
		review.Board = quizBoard(m.Q, marked, true)
		if review.Board != nil {
			review.Board.Size = "diagram"
		}
		d.Missed = append(d.Missed, review)
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
