package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"chesstutor/exercise"
)

// exerciseClient is one visitor practicing; the site's store behind it
// lets tests see what was stored.
type exerciseClient struct {
	*lessonClient
}

func newExerciseClient(t *testing.T) *exerciseClient {
	t.Helper()
	c := &exerciseClient{lessonClient: newLessonClient(t)}
	c.get("/practice", http.StatusOK) // the practice index opens for a visitor
	return c
}

// solved reads the visitor's solved exercises straight from the store.
func (c *exerciseClient) solved() map[string]bool {
	c.t.Helper()
	rep, err := c.site.st.VisitorProgress(context.Background(), c.id)
	if err != nil {
		c.t.Fatal(err)
	}
	out := map[string]bool{}
	for id := range rep.Solved {
		out[id] = true
	}
	return out
}

func (c *exerciseClient) check(id, body string) (int, map[string]any) {
	c.t.Helper()
	rec := c.do(http.MethodPost, "/api/exercises/"+id+"/check", "application/json", body)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		c.t.Fatalf("check %s: body is not JSON: %v: %.200s", id, err, rec.Body)
	}
	return rec.Code, out
}

func jsonSquares(names ...string) string {
	b, _ := json.Marshal(map[string][]string{"squares": names})
	return string(b)
}

func strList(v any) string {
	list, _ := v.([]any)
	parts := make([]string, len(list))
	for i, x := range list {
		parts[i], _ = x.(string)
	}
	return strings.Join(parts, " ")
}

func TestCheckExerciseAPI(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	ex, ok := c.course.Exercise("en-passant-available")
	if !ok {
		t.Fatal("the course lacks en-passant-available")
	}
	answer := squareNames(exercise.Answer(ex.Pos, ex.From)) // d6 e6

	// A missing square is listed in missed, with a reason.
	code, out := c.check(ex.ID, jsonSquares(answer[1]))
	if code != http.StatusOK || out["correct"] != false || strList(out["missed"]) != answer[0] || strList(out["wrong"]) != "" {
		t.Fatalf("one square missing: %d %v", code, out)
	}
	if r, _ := out["reasons"].(map[string]any); r == nil || !strings.Contains(r[answer[0]].(string), "en passant") {
		t.Errorf("reason for the missed en passant square = %v", out["reasons"])
	}
	// An extra square is listed in wrong.
	code, out = c.check(ex.ID, jsonSquares(append([]string{"e7"}, answer...)...))
	if code != http.StatusOK || out["correct"] != false || strList(out["wrong"]) != "e7" || strList(out["missed"]) != "" {
		t.Fatalf("one square extra: %d %v", code, out)
	}
	if c.solved()[ex.ID] {
		t.Fatalf("a wrong answer was stored as solved")
	}
	// The right set, in any order, is correct and stored once, however often.
	for i := 0; i < 2; i++ {
		code, out = c.check(ex.ID, jsonSquares(answer[1], answer[0]))
		if code != http.StatusOK || out["correct"] != true {
			t.Fatalf("right answer: %d %v", code, out)
		}
	}
	if got := c.solved(); !got[ex.ID] || len(got) != 1 {
		t.Errorf("solved after the right answer = %v, want only %s", got, ex.ID)
	}
}

func TestCheckExerciseAPIErrors(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	many := make([]string, 10000)
	for i := range many {
		many[i] = "e4"
	}
	tests := []struct {
		name, id, body string
		status         int
		code           string // the stable code of the refusal
		want           string // a phrase of its English words
	}{
		{"unknown id", "no-such-exercise", jsonSquares("e4"), http.StatusNotFound, "exercise.refuse_no_exercise", "no exercise"},
		{"malformed square", "rook-open-board", jsonSquares("e9"), http.StatusBadRequest, "exercise.refuse_not_square", `"e9" is not a square name`},
		{"not a square at all", "rook-open-board", jsonSquares("<script>"), http.StatusBadRequest, "exercise.refuse_not_square", "is not a square name"},
		{"duplicate", "rook-open-board", jsonSquares("e4", "e4"), http.StatusBadRequest, "exercise.refuse_twice", "listed twice"},
		{"not an array", "rook-open-board", `{"squares":"e4"}`, http.StatusBadRequest, "http.json_field_type", "should be a list"},
		{"numbers", "rook-open-board", `{"squares":[1,2]}`, http.StatusBadRequest, "http.json_field_type", "squares"},
		{"missing list", "rook-open-board", `{}`, http.StatusBadRequest, "exercise.refuse_no_squares", `"squares" list is missing`},
		{"null list", "rook-open-board", `{"squares":null}`, http.StatusBadRequest, "exercise.refuse_no_squares", `"squares" list is missing`},
		{"not JSON", "rook-open-board", `squares=e4`, http.StatusBadRequest, "http.json_syntax", "not valid JSON"},
		{"unknown field", "rook-open-board", `{"squares":[],"cheat":true}`, http.StatusBadRequest, "http.json_unknown_field", "does not know"},
		{"65 squares", "rook-open-board", jsonSquares(append(many[:0:0], strings.Fields(strings.Repeat("a1 ", 65))...)...), http.StatusRequestEntityTooLarge, "exercise.refuse_too_many", "too many squares"},
		{"10,000 squares", "rook-open-board", jsonSquares(many...), http.StatusRequestEntityTooLarge, "error.body_too_large", "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := c.check(tt.id, tt.body)
			msg, _ := out["error"].(string)
			code, _ := out["code"].(string)
			if status != tt.status || code != tt.code || !strings.Contains(msg, tt.want) {
				t.Errorf("got %d %s %q, want %d %s with %q", status, code, msg, tt.status, tt.code, tt.want)
			}
		})
	}
	if got := c.solved(); len(got) != 0 {
		t.Errorf("bad requests stored solves: %v", got)
	}
}

