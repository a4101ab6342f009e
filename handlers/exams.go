package handlers

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/exams"
	"chesstutor/quiz"
	"chesstutor/views"
	"chesstutor/words"
)

// This file serves the steps' exams and certificates (L9). An exam is one
// form of 10 to 12 items drawn by package exams; it names its items in
// hidden fields, so grading needs nothing stored, and a failed try stores
// nothing: retakes are free. A pass is stored per visitor and unlocks the
// step's certificate, a printable page whose name is typed in the page at
// print time and never sent.

// registerExams adds the exam and certificate routes.
func (h *Handler) registerExams(e *echo.Echo) {
	e.GET("/exam/:step", h.showExam)
	e.POST("/exam/:step", h.gradeExam)
	e.GET("/certificate/:step", h.showCertificate)
}

// findStep is the step named in the path, or a 404 in the visitor's words.
func (h *Handler) findStep(c echo.Context) (exams.Step, error) {
	steps := exams.Steps(h.course(c))
	n, err := strconv.Atoi(c.Param("step"))
	if err != nil || n < 1 || n > len(steps) {
		return exams.Step{}, refuse(http.StatusNotFound, "exams.refuse_no_step", "Last", len(steps))
	}
	return steps[n-1], nil
}

// stepTitle is the words of step n's name: exams.step_N_title.
func stepTitle(w *words.Words, n int) string { return w.T(fmt.Sprintf("exams.step_%d_title", n)) }

// stepSkills are the words of what a step teaches (its certificate lists
// them): exams.step_N_skill_1, _2, … for as many as the catalogue has.
func stepSkills(w *words.Words, n int) []string {
	var out []string
	for i := 1; i <= 8; i++ {
		key := fmt.Sprintf("exams.step_%d_skill_%d", n, i)
		if !w.Has(key) {
			break
		}
		out = append(out, w.T(key))
	}
	return out
}

// examItem is one item as the exam page and the result page show it.
type examItem struct {
	N        int
	ID       string
	Kind     exams.Kind
	Field    string // the form field of its answer: a1, a2, …
	Prompt   string
	Moves    string // a draw question's moves
	Help     string // how to answer a typed item
	Board    *views.Board
	Options  []quizOption
	Multiple bool
	Setup    []examSetupField // a Setup item's squares, one field each
	// After grading:
	Graded  bool
	Correct bool
	Typed   string          // what the visitor typed
	Chosen  map[string]bool // the options the visitor chose
	Key     map[string]bool // the right options
	KeyText string
	Reason  string
}

// examSetupField is one square of a Setup item: which piece goes there.
type examSetupField struct {
	Square, Field string
	Choices       []examChoice
	Chosen, Key   string // piece codes ("wQ"), after grading
}

// examChoice is one piece a Setup field offers.
type examChoice struct{ Code, Name string }

// examPage is the payload of views/pages/exam.html: the form, or the
// graded exam.
type examPage struct {
	Step, Steps  int
	Title        string
	Items        []examItem
	Graded       bool
	Score, Total int
	Percent      int
	Passed       bool
	PassPercent  int
	Error        string
}

