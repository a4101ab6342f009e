package handlers

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/chess/engine"
	"chesstutor/classes"
	"chesstutor/lessons"
	"chesstutor/puzzles"
	"chesstutor/quiz"
	"chesstutor/store"
	"chesstutor/words"
)

// The teacher's dashboard (T3), the join sheet (T1), homework as the
// teacher and the pupils see it (T4), and the CSV. Every figure comes
// from work the server checked (lessons read, exercises graded, quiz
// answers graded, games played on the server) except the trainer's best,
// which the page's script posts: it is labelled as the pupil's own
// report everywhere it is shown (issue 33, point 7).

// stuckAfter is how many wrong tries on one exercise, still unsolved,
// mark a pupil as stuck.
const stuckAfter = 5

// pupilRow is one row of the dashboard (data-student). New columns
// (stars, puzzles) are a field here, a cell in the row's template, a key
// in sortKeys and a column of the CSV.
type pupilRow struct {
	ID, Nickname  string
	LessonsDone   int
	Squares       int // "click every square" exercises solved
	Moves         int // "play the move" exercises solved
	QuizBest      int
	QuizTotal     int
	QuizRounds    int
	Missed        []words.Message // the quiz topics missed most, at most two
	MissedTopics  []string
	TrainerBest   int // self-reported: posted by the trainer page's script
	Played, Won   int
	BestLevel     int // -1: none beaten
	Stars         int // stars earned over the course's exercises, as /learn counts them
	PuzzlesSolved int // puzzles solved at the first attempt
	PuzzlesFailed int // puzzles failed at the first attempt
	PuzzleRating  int // the pupil's puzzle rating, rounded; 0: no puzzle tried
	LastActive    time.Time
	Stuck         []stuckMark
	HomeworkDone  int // homework sets finished
	LessonsByslug map[string]bool
	work          store.Work
}

// stuckMark is an exercise a pupil keeps missing.
type stuckMark struct {
	ID, Label string
	Wrong     int
}

// lessonColumn is a lesson with the pupils who finished it.
type lessonColumn struct {
	Slug, Title string
	Finished    []string // nicknames
}

// lessonDetail is one lesson's exercises, pupil by pupil (on demand,
// ?lesson=slug).
type lessonDetail struct {
	Lesson    *lessons.Lesson
	Exercises []detailExercise
	Rows      []detailRow
}

type detailExercise struct {
	ID, Label, URL string
}

type detailRow struct {
	Nickname string
	Cells    []detailCell
}

type detailCell struct {
	Solved bool
	Wrong  int
}

// homeworkView is one homework as the dashboard and the pupils show it.
type homeworkView struct {
	ID        string
	ClassName string
	Due       string // the date in the visitor's words, or ""
	Overdue   bool
	Items     []homeworkItem
	DoneBy    []string // nicknames of the pupils who finished all of it
	Done      bool     // for a pupil: every item done
	DoneCount int      // items done, for a pupil
}

// homeworkItem is one task of a homework.
type homeworkItem struct {
	Code, Label, URL string
	Done             bool // for a pupil
	DoneBy           int  // for the teacher: how many pupils did it
}

// dashboardPage is the teacher link's page.
type dashboardPage struct {
	Class       *store.Class
	TeacherURL  string // absolute, to copy or open on another device
	Path        string // the teacher link's path
	JoinURL     string // absolute /join?code=…
	JoinAddress string // host and /join, as the sheet prints it
	Rows        []pupilRow
	Lessons     []lessonColumn
	Detail      *lessonDetail
	Homework    []homeworkView
	Sort, Dir   string
	Columns     []sortColumn
	New         bool
	Rotated     bool
	Remembered  bool
	Confirm     bool
	Error       words.Message
	Choices     homeworkChoices
	MaxPupils   int
	StuckAfter  int
	Levels      []int
	Cards       []int // the join sheet's cards to cut out
}

// sortColumn is a heading of the pupils' table: a link that sorts by it.
type sortColumn struct {
	Key           string
	Label         words.Message
	URL           string
	Current, Desc bool
}