// TestPracticeFormWithoutJavaScript walks the no-script flow (X4): each
// square button posts the form, the server toggles the mark and redirects
// to the page with the marks in the query; Check grades and stores.
func TestPracticeFormWithoutJavaScript(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	ex, _ := c.course.Exercise("check-king-escapes")
	page := "/learn/" + ex.Lesson + "/practice?ex=" + ex.ID
	token := csrfToken(cookieID(c.cookie.Value))

	post := func(v url.Values) string {
		t.Helper()
		v.Set("_csrf", token)
		rec := c.do(http.MethodPost, page, "application/x-www-form-urlencoded", v.Encode())
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("POST %v = %d, want 303: %.300s", v, rec.Code, rec.Body)
		}
		return rec.Header().Get("Location")
	}

	loc := post(url.Values{"square": {"d1"}})
	if !strings.Contains(loc, "m=d1") {
		t.Fatalf("toggle d1 redirects to %q, want the mark in the query", loc)
	}
	body := c.get(loc, http.StatusOK)
	if !strings.Contains(body, `<input type="hidden" name="marked" value="d1">`) {
		t.Errorf("the page does not carry the mark d1 in a hidden field")
	}
	if !strings.Contains(body, `data-exercise="check-king-escapes"`) || !strings.Contains(body, `data-from="e1"`) {
		t.Errorf("the board lacks data-exercise / data-from (H2)")
	}
	// Toggling a marked square removes it.
	loc = post(url.Values{"marked": {"d1", "d2"}, "square": {"d1"}})
	if got, _ := url.Parse(loc); got.Query().Get("m") != "d2" {
		t.Errorf("untoggle d1 redirects to %q, want m=d2", loc)
	}
	// A wrong Check shows reasons and stores nothing.
	loc = post(url.Values{"marked": {"d1", "e2"}, "action": {"check"}})
	body = c.get(loc, http.StatusOK)
	for _, want := range []string{`data-verdict="wrong"`, `data-reason="e2"`, "the king would be in check there", `data-reason="f1"`} {
		if !strings.Contains(body, want) {
			t.Errorf("wrong answer page lacks %q", want)
		}
	}
	if c.solved()[ex.ID] {
		t.Fatalf("a wrong form answer was stored as solved")
	}
	// The right Check is stored.
	loc = post(url.Values{"marked": {"d1", "d2", "f1", "f2"}, "action": {"check"}})
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(body, `data-verdict="correct"`) {
		t.Errorf("right answer page does not say correct")
	}
	if !c.solved()[ex.ID] {
		t.Errorf("the right form answer was not stored")
	}
	// Show answer marks the legal destinations; Try again clears.
	body = c.get(post(url.Values{"marked": {"d1"}, "action": {"answer"}}), http.StatusOK)
	if !strings.Contains(body, `data-verdict="answer"`) || !strings.Contains(body, "may move to d1, d2, f1, f2") {
		t.Errorf("show answer page lacks the answer")
	}
	// Try again keeps the right marks (d1) and drops the wrong (e2);
	// Start over drops them all.
	if loc := post(url.Values{"marked": {"d1", "e2"}, "action": {"reset"}}); !strings.HasSuffix(loc, "&m=d1") {
		t.Errorf("try again should keep only the right mark d1: %q", loc)
	}
	if loc := post(url.Values{"marked": {"d1", "e2"}, "action": {"restart"}}); strings.Contains(loc, "m=") {
		t.Errorf("start over keeps marks: %q", loc)
	}
	// Without the CSRF field the form is refused.
	rec := c.do(http.MethodPost, page, "application/x-www-form-urlencoded", "square=d1")
	if rec.Code != http.StatusForbidden {
		t.Errorf("form post without _csrf = %d, want 403", rec.Code)
	}
	// Bad marks in a hand-made URL are a clear 400, an unknown exercise 404.
	c.get(page+"&m=z9", http.StatusBadRequest)
	c.get("/learn/"+ex.Lesson+"/practice?ex=nope", http.StatusNotFound)
	c.get("/learn/no-such-lesson/practice", http.StatusNotFound)
}

func TestPracticeOverview(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	body := c.get("/practice", http.StatusOK)
	for _, ex := range c.course.Exercises() {
		if !strings.Contains(body, `data-exercise-item="`+ex.ID+`"`) {
			t.Errorf("/practice does not list %s", ex.ID)
		}
	}
	first := c.course.Exercises()[0]
	if !strings.Contains(body, `href="`+exerciseURL(first)+`" data-action="start"`) {
		t.Errorf("/practice does not start with the first exercise %s", first.ID)
	}
	// Solve the first; the overview ticks it and continues with the second.
	if code, out := c.check(first.ID, solveBody(first)); code != http.StatusOK || out["correct"] != true {
		t.Fatalf("solving %s: %d %v", first.ID, code, out)
	}
	body = c.get("/practice", http.StatusOK)
	if !strings.Contains(body, `class="solved" data-exercise-item="`+first.ID+`"`) {
		t.Errorf("/practice does not tick %s", first.ID)
	}
	second := c.course.Exercises()[1]
	if !strings.Contains(body, `href="`+exerciseURL(second)+`" data-action="start"`) {
		t.Errorf("/practice does not continue with %s", second.ID)
	}
	// Every lesson's practice page renders, and Next leads through the course.
	for _, l := range c.course.Lessons() {
		if len(l.Exercises) == 0 {
			continue
		}
		last := l.Exercises[len(l.Exercises)-1]
		page := c.get(exerciseURL(last), http.StatusOK)
		if !strings.Contains(page, `data-action="next"`) {
			t.Errorf("%s: no Next link", last.ID)
		}
	}
}
