package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// hostileCase is one malformed request and the refusal it must get.
type hostileCase struct {
	name        string
	method      string
	path        string
	contentType string
	body        string
	form        url.Values // posted with the CSRF token instead of body
	want        int
	msg         string // a piece of the message the visitor must read
}

// big is a body well over the 16 KiB limit (1 MB).
var big = strings.Repeat("a", 1<<20)

func jsonWith(field, value string) string {
	return `{"` + field + `":` + value + `}`
}

const xss = `<script>alert(1)</script>`

// TestHostileInput drives every endpoint that takes input with malformed,
// oversized and malicious values: each gets the right 4xx with a clear
// message, nothing is stored, and nothing panics (N2, H1).
func TestHostileInput(t *testing.T) {
	t.Parallel()
	s := newFullSite(t)
	v := s.visitor(t)
	game := v.newGame(t, `{"mode":"friend","clock":"none","pass_screen":false}`)
	timed := v.newGame(t, `{"mode":"friend","clock":"5+0","pass_screen":false}`)
	round := v.startQuiz(t)
	unknown := strings.Repeat("ab", 16)
	ex := firstSquaresExercise(s.course)
	lesson := ex.Lesson
	moves := "/api/games/" + game + "/moves"
	const js = "application/json"

	cases := []hostileCase{
		// Creating games.
		{name: "create: broken JSON", method: "POST", path: "/api/games", contentType: js, body: `{"mode":`, want: 400, msg: "JSON"},
		{name: "create: empty body", method: "POST", path: "/api/games", contentType: js, body: ``, want: 400, msg: "empty"},
		{name: "create: array", method: "POST", path: "/api/games", contentType: js, body: `[]`, want: 400, msg: "JSON object"},
		{name: "create: null", method: "POST", path: "/api/games", contentType: js, body: `null`, want: 400, msg: "mode"},
		{name: "create: mode is a number", method: "POST", path: "/api/games", contentType: js, body: `{"mode":1}`, want: 400, msg: `"mode"`},
		{name: "create: level is a string", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"computer","level":"8"}`, want: 400, msg: "whole number"},
		{name: "create: level fraction", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"computer","level":1.5}`, want: 400, msg: "level"},
		{name: "create: level 9", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"computer","level":9}`, want: 400, msg: "between 0 and 8"},
		{name: "create: level negative", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"computer","level":-1}`, want: 400, msg: "between 0 and 8"},
		{name: "create: level huge", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"computer","level":99999999999999999999}`, want: 400, msg: "level"},
		{name: "create: unknown field", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"friend","admin":true}`, want: 400, msg: "admin"},
		{name: "create: trailing data", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"friend"}{"mode":"friend"}`, want: 400, msg: "more than one"},
		{name: "create: wrong content type", method: "POST", path: "/api/games", contentType: "text/plain", body: `{"mode":"friend"}`, want: 415, msg: "JSON"},
		{name: "create: 1 MB body", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"` + big + `"}`, want: 413, msg: "too large"},
		{name: "create: script in mode", method: "POST", path: "/api/games", contentType: js, body: jsonWith("mode", `"`+xss+`"`), want: 400, msg: "Unknown mode"},
		{name: "create: SQL in mode", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"friend'); DROP TABLE games;--"}`, want: 400, msg: "Unknown mode"},
		{name: "create: SQL in colour", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"computer","color":"white' OR '1'='1"}`, want: 400, msg: "colour"},
		{name: "create: square as clock", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"friend","clock":"z9"}`, want: 400, msg: "time control"},
		{name: "create: junk FEN", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"friend","fen":"` + xss + `"}`, want: 400, msg: "FEN"},
		{name: "create: FEN without kings", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"friend","fen":"8/8/8/8/3R4/8/8/8 w - - 0 1"}`, want: 400, msg: "exactly one king"},
		{name: "create: FEN already mate", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"friend","fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"}`, want: 400, msg: "already finished"},
		{name: "create: FEN too long", method: "POST", path: "/api/games", contentType: js, body: `{"mode":"friend","fen":"` + strings.Repeat("8/", 100) + `"}`, want: 400, msg: "too long"},

		// Moves.
		{name: "move: broken JSON", method: "POST", path: moves, contentType: js, body: `{"move":"e2e4","ply":`, want: 400, msg: "JSON"},
		{name: "move: empty body", method: "POST", path: moves, contentType: js, body: ``, want: 400, msg: "empty"},
		{name: "move: off-board square", method: "POST", path: moves, contentType: js, body: `{"move":"z9z9","ply":0}`, want: 400, msg: "UCI"},
		{name: "move: bad promotion rank", method: "POST", path: moves, contentType: js, body: `{"move":"e2e9q","ply":0}`, want: 400, msg: "UCI"},
		{name: "move: promotion to king", method: "POST", path: moves, contentType: js, body: `{"move":"e7e8k","ply":0}`, want: 400, msg: "UCI"},
		{name: "move: illegal but well formed", method: "POST", path: moves, contentType: js, body: `{"move":"e2e5","ply":0}`, want: 422},
		{name: "move: SAN trailing junk", method: "POST", path: moves, contentType: js, body: `{"san":"e4 junk","ply":0}`, want: 400, msg: "e4 junk"},
		{name: "move: SAN two moves", method: "POST", path: moves, contentType: js, body: `{"san":"Nf3Nc6","ply":0}`, want: 400, msg: "Nf3Nc6"},
		{name: "move: SAN illegal", method: "POST", path: moves, contentType: js, body: `{"san":"Ke2","ply":0}`, want: 422},
		{name: "move: move and san", method: "POST", path: moves, contentType: js, body: `{"move":"e2e4","san":"e4","ply":0}`, want: 400, msg: "not both"},
		{name: "move: no move", method: "POST", path: moves, contentType: js, body: `{"ply":0}`, want: 400, msg: `"move"`},
		{name: "move: move is a number", method: "POST", path: moves, contentType: js, body: `{"move":1234,"ply":0}`, want: 400, msg: `"move"`},
		{name: "move: move is a list", method: "POST", path: moves, contentType: js, body: `{"move":["e2e4"],"ply":0}`, want: 400, msg: `"move"`},
		{name: "move: no ply", method: "POST", path: moves, contentType: js, body: `{"move":"e2e4"}`, want: 400, msg: "ply"},
		{name: "move: ply is a string", method: "POST", path: moves, contentType: js, body: `{"move":"e2e4","ply":"0"}`, want: 400, msg: "whole number"},
		{name: "move: ply negative", method: "POST", path: moves, contentType: js, body: `{"move":"e2e4","ply":-1}`, want: 409, msg: "moved on"},
		{name: "move: ply huge", method: "POST", path: moves, contentType: js, body: `{"move":"e2e4","ply":2147483647}`, want: 409, msg: "moved on"},
		{name: "move: ply overflows", method: "POST", path: moves, contentType: js, body: `{"move":"e2e4","ply":99999999999999999999}`, want: 400, msg: "ply"},
		{name: "move: ply float", method: "POST", path: moves, contentType: js, body: `{"move":"e2e4","ply":0.5}`, want: 400, msg: "ply"},
		{name: "move: script", method: "POST", path: moves, contentType: js, body: jsonWith("move", `"`+xss+`"`), want: 400, msg: "UCI"},
		{name: "move: SQL", method: "POST", path: moves, contentType: js, body: `{"move":"e2e4'; DROP TABLE games;--","ply":0}`, want: 400, msg: "UCI"},
		{name: "move: 1 MB body", method: "POST", path: moves, contentType: js, body: `{"move":"` + big + `","ply":0}`, want: 413, msg: "too large"},
		{name: "move: form content type", method: "POST", path: moves, contentType: "application/x-www-form-urlencoded", body: `move=e2e4&ply=0`, want: 415},
		{name: "move: unknown game", method: "POST", path: "/api/games/" + unknown + "/moves", contentType: js, body: `{"move":"e2e4","ply":0}`, want: 404, msg: "no game"},
		{name: "move: SQL game id", method: "POST", path: "/api/games/" + url.PathEscape("' OR '1'='1") + "/moves", contentType: js, body: `{"move":"e2e4","ply":0}`, want: 404, msg: "no game"},
		{name: "move: long game id", method: "POST", path: "/api/games/" + strings.Repeat("f", 4000) + "/moves", contentType: js, body: `{"move":"e2e4","ply":0}`, want: 404, msg: "no game"},

		// The other game actions.
		{name: "undo: ply negative", method: "POST", path: "/api/games/" + game + "/undo", contentType: js, body: `{"ply":-5}`, want: 409},
		{name: "undo: nothing to undo", method: "POST", path: "/api/games/" + game + "/undo", contentType: js, body: `{"ply":0}`, want: 409, msg: "take back"},
		{name: "resign: ply huge", method: "POST", path: "/api/games/" + game + "/resign", contentType: js, body: `{"ply":1000000}`, want: 409},
		{name: "resign: no ply", method: "POST", path: "/api/games/" + game + "/resign", contentType: js, body: `{}`, want: 400, msg: "ply"},
		{name: "resign: broken JSON", method: "POST", path: "/api/games/" + game + "/resign", contentType: js, body: `{"ply"`, want: 400},
		{name: "draw: ply string", method: "POST", path: "/api/games/" + game + "/draw", contentType: js, body: `{"ply":"x"}`, want: 400},
		{name: "draw accept: no offer", method: "POST", path: "/api/games/" + game + "/draw/accept", contentType: js, body: `{"ply":0}`, want: 409, msg: "no draw offer"},
		{name: "draw decline: unknown field", method: "POST", path: "/api/games/" + game + "/draw/decline", contentType: js, body: `{"ply":0,"accept":true}`, want: 400},
		{name: "flag: untimed game", method: "POST", path: "/api/games/" + game + "/flag", contentType: js, body: `{"ply":0}`, want: 409, msg: "no clock"},
		{name: "flag: flag not fallen", method: "POST", path: "/api/games/" + timed + "/flag", contentType: js, body: `{"ply":0}`, want: 409, msg: "has not fallen"},
		{name: "reply: friend game", method: "POST", path: "/api/games/" + game + "/reply", contentType: js, body: `{"ply":0}`, want: 409},
		{name: "pause: 1 MB", method: "POST", path: "/api/games/" + timed + "/pause", contentType: js, body: `{"ply":0,"x":"` + big + `"}`, want: 413},
		{name: "state: unknown game", method: "GET", path: "/api/games/" + unknown, want: 404, msg: "no game"},
		{name: "state: path traversal", method: "GET", path: "/api/games/..%2f..%2fetc%2fpasswd", want: 404},
		{name: "pgn: unknown game", method: "GET", path: "/api/games/" + unknown + "/pgn", want: 404},
		{name: "undo: unknown game", method: "POST", path: "/api/games/" + unknown + "/undo", contentType: js, body: `{"ply":0}`, want: 404},

		// Exercise checks.
		{name: "check: unknown exercise", method: "POST", path: "/api/exercises/" + url.PathEscape(xss) + "/check", contentType: js, body: `{"squares":[]}`, want: 404, msg: "no exercise"},
		{name: "check: off-board square", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":["z9"]}`, want: 400, msg: "not a square"},
		{name: "check: script square", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":["` + xss + `"]}`, want: 400, msg: "not a square"},
		{name: "check: SQL square", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":["e4' OR 1=1--"]}`, want: 400, msg: "not a square"},
		{name: "check: squares is a string", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":"e4"}`, want: 400, msg: "list"},
		{name: "check: squares null", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":null}`, want: 400, msg: "missing"},
		{name: "check: numbers", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":[1,2]}`, want: 400},
		{name: "check: duplicate", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":["e4","e4"]}`, want: 400, msg: "twice"},
		{name: "check: 65 squares", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":[` + strings.TrimSuffix(strings.Repeat(`"a1",`, 65), ",") + `]}`, want: 413},
		{name: "check: 1 MB", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":["` + big + `"]}`, want: 413},
		{name: "check: broken JSON", method: "POST", path: "/api/exercises/" + ex.ID + "/check", contentType: js, body: `{"squares":[`, want: 400},

		// Quiz answers.
		{name: "quiz: unknown round", method: "POST", path: "/api/quiz/rounds/" + unknown + "/answers", contentType: js, body: `{"index":1,"answer":["a"]}`, want: 404},
		{name: "quiz: short round id", method: "POST", path: "/api/quiz/rounds/1/answers", contentType: js, body: `{"index":1,"answer":["a"]}`, want: 404},
		{name: "quiz: index negative", method: "POST", path: "/api/quiz/rounds/" + round + "/answers", contentType: js, body: `{"index":-1,"answer":["a"]}`, want: 404, msg: "questions 1 to"},
		{name: "quiz: index huge", method: "POST", path: "/api/quiz/rounds/" + round + "/answers", contentType: js, body: `{"index":2147483647,"answer":["a"]}`, want: 404, msg: "questions 1 to"},
		{name: "quiz: no index", method: "POST", path: "/api/quiz/rounds/" + round + "/answers", contentType: js, body: `{"answer":["a"]}`, want: 400, msg: "index"},
		{name: "quiz: answer is a string", method: "POST", path: "/api/quiz/rounds/" + round + "/answers", contentType: js, body: `{"index":1,"answer":"a"}`, want: 400},
		{name: "quiz: script answer", method: "POST", path: "/api/quiz/rounds/" + round + "/answers", contentType: js, body: `{"index":1,"answer":["` + xss + `"]}`, want: 400},
		{name: "quiz: too many parts", method: "POST", path: "/api/quiz/rounds/" + round + "/answers", contentType: js, body: `{"index":1,"answer":[` + strings.TrimSuffix(strings.Repeat(`"a",`, 100), ",") + `]}`, want: 400},
		{name: "quiz: 1 MB", method: "POST", path: "/api/quiz/rounds/" + round + "/answers", contentType: js, body: `{"index":1,"answer":["` + big + `"]}`, want: 413},

		// Pages and query strings.
		{name: "page: unknown lesson", method: "GET", path: "/learn/" + url.PathEscape(xss), want: 404},
		{name: "page: SQL lesson", method: "GET", path: "/learn/" + url.PathEscape("rook' OR 1=1--"), want: 404},
		{name: "page: unknown exercise", method: "GET", path: "/learn/" + lesson + "/practice?ex=" + url.QueryEscape(xss), want: 404},
		{name: "page: off-board mark", method: "GET", path: "/learn/" + lesson + "/practice?m=z9", want: 400, msg: "not a square"},
		{name: "page: too many marks", method: "GET", path: "/learn/" + lesson + "/practice?m=" + strings.TrimSuffix(strings.Repeat("a1,b2,", 40), ",") + ",c3,z0", want: 400},
		{name: "page: unknown game", method: "GET", path: "/play/" + unknown, want: 404},
		{name: "page: game id junk", method: "GET", path: "/play/" + url.PathEscape(xss), want: 404},
		{name: "page: quiz round unknown", method: "GET", path: "/quiz/rounds/" + unknown, want: 404},
		{name: "page: quiz question negative", method: "GET", path: "/quiz/rounds/" + round + "?q=-1", want: 404},
		{name: "page: quiz question huge", method: "GET", path: "/quiz/rounds/" + round + "?q=99999999999999999999", want: 404},
		{name: "page: quiz question junk", method: "GET", path: "/quiz/rounds/" + round + "?q=" + url.QueryEscape(xss), want: 404},
		{name: "page: unknown path", method: "GET", path: "/" + url.PathEscape(xss), want: 404},

		// Forms.
		{name: "form: new game script mode", method: "POST", path: "/play", form: url.Values{"mode": {xss}}, want: 400, msg: "Unknown mode"},
		{name: "form: new game level junk", method: "POST", path: "/play", form: url.Values{"mode": {"computer"}, "level": {"8'; DROP TABLE games;--"}}, want: 400, msg: "level from 0 to 8"},
		{name: "form: new game level 0x10", method: "POST", path: "/play", form: url.Values{"mode": {"computer"}, "level": {"99"}}, want: 400, msg: "between 0 and 8"},
		{name: "form: new game bad FEN", method: "POST", path: "/play", form: url.Values{"mode": {"friend"}, "fen": {xss}}, want: 400, msg: "FEN"},
		{name: "form: new game 1 MB", method: "POST", path: "/play", form: url.Values{"mode": {"friend"}, "fen": {big}}, want: 413},
		{name: "form: practice off-board square", method: "POST", path: "/learn/" + lesson + "/practice?ex=" + ex.ID, form: url.Values{"square": {"z9"}}, want: 400},
		{name: "form: practice off-board mark", method: "POST", path: "/learn/" + lesson + "/practice?ex=" + ex.ID, form: url.Values{"marked": {"e4", xss}, "action": {"check"}}, want: 400},
		{name: "form: practice unknown button", method: "POST", path: "/learn/" + lesson + "/practice?ex=" + ex.ID, form: url.Values{"action": {"delete-everything"}}, want: 400, msg: "button"},
		{name: "form: practice unknown lesson", method: "POST", path: "/learn/nope/practice", form: url.Values{"action": {"check"}}, want: 404},
		{name: "form: lesson done unknown", method: "POST", path: "/learn/" + url.PathEscape(xss) + "/done", form: url.Values{}, want: 404},
		{name: "form: quiz answer unknown round", method: "POST", path: "/quiz/rounds/" + unknown + "/questions/1", form: url.Values{"choice": {"a"}}, want: 404},
		{name: "form: quiz question 0", method: "POST", path: "/quiz/rounds/" + round + "/questions/0", form: url.Values{"choice": {"a"}}, want: 404},
		{name: "form: quiz question huge", method: "POST", path: "/quiz/rounds/" + round + "/questions/99999999999999999999", form: url.Values{"choice": {"a"}}, want: 404},
		{name: "form: no CSRF token", method: "POST", path: "/play", contentType: "application/x-www-form-urlencoded", body: "mode=friend", want: 403, msg: "expired"},
		{name: "form: forged CSRF token", method: "POST", path: "/play", contentType: "application/x-www-form-urlencoded", body: "mode=friend&_csrf=" + strings.Repeat("0", 32), want: 403},
	}

	before := s.snapshot(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rec *httptest.ResponseRecorder
			if tc.form != nil {
				rec = v.form(tc.path, tc.form)
			} else {
				rec = v.do(tc.method, tc.path, tc.contentType, tc.body)
			}
			checkRefusal(t, tc, rec)
		})
	}
	if after := s.snapshot(t); after != before {
		t.Errorf("refused requests changed the database:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	s.noPanic(t)
}

// checkRefusal asserts the status, a clear message in the right format, no
// echoed script and no internals.
func checkRefusal(t *testing.T, tc hostileCase, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.String()
	if rec.Code != tc.want {
		t.Fatalf("status %d, want %d: %.300s", rec.Code, tc.want, body)
	}
	var msg string
	if strings.HasPrefix(tc.path, "/api/") {
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("Content-Type %q, want JSON", ct)
		}
		var out struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Error == "" {
			t.Fatalf("want {\"error\": \"…\"}, got %.300s", body)
		}
		msg = out.Error
	} else {
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("Content-Type %q, want an HTML page", ct)
		}
		msg = body
	}
	if tc.msg != "" && !strings.Contains(msg, tc.msg) {
		t.Errorf("message %q does not mention %q", clipText(msg), tc.msg)
	}
	if strings.Contains(body, xss) {
		t.Errorf("the reply echoes the script unescaped: %.300s", body)
	}
	for _, leak := range []string{"goroutine ", ".go:", "sqlite", "SQLITE", "panic", "echo/v4", "Echo"} {
		if strings.Contains(body, leak) {
			t.Errorf("the reply leaks %q: %.300s", leak, body)
		}
	}
}

func clipText(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// TestReflectedInputIsEscaped checks the pages that show a value from the
// query string back to the visitor escape it.
func TestReflectedInputIsEscaped(t *testing.T) {
	t.Parallel()
	s := newFullSite(t)
	v := s.visitor(t)
	for _, target := range []string{
		"/play?fen=" + url.QueryEscape(xss),
		"/play?mode=" + url.QueryEscape(xss) + "&fen=" + url.QueryEscape(`"><img src=x onerror=alert(1)>`),
	} {
		rec := v.do(http.MethodGet, target, "", "")
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d", target, rec.Code)
		}
		body := rec.Body.String()
		if strings.Contains(body, xss) || strings.Contains(body, "<img src=x") {
			t.Errorf("GET %s echoes markup unescaped", target)
		}
	}
	s.noPanic(t)
}