// tableColumns are the pupils' table's sortable headings, in order.
var tableColumns = []struct {
	key   string
	label words.Message
}{
	{"nickname", words.M("classes.col_nickname")},
	{"lessons", words.M("classes.col_lessons")},
	{"squares", words.M("classes.col_squares")},
	{"moves", words.M("classes.col_moves")},
	{"quiz", words.M("classes.col_quiz")},
	{"trainer", words.M("classes.col_trainer_mark")},
	{"games", words.M("classes.col_games_won")},
	{"level", words.M("classes.col_level")},
	{"stars", words.M("classes.col_stars")},
	{"puzzles", words.M("classes.col_puzzles")},
	{"rating", words.M("classes.col_puzzle_rating")},
	{"homework", words.M("classes.col_homework")},
	{"active", words.M("classes.col_active")},
}

// csvColumns head the CSV's columns.
var csvColumns = []words.Message{
	words.M("classes.col_nickname"), words.M("classes.col_lessons"), words.M("classes.col_squares"),
	words.M("classes.col_moves"), words.M("classes.col_quiz"), words.M("classes.col_quiz_missed"),
	words.M("classes.col_trainer"), words.M("classes.col_games"), words.M("classes.col_won"),
	words.M("classes.col_level"), words.M("classes.col_stars"), words.M("classes.col_puzzles_solved"),
	words.M("classes.col_puzzles_failed"), words.M("classes.col_puzzle_rating"),
	words.M("classes.col_homework"), words.M("classes.col_stuck"),
	words.M("classes.col_active"),
}

// homeworkChoices are what the homework form offers.
type homeworkChoices struct {
	Lessons      []*lessons.Lesson
	Topics       []topicChoice
	PuzzleThemes []themeChoice
	MaxPuzzles   int
}

type topicChoice struct {
	Topic string
	Title words.Message
}

// sortKeys are the dashboard's sortable columns and how each compares
// two rows (ascending).
var sortKeys = map[string]func(a, b pupilRow) int{
	"nickname": func(a, b pupilRow) int { return cmp.Compare(strings.ToLower(a.Nickname), strings.ToLower(b.Nickname)) },
	"lessons":  func(a, b pupilRow) int { return cmp.Compare(a.LessonsDone, b.LessonsDone) },
	"squares":  func(a, b pupilRow) int { return cmp.Compare(a.Squares, b.Squares) },
	"moves":    func(a, b pupilRow) int { return cmp.Compare(a.Moves, b.Moves) },
	"quiz":     func(a, b pupilRow) int { return cmp.Compare(a.QuizBest, b.QuizBest) },
	"trainer":  func(a, b pupilRow) int { return cmp.Compare(a.TrainerBest, b.TrainerBest) },
	"games":    func(a, b pupilRow) int { return cmp.Compare(a.Won, b.Won) },
	"level":    func(a, b pupilRow) int { return cmp.Compare(a.BestLevel, b.BestLevel) },
	"stars":    func(a, b pupilRow) int { return cmp.Compare(a.Stars, b.Stars) },
	"puzzles":  func(a, b pupilRow) int { return cmp.Compare(a.PuzzlesSolved, b.PuzzlesSolved) },
	"rating":   func(a, b pupilRow) int { return cmp.Compare(a.PuzzleRating, b.PuzzleRating) },
	"homework": func(a, b pupilRow) int { return cmp.Compare(a.HomeworkDone, b.HomeworkDone) },
	"active":   func(a, b pupilRow) int { return a.LastActive.Compare(b.LastActive) },
}

// classView reads the class's report and homework and builds the rows.
func (h *Handler) classView(c echo.Context, cl *store.Class) ([]pupilRow, []homeworkView, error) {
	ctx := c.Request().Context()
	report, err := h.store.ClassReport(ctx, cl.ID)
	if err != nil {
		return nil, nil, err
	}
	hws, err := h.store.ClassHomework(ctx, []string{cl.ID})
	if err != nil {
		return nil, nil, err
	}
	course := h.course(c)
	views := make([]homeworkView, len(hws))
	for i, hw := range hws {
		views[i] = h.homeworkView(c, cl.Name, hw)
	}
	rows := make([]pupilRow, len(report))
	for i, r := range report {
		row := h.pupilRow(course, r.Work)
		row.ID, row.Nickname = r.ID, r.Nickname
		for j, hw := range hws {
			all := true
			for k, code := range hw.Items {
				if h.itemDone(course, code, r.Work) {
					views[j].Items[k].DoneBy++
				} else {
					all = false
				}
			}
			if all {
				views[j].DoneBy = append(views[j].DoneBy, r.Nickname)
				row.HomeworkDone++
			}
		}
		for _, m := range row.MissedTopics {
			row.Missed = append(row.Missed, quiz.TopicTitle(m))
		}
		rows[i] = row
	}
	return rows, views, nil
}

