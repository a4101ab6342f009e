package handlers

import (
	"context"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestOtherVisitorsGameIs404 checks that a second visitor gets 404 for
// every action on someone else's game, exactly as for a game that does not
// exist, and that none of it changes the game (N2, H1).
func TestOtherVisitorsGameIs404(t *testing.T) {
	t.Parallel()
	s := newFullSite(t)
	owner, other := s.visitor(t), s.visitor(t)
	id := owner.newGame(t, `{"mode":"friend","clock":"5+0","pass_screen":false}`)
	owner.api(t, "POST", "/api/games/"+id+"/moves", `{"move":"e2e4","ply":0}`, http.StatusOK)
	owner.api(t, "POST", "/api/games/"+id+"/draw", `{"ply":1}`, http.StatusOK) // an offer waits, so accept/decline would work for the owner
	// The other visitor's first post stores their own (empty) visitor row
	// (N8: rows are made at the first write); from then on nothing of
	// theirs changes either.
	other.do("POST", "/api/games/"+strings.Repeat("0f", 16)+"/moves", "application/json", `{"move":"e7e5","ply":1}`)
	before := s.snapshot(t)

	actions := []struct{ method, path, body string }{
		{"GET", "/api/games/" + id, ""},
		{"GET", "/api/games/" + id + "/pgn", ""},
		{"POST", "/api/games/" + id + "/moves", `{"move":"e7e5","ply":1}`},
		{"POST", "/api/games/" + id + "/moves", `{"san":"e5","ply":1}`},
		{"POST", "/api/games/" + id + "/undo", `{"ply":1}`},
		{"POST", "/api/games/" + id + "/resign", `{"ply":1}`},
		{"POST", "/api/games/" + id + "/draw", `{"ply":1}`},
		{"POST", "/api/games/" + id + "/draw/accept", `{"ply":1}`},
		{"POST", "/api/games/" + id + "/draw/decline", `{"ply":1}`},
		{"POST", "/api/games/" + id + "/flag", `{"ply":1}`},
		{"POST", "/api/games/" + id + "/pause", `{"ply":1}`},
		{"POST", "/api/games/" + id + "/resume", `{"ply":1}`},
		{"POST", "/api/games/" + id + "/reply", `{"ply":1}`},
	}
	missing := strings.Repeat("0f", 16)
	for _, a := range actions {
		ct := ""
		if a.body != "" {
			ct = "application/json"
		}
		rec := other.do(a.method, a.path, ct, a.body)
		if rec.Code != http.StatusNotFound {
			t.Errorf("another visitor: %s %s = %d, want 404: %s", a.method, a.path, rec.Code, rec.Body)
			continue
		}
		// The answer must not tell "someone else's" from "no such game".
		ghost := other.do(a.method, strings.Replace(a.path, id, missing, 1), ct, a.body)
		if ghost.Code != rec.Code || ghost.Body.String() != rec.Body.String() {
			t.Errorf("%s %s: another visitor's game answers %d %s, a missing game %d %s",
				a.method, a.path, rec.Code, rec.Body, ghost.Code, ghost.Body)
		}
	}
	if rec := other.do("GET", "/play/"+id, "", ""); rec.Code != http.StatusNotFound {
		t.Errorf("another visitor: GET /play/%s = %d, want 404", id, rec.Code)
	}
	if rec := other.do("GET", "/games", "", ""); strings.Contains(rec.Body.String(), id) {
		t.Errorf("another visitor's game list shows the owner's game")
	}
	if after := s.snapshot(t); after != before {
		t.Errorf("another visitor's requests changed the database:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	// The owner still has full use of the game.
	owner.api(t, "POST", "/api/games/"+id+"/draw/decline", `{"ply":1}`, http.StatusOK)
	owner.api(t, "POST", "/api/games/"+id+"/moves", `{"move":"e7e5","ply":1}`, http.StatusOK)
	if rec := owner.do("GET", "/api/games/"+id+"/pgn", "", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "1. e4 e5") {
		t.Errorf("owner's PGN: %d %s", rec.Code, rec.Body)
	}
	s.noPanic(t)
}

// TestOtherVisitorsProgressAndQuiz checks that lessons read, exercises
// solved and quiz rounds and scores stay with their visitor: another
// visitor sees exactly what a newcomer sees and cannot open the rounds.
func TestOtherVisitorsProgressAndQuiz(t *testing.T) {
	t.Parallel()
	s := newFullSite(t)
	owner := s.visitor(t)
	ex := firstSquaresExercise(s.course)
	var squares []string
	for _, sq := range ex.Pos.Destinations(ex.From) {
		squares = append(squares, `"`+sq.String()+`"`)
	}
	res := owner.api(t, "POST", "/api/exercises/"+ex.ID+"/check", `{"squares":[`+strings.Join(squares, ",")+`]}`, http.StatusOK)
	if res["correct"] != true {
		t.Fatalf("the exercise's own answer was not correct: %v", res)
	}
	if rec := owner.form("/learn/"+s.course.Lessons()[0].Slug+"/done", url.Values{}); rec.Code != http.StatusSeeOther {
		t.Fatalf("mark lesson read = %d", rec.Code)
	}
	// A finished quiz round, so the owner's home page shows a score.
	round := owner.startQuiz(t)
	r, err := s.st.QuizRound(context.Background(), owner.id, round)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Questions {
		if _, _, err := s.st.AnswerQuiz(context.Background(), owner.id, round, i, "x", i%2 == 0); err != nil {
			t.Fatal(err)
		}
	}
	open := owner.startQuiz(t) // and one still running

	other, newcomer := s.visitor(t), s.visitor(t)
	for _, path := range []string{"/", "/learn", "/practice", "/learn/" + ex.Lesson + "/practice", "/quiz", "/games"} {
		mine := pageFor(t, owner, path)
		theirs := pageFor(t, other, path)
		fresh := pageFor(t, newcomer, path)
		if theirs != fresh {
			t.Errorf("GET %s: another visitor's page differs from a newcomer's, so it shows someone's data", path)
		}
		if path != "/games" && path != "/learn/"+ex.Lesson+"/practice" && mine == fresh {
			t.Logf("GET %s: the owner's page shows no progress either (nothing to compare)", path)
		}
	}
	if pageFor(t, owner, "/") == pageFor(t, newcomer, "/") {
		t.Errorf("the owner's home page shows no progress or score, so this test compares nothing")
	}
	for _, target := range []string{"/quiz/rounds/" + round, "/quiz/rounds/" + open, "/quiz/rounds/" + open + "?q=1"} {
		if rec := other.do("GET", target, "", ""); rec.Code != http.StatusNotFound {
			t.Errorf("another visitor: GET %s = %d, want 404", target, rec.Code)
		}
	}
	// The other visitor's first post stores their own (empty) row (N8);
	// after it, nothing they send may change the database.
	other.do("POST", "/api/quiz/rounds/"+strings.Repeat("0f", 16)+"/answers", "application/json", `{"index":1,"answer":["a"]}`)
	before := s.snapshot(t)
	if rec := other.form("/quiz/rounds/"+open+"/questions/1", url.Values{"choice": {"a"}}); rec.Code != http.StatusNotFound {
		t.Errorf("another visitor answering the owner's round by form = %d, want 404", rec.Code)
	}
	if rec := other.do("POST", "/api/quiz/rounds/"+open+"/answers", "application/json", `{"index":1,"answer":["a"]}`); rec.Code != http.StatusNotFound {
		t.Errorf("another visitor answering the owner's round by API = %d, want 404", rec.Code)
	}
	if after := s.snapshot(t); after != before {
		t.Errorf("another visitor's quiz answers were stored")
	}
	s.noPanic(t)
}

// pageFor fetches a page and removes the visitor's own CSRF token, the one
// thing that rightly differs between two visitors' identical pages.
func pageFor(t *testing.T, v *siteVisitor, path string) string {
	t.Helper()
	rec := v.do("GET", path, "", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s = %d", path, rec.Code)
	}
	return strings.ReplaceAll(rec.Body.String(), csrfToken(v.id), "TOKEN")
}

// TestVisitorIDs checks the visitor ids: 128 random bits from crypto/rand
// as 32 hex digits, all different; a forged, malformed or never-issued
// cookie value gets a fresh id and none of the owner's data (N2).
func TestVisitorIDs(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 2000 {
		id, err := newVisitorID()
		if err != nil {
			t.Fatal(err)
		}
		b, err := hex.DecodeString(id)
		if err != nil || len(b) != 16 || !validVisitorID(id) {
			t.Fatalf("visitor id %q is not 128 bits as 32 lower-case hex digits", id)
		}
		if seen[id] {
			t.Fatalf("visitor id %s handed out twice", id)
		}
		seen[id] = true
	}

	s := newFullSite(t)
	owner := s.visitor(t)
	game := owner.newGame(t, `{"mode":"friend"}`)
	upper := strings.ToUpper(owner.id)
	flipped := []byte(owner.id)
	flipped[31] ^= 1 // one bit away from the owner's id
	forged := []string{
		"",
		"1",
		"admin",
		"' OR '1'='1",
		upper,
		owner.id + "0",
		owner.id[:31],
		string(flipped),
		strings.Repeat("0", 32),
		strings.Repeat("g", 32),
		"../../etc/passwd",
	}
	for _, value := range forged {
		req := newRequest("GET", "/api/games/"+game)
		req.AddCookie(&http.Cookie{Name: visitorCookie, Value: value})
		rec := s.serve(req)
		if rec.Code != http.StatusNotFound {
			t.Errorf("cookie %q: GET the owner's game = %d, want 404", value, rec.Code)
		}
		// The refused id is dropped; a read hands out no cookie (the
		// first stored write will, with a fresh id).
		if ck := visitorCookieOf(rec); ck != nil {
			t.Errorf("cookie %q: a read set a visitor cookie %q", value, ck.Value)
		}
	}
	// The real cookie still works.
	owner.api(t, "GET", "/api/games/"+game, "", http.StatusOK)
	s.noPanic(t)
}

func newRequest(method, target string) *http.Request {
	req, err := http.NewRequest(method, target, nil)
	if err != nil {
		panic(err)
	}
	return req
}
