package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/classes"
	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/store"
	"chesstutor/words"
)

// classSite is a site for the classroom tests, with room for their
// requests.
func classSite(t *testing.T) *fullSite {
	t.Helper()
	s, _ := transferSite(t, Limits{})
	return s
}

// newClass makes a class through the API as v and returns its answer.
func (v *siteVisitor) newClass(t *testing.T, name string) (id, code, teacherURL string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"name": name})
	out := v.api(t, http.MethodPost, "/api/classes", string(body), http.StatusCreated)
	id, _ = out["id"].(string)
	code, _ = out["join_code"].(string)
	teacherURL, _ = out["teacher_url"].(string)
	return id, code, teacherURL
}

// joinFrom posts a join from the client address addr ("" for the default).
func (v *siteVisitor) joinFrom(code, nickname, addr string) *httptest.ResponseRecorder {
	body, _ := json.Marshal(map[string]string{"code": code, "nickname": nickname})
	req := httptest.NewRequest(http.MethodPost, "/api/classes/join", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if addr != "" {
		req.RemoteAddr = addr + ":40000"
	}
	req.AddCookie(v.cookie)
	return v.site.serve(req)
}

// checkSquares answers a squares exercise, right or wrong.
func (v *siteVisitor) checkSquares(t *testing.T, ex *lessons.Exercise, right bool) {
	t.Helper()
	names := []string{}
	if right {
		for _, sq := range exercise.Answer(ex.Pos, ex.From) {
			names = append(names, sq.String())
		}
	}
	body, _ := json.Marshal(map[string][]string{"squares": names})
	out := v.api(t, http.MethodPost, "/api/exercises/"+ex.ID+"/check", string(body), http.StatusOK)
	if out["correct"] != right {
		t.Fatalf("checking %s (right %v) = %v", ex.ID, right, out)
	}
}

// squaresExercise is the course's first "click every square" exercise
// with at least one answer square.
func squaresExercise(t *testing.T, s *fullSite, skip int) *lessons.Exercise {
	t.Helper()
	for _, ex := range s.course.Exercises() {
		if ex.Kind == lessons.KindSquares && len(exercise.Answer(ex.Pos, ex.From)) > 0 {
			if skip == 0 {
				return ex
			}
			skip--
		}
	}
	t.Fatal("the course has no squares exercise")
	return nil
}

func dashboard(t *testing.T, v *siteVisitor, teacherURL string) map[string]any {
	t.Helper()
	return v.api(t, http.MethodGet, "/api"+teacherURL, "", http.StatusOK)
}

func students(d map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	list, _ := d["students"].([]any)
	for _, s := range list {
		m, _ := s.(map[string]any)
		out[fmt.Sprint(m["nickname"])] = m
	}
	return out
}

// TestClassCreateJoinAndDashboard: a teacher makes a class (a secret link
// of 144 bits, a six-character code without 0/O/1/I/L), three pupils join
// (one twice, with the code typed loosely), and the dashboard, its JSON
// and its CSV show what each did, from work the server checked (T1–T3).
func TestClassCreateJoinAndDashboard(t *testing.T) {
	s := classSite(t)
	teacher, ana, ben, cleo := s.visitor(t), s.visitor(t), s.visitor(t), s.visitor(t)
	_, code, link := teacher.newClass(t, "Tuesday club")
	if !regexp.MustCompile(`^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{6}$`).MatchString(code) {
		t.Errorf("join code %q: want 6 characters without 0, O, 1, I, L", code)
	}
	if !regexp.MustCompile(`^/teach/[A-Za-z0-9_-]{24}$`).MatchString(link) {
		t.Errorf("teacher_url %q: want /teach/ and 24 characters (144 bits)", link)
	}
	loose := strings.ToLower(code[:3]) + "-" + code[3:]
	for _, c := range []struct {
		v        *siteVisitor
		code     string
		nickname string
		want     int
	}{
		{ana, loose, "Ana", http.StatusCreated},
		{ana, code, "Someone else", http.StatusOK}, // already in: her first nickname stays
		{ben, code, " Ben  the  Bishop ", http.StatusCreated},
		{cleo, code, "ANA", http.StatusConflict},
		{cleo, code, "Cleo 7", http.StatusCreated},
	} {
		if rec := c.v.joinFrom(c.code, c.nickname, ""); rec.Code != c.want {
			t.Errorf("join as %q = %d %s, want %d", c.nickname, rec.Code, rec.Body, c.want)
		}
	}

	// Ana reads the first lesson and solves an exercise; Ben misses one
	// five times (stuck) and plays nothing; Cleo does nothing.
	first := s.course.Lessons()[0]
	if rec := ana.form("/learn/"+first.Slug+"/done", url.Values{}); rec.Code != http.StatusSeeOther {
		t.Fatalf("marking the lesson read = %d", rec.Code)
	}
	ex := squaresExercise(t, s, 0)
	ana.checkSquares(t, ex, true)
	for range stuckAfter {
		ben.checkSquares(t, ex, false)
	}

	d := dashboard(t, teacher, link)
	st := students(d)
	if len(st) != 3 {
		t.Fatalf("students = %v, want Ana, Ben the Bishop and Cleo 7", st)
	}
	a, b := st["Ana"], st["Ben the Bishop"]
	if a == nil || b == nil || st["Cleo 7"] == nil {
		t.Fatalf("students = %v", st)
	}
	for field, want := range map[string]any{"lessons_done": 1.0, "exercises_solved": 1.0, "move_exercises_solved": 0.0,
		"games_played": 0.0, "trainer_self_reported": true} {
		if a[field] != want {
			t.Errorf("Ana's %s = %v, want %v", field, a[field], want)
		}
	}
	if a["last_active"] == nil || st["Cleo 7"]["last_active"] != nil {
		t.Errorf("last active: Ana %v, Cleo %v", a["last_active"], st["Cleo 7"]["last_active"])
	}
	if fmt.Sprint(b["stuck"]) != "["+ex.ID+"]" || b["exercises_solved"] != 0.0 {
		t.Errorf("Ben: stuck %v, solved %v; want stuck on %s", b["stuck"], b["exercises_solved"], ex.ID)
	}

	page := teacher.do(http.MethodGet, link, "", "")
	body := page.Body.String()
	if page.Code != http.StatusOK || strings.Count(body, "data-student=") != 3 || !strings.Contains(body, "data-stuck-exercise=\""+ex.ID) ||
		!strings.Contains(body, code) {
		t.Errorf("the dashboard page = %d, want three rows, Ben stuck and the code", page.Code)
	}
	if cc := page.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("the dashboard's Cache-Control = %q, want no-store (it holds the teacher link)", cc)
	}
	sorted := teacher.do(http.MethodGet, link+"?sort=lessons&dir=desc", "", "").Body.String()
	if i, j := strings.Index(sorted, ">Ana"), strings.Index(sorted, ">Cleo 7"); i < 0 || j < 0 || i > j {
		t.Errorf("sorted by lessons, descending: Ana should come before Cleo")
	}
	csv := teacher.do(http.MethodGet, link+"/pupils.csv", "", "")
	if csv.Code != http.StatusOK || !strings.Contains(csv.Body.String(), "Ben the Bishop,0,0") ||
		!strings.Contains(csv.Header().Get("Content-Disposition"), "attachment") {
		t.Errorf("the CSV = %d %q", csv.Code, csv.Body)
	}
	sheet := teacher.do(http.MethodGet, link+"/sheet", "", "").Body.String()
	if !strings.Contains(sheet, "/join/qr.svg?code="+code) || strings.Count(sheet, "card-code") < 8 {
		t.Error("the join sheet lacks its QR code or its cards")
	}
	qr := teacher.do(http.MethodGet, "/join/qr.svg?code="+code, "", "")
	if qr.Code != http.StatusOK || !strings.HasPrefix(qr.Body.String(), "<svg") {
		t.Errorf("the join QR code = %d", qr.Code)
	}
	detail := teacher.do(http.MethodGet, link+"?lesson="+ex.Lesson, "", "").Body.String()
	if !strings.Contains(detail, `data-lesson-detail="`+ex.Lesson+`"`) {
		t.Error("the lesson's exercises, pupil by pupil, are not shown on demand")
	}

	// The pupils see their class, not one another.
	me := ana.api(t, http.MethodGet, "/api/me", "", http.StatusOK)
	if cls, _ := me["classes"].([]any); len(cls) != 1 || !strings.Contains(fmt.Sprint(cls), "Tuesday club") {
		t.Errorf("Ana's /api/me classes = %v", me["classes"])
	}
	for _, path := range []string{"/", "/learn", "/join", "/api/me"} {
		if got := ana.do(http.MethodGet, path, "", "").Body.String(); strings.Contains(got, "Bishop") || strings.Contains(got, "Cleo") {
			t.Errorf("Ana's %s shows another pupil's nickname", path)
		}
	}
	// The teacher's browser remembers the class.
	if got := teacher.do(http.MethodGet, "/teach", "", "").Body.String(); !strings.Contains(got, link) {
		t.Error("/teach does not list the class the teacher made")
	}
	// On another device the link opens the class; a button makes that
	// browser remember it too (a page view stores nothing).
	laptop := s.visitor(t)
	if got := laptop.do(http.MethodGet, link, "", "").Body.String(); !strings.Contains(got, `data-action="remember-class"`) {
		t.Error("another device is not offered to remember the class")
	}
	if rec := laptop.form(link+"/remember", url.Values{}); rec.Code != http.StatusSeeOther {
		t.Errorf("remembering = %d", rec.Code)
	}
	if got := laptop.do(http.MethodGet, "/teach", "", "").Body.String(); !strings.Contains(got, link) {
		t.Error("the other device does not list the class it remembered")
	}
	if got := laptop.do(http.MethodGet, link, "", "").Body.String(); strings.Contains(got, `data-action="remember-class"`) {
		t.Error("a remembered class still offers to be remembered")
	}
	if strings.Contains(s.log.String(), strings.TrimPrefix(link, "/teach/")) {
		t.Error("the teacher link's secret reached the log")
	}
}