// pupilRow sums one pupil's work over the course.
func (h *Handler) pupilRow(course *lessons.Course, work store.Work) pupilRow {
	row := pupilRow{QuizBest: work.QuizBest, QuizTotal: work.QuizTotal, QuizRounds: work.QuizRounds,
		TrainerBest: work.TrainerBest, Played: work.Played, Won: work.Won, BestLevel: work.BestLevel,
		LastActive: work.LastActive, LessonsByslug: map[string]bool{}, work: work}
	report := store.ProgressReport{LessonsRead: work.LessonsRead, Solved: work.Solved}
	stars := exerciseStars(maps.Keys(work.Solved), work.Tries) // stars.go
	for _, l := range course.Lessons() {
		got, _ := starCount(stars, l.Exercises)
		row.Stars += got
		if done, _ := lessonDone(report, l); done {
			row.LessonsDone++
			row.LessonsByslug[l.Slug] = true
		}
	}
	for id := range work.Solved {
		ex, ok := course.Exercise(id)
		switch {
		case !ok:
		case ex.Kind == lessons.KindMove:
			row.Moves++
		default:
			row.Squares++
		}
	}
	for id, n := range work.Misses {
		if ex, ok := course.Exercise(id); ok && n >= stuckAfter {
			row.Stuck = append(row.Stuck, stuckMark{ID: id, Label: exerciseLabel(course, ex), Wrong: n})
		}
	}
	slices.SortFunc(row.Stuck, func(a, b stuckMark) int { return cmp.Compare(b.Wrong, a.Wrong) })
	for _, solved := range work.Puzzles {
		if solved {
			row.PuzzlesSolved++
		} else {
			row.PuzzlesFailed++
		}
	}
	if len(work.Puzzles) > 0 {
		row.PuzzleRating = int(math.Round(work.PuzzleRating))
	}
	row.MissedTopics = missedTopics(h.rounds, work.QuizWrong)
	return row
}

// missedTopics are the quiz topics of the questions a pupil answered
// wrong most often, at most two, the most missed first.
func missedTopics(rs interface{ Bank() *quiz.Bank }, wrong map[string]int) []string {
	if rs == nil || len(wrong) == 0 {
		return nil
	}
	count := map[string]int{}
	for id, n := range wrong {
		if q, ok := rs.Bank().Question(id); ok {
			count[q.Topic] += n
		}
	}
	topics := make([]string, 0, len(count))
	for t := range count {
		topics = append(topics, t)
	}
	slices.SortFunc(topics, func(a, b string) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b))
	})
	return topics[:min(2, len(topics))]
}

// exerciseLabel names an exercise for the teacher: its lesson and its
// number there.
func exerciseLabel(course *lessons.Course, ex *lessons.Exercise) string {
	l, ok := course.Lesson(ex.Lesson)
	if !ok {
		return ex.ID
	}
	for i, e := range l.Exercises {
		if e.ID == ex.ID {
			return l.Title + " · " + strconv.Itoa(i+1)
		}
	}
	return l.Title
}

// itemDone reports whether a pupil's work finishes one homework item.
func (h *Handler) itemDone(course *lessons.Course, code string, work store.Work) bool {
	kind, value, _ := strings.Cut(code, ":")
	switch kind {
	case "lesson":
		l, ok := course.Lesson(value)
		if !ok {
			return false
		}
		done, _ := lessonDone(store.ProgressReport{LessonsRead: work.LessonsRead, Solved: work.Solved}, l)
		return done
	case "exercise":
		_, ok := work.Solved[value]
		return ok
	case "level":
		n, err := strconv.Atoi(value)
		return err == nil && work.BestLevel >= n
	case "quiz":
		// A topic is done when the pupil's latest answers to three of its
		// questions (or all, when it has fewer) were right.
		if h.rounds == nil {
			return false
		}
		size, right := 0, 0
		for _, q := range h.rounds.Bank().Questions() {
			if q.Topic == value {
				size++
				if work.QuizRight[q.ID] {
					right++
				}
			}
		}
		return size > 0 && right >= min(3, size)
	case "puzzles":
		// Puzzles solved at the first attempt, of the theme when one is
		// given; those solved before the homework count too, as lessons do.
		want, theme, ok := puzzleItem(value)
		if !ok || h.puzzles == nil {
			return false
		}
		n := 0
		for id, solved := range work.Puzzles {
			if !solved {
				continue
			}
			if theme != "" {
				if p, err := h.puzzles.Set().Get(id); err != nil || !p.Has(theme) {
					continue
				}
			}
			n++
		}
		return n >= want
	}
	return false
}