func (h *Handler) examItemView(w *words.Words, letters chess.Letters, n int, it exams.Item) examItem {
	v := examItem{N: n, ID: it.ID, Kind: it.Kind, Field: "a" + strconv.Itoa(n)}
	diagram := func(pos *chess.Position, flipped bool, hl ...chess.Square) *views.Board {
		b := &views.Board{Pos: pos, Flipped: flipped, Size: "diagram", Attrs: map[string]string{"data-exam-board": it.ID}}
		for _, sq := range hl {
			if sq != chess.NoSquare {
				b.Highlights = append(b.Highlights, sq)
			}
		}
		return b
	}
	switch {
	case it.Q != nil:
		qv := quizWords(w, it.Q)
		v.Prompt, v.Moves, v.Options, v.Multiple = qv.Prompt, qv.Moves, qv.Options, it.Q.Multiple
		if it.Q.Pos != nil {
			v.Board = diagram(it.Q.Pos, it.Q.Kind == quiz.Name && it.Q.Pos.Turn() == chess.Black, it.Q.From)
			if m := it.Q.LastMove; m != chess.NoMove {
				v.Board.Classes = map[chess.Square][]string{m.From(): {"last-move"}, m.To(): {"last-move"}}
			}
		}
	default:
		ex := it.Ex
		v.Prompt = ex.Prompt
		flipped := ex.Pos.Turn() == chess.Black
		if it.Kind == exams.Name {
			flipped = ex.Flipped
		}
		v.Board = diagram(ex.Pos, flipped, ex.From)
	}
	switch it.Kind {
	case exams.Name:
		// The task's own words name the square; the exam marks it instead
		// and asks for its name.
		v.Prompt = w.T("exams.name_prompt")
		v.Board.Highlights = []chess.Square{it.Target()}
		v.Help = w.T("exams.help_name")
	case exams.Squares:
		v.Help = w.T("exams.help_squares")
	case exams.Move:
		v.Help = w.T("exams.help_move")
		if it.FirstMove() {
			v.Help = w.T("exams.help_first_move")
		}
	case exams.Setup:
		v.Prompt = w.T("exams.setup_prompt", "Prompt", it.Ex.Prompt)
		v.Board.Highlights = it.SetupSquares()
		for _, sq := range it.SetupSquares() {
			f := examSetupField{Square: sq.String(), Field: v.Field + "-" + sq.String()}
			for _, p := range it.SetupChoices() {
				f.Choices = append(f.Choices, examChoice{Code: p.String(), Name: w.T("board.piece_" + p.String())})
			}
			v.Setup = append(v.Setup, f)
		}
	}
	return v
}

// examAnswers reads the answers of a posted exam, one list per item: the
// values of its field, or for a Setup item "square=piece" pairs from its
// field per square.
func examAnswers(form map[string][]string, items []exams.Item) [][]string {
	answers := make([][]string, len(items))
	for i, it := range items {
		field := "a" + strconv.Itoa(i+1)
		if it.Kind != exams.Setup {
			answers[i] = form[field]
			continue
		}
		for _, sq := range it.SetupSquares() {
			if v := form[field+"-"+sq.String()]; len(v) > 0 && v[0] != "" {
				answers[i] = append(answers[i], sq.String()+"="+v[0])
			}
		}
	}
	return answers
}

// showExam draws a new exam of the step: every visit is a fresh draw.
func (h *Handler) showExam(c echo.Context) error {
	s, err := h.findStep(c)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	items := exams.Draw(s, h.rounds.Bank(), rng)
	return h.render(c, http.StatusOK, "exam", h.examPageFor(c, s, items))
}

func (h *Handler) examPageFor(c echo.Context, s exams.Step, items []exams.Item) *examPage {
	w := h.w(c)
	page := &examPage{Step: s.N, Steps: len(exams.Steps(h.course(c))), Title: stepTitle(w, s.N), PassPercent: exams.PassPercent}
	for i, it := range items {
		page.Items = append(page.Items, h.examItemView(w, h.typedLetters(c), i+1, it))
	}
	return page
}

