package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// The fuzz targets send arbitrary bodies to the two endpoints that take
// the most structured input from visitors. Whatever arrives, the answer is
// a 2xx or a 4xx with a JSON error a person can read, never a 5xx or a
// panic, and the game stays loadable.

// allowedStatus lists what a body alone may provoke on these endpoints.
var allowedStatus = map[int]bool{
	http.StatusOK: true, http.StatusBadRequest: true, http.StatusConflict: true,
	http.StatusRequestEntityTooLarge: true, http.StatusUnsupportedMediaType: true,
	http.StatusUnprocessableEntity: true,
}

// FuzzMoveBody fuzzes POST /api/games/:id/moves.
func FuzzMoveBody(f *testing.F) {
	for _, seed := range []string{
		`{"move":"e2e4","ply":0}`, `{"san":"Nf3","ply":0}`, `{"san":"O-O","ply":0}`,
		`{"move":"e7e8q","ply":0}`, `{"move":"e2e9q","ply":0}`, `{"move":"z9z9","ply":-1}`,
		`{"san":"e4!!junk","ply":0}`, `{"move":"e2e4","ply":99999999999999999999}`,
		`{"move":"e2e4"}`, `{"move":1}`, `[]`, `null`, `{`, ``, `{"move":"e2e4","ply":0}{}`,
	} {
		f.Add([]byte(seed))
	}
	s := newFullSite(f)
	v := s.visitor(f)
	id := v.newGame(f, `{"mode":"friend","clock":"none","pass_screen":false}`)
	path := "/api/games/" + id
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := v.do(http.MethodPost, path+"/moves", "application/json", string(body))
		checkFuzzReply(t, rec.Code, rec.Body.Bytes())
		if rec.Code != http.StatusOK {
			return
		}
		// A move was played: the game must load, then go back to the start
		// so every input meets the same position.
		var st struct {
			Ply int `json:"ply"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st.Ply < 1 {
			t.Fatalf("200 without a new ply: %s", rec.Body)
		}
		if get := v.do(http.MethodGet, path, "", ""); get.Code != http.StatusOK {
			t.Fatalf("the game no longer loads after %q: %d %s", body, get.Code, get.Body)
		}
		undo := v.do(http.MethodPost, path+"/undo", "application/json", fmt.Sprintf(`{"ply":%d}`, st.Ply))
		if undo.Code != http.StatusOK {
			t.Fatalf("undo after %q: %d %s", body, undo.Code, undo.Body)
		}
	})
}

// FuzzExerciseCheckBody fuzzes POST /api/exercises/:id/check.
func FuzzExerciseCheckBody(f *testing.F) {
	for _, seed := range []string{
		`{"squares":[]}`, `{"squares":["e4","d5"]}`, `{"squares":["z9"]}`, `{"squares":"e4"}`,
		`{"squares":null}`, `{"squares":["e4","e4"]}`, `{"squares":[1]}`, `{}`, `{`, `[]`,
		`{"squares":["a1","a2","a3","a4","a5","a6","a7","a8","b1"],"x":1}`,
	} {
		f.Add([]byte(seed))
	}
	s := newFullSite(f)
	v := s.visitor(f)
	path := "/api/exercises/" + firstSquaresExercise(s.course).ID + "/check"
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := v.do(http.MethodPost, path, "application/json", string(body))
		checkFuzzReply(t, rec.Code, rec.Body.Bytes())
		if rec.Code == http.StatusOK {
			var res struct {
				Correct *bool    `json:"correct"`
				Missed  []string `json:"missed"`
				Wrong   []string `json:"wrong"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || res.Correct == nil {
				t.Fatalf("200 without a verdict: %s", rec.Body)
			}
			if *res.Correct && len(res.Missed)+len(res.Wrong) > 0 {
				t.Fatalf("correct, yet squares missed or wrong: %s", rec.Body)
			}
		}
	})
}

func checkFuzzReply(t *testing.T, code int, body []byte) {
	t.Helper()
	if !allowedStatus[code] {
		t.Fatalf("status %d: %s", code, body)
	}
	if code >= 400 {
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
			t.Fatalf("status %d without a JSON error message: %s", code, body)
		}
	}
}
