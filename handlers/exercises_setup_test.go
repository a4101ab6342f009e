package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Tests of the setup exercises' API and form (issue 36, X10).

func TestSetupExerciseAPI(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	const id = "setup-kings-and-queens"

	// King and queen swapped: both wrong, each with the rule that places it.
	code, out := c.check(id, `{"placed":{"d1":"wK","e1":"wQ","d8":"bQ","e8":"bK"}}`)
	if code != http.StatusOK || out["correct"] != false {
		t.Fatalf("swapped: %d %v", code, out)
	}
	reasons, _ := out["reasons"].(map[string]any)
	if r, _ := reasons["e1"].(string); !strings.Contains(r, "own colour") || !strings.Contains(r, "d1") {
		t.Errorf("the queen on e1: reason %q, want her own colour and d1", r)
	}
	if r, _ := reasons["d1"].(string); !strings.Contains(r, "e1") {
		t.Errorf("the king on d1: reason %q, want e1", r)
	}
	if got := strings.Join(toStrings(out["right"]), " "); got != "d8 e8" {
		t.Errorf("right = %q, want d8 e8", got)
	}
	if c.solved()[id] {
		t.Error("a wrong setup was stored as solved")
	}
	// Nothing placed: every square waits, and the answer comes along.
	_, out = c.check(id, `{"placed":{}}`)
	if got := strings.Join(toStrings(out["missed"]), " "); got != "d1 e1 d8 e8" {
		t.Errorf("missed = %q", got)
	}
	if a, _ := out["answer"].(map[string]any); a["d1"] != "wQ" || a["e8"] != "bK" {
		t.Errorf("answer = %v", out["answer"])
	}
	// Right: stored.
	code, out = c.check(id, `{"placed":{"d1":"wQ","e1":"wK","d8":"bQ","e8":"bK"}}`)
	if code != http.StatusOK || out["correct"] != true || out["solved"] != true {
		t.Fatalf("right: %d %v", code, out)
	}
	if !c.solved()[id] {
		t.Error("the solve was not stored")
	}
	// Bad input is a clear 400 and changes nothing.
	for _, body := range []string{
		`{}`,
		`{"placed":{"z9":"wK"}}`,
		`{"placed":{"e1":"xK"}}`,
		`{"placed":{"a1":"wR"}}`,              // a1 holds a given rook
		`{"placed":{"e1":"wK","e2":"wK"}}`,    // one white king in the tray
		`{"placed":{"e1":"wK","d1":"wP"}}`,    // no pawn in the tray
		`{"placed":{"e1":"wK"},"squares":[]}`, // an unknown field
	} {
		if code, out := c.check(id, body); code != http.StatusBadRequest || out["error"] == nil {
			t.Errorf("%s: %d %v, want 400 with an error", body, code, out)
		}
	}
}

func TestSetupExerciseFormWithoutJavaScript(t *testing.T) {
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
	page := "/learn/setting-up/practice?ex=setup-kings-and-queens"
	body := c.get(page, http.StatusOK)
	for _, want := range []string{`data-exercise-kind="setup"`, `data-tray-piece="wQ"`, `data-tray-piece="bK"`, `name="square" value="d1"`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Pick the white queen, put her on d1; she leaves the tray.
	loc := post(page, url.Values{"tray": {"wQ"}})
	if !strings.Contains(loc, "pick=wQ") {
		t.Fatalf("picking wQ redirects to %q", loc)
	}
	loc = post(page, url.Values{"pick": {"wQ"}, "square": {"d1"}})
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(loc, "p=d1wQ") || strings.Contains(body, `data-tray-piece="wQ"`) {
		t.Fatalf("after placing the queen: %q, the tray still holds her: %v", loc, strings.Contains(body, `data-tray-piece="wQ"`))
	}
	// Tapping her again takes her back.
	loc = post(page, url.Values{"placed": {"d1wQ"}, "square": {"d1"}})
	if strings.Contains(loc, "p=") {
		t.Errorf("lifting the queen redirects to %q", loc)
	}
	// Check with everything right: stored and praised.
	loc = post(page, url.Values{"placed": {"d1wQ,e1wK,d8bQ,e8bK"}, "action": {"check"}})
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(body, `data-verdict="correct"`) || !c.solved()["setup-kings-and-queens"] {
		t.Error("the right setup was not praised and stored")
	}
	// Check with a swap: reasons per square.
	loc = post(page, url.Values{"placed": {"e1wQ,d1wK"}, "action": {"check"}})
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(body, `data-reason="e1"`) || !strings.Contains(body, `data-reason="d8"`) {
		t.Error("the swapped setup lacks its reasons")
	}
	// Show the answer fills the board.
	loc = post(page, url.Values{"action": {"answer"}})
	body = c.get(loc, http.StatusOK)
	if !strings.Contains(body, `data-verdict="answer"`) || strings.Contains(body, `data-tray-piece=`) {
		t.Error("the answer page does not fill the board")
	}
	// Bad input is a clear 400.
	v := url.Values{"placed": {"d1xQ"}, "_csrf": {token}}
	if rec := c.do(http.MethodPost, page, "application/x-www-form-urlencoded", v.Encode()); rec.Code != http.StatusBadRequest {
		t.Errorf("placed d1xQ: %d", rec.Code)
	}
}

// toStrings reads a JSON array of strings.
func toStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
