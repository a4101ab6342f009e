package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Stars (issue 36, X11): the check API returns them, /learn shows them per
// lesson, and forgetting the visitor removes them.

func TestStarsFromTheCheckAPI(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	stars := func(id, body string) float64 {
		t.Helper()
		code, out := c.check(id, body)
		if code != http.StatusOK {
			t.Fatalf("%s %s: %d %v", id, body, code, out)
		}
		s, ok := out["stars"].(float64)
		if !ok {
			t.Fatalf("%s: the answer lacks stars: %v", id, out)
		}
		return s
	}
	// Right at the first try: three.
	if got := stars("mate-one-queen-corner", `{"move":"b1b8"}`); got != 3 {
		t.Errorf("first try: %v stars, want 3", got)
	}
	// One wrong try first: none yet, then two.
	if got := stars("mate-one-back-rank", `{"move":"a1a7"}`); got != 0 {
		t.Errorf("a wrong try: %v stars, want 0", got)
	}
	if got := stars("mate-one-back-rank", `{"move":"a1a8"}`); got != 2 {
		t.Errorf("solved after one wrong try: %v stars, want 2", got)
	}
	// Solving again later changes nothing.
	if got := stars("mate-one-back-rank", `{"move":"a1a8"}`); got != 2 {
		t.Errorf("solved again: %v stars, want 2", got)
	}
	// The answer shown first: one.
	if rec := c.do(http.MethodPost, "/api/exercises/setup-kings-and-queens/help", "application/json", `{}`); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"d1":"wQ"`) {
		t.Fatalf("help: %d %s", rec.Code, rec.Body)
	}
	if got := stars("setup-kings-and-queens", `{"placed":{"d1":"wQ","e1":"wK","d8":"bQ","e8":"bK"}}`); got != 1 {
		t.Errorf("solved after the answer: %v stars, want 1", got)
	}
	// A half-done mate in two earns nothing yet, and is no wrong try.
	if got := stars("mate-two-back-rank", `{"move":"e2e8"}`); got != 0 {
		t.Errorf("half a mate in two: %v stars", got)
	}
	if got := stars("mate-two-back-rank", `{"move":"e1e8","line":["e2e8","a8e8"]}`); got != 3 {
		t.Errorf("a mate in two without a wrong move: %v stars, want 3", got)
	}
	if rec := c.do(http.MethodPost, "/api/exercises/no-such/help", "application/json", `{}`); rec.Code != http.StatusNotFound {
		t.Errorf("help on an unknown exercise: %d", rec.Code)
	}

	// /learn shows each lesson's stars and the course's.
	body := c.get("/learn", http.StatusOK)
	if !strings.Contains(body, `data-lesson="checkmate"`) {
		t.Fatal("no checkmate row on /learn")
	}
	row := body[strings.Index(body, `data-lesson="checkmate"`):]
	row = row[:strings.Index(row, "</li>")]
	if !strings.Contains(row, `data-stars="8"`) { // 3 + 2 + 3
		t.Errorf("the checkmate lesson's stars: %s", row)
	}
	if !strings.Contains(body, `class="stars-total" data-stars="9"`) {
		t.Errorf("the course's stars are not 9 (3+2+1+3)")
	}

	// Forget me removes the stars with everything else.
	tries, err := c.site.st.VisitorTries(context.Background(), c.id)
	if err != nil || len(tries) != 4 {
		t.Fatalf("tries before forgetting: %v, %v", tries, err)
	}
	token := csrfToken(cookieID(c.cookie.Value))
	v := url.Values{"confirm": {"yes"}, "_csrf": {token}}
	if rec := c.do(http.MethodPost, "/privacy/forget", "application/x-www-form-urlencoded", v.Encode()); rec.Code >= 400 {
		t.Fatalf("forget: %d", rec.Code)
	}
	if tries, err := c.site.st.VisitorTries(context.Background(), c.id); err != nil || len(tries) != 0 {
		t.Errorf("tries after forgetting: %v, %v; want none", tries, err)
	}
}