// maxHomeworkPuzzles bounds "solve N puzzles".
const maxHomeworkPuzzles = 100

// puzzleItem reads a "puzzles" item's value: "<n>" or "<n>:<theme>".
func puzzleItem(value string) (n int, theme puzzles.Theme, ok bool) {
	count, t, _ := strings.Cut(value, ":")
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 || n > maxHomeworkPuzzles {
		return 0, "", false
	}
	if t != "" && !slices.Contains(puzzles.AllThemes, puzzles.Theme(t)) {
		return 0, "", false
	}
	return n, puzzles.Theme(t), true
}

// homeworkView words a homework's items in the visitor's language.
func (h *Handler) homeworkView(c echo.Context, className string, hw store.Homework) homeworkView {
	w := h.w(c)
	course := h.course(c)
	v := homeworkView{ID: hw.ID, ClassName: className}
	if hw.Due != "" {
		if d, err := time.Parse(time.DateOnly, hw.Due); err == nil {
			v.Due = w.Date(d)
			v.Overdue = h.now().After(d.Add(24 * time.Hour))
		}
	}
	for _, code := range hw.Items {
		kind, value, _ := strings.Cut(code, ":")
		it := homeworkItem{Code: code}
		switch kind {
		case "lesson":
			if l, ok := course.Lesson(value); ok {
				it.Label, it.URL = w.T("classes.item_lesson", "Lesson", l.Title), "/learn/"+l.Slug
			}
		case "exercise":
			if ex, ok := course.Exercise(value); ok {
				it.Label = w.T("classes.item_exercise", "Exercise", exerciseLabel(course, ex))
				it.URL = "/learn/" + ex.Lesson + "/practice?ex=" + url.QueryEscape(ex.ID)
			}
		case "level":
			it.Label, it.URL = w.T("classes.item_level", "Level", value), "/play"
		case "quiz":
			it.Label, it.URL = w.T("classes.item_quiz", "Topic", w.Msg(quiz.TopicTitle(value))), "/quiz"
		case "puzzles":
			if n, theme, ok := puzzleItem(value); ok && theme == "" {
				it.Label, it.URL = w.T("classes.item_puzzles", "Count", n), "/puzzles"
			} else if ok {
				it.Label = w.T("classes.item_puzzles_theme", "Count", n, "Theme", themeName(w, theme))
				it.URL = "/puzzles?theme=" + url.QueryEscape(string(theme))
			}
		}
		if it.Label == "" {
			it.Label = code // a lesson removed from the course since
		}
		v.Items = append(v.Items, it)
	}
	return v
}

// ----- the dashboard page -----

func (h *Handler) showDashboard(c echo.Context) error {
	cl, secret, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	return h.renderDashboard(c, cl, secret, http.StatusOK, words.Message{})
}

