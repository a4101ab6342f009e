package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"chesstutor/lessons"
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
	rec = c.markDone(all[0].Slug)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/learn/"+all[1].Slug {
		t.Fatalf("mark done = %d to %q, want 303 to the next lesson", rec.Code, rec.Header().Get("Location"))
	}
	c.markDone(all[0].Slug) // twice changes nothing

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
	steps := 2 + len(rook.Exercises)
	total := len(all) + len(c.course.Exercises())
	if want := `data-progress="` + strconv.Itoa(steps) + "/" + strconv.Itoa(total) + `"`; !strings.Contains(learn, want) {
		t.Errorf("/learn progress bar lacks %s", want)
	}
	if page := c.get("/learn/rook", http.StatusOK); !strings.Contains(page, "You have finished this lesson") {
		t.Error("the rook lesson does not say it is finished")
	}
	if home := c.get("/", http.StatusOK); !strings.Contains(home, "Lessons read: <strong>2</strong>") {
		t.Error("home page does not show the progress")
	}
}

func TestRulesPage(t *testing.T) {
	c := newLessonClient(t)
	page := c.get("/rules", http.StatusOK)
	for _, want := range []string{"data-board", `href="/learn/castling"`, "Threefold repetition", "<h1>The rules of chess</h1>"} {
		if !strings.Contains(page, want) {
			t.Errorf("/rules lacks %q", want)
		}
	}
}
