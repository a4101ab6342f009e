package handlers

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/exams"
	"chesstutor/lessons"
	"chesstutor/store"
)

// registerLessons lists the course routes (L1, L5, L6).
func (h *Handler) registerLessons(e *echo.Echo) {
	e.GET("/learn", h.showLearn)
	e.GET("/learn/:slug", h.showLesson)
	e.POST("/learn/:slug/done", h.markLessonDone)
	e.GET("/rules", h.showRules)
}

// course is the course in the request's language: its words, prompts and
// boards are that language's, its slugs, exercise ids and positions those
// of every language (lessons.Library checks it at start-up).
func (h *Handler) course(c echo.Context) *lessons.Course {
	return h.lessons.In(h.w(c).Lang())
}

// lessonRow is one line of the table of contents.
type lessonRow struct {
	Lesson    *lessons.Lesson
	Done      bool
	Solved    int
	Exercises int
	// Stars and MaxStars are the lesson's stars (X11), filled on /learn.
	Stars, MaxStars int
}

// courseProgress is the visitor's progress through the whole course:
// lessons done (read to the end, or every exercise solved) and exercises
// solved, counted apart so reading shows as progress (L7).
type courseProgress struct {
	Rows                      []lessonRow
	LessonsDone, LessonsTotal int
	Solved, ExercisesTotal    int
	Next                      *lessons.Lesson // first lesson not done yet; nil when all are
}

// lessonDone reports whether a lesson counts as finished: marked as done,
// or every one of its exercises solved.
func lessonDone(r store.ProgressReport, l *lessons.Lesson) (done bool, solved int) {
	for _, ex := range l.Exercises {
		if _, ok := r.Solved[ex.ID]; ok {
			solved++
		}
	}
	_, read := r.LessonsRead[l.Slug]
	return read || (len(l.Exercises) > 0 && solved == len(l.Exercises)), solved
}

// progressFrom sums a progress report over the course. /learn, the home
// page and the lesson page all count through here, so they agree on what
// is done and on what Continue opens (L7).
func progressFrom(course *lessons.Course, report store.ProgressReport) *courseProgress {
	p := &courseProgress{}
	for _, l := range course.Lessons() {
		done, solved := lessonDone(report, l)
		p.Rows = append(p.Rows, lessonRow{Lesson: l, Done: done, Solved: solved, Exercises: len(l.Exercises)})
		p.LessonsTotal++
		p.ExercisesTotal += len(l.Exercises)
		p.Solved += solved
		if done {
			p.LessonsDone++
		} else if p.Next == nil {
			p.Next = l
		}
	}
	return p
}

// homeProgress fills the home page's progress block; nil until the visitor
// has done anything, so a newcomer sees a welcome instead of zeros.
func (h *Handler) homeProgress(c echo.Context, visitor string) (*homeProgress, error) {
	if h.lessons == nil || visitor == "" {
		return nil, nil
	}
	report, err := h.store.VisitorProgress(c.Request().Context(), visitor)
	if err != nil {
		return nil, err
	}
	p := progressFrom(h.course(c), report)
	if p.LessonsDone+p.Solved == 0 {
		return nil, nil
	}
	hp := &homeProgress{LessonsRead: p.LessonsDone, LessonsTotal: p.LessonsTotal,
		Solved: p.Solved, ExercisesTotal: p.ExercisesTotal}
	if p.Next != nil {
		hp.Next = &homeNext{URL: "/learn/" + p.Next.Slug, Label: p.Next.Title}
	}
	return hp, nil
}

// learnPage is what /learn shows: the progress and, right after the
// visitor finished a lesson with its Next button, which one.
type learnPage struct {
	*courseProgress
	JustRead *lessons.Lesson
	Homework *pupilHomework // the homework of the visitor's classes (classes_dashboard.go)
	// Stars and MaxStars are the whole course's stars (X11).
	Stars, MaxStars int
	// Steps are the lessons grouped into steps (L9), each with its
	// stars and its exam's state.
	Steps []learnStep
	// Outside are the lessons in no step (about this site), shown after
	// the steps.
	Outside []lessonRow
}

// learnStep is one step on /learn: its lessons, stars and exam state.
type learnStep struct {
	N               int
	Title           string
	Rows            []lessonRow
	Stars, MaxStars int
	Passed          bool
	PassedOn        string // the first pass's date, in words
}