func (h *Handler) renderDashboard(c echo.Context, cl *store.Class, secret string, status int, msg words.Message) error {
	rows, hws, err := h.classView(c, cl)
	if err != nil {
		return err
	}
	course := h.course(c)
	p := dashboardPage{Class: cl, Path: teacherPath(secret), TeacherURL: siteURL(c, teacherPath(secret), ""),
		JoinURL: siteURL(c, "/join", "code="+cl.JoinCode), JoinAddress: c.Request().Host + "/join",
		Homework: hws, Error: msg, MaxPupils: classes.MaxPupils, StuckAfter: stuckAfter,
		New: c.QueryParam("new") == "1", Rotated: c.QueryParam("rotated") == "1", Confirm: c.QueryParam("confirm") == "delete"}
	for l := engine.MinLevel; l <= engine.MaxLevel; l++ {
		p.Levels = append(p.Levels, l)
	}
	p.Choices.Lessons = course.Lessons()
	for _, t := range quiz.Topics {
		p.Choices.Topics = append(p.Choices.Topics, topicChoice{Topic: t, Title: quiz.TopicTitle(t)})
	}
	p.Choices.MaxPuzzles = maxHomeworkPuzzles
	for _, t := range puzzles.AllThemes {
		p.Choices.PuzzleThemes = append(p.Choices.PuzzleThemes, themeChoice{Theme: string(t), Name: themeName(h.w(c), t)}) // puzzles.go
	}
	p.Sort, p.Dir = c.QueryParam("sort"), c.QueryParam("dir")
	if by, ok := sortKeys[p.Sort]; ok {
		slices.SortStableFunc(rows, by)
		if p.Dir == "desc" {
			slices.Reverse(rows)
		}
	} else {
		p.Sort = ""
	}
	for _, col := range tableColumns {
		sc := sortColumn{Key: col.key, Label: col.label, Current: col.key == p.Sort, Desc: col.key == p.Sort && p.Dir == "desc"}
		dir := "asc"
		if sc.Current && !sc.Desc {
			dir = "desc"
		}
		sc.URL = p.Path + "?" + url.Values{"sort": {col.key}, "dir": {dir}}.Encode() + "#pupils"
		p.Columns = append(p.Columns, sc)
	}
	p.Rows = rows
	for _, l := range course.Lessons() {
		col := lessonColumn{Slug: l.Slug, Title: l.Title}
		for _, r := range rows {
			if r.LessonsByslug[l.Slug] {
				col.Finished = append(col.Finished, r.Nickname)
			}
		}
		p.Lessons = append(p.Lessons, col)
	}
	if l, ok := course.Lesson(c.QueryParam("lesson")); ok {
		d := &lessonDetail{Lesson: l}
		for i, ex := range l.Exercises {
			d.Exercises = append(d.Exercises, detailExercise{ID: ex.ID, Label: strconv.Itoa(i + 1),
				URL: "/learn/" + l.Slug + "/practice?ex=" + url.QueryEscape(ex.ID)})
		}
		for _, r := range rows {
			dr := detailRow{Nickname: r.Nickname}
			for _, ex := range l.Exercises {
				_, solved := r.work.Solved[ex.ID]
				dr.Cells = append(dr.Cells, detailCell{Solved: solved, Wrong: r.work.Misses[ex.ID]})
			}
			d.Rows = append(d.Rows, dr)
		}
		p.Detail = d
	}
	if !freshVisitor(c) {
		list, err := h.store.RememberedClasses(c.Request().Context(), visitorID(c))
		if err != nil {
			return err
		}
		for _, r := range list {
			p.Remembered = p.Remembered || (r.ID == cl.ID && r.Secret == secret)
		}
	}
	return h.render(c, status, "dashboard", p)
}

// showJoinSheet is the printable join sheet: the code, the address, the
// QR code and cards to cut out.
func (h *Handler) showJoinSheet(c echo.Context) error {
	cl, secret, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	return h.render(c, http.StatusOK, "join-sheet", dashboardPage{Class: cl, Path: teacherPath(secret),
		JoinURL: siteURL(c, "/join", "code="+cl.JoinCode), JoinAddress: c.Request().Host + "/join", Cards: make([]int, 8)})
}

// ----- the JSON and CSV -----

// pupilJSON is a pupil in GET /api/teach/{secret}.
type pupilJSON struct {
	ID               string   `json:"id"`
	Nickname         string   `json:"nickname"`
	LessonsDone      int      `json:"lessons_done"`
	ExercisesSolved  int      `json:"exercises_solved"`
	MovesSolved      int      `json:"move_exercises_solved"`
	QuizBest         int      `json:"quiz_best"`
	QuizTotal        int      `json:"quiz_total"`
	QuizRounds       int      `json:"quiz_rounds"`
	QuizMissedTopics []string `json:"quiz_missed_topics"`
	TrainerBest      int      `json:"trainer_best"`
	// TrainerSelfReported: the trainer's score is posted by the page's
	// script, not judged answer by answer on the server.
	TrainerSelfReported bool     `json:"trainer_self_reported"`
	GamesPlayed         int      `json:"games_played"`
	GamesWon            int      `json:"games_won"`
	BestLevelBeaten     *int     `json:"best_level_beaten"`
	Stars               int      `json:"stars"`
	PuzzlesSolved       int      `json:"puzzles_solved"`
	PuzzlesFailed       int      `json:"puzzles_failed"`
	PuzzleRating        *int     `json:"puzzle_rating"` // null: no puzzle tried
	LastActive          *string  `json:"last_active"`
	Stuck               []string `json:"stuck"`
	HomeworkDone        int      `json:"homework_done"`
}