// TestClassHomework: the teacher gives a lesson and a level as homework;
// the pupil's home page and /learn show "Homework from …" and tick the
// lesson once read; the dashboard shows who is done; bad homework is
// refused with the reason (T4).
func TestClassHomework(t *testing.T) {
	s := classSite(t)
	teacher, pupil := s.visitor(t), s.visitor(t)
	_, code, link := teacher.newClass(t, "Chess Club")
	if rec := pupil.joinFrom(code, "Max", ""); rec.Code != http.StatusCreated {
		t.Fatal(rec.Body)
	}
	first := s.course.Lessons()[0].Slug
	for _, bad := range []string{`{"lessons":[]}`, `{"lessons":["no-such"]}`, `{"lessons":["` + first + `"],"due":"31/01/2030"}`,
		`{"beat_level":99}`, `{"quiz_topics":["cooking"]}`} {
		rec := teacher.do(http.MethodPost, "/api"+link+"/homework", "application/json", bad)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"classes.refuse_`) {
			t.Errorf("homework %s = %d %s, want 400 with the reason", bad, rec.Code, rec.Body)
		}
	}
	hw := teacher.api(t, http.MethodPost, "/api"+link+"/homework",
		`{"lessons":["`+first+`"],"beat_level":0,"due":"2030-01-31"}`, http.StatusCreated)
	hwID, _ := hw["id"].(string)

	home := pupil.do(http.MethodGet, "/", "", "").Body.String()
	if !strings.Contains(home, `data-homework="`+hwID+`"`) || !strings.Contains(home, "Homework from Chess Club") ||
		strings.Contains(home, `data-homework-item="lesson:`+first+`" data-done`) {
		t.Fatalf("the pupil's home page lacks the homework, or shows it done:\n%s", home)
	}
	if rec := pupil.form("/learn/"+first+"/done", url.Values{}); rec.Code != http.StatusSeeOther {
		t.Fatal(rec.Code)
	}
	learn := pupil.do(http.MethodGet, "/learn", "", "").Body.String()
	if !strings.Contains(learn, `data-homework-item="lesson:`+first+`" data-done`) || strings.Contains(learn, `data-homework="`+hwID+`" data-done`) {
		t.Error("/learn: the lesson should be ticked, the homework not yet done (the level is left)")
	}
	me := pupil.api(t, http.MethodGet, "/api/me", "", http.StatusOK)
	if fmt.Sprint(me["homework"]) == "[]" || !strings.Contains(fmt.Sprint(me["homework"]), "done:[lesson:"+first+"]") {
		t.Errorf("/api/me homework = %v", me["homework"])
	}

	// Beating level 0 finishes it: a game the server played and judged.
	g := &store.Game{ID: store.NewID(), Visitor: pupil.id, Mode: "computer", HumanColor: "white", Level: 0, ClockName: "none",
		StartFEN: chess.StartFEN, Status: "checkmate", Result: "1-0", Reason: "checkmate", Snapshots: []store.ClockPair{{}}}
	if err := s.st.CreateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	if home := pupil.do(http.MethodGet, "/", "", "").Body.String(); !strings.Contains(home, `data-homework="`+hwID+`" data-done`) {
		t.Error("the homework is not shown done after the lesson and the game")
	}
	d := dashboard(t, teacher, link)
	if !strings.Contains(fmt.Sprint(d["homework"]), "done_by:[Max]") {
		t.Errorf("the dashboard's homework = %v, want Max done", d["homework"])
	}
	if rec := teacher.do(http.MethodDelete, "/api"+link+"/homework/"+hwID, "", ""); rec.Code != http.StatusNoContent {
		t.Errorf("deleting the homework = %d", rec.Code)
	}
	if home := pupil.do(http.MethodGet, "/", "", "").Body.String(); strings.Contains(home, "data-homework=") {
		t.Error("deleted homework still shows")
	}
}