// showLearn is the table of contents with ticks and the progress bar.
func (h *Handler) showLearn(c echo.Context) error {
	report, err := h.store.VisitorProgress(c.Request().Context(), visitorID(c))
	if err != nil {
		return err
	}
	hw, err := h.homeHomework(c)
	if err != nil {
		return err
	}
	page := learnPage{
		courseProgress: progressFrom(h.course(c), report),
		JustRead:       h.justRead(c, report),
		Homework:       hw,
	}
	solved := make(map[string]bool, len(report.Solved))
	for id := range report.Solved {
		solved[id] = true
	}
	stars, err := h.visitorStars(c, solved) // stars.go
	if err != nil {
		return err
	}
	for i := range page.Rows {
		r := &page.Rows[i]
		r.Stars, r.MaxStars = starCount(stars, r.Lesson.Exercises)
		page.Stars += r.Stars
		page.MaxStars += r.MaxStars
	}
	if page.Steps, err = h.learnSteps(c, page.Rows); err != nil {
		return err
	}
	for _, l := range exams.Outside(h.course(c)) {
		for _, r := range page.Rows {
			if r.Lesson == l {
				page.Outside = append(page.Outside, r)
			}
		}
	}
	return h.render(c, http.StatusOK, "learn", page)
}

// justRead is the lesson named by ?from= when the visitor has really
// finished it: the page after the Next button says so (a small
// celebration), and a hand-typed address claims nothing.
func (h *Handler) justRead(c echo.Context, r store.ProgressReport) *lessons.Lesson {
	l, ok := h.course(c).Lesson(c.QueryParam("from"))
	if !ok {
		return nil
	}
	if done, _ := lessonDone(r, l); !done {
		return nil
	}
	return l
}

// lessonPage is what a lesson page shows.
type lessonPage struct {
	Lesson        *lessons.Lesson
	Number, Total int
	Done          bool
	Solved        int
	PracticeURL   string          // "" when the lesson has no exercises
	How           string          // the key of the sentence saying what its exercises ask (practiceHow)
	JustRead      *lessons.Lesson // the lesson finished by the Next button that led here
}

// practiceHow is the catalogue key of the sentence that says what a
// lesson's exercises ask, by the kinds it has: lesson.how_ and the kinds
// in the order name, squares, move, setup, undefended ("lesson.how_squares_move").
func practiceHow(l *lessons.Lesson) string {
	has := map[lessons.Kind]bool{}
	for _, ex := range l.Exercises {
		has[ex.Kind] = true
	}
	var kinds []string
	for _, k := range []lessons.Kind{lessons.KindName, lessons.KindSquares, lessons.KindMove, lessons.KindSetup, lessons.KindUndefended} {
		if has[k] {
			kinds = append(kinds, string(k))
		}
	}
	return "lesson.how_" + strings.Join(kinds, "_")
}

func (h *Handler) findLesson(c echo.Context) (*lessons.Lesson, error) {
	l, ok := h.course(c).Lesson(c.Param("slug"))
	if !ok {
		return nil, refuse(http.StatusNotFound, "lesson.not_found")
	}
	return l, nil
}

// showLesson renders one lesson with its navigation and progress.
func (h *Handler) showLesson(c echo.Context) error {
	l, err := h.findLesson(c)
	if err != nil {
		return err
	}
	report, err := h.store.VisitorProgress(c.Request().Context(), visitorID(c))
	if err != nil {
		return err
	}
	done, solved := lessonDone(report, l)
	all := h.course(c).Lessons()
	page := lessonPage{Lesson: l, Number: 1, Total: len(all), Done: done, Solved: solved, JustRead: h.justRead(c, report)}
	for i, other := range all {
		if other == l {
			page.Number = i + 1
		}
	}
	if len(l.Exercises) > 0 {
		page.PracticeURL = "/learn/" + l.Slug + "/practice"
		page.How = practiceHow(l)
	}
	return h.render(c, http.StatusOK, "lesson", page)
}

// markLessonDone records the lesson as read and goes on: the lesson's
// primary Next button is this form (L7), so reaching the end and going on
// is what finishes a lesson. A plain form post, CSRF-checked by the
// middleware; posting it again changes nothing and lands on the same page.
func (h *Handler) markLessonDone(c echo.Context) error {
	l, err := h.findLesson(c)
	if err != nil {
		return err
	}
	if err := h.store.MarkLessonRead(c.Request().Context(), visitorID(c), l.Slug); err != nil {
		return err
	}
	target := "/learn"
	if l.Next != nil {
		target = "/learn/" + l.Next.Slug
	}
	return c.Redirect(http.StatusSeeOther, target+"?from="+url.QueryEscape(l.Slug))
}

// rulesPage is the one-page rules reference, and the glossary.
type rulesPage struct {
	Title       string
	Description string // the page's meta description
	Body        any
}

// showRules renders the rules reference (written in lessons/<lang>/rules.md).
func (h *Handler) showRules(c echo.Context) error {
	course := h.course(c)
	return h.render(c, http.StatusOK, "rules", rulesPage{Title: course.RulesTitle(), Description: course.RulesSummary(), Body: course.Rules()})
}