// homeworkJSON is a homework in the API.
type homeworkJSON struct {
	ID     string   `json:"id"`
	Class  string   `json:"class,omitempty"`
	Items  []string `json:"items"`
	Due    string   `json:"due"`
	DoneBy []string `json:"done_by,omitempty"` // the teacher's view: nicknames
	Done   []string `json:"done,omitempty"`    // the pupil's view: items done
}

// dashboardJSON answers GET /api/teach/{secret}.
type dashboardJSON struct {
	Class    classJSON      `json:"class"`
	Students []pupilJSON    `json:"students"`
	Homework []homeworkJSON `json:"homework"`
}

func (h *Handler) dashboardAPI(c echo.Context) error {
	cl, secret, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	rows, hws, err := h.classView(c, cl)
	if err != nil {
		return err
	}
	out := dashboardJSON{Class: classJSON{ID: cl.ID, Name: cl.Name, JoinCode: cl.JoinCode, TeacherURL: teacherPath(secret),
		JoinURL: "/join?code=" + cl.JoinCode}, Students: []pupilJSON{}, Homework: []homeworkJSON{}}
	for _, r := range rows {
		p := pupilJSON{ID: r.ID, Nickname: r.Nickname, LessonsDone: r.LessonsDone, ExercisesSolved: r.Squares,
			MovesSolved: r.Moves, QuizBest: r.QuizBest, QuizTotal: r.QuizTotal, QuizRounds: r.QuizRounds,
			QuizMissedTopics: append([]string{}, r.MissedTopics...), TrainerBest: r.TrainerBest, TrainerSelfReported: true,
			GamesPlayed: r.Played, GamesWon: r.Won, Stuck: []string{}, HomeworkDone: r.HomeworkDone,
			Stars: r.Stars, PuzzlesSolved: r.PuzzlesSolved, PuzzlesFailed: r.PuzzlesFailed}
		if r.BestLevel >= 0 {
			p.BestLevelBeaten = &r.BestLevel
		}
		if r.PuzzlesSolved+r.PuzzlesFailed > 0 {
			p.PuzzleRating = &r.PuzzleRating
		}
		if !r.LastActive.IsZero() {
			s := r.LastActive.UTC().Format(time.RFC3339)
			p.LastActive = &s
		}
		for _, s := range r.Stuck {
			p.Stuck = append(p.Stuck, s.ID)
		}
		out.Students = append(out.Students, p)
	}
	list, err := h.store.ClassHomework(c.Request().Context(), []string{cl.ID})
	if err != nil {
		return err
	}
	for i, hw := range list {
		out.Homework = append(out.Homework, homeworkJSON{ID: hw.ID, Items: hw.Items, Due: hw.Due,
			DoneBy: append([]string{}, hws[i].DoneBy...)})
	}
	return c.JSON(http.StatusOK, out)
}