// TestClassHostile: guessing codes is stopped per address while right
// codes cost nothing; a nickname that is markup, an address or an e-mail
// is refused; a pupil (or anyone) with the class id, a made-up secret or
// a rotated link gets 404; removing, forgetting and deleting take pupils
// out; a class holds at most 100 (T5).
func TestClassHostile(t *testing.T) {
	s := classSite(t)
	teacher, pupil, guesser := s.visitor(t), s.visitor(t), s.visitor(t)
	classID, code, link := teacher.newClass(t, "Club")

	for _, nick := range []string{"<script>alert(1)</script>", "a@b.es", "http://x.io", "www.x.com", "", strings.Repeat("a", 21), "Ana\u202eevil"} {
		rec := pupil.joinFrom(code, nick, "")
		if rec.Code != http.StatusBadRequest {
			t.Errorf("nickname %q = %d, want 400", nick, rec.Code)
		}
	}
	if r := dashboard(t, teacher, link); len(students(r)) != 0 {
		t.Fatalf("a refused nickname was stored: %v", r["students"])
	}

	// Twenty wrong codes a minute from one address, then 429 — even for
	// the right code; right codes from the school's address cost nothing.
	for i := range classes.MaxPupils / 4 {
		v := s.visitor(t)
		if rec := v.joinFrom(code, fmt.Sprint("Kid ", i), "10.0.0.1"); rec.Code != http.StatusCreated {
			t.Fatalf("right code %d from the school = %d %s", i, rec.Code, rec.Body)
		}
	}
	wrong := "ZZZZZZ"
	if wrong == code {
		wrong = "YYYYYY"
	}
	for i := range DefaultJoinBurst {
		if rec := guesser.joinFrom(wrong, "Guess", "10.0.0.9"); rec.Code != http.StatusNotFound {
			t.Fatalf("wrong code %d = %d, want 404", i, rec.Code)
		}
	}
	rec := guesser.joinFrom(code, "Guess", "10.0.0.9")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Errorf("the right code after 20 wrong ones = %d, want 429 with Retry-After", rec.Code)
	}
	if rec := guesser.joinFrom(code, "Guess", "10.0.0.10"); rec.Code != http.StatusCreated {
		t.Errorf("another address = %d, want 201", rec.Code)
	}

	// Making classes is limited per address: 20 at once, then one a minute.
	maker := s.visitor(t)
	made := 0
	for range 25 {
		req := httptest.NewRequest(http.MethodPost, "/api/classes", strings.NewReader(`{"name":"Spam"}`))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = "10.0.0.30:40000"
		req.AddCookie(maker.cookie)
		if s.serve(req).Code == http.StatusCreated {
			made++
		}
	}
	if made != 20 {
		t.Errorf("%d classes made at once from one address, want 20", made)
	}

	// A pupil calling the teacher API: with the class id, the code, or a
	// made-up secret: 404, the same as an unknown class.
	for _, secret := range []string{classID, code, strings.Repeat("A", 24), "../../api/me", ""} {
		for _, path := range []string{"/api/teach/" + url.PathEscape(secret), "/teach/" + url.PathEscape(secret)} {
			if rec := pupil.do(http.MethodGet, path, "", ""); rec.Code != http.StatusNotFound && rec.Code != http.StatusMovedPermanently {
				t.Errorf("GET %s = %d, want 404", path, rec.Code)
			}
		}
		if rec := pupil.do(http.MethodPost, "/api/teach/"+url.PathEscape(secret)+"/rotate", "application/json", "{}"); rec.Code != http.StatusNotFound {
			t.Errorf("rotating with %q = %d, want 404", secret, rec.Code)
		}
	}

	// Rotating: the old link stops at once (page, API, actions), the new one works.
	out := teacher.api(t, http.MethodPost, "/api"+link+"/rotate", "{}", http.StatusOK)
	fresh, _ := out["teacher_url"].(string)
	if fresh == link || !strings.HasPrefix(fresh, "/teach/") {
		t.Fatalf("rotate = %v", out)
	}
	if rec := teacher.do(http.MethodGet, fresh+"/qr.svg", "", ""); rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), "<svg") {
		t.Errorf("the new link's QR code = %d", rec.Code)
	}
	for _, path := range []string{link, "/api" + link, link + "/pupils.csv", link + "/sheet", link + "/qr.svg"} {
		if rec := teacher.do(http.MethodGet, path, "", ""); rec.Code != http.StatusNotFound {
			t.Errorf("the old link %s = %d, want 404", path, rec.Code)
		}
	}
	if got := teacher.do(http.MethodGet, "/teach", "", "").Body.String(); strings.Contains(got, link) || !strings.Contains(got, fresh) {
		t.Error("/teach should remember the new link, not the old one")
	}
	link = fresh

	// Remove one pupil, forget another, then delete the class.
	st := students(dashboard(t, teacher, link))
	kid0 := fmt.Sprint(st["Kid 0"]["id"])
	if rec := teacher.do(http.MethodDelete, "/api"+link+"/students/"+kid0, "", ""); rec.Code != http.StatusNoContent {
		t.Errorf("removing a pupil = %d", rec.Code)
	}
	if rec := teacher.do(http.MethodDelete, "/api"+link+"/students/"+kid0, "", ""); rec.Code != http.StatusNotFound {
		t.Errorf("removing them again = %d, want 404", rec.Code)
	}
	rename := teacher.do(http.MethodPatch, "/api"+link+"/students/"+fmt.Sprint(st["Kid 1"]["id"]), "application/json", `{"nickname":"Kid 2"}`)
	if rename.Code != http.StatusConflict {
		t.Errorf("renaming to a taken nickname = %d, want 409", rename.Code)
	}
	before := len(st)
	if rec := pupil.joinFrom(code, "Pupil", ""); rec.Code != http.StatusCreated {
		t.Fatal(rec.Body)
	}
	if rec := pupil.do(http.MethodDelete, "/api/me", "", ""); rec.Code != http.StatusNoContent {
		t.Fatal(rec.Code)
	}
	if got := len(students(dashboard(t, teacher, link))); got != before-1 {
		t.Errorf("after a removal and a forget-me: %d pupils, want %d", got, before-1)
	}

	// At most 100 pupils: fill the class in the store, the 101st is refused.
	ctx := context.Background()
	for i := range classes.MaxPupils {
		v := fmt.Sprintf("%032x", 0xf000+i)
		if err := s.st.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
		_, _, err := s.st.JoinClass(ctx, &store.Member{ID: store.NewID(), ClassID: classID, Visitor: v,
			Nickname: fmt.Sprint("F", i), NicknameKey: fmt.Sprint("f", i)}, classes.MaxPupils)
		if err != nil && err != store.ErrFull {
			t.Fatal(err)
		}
	}
	late := s.visitor(t)
	if rec := late.joinFrom(code, "Late", "10.0.0.20"); rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "refuse_class_full") {
		t.Errorf("the 101st pupil = %d %s, want 409 full", rec.Code, rec.Body)
	}

	if rec := teacher.do(http.MethodDelete, "/api"+link, "", ""); rec.Code != http.StatusNoContent {
		t.Fatal(rec.Code)
	}
	if rec := teacher.do(http.MethodGet, "/api"+link, "", ""); rec.Code != http.StatusNotFound {
		t.Errorf("a deleted class = %d, want 404", rec.Code)
	}
	if list, err := s.st.VisitorClasses(ctx, fmt.Sprintf("%032x", 0xf000)); err != nil || len(list) != 0 {
		t.Errorf("a pupil's classes after the class was deleted: %v, %v", list, err)
	}
}

