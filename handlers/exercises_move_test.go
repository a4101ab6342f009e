package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"chesstutor/lessons"
)

// Tests of the move and square-name exercises' API and form (issue 15).

func TestMoveExerciseAPI(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)

	// A wrong mate: the reason comes from the position.
	code, out := c.check("mate-one-queen-corner", `{"move":"b1h1"}`)
	if code != http.StatusOK || out["correct"] != false || out["solved"] != false {
		t.Fatalf("Qh1+: %d %v", code, out)
	}
	if r, _ := out["reason"].(string); !strings.Contains(r, "the king escapes to g8") {
		t.Errorf("Qh1+ reason = %q, want the escape square", r)
	}
	if c.solved()["mate-one-queen-corner"] {
		t.Error("a wrong move was stored as solved")
	}
	// An illegal move is wrong with the rule it breaks, not an error.
	code, out = c.check("castle-play-queenside", `{"move":"e1g1"}`)
	if r, _ := out["reason"].(string); code != http.StatusOK || out["correct"] != false || !strings.Contains(r, "cross an attacked square (f1") {
		t.Errorf("illegal O-O: %d %v", code, out)
	}
	// The right move is stored.
	code, out = c.check("mate-one-queen-corner", `{"move":"b1b8"}`)
	if code != http.StatusOK || out["correct"] != true || out["solved"] != true || out["san"] != "Qb8#" || out["reply"] != "" {
		t.Fatalf("Qb8#: %d %v", code, out)
	}
	if !c.solved()["mate-one-queen-corner"] {
		t.Error("the solve was not stored")
	}

	// Mate in two: the server answers the defence, then grades the mate.
	code, out = c.check("mate-two-back-rank", `{"move":"e2e8"}`)
	if code != http.StatusOK || out["correct"] != true || out["solved"] != false || out["reply"] != "a8e8" || out["replySan"] != "Rxe8" {
		t.Fatalf("Re8+: %d %v", code, out)
	}
	if c.solved()["mate-two-back-rank"] {
		t.Error("half a mate in two was stored as solved")
	}
	code, out = c.check("mate-two-back-rank", `{"move":"e1e8","line":["e2e8","a8e8"]}`)
	if code != http.StatusOK || out["correct"] != true || out["solved"] != true {
		t.Fatalf("Rxe8#: %d %v", code, out)
	}
	if !c.solved()["mate-two-back-rank"] {
		t.Error("the mate in two was not stored")
	}

	// Square names.
	code, out = c.check("board-name-e4", `{"square":"e5"}`)
	if r, _ := out["reason"].(string); code != http.StatusOK || out["correct"] != false || !strings.Contains(r, "That is e5, not e4") {
		t.Errorf("e5 for e4: %d %v", code, out)
	}
	code, out = c.check("board-name-e4", `{"square":"e4"}`)
	if code != http.StatusOK || out["correct"] != true {
		t.Errorf("e4: %d %v", code, out)
	}

	// Bad bodies get a clear 400 and store nothing.
	for _, tc := range []struct{ id, body string }{
		{"mate-one-queen-corner", `{"move":"b1"}`},
		{"mate-one-queen-corner", `{"move":"b1b9"}`},
		{"mate-one-queen-corner", `{"move":"b7b8x"}`},
		{"mate-one-queen-corner", `{}`},
		{"mate-one-queen-corner", `{"square":"e4"}`},
		{"mate-one-queen-corner", `{"move":"b1b8","line":["b1b2","h8g8"]}`},
		{"mate-two-back-rank", `{"move":"e1e8","line":["g1h1","a8e8"]}`},
		{"mate-two-back-rank", `{"move":"e1e8","line":["e2e8"]}`},
		{"board-name-e4", `{"square":"z9"}`},
		{"board-name-e4", `{"move":"e2e4"}`},
		{"en-passant-available", `{"move":"e5d6"}`}, // a squares exercise wants squares
	} {
		code, out := c.check(tc.id, tc.body)
		if code != http.StatusBadRequest || out["error"] == nil {
			t.Errorf("%s %s: %d %v, want 400 with an error", tc.id, tc.body, code, out)
		}
	}
}

