package handlers

import (
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"chesstutor/lessons"
	"chesstutor/words"
)

// lessonClient is one visitor browsing the course through httptest.
type lessonClient struct {
	*siteVisitor
	t      *testing.T
	course *lessons.Course
}

func newLessonClient(t *testing.T) *lessonClient {
	t.Helper()
	s := newSite(t, siteOptions{})
	return &lessonClient{siteVisitor: s.visitor(t), t: t, course: s.course}
}

func (c *lessonClient) get(target string, want int) string {
	c.t.Helper()
	rec := c.do(http.MethodGet, target, "", "")
	if rec.Code != want {
		c.t.Fatalf("GET %s = %d, want %d: %.300s", target, rec.Code, want, rec.Body)
	}
	return rec.Body.String()
}

func (c *lessonClient) markDone(slug string) *httptest.ResponseRecorder {
	c.t.Helper()
	return c.form("/learn/"+slug+"/done", url.Values{})
}

func TestLearnPagesAndProgress(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	learn := c.get("/learn", http.StatusOK)
	all := c.course.Lessons()
	if got := strings.Count(learn, `class="toc-item`); got != len(all) {
		t.Fatalf("table of contents lists %d lessons, want %d", got, len(all))
	}
	if strings.Contains(learn, "data-done") {
		t.Fatal("a new visitor already has a ticked lesson")
	}

	first := c.get("/learn/"+all[0].Slug, http.StatusOK)
	for _, want := range []string{"data-board", `rel="next" href="/learn/` + all[1].Slug + `"`, `action="/learn/` + all[0].Slug + `/done"`, "lesson.css"} {
		if !strings.Contains(first, want) {
			t.Errorf("lesson 1 lacks %q", want)
		}
	}
	c.get("/learn/no-such-lesson", http.StatusNotFound)

	// Mark as done needs the CSRF token.
	rec := c.do(http.MethodPost, "/learn/"+all[0].Slug+"/done", "application/x-www-form-urlencoded", "")
	if rec.Code != http.StatusForbidden {
		t.Errorf("mark done without token = %d, want 403", rec.Code)
	}
	wantNext := "/learn/" + all[1].Slug + "?from=" + all[0].Slug
	rec = c.markDone(all[0].Slug)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != wantNext {
		t.Fatalf("mark done = %d to %q, want 303 to %s", rec.Code, rec.Header().Get("Location"), wantNext)
	}
	// Twice (a reload, a double click) changes nothing and goes to the same place.
	if rec := c.markDone(all[0].Slug); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != wantNext {
		t.Fatalf("mark done again = %d to %q, want 303 to %s", rec.Code, rec.Header().Get("Location"), wantNext)
	}
	if next := c.get(wantNext, http.StatusOK); !strings.Contains(next, `data-just-read="`+all[0].Slug+`"`) {
		t.Error("the lesson after Next does not say the previous one is done")
	}
	// ?from= names only lessons that are really done.
	if page := c.get("/learn/"+all[3].Slug+"?from="+all[2].Slug, http.StatusOK); strings.Contains(page, "data-just-read") {
		t.Error("?from= of an unread lesson claims it is done")
	}

	// Solving every exercise of a lesson ticks it off by itself.
	rook, _ := c.course.Lesson("rook")
	for _, ex := range rook.Exercises {
		var names []string
		for _, sq := range ex.Pos.Destinations(ex.From) {
			names = append(names, `"`+sq.String()+`"`)
		}
		rec := c.do(http.MethodPost, "/api/exercises/"+ex.ID+"/check", "application/json",
			`{"squares":[`+strings.Join(names, ",")+`]}`)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"correct":true`) {
			t.Fatalf("solving %s = %d %s", ex.ID, rec.Code, rec.Body)
		}
	}
	learn = c.get("/learn", http.StatusOK)
	for _, slug := range []string{all[0].Slug, "rook"} {
		if !strings.Contains(learn, `data-lesson="`+slug+`" data-done`) {
			t.Errorf("/learn does not tick %s", slug)
		}
	}
	if got := strings.Count(learn, "data-done"); got != 2 {
		t.Errorf("/learn ticks %d lessons, want 2", got)
	}
	if want := `data-progress="2/` + strconv.Itoa(len(all)) + `"`; !strings.Contains(learn, want) {
		t.Errorf("/learn lessons bar lacks %s", want)
	}
	if want := `data-exercises="` + strconv.Itoa(len(rook.Exercises)) + "/" + strconv.Itoa(len(c.course.Exercises())) + `"`; !strings.Contains(learn, want) {
		t.Errorf("/learn exercises bar lacks %s", want)
	}
	if page := c.get("/learn/rook", http.StatusOK); !strings.Contains(page, "You have finished this lesson") {
		t.Error("the rook lesson does not say it is finished")
	}
	home := c.get("/", http.StatusOK)
	if !strings.Contains(home, "Lessons done: <strong>2</strong>") {
		t.Error("home page does not show the progress")
	}
	// /learn, the home page and the lesson page agree on what Continue opens.
	if want := `href="/learn/` + all[1].Slug + `" data-action="continue">Continue: ` + all[1].Title; !strings.Contains(home, want) || !strings.Contains(learn, want) {
		t.Errorf("home and /learn should both offer %q", want)
	}
	if want := `href="/learn/` + all[1].Slug + `" data-action="start-learning">Continue: `; !strings.Contains(home, want) {
		t.Errorf("the home page's first button should continue with lesson 2 (%q)", want)
	}
}

// TestNextLessonFinishesTheCourse reads every lesson by its Next button:
// the last one finishes the course and lands on /learn, which celebrates.
func TestNextLessonFinishesTheCourse(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	all := c.course.Lessons()
	for i, l := range all {
		page := c.get("/learn/"+l.Slug, http.StatusOK)
		if !strings.Contains(page, `action="/learn/`+l.Slug+`/done"`) || !strings.Contains(page, `data-action="next-lesson"`) {
			t.Fatalf("lesson %s has no primary Next form", l.Slug)
		}
		rec := c.markDone(l.Slug)
		want := "/learn?from=" + l.Slug
		if i+1 < len(all) {
			want = "/learn/" + all[i+1].Slug + "?from=" + l.Slug
		}
		if got := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || got != want {
			t.Fatalf("Next on %s = %d to %q, want 303 to %q", l.Slug, rec.Code, got, want)
		}
	}
	learn := c.get("/learn?from="+all[len(all)-1].Slug, http.StatusOK)
	if !strings.Contains(learn, "data-course-done") || strings.Count(learn, "data-done") != len(all) {
		t.Error("/learn does not celebrate the finished course with every lesson ticked")
	}
	if home := c.get("/", http.StatusOK); !strings.Contains(home, `href="/quiz" data-action="start-learning"`) {
		t.Error("after the whole course the home page's first button should lead to the quiz")
	}
}

// TestHomeStartButton: a newcomer's first button opens lesson 1 itself;
// a visitor with only a quiz score is never told they have not started.
func TestHomeStartButton(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	all := c.course.Lessons()
	home := c.get("/", http.StatusOK)
	if want := `href="/learn/` + all[0].Slug + `" data-action="start-learning">Start the first lesson`; !strings.Contains(home, want) {
		t.Errorf("a newcomer's home page lacks %q", want)
	}
	if !strings.Contains(home, "You have not started yet") {
		t.Error("a newcomer is not welcomed")
	}
	if strings.Contains(home, "Practise") {
		t.Error(`the home page spells "Practise"; the site uses "Practice"`)
	}

	// A visitor who went straight to the quiz has a score, not "nothing".
	s := newSite(t, siteOptions{})
	v := s.visitor(t)
	finishQuizRound(t, s, v, 10)
	rec := v.do(http.MethodGet, "/", "", "")
	home = rec.Body.String()
	if strings.Contains(home, "You have not started yet") || !strings.Contains(home, "Recent quiz scores") {
		t.Errorf("with a saved quiz score the home page should show it and not say the visitor has not started")
	}
}

func TestRulesPage(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	page := c.get("/rules", http.StatusOK)
	for _, want := range []string{"data-board", `href="/learn/castling"`, "Threefold repetition", "<h1>The rules of chess</h1>"} {
		if !strings.Contains(page, want) {
			t.Errorf("/rules lacks %q", want)
		}
	}
}

// TestLessonPagesSpeakTheVisitorsLanguage: ?lang= picks the course's
// language — the lesson's own text, the words the course adds around it,
// the board labels, the page's frame — while slugs and exercises stay the
// same.
func TestLessonPagesSpeakTheVisitorsLanguage(t *testing.T) {
	c := newLessonClient(t)
	lib := c.site.h.lessons
	esc := template.HTMLEscapeString
	es, ru := words.Default().For("es"), words.Default().For("ru")
	enRook, _ := c.course.Lesson("rook")
	esRook, _ := lib.In("es").Lesson("rook")
	ruRook, _ := lib.In("ru").Lesson("rook")

	page := c.get("/learn/rook?lang=es", http.StatusOK)
	for _, want := range []string{
		`<html lang="es"`,
		esc(esRook.Exercises[0].Prompt),
		"<h1>" + esc(esRook.Title) + "</h1>",
		`<meta name="description" content="` + esc(esRook.Summary) + `">`,
		es.T("lesson.solve_squares"),
		es.T("lesson.practice_button"),
		es.T("lesson.all_lessons"),
		"torre blanca", // a square's label
	} {
		if !strings.Contains(page, want) {
			t.Errorf("/learn/rook?lang=es lacks %q", want)
		}
	}
	for _, english := range []string{esc(enRook.Exercises[0].Prompt), "Solve it", "All lessons", "Practice this lesson", "white rook"} {
		if strings.Contains(page, english) {
			t.Errorf("/learn/rook?lang=es says %q", english)
		}
	}
	practice := c.get("/learn/rook/practice?lang=es", http.StatusOK)
	if !strings.Contains(practice, esc(esRook.Exercises[0].Prompt)) {
		t.Error("the Spanish practice page lacks the Spanish prompt")
	}

	page = c.get("/learn/rook?lang=ru", http.StatusOK)
	for _, want := range []string{`<html lang="ru"`, "белая ладья", "Шахматная доска", esc(ruRook.Exercises[0].Prompt),
		ru.T("lesson.practice_count", "Count", len(ruRook.Exercises), "Solved", 0)} {
		if !strings.Contains(page, want) {
			t.Errorf("/learn/rook?lang=ru lacks %q", want)
		}
	}
	learn := c.get("/learn?lang=ru", http.StatusOK)
	total := len(lib.In("ru").Lessons())
	for _, want := range []string{ru.T("learn.lead", "Count", total), ru.T("learn.contents"), esc(lib.In("ru").Lessons()[0].Title),
		ru.T("learn.toc_count", "Count", len(ruRook.Exercises), "Solved", 0)} {
		if !strings.Contains(learn, want) {
			t.Errorf("/learn?lang=ru lacks %q", want)
		}
	}
	if total == 20 && !strings.Contains(learn, "20 коротких уроков") {
		t.Error(`/learn?lang=ru does not say "20 коротких уроков"`)
	}

	rules := c.get("/rules?lang=ru", http.StatusOK)
	if !strings.Contains(rules, "<h1>"+esc(lib.In("ru").RulesTitle())+"</h1>") ||
		!strings.Contains(rules, `<meta name="description" content="`+esc(lib.In("ru").RulesSummary())+`">`) {
		t.Error("/rules?lang=ru lacks the Russian title or description")
	}
	glossary := c.get("/glossary?lang=es", http.StatusOK)
	if !strings.Contains(glossary, "<h1>"+esc(lib.In("es").GlossaryTitle())+"</h1>") ||
		!strings.Contains(glossary, `<meta name="description" content="`+esc(es.T("glossary.meta_description"))+`">`) {
		t.Error("/glossary?lang=es lacks the Spanish title or description")
	}
	if missing := c.get("/learn/no-such-lesson?lang=es", http.StatusNotFound); !strings.Contains(missing, es.T("lesson.not_found")) {
		t.Error("the Spanish 404 of a lesson is not in Spanish")
	}
}

// TestPracticeHowCoversEveryMix: the sentence under a lesson saying what
// its exercises ask has a key for every mix of kinds a lesson may have,
// not only the mixes today's lessons happen to use.
func TestPracticeHowCoversEveryMix(t *testing.T) {
	kinds := []lessons.Kind{lessons.KindName, lessons.KindSquares, lessons.KindMove}
	w := words.Default().For(words.English)
	for mask := 1; mask < 1<<len(kinds); mask++ {
		l := &lessons.Lesson{}
		for i, k := range kinds {
			if mask&(1<<i) != 0 {
				l.Exercises = append(l.Exercises, &lessons.Exercise{Kind: k})
			}
		}
		if key := practiceHow(l); !w.Has(key) {
			t.Errorf("no catalogue key %s", key)
		}
	}
}