// TestClassForms: the pages work without JavaScript: make a class with
// the form, join with the form (a refusal says why, in place), give
// homework and remove a pupil with forms.
func TestClassForms(t *testing.T) {
	s := classSite(t)
	teacher, pupil := s.visitor(t), s.visitor(t)
	if rec := teacher.form("/teach", url.Values{"name": {""}}); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "role=\"alert\"") {
		t.Errorf("an empty class name = %d, want 400 with the reason", rec.Code)
	}
	rec := teacher.form("/teach", url.Values{"name": {"Form club"}})
	link, _, _ := strings.Cut(rec.Header().Get("Location"), "?")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(link, "/teach/") {
		t.Fatalf("making a class = %d → %q", rec.Code, link)
	}
	page := teacher.do(http.MethodGet, link+"?new=1", "", "").Body.String()
	code := regexp.MustCompile(`data-join-code>([A-Z0-9]{6})<`).FindStringSubmatch(page)
	if code == nil {
		t.Fatal("the dashboard does not show the join code")
	}
	bad := pupil.form("/join", url.Values{"code": {code[1]}, "nickname": {"a@b"}})
	if bad.Code != http.StatusBadRequest || !strings.Contains(bad.Body.String(), "data-join-error") || !strings.Contains(bad.Body.String(), `value="`+code[1]+`"`) {
		t.Errorf("a bad nickname = %d, want 400 with the reason and the code kept", bad.Code)
	}
	ok := pupil.form("/join", url.Values{"code": {code[1]}, "nickname": {"Zoe"}})
	if ok.Code != http.StatusSeeOther {
		t.Fatalf("joining with the form = %d %s", ok.Code, ok.Body)
	}
	if got := pupil.do(http.MethodGet, ok.Header().Get("Location"), "", "").Body.String(); !strings.Contains(got, "data-joined=") {
		t.Error("the join page does not welcome the pupil")
	}
	first := s.course.Lessons()[0].Slug
	if rec := teacher.form(link+"/homework", url.Values{"lesson": {first}, "due": {"2030-02-01"}}); rec.Code != http.StatusSeeOther {
		t.Errorf("homework with the form = %d %s", rec.Code, rec.Body)
	}
	ex := squaresExercise(t, s, 0)
	if rec := teacher.form(link+"/homework", url.Values{"exercise": {ex.ID}}); rec.Code != http.StatusSeeOther {
		t.Errorf("an exercise as homework with the form = %d %s", rec.Code, rec.Body)
	}
	if got := teacher.do(http.MethodGet, link+"?lesson="+ex.Lesson, "", "").Body.String(); !strings.Contains(got, `data-homework-item="exercise:`+ex.ID+`"`) ||
		!strings.Contains(got, `name="exercise" value="`+ex.ID+`"`) {
		t.Error("the lesson's detail lacks the exercise homework form, or the dashboard the homework")
	}
	if rec := teacher.form(link+"/homework", url.Values{}); rec.Code != http.StatusBadRequest {
		t.Errorf("empty homework with the form = %d, want 400", rec.Code)
	}
	if got := pupil.do(http.MethodGet, "/", "", "").Body.String(); !strings.Contains(got, "Homework from Form club") {
		t.Error("the pupil's home page lacks the homework")
	}
	id := regexp.MustCompile(`data-student="([0-9a-f]{32})"`).FindStringSubmatch(teacher.do(http.MethodGet, link, "", "").Body.String())
	if id == nil {
		t.Fatal("no pupil row")
	}
	if rec := teacher.form(link+"/pupils/"+id[1]+"/remove", url.Values{}); rec.Code != http.StatusSeeOther {
		t.Errorf("removing with the form = %d", rec.Code)
	}
	if rec := pupil.form("/join/leave", url.Values{"class": {"x"}}); rec.Code != http.StatusSeeOther {
		t.Errorf("leaving a class one is not in = %d", rec.Code)
	}
	if rec := teacher.form(link+"/delete", url.Values{}); rec.Code != http.StatusSeeOther || !strings.Contains(rec.Header().Get("Location"), "confirm=delete") {
		t.Errorf("deleting without the tick = %d → %s, want back to confirm", rec.Code, rec.Header().Get("Location"))
	}
	if rec := teacher.form(link+"/delete", url.Values{"confirm": {"yes"}}); rec.Code != http.StatusSeeOther {
		t.Errorf("deleting = %d", rec.Code)
	}
	if rec := teacher.do(http.MethodGet, link, "", ""); rec.Code != http.StatusNotFound {
		t.Errorf("the deleted class's page = %d", rec.Code)
	}
}