func TestMoveExerciseFormWithoutJavaScript(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	token := csrfToken(cookieID(c.cookie.Value))
	post := func(page string, v url.Values) string {
		t.Helper()
		v.Set("_csrf", token)
		rec := c.do(http.MethodPost, page, "application/x-www-form-urlencoded", v.Encode())
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("POST %v = %d, want 303: %.300s", v, rec.Code, rec.Body)
		}
		return rec.Header().Get("Location")
	}

	page := "/learn/checkmate/practice?ex=mate-two-rook-ladder"
	body := c.get(page, http.StatusOK)
	for _, want := range []string{`data-exercise-kind="move"`, `data-goal="mate-in-two"`, `name="square" value="b1"`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Click the rook on b1: it is selected and its squares are shown.
	loc := post(page, url.Values{"square": {"b1"}})
	if !strings.Contains(loc, "sel=b1") {
		t.Fatalf("selecting b1 redirects to %q", loc)
	}
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(body, `<input type="hidden" name="sel" value="b1">`) || !strings.Contains(body, "dest") {
		t.Error("the selected page lacks the hidden sel field or the destinations")
	}
	// A wrong first move: the defence is named, nothing stored.
	loc = post(page, url.Values{"sel": {"b1"}, "square": {"b8"}})
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(body, `data-verdict="wrong"`) || !strings.Contains(body, "defends with") {
		t.Errorf("Rb8+ page lacks the wrong verdict with the defence")
	}
	// The right first move: the computer's reply is on the board and the
	// line is carried for the second move.
	loc = post(page, url.Values{"sel": {"b1"}, "square": {"b7"}})
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(body, `name="line" value="b1b7,h8g8"`) || !strings.Contains(body, "Now give mate in one") {
		t.Fatalf("after Rb7 the page lacks the line or the new prompt: %.400s", body)
	}
	if c.solved()["mate-two-rook-ladder"] {
		t.Error("half a mate in two stored as solved")
	}
	loc = post(page, url.Values{"line": {"b1b7,h8g8"}, "sel": {"a2"}, "square": {"a8"}})
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(body, `data-verdict="correct"`) || !strings.Contains(body, "Checkmate in two") {
		t.Errorf("the mating move's page lacks the verdict")
	}
	if !c.solved()["mate-two-rook-ladder"] {
		t.Error("the mate in two was not stored")
	}
	// Try again goes back to the start.
	if loc := post(page, url.Values{"action": {"reset"}, "line": {"b1b7,h8g8"}}); strings.Contains(loc, "line=") {
		t.Errorf("Try again keeps the line: %q", loc)
	}

	// Promotion asks for the piece.
	page = "/learn/promotion/practice?ex=promote-play-simple"
	loc = post(page, url.Values{"sel": {"b7"}, "square": {"b8"}})
	if !strings.Contains(loc, "promo=b7b8") {
		t.Fatalf("promotion redirects to %q, want the piece question", loc)
	}
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(body, `name="promote" value="b7b8q"`) {
		t.Error("the promotion page lacks the piece buttons")
	}
	loc = post(page, url.Values{"promote": {"b7b8q"}})
	if body = c.get(loc, http.StatusOK); !strings.Contains(body, `data-verdict="correct"`) {
		t.Error("b8=Q was not graded right")
	}

	// A square-name exercise: one click is one answer.
	page = "/learn/board/practice?ex=board-name-h3-black"
	body = c.get(page, http.StatusOK)
	if !strings.Contains(body, `data-target="h3"`) || !strings.Contains(body, `data-orientation="black"`) {
		t.Error("the square-name page lacks data-target or Black's view")
	}
	loc = post(page, url.Values{"square": {"h3"}})
	if body = c.get(loc, http.StatusOK); !strings.Contains(body, `data-verdict="correct"`) || !c.solved()["board-name-h3-black"] {
		t.Error("clicking h3 was not right and stored")
	}
	// Bad input is a clear 400.
	v := url.Values{"square": {"k9"}, "_csrf": {token}}
	if rec := c.do(http.MethodPost, page, "application/x-www-form-urlencoded", v.Encode()); rec.Code != http.StatusBadRequest {
		t.Errorf("square k9: %d", rec.Code)
	}
}

// firstSquaresExercise is the course's first "mark the squares" exercise,
// for tests of that kind's API and form.
func firstSquaresExercise(course *lessons.Course) *lessons.Exercise {
	for _, ex := range course.Exercises() {
		if ex.Kind == lessons.KindSquares {
			return ex
		}
	}
	panic("the course has no squares exercise")
}

// solveBody is the check API body that solves ex, whatever its kind.
func solveBody(ex *lessons.Exercise) string {
	switch ex.Kind {
	case lessons.KindName:
		return `{"square":"` + ex.Target.String() + `"}`
	case lessons.KindMove:
		return `{"move":"` + ex.Task().RightMoves()[0].UCI() + `"}`
	case lessons.KindSetup:
		var placed []string
		for sq, p := range ex.Setup().Answer() {
			placed = append(placed, `"`+sq.String()+`":"`+p.String()+`"`)
		}
		return `{"placed":{` + strings.Join(placed, ",") + `}}`
	}
	return jsonSquares(squareNames(markAnswer(ex))...)
}