// gradeExam grades a posted exam, stores a pass and shows the result. A
// form that is not an exam of this step (tampered, or from an older
// course) is refused in words and sends the visitor to a fresh exam.
func (h *Handler) gradeExam(c echo.Context) error {
	s, err := h.findStep(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return refuse(http.StatusBadRequest, "exams.refuse_bad_exam", "Step", s.N)
	}
	items, err := exams.Read(s, h.rounds.Bank(), form["item"])
	if err != nil {
		return refuse(http.StatusBadRequest, "exams.refuse_bad_exam", "Step", s.N)
	}
	answers := examAnswers(form, items)
	letters := h.typedLetters(c)
	res := exams.GradeAll(items, answers, letters)
	if res.Passed() {
		if err := h.store.RecordExamPass(c.Request().Context(), visitorID(c), s.N, res.Score, res.Total); err != nil {
			return err
		}
	}
	w := h.w(c)
	page := h.examPageFor(c, s, items)
	page.Graded, page.Score, page.Total, page.Percent, page.Passed = true, res.Score, res.Total, res.Percent(), res.Passed()
	shown := h.shownLetters(c)
	for i := range page.Items {
		v, it := &page.Items[i], items[i]
		verdict := res.Verdicts[i]
		v.Graded, v.Correct = true, verdict.Correct
		v.Typed = strings.TrimSpace(strings.Join(answers[i], " "))
		v.Chosen, v.Key = map[string]bool{}, map[string]bool{}
		for _, a := range answers[i] {
			v.Chosen[a] = true
		}
		for _, k := range verdict.Key {
			v.Key[k] = true
		}
		if it.Kind == exams.Setup {
			v.Typed = ""
			chosen, key := pairs(answers[i]), pairs(verdict.Key)
			var parts []string
			for j := range v.Setup {
				f := &v.Setup[j]
				f.Chosen, f.Key = chosen[f.Square], key[f.Square]
				parts = append(parts, w.T("worksheet.answer_piece", "Piece", w.T("board.piece_"+f.Key), "Square", f.Square))
			}
			v.KeyText = strings.Join(parts, w.T("quiz.list_sep"))
			continue
		}
		switch {
		case it.Kind == exams.Choice:
			v.KeyText = quizAnswerText(w, it.Q, verdict.Key)
		case it.Kind == exams.Move:
			var sans []string
			for _, k := range verdict.Key {
				sans = append(sans, shown.Write(k))
			}
			v.KeyText = strings.Join(sans, w.T("quiz.options_sep"))
		default:
			v.KeyText = strings.Join(verdict.Key, w.T("quiz.list_sep"))
		}
		if !verdict.Reason.IsZero() {
			v.Reason = w.Msg(verdict.Reason)
		}
	}
	return h.render(c, http.StatusOK, "exam", page)
}

// pairs reads "square=piece" pairs into a map.
func pairs(values []string) map[string]string {
	out := map[string]string{}
	for _, v := range values {
		if sq, p, ok := strings.Cut(v, "="); ok {
			out[sq] = p
		}
	}
	return out
}

// certificatePage is the payload of views/pages/certificate.html.
type certificatePage struct {
	Step   int
	Title  string
	Skills []string
	Passed bool
	Date   string
	Score  string
}

// showCertificate is the step's certificate once its exam is passed;
// before that, the same address says what to do and links the exam.
func (h *Handler) showCertificate(c echo.Context) error {
	s, err := h.findStep(c)
	if err != nil {
		return err
	}
	passes, err := h.store.ExamPasses(c.Request().Context(), visitorID(c))
	if err != nil {
		return err
	}
	w := h.w(c)
	page := certificatePage{Step: s.N, Title: stepTitle(w, s.N), Skills: stepSkills(w, s.N)}
	if p, ok := passes[s.N]; ok {
		page.Passed, page.Date = true, w.Date(p.PassedAt)
		page.Score = w.T("exams.score_line", "Score", p.Score, "Total", p.Total)
	}
	return h.render(c, http.StatusOK, "certificate", page)
}

// learnSteps groups /learn's rows into the course's steps with their
// stars and exam state.
func (h *Handler) learnSteps(c echo.Context, rows []lessonRow) ([]learnStep, error) {
	passes, err := h.store.ExamPasses(c.Request().Context(), visitorID(c))
	if err != nil {
		return nil, err
	}
	w := h.w(c)
	var out []learnStep
	for _, s := range exams.Steps(h.course(c)) {
		ls := learnStep{N: s.N, Title: stepTitle(w, s.N)}
		for _, r := range rows {
			if s.Has(r.Lesson.Slug) {
				ls.Rows = append(ls.Rows, r)
				ls.Stars += r.Stars
				ls.MaxStars += r.MaxStars
			}
		}
		if p, ok := passes[s.N]; ok {
			ls.Passed, ls.PassedOn = true, w.Date(p.PassedAt)
		}
		out = append(out, ls)
	}
	return out, nil
}