// TestClassPagesPseudoLanguage: every classroom page (the teacher's, the
// pupil's, the homework on the home page and /learn, the privacy page's
// section) speaks only the catalogue's words (N9), and viewing them
// stores nothing (N8).
func TestClassPagesPseudoLanguage(t *testing.T) {
	s := newSite(t, siteOptions{limits: Limits{APIRate: 1e6, APIBurst: 1e6}, words: pseudoWords(t)})
	teacher, pupil := s.visitor(t), s.visitor(t)
	_, code, link := teacher.newClass(t, "Klub")
	if rec := pupil.joinFrom(code, "Zed", ""); rec.Code != http.StatusCreated {
		t.Fatal(rec.Body)
	}
	ex := squaresExercise(t, s, 0)
	for range stuckAfter {
		pupil.checkSquares(t, ex, false)
	}
	teacher.api(t, http.MethodPost, "/api"+link+"/homework",
		`{"lessons":["`+s.course.Lessons()[0].Slug+`"],"quiz_topics":["check"],"beat_level":2,"due":"2030-01-31"}`, http.StatusCreated)
	// The course's titles are content, English by design; the code and
	// the address are data.
	content := []string{code, "example.com/join"}
	for _, l := range s.course.Lessons() {
		content = append(content, l.Title, l.Summary)
	}
	sort.Slice(content, func(i, j int) bool { return len(content[i]) > len(content[j]) })
	get := func(v *siteVisitor, path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.AddCookie(v.cookie)
		req.AddCookie(&http.Cookie{Name: langCookie, Value: words.Pseudo})
		return s.serve(req)
	}
	for _, p := range []struct {
		v    *siteVisitor
		path string
	}{
		{teacher, "/teach"}, {teacher, link}, {teacher, link + "?lesson=" + ex.Lesson + "&sort=quiz"}, {teacher, link + "/sheet"},
		{pupil, "/"}, {pupil, "/learn"}, {pupil, "/join"}, {pupil, "/join?code=" + code}, {pupil, "/privacy"},
	} {
		rec := get(p.v, p.path)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d", p.path, rec.Code)
			continue
		}
		body := strings.ReplaceAll(strings.ReplaceAll(rec.Body.String(), "Klub", ""), "Zed", "")
		if bare := bareText(t, body, content); len(bare) > 0 {
			t.Errorf("%s shows texts outside the catalogue:\n  %s", p.path, strings.Join(bare, "\n  "))
		}
	}
	before := s.snapshot(t)
	for _, p := range []string{"/teach", "/join", "/join?code=" + code, link, link + "/sheet"} {
		if rec := s.from("198.51.100.8", http.MethodGet, p, ""); rec.Code != http.StatusOK {
			t.Errorf("a cookieless GET %s = %d", p, rec.Code)
		}
	}
	if s.snapshot(t) != before {
		t.Error("viewing the classroom pages stored something")
	}
}