// downloadClassCSV is the dashboard as a spreadsheet, headed in the
// teacher's language.
func (h *Handler) downloadClassCSV(c echo.Context) error {
	cl, _, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	rows, _, err := h.classView(c, cl)
	if err != nil {
		return err
	}
	w := h.w(c)
	var buf bytes.Buffer
	buf.WriteString("\ufeff") // spreadsheets read UTF-8 with a BOM
	cw := csv.NewWriter(&buf)
	head := make([]string, len(csvColumns))
	for i, m := range csvColumns {
		head[i] = w.Msg(m)
	}
	cw.Write(head)
	for _, r := range rows {
		missed := make([]string, len(r.Missed))
		for i, m := range r.Missed {
			missed[i] = w.Msg(m)
		}
		stuck := make([]string, len(r.Stuck))
		for i, s := range r.Stuck {
			stuck[i] = s.Label
		}
		level, active, quizBest, rating := "", "", "", ""
		if r.PuzzlesSolved+r.PuzzlesFailed > 0 {
			rating = strconv.Itoa(r.PuzzleRating)
		}
		if r.BestLevel >= 0 {
			level = strconv.Itoa(r.BestLevel)
		}
		if !r.LastActive.IsZero() {
			active = r.LastActive.UTC().Format(time.DateOnly)
		}
		if r.QuizRounds > 0 {
			quizBest = strconv.Itoa(r.QuizBest) + "/" + strconv.Itoa(r.QuizTotal)
		}
		cw.Write([]string{csvCell(r.Nickname), strconv.Itoa(r.LessonsDone), strconv.Itoa(r.Squares), strconv.Itoa(r.Moves),
			quizBest, strings.Join(missed, "; "), strconv.Itoa(r.TrainerBest), strconv.Itoa(r.Played), strconv.Itoa(r.Won),
			level, strconv.Itoa(r.Stars), strconv.Itoa(r.PuzzlesSolved), strconv.Itoa(r.PuzzlesFailed), rating,
			strconv.Itoa(r.HomeworkDone), csvCell(strings.Join(stuck, "; ")), active})
	}
	cw.Flush()
	hd := c.Response().Header()
	hd.Set("Content-Disposition", `attachment; filename="class-`+cl.JoinCode+`.csv"`)
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

// csvCell keeps a cell from being read as a formula by a spreadsheet.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// ----- a pupil's homework: the home page, /learn and /api/me -----

// pupilHomework is the homework of every class the visitor is in, for
// the home page and /learn (data-homework).
type pupilHomework struct {
	Sets []homeworkView
}

// visitorHomework reads the visitor's classes, their homework and the
// visitor's work; nil when the visitor is in no class.
func (h *Handler) visitorHomework(c echo.Context) (*pupilHomework, []store.Membership, []store.Homework, error) {
	if freshVisitor(c) || visitorID(c) == "" || h.lessons == nil {
		return nil, nil, nil, nil
	}
	ctx := c.Request().Context()
	ms, err := h.store.VisitorClasses(ctx, visitorID(c))
	if err != nil || len(ms) == 0 {
		return nil, ms, nil, err
	}
	names := map[string]string{}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i], names[m.Class.ID] = m.Class.ID, m.Class.Name
	}
	hws, err := h.store.ClassHomework(ctx, ids)
	if err != nil || len(hws) == 0 {
		return nil, ms, hws, err
	}
	work, err := h.store.PupilWork(ctx, visitorID(c))
	if err != nil {
		return nil, ms, hws, err
	}
	course := h.course(c)
	p := &pupilHomework{}
	for _, hw := range hws {
		v := h.homeworkView(c, names[hw.ClassID], hw)
		for i, code := range hw.Items {
			if h.itemDone(course, code, work) {
				v.Items[i].Done = true
				v.DoneCount++
			}
		}
		v.Done = v.DoneCount == len(v.Items)
		p.Sets = append(p.Sets, v)
	}
	return p, ms, hws, nil
}

// homeHomework is the home page's and /learn's homework block (nil: none).
func (h *Handler) homeHomework(c echo.Context) (*pupilHomework, error) {
	p, _, _, err := h.visitorHomework(c)
	return p, err
}

// myClassJSON is a class in GET /api/me (and the join's answer).
type myClassJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Nickname string `json:"nickname"`
	JoinedAt string `json:"joined_at"`
}

// myClasses is GET /api/me's classes and homework.
func (h *Handler) myClasses(c echo.Context) ([]myClassJSON, []homeworkJSON, error) {
	p, ms, hws, err := h.visitorHomework(c)
	if err != nil {
		return nil, nil, err
	}
	cls, hw := []myClassJSON{}, []homeworkJSON{}
	for _, m := range ms {
		cls = append(cls, myClassJSON{ID: m.Class.ID, Name: m.Class.Name, Nickname: m.Nickname, JoinedAt: m.JoinedAt.UTC().Format(time.RFC3339)})
	}
	for i, x := range hws {
		j := homeworkJSON{ID: x.ID, Class: x.ClassID, Items: x.Items, Due: x.Due, Done: []string{}}
		if p != nil {
			for k, it := range p.Sets[i].Items {
				if it.Done {
					j.Done = append(j.Done, x.Items[k])
				}
			}
		}
		hw = append(hw, j)
	}
	return cls, hw, nil
}
