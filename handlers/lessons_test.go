package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"chesstutor/lessons"
	"chesstutor/store"
	"chesstutor/views"
)

// lessonClient is one visitor browsing the course through httptest.
type lessonClient struct {
	t      *testing.T
	e      *echo.Echo
	course *lessons.Course
	cookie *http.Cookie
}

func newLessonClient(t *testing.T, dbPath string) *lessonClient {
	t.Helper()
	st, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rend, err := views.New()
	if err != nil {
		t.Fatal(err)
	}
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	New(Deps{Store: st, Views: rend, Lessons: course}).Register(e)
	return &lessonClient{t: t, e: e, course: course}
}

func (c *lessonClient) do(method, target, contentType, body string) *httptest.ResponseRecorder {
	c.t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if method == http.MethodPost {
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	if c.cookie != nil {
		req.AddCookie(c.cookie)
	}
	rec := httptest.NewRecorder()
	c.e.ServeHTTP(rec, req)
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == visitorCookie {
			c.cookie = ck
		}
	}
	return rec
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
	form := url.Values{"_csrf": {csrfToken(c.cookie.Value)}}
	return c.do(http.MethodPost, "/learn/"+slug+"/done", "application/x-www-form-urlencoded", form.Encode())
}

func TestLearnPagesAndProgress(t *testing.T) {
	c := newLessonClient(t, filepath.Join(t.TempDir(), "lessons.db"))
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
	c := newLessonClient(t, filepath.Join(t.TempDir(), "rules.db"))
	page := c.get("/rules", http.StatusOK)
	for _, want := range []string{"data-board", `href="/learn/castling"`, "Threefold repetition", "<h1>The rules of chess</h1>"} {
		if !strings.Contains(page, want) {
			t.Errorf("/rules lacks %q", want)
		}
	}
}
