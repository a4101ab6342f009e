package handlers

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"chesstutor/exercise"
	"chesstutor/words"
)

// The square-name trainer (issue 15, X7): scoring, the no-JS round and the
// score API.

func TestTrainerScoring(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	st := exercise.TrainerState{View: "white", Mode: exercise.TrainerFind, Seed: 42, Started: start}
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		a, b := exercise.TrainerTarget(42, i), exercise.TrainerTarget(42, i+1)
		if a == b {
			t.Fatalf("targets %d and %d are both %s", i, i+1, a)
		}
		seen[a.String()] = true
	}
	if len(seen) < 10 {
		t.Errorf("20 targets cover only %d squares", len(seen))
	}
	// Right: a point and a new square. Wrong: a miss, and a new square too.
	first := st.Target()
	if res, over := st.Answer(first, start.Add(time.Second)); !res.Correct || over || st.Score != 1 || st.N != 1 {
		t.Fatalf("right answer: %+v over=%v state %+v", res, over, st)
	}
	second := st.Target()
	wrong := (second + 9) % 64
	res, over := st.Answer(wrong, start.Add(2*time.Second))
	if res.Correct || over || st.Score != 1 || st.Misses != 1 || st.N != 2 || st.Target() == second {
		t.Fatalf("wrong answer: %+v over=%v state %+v", res, over, st)
	}
	if why := words.Default().For("en").Msg(res.Reason); !strings.Contains(why, "That is "+wrong.String()+", not "+second.String()) {
		t.Errorf("wrong answer reason = %q", why)
	}
	// After 30 seconds nothing counts.
	if _, over := st.Answer(second, start.Add(exercise.TrainerRound)); !over || st.Score != 1 {
		t.Errorf("an answer after the round counted: %+v", st)
	}
	// States no round can have are refused.
	for _, bad := range []exercise.TrainerState{
		{View: "sideways", Mode: "find", Started: start},
		{View: "white", Mode: "guess", Started: start},
		{View: "white", Mode: "find", Started: start.Add(time.Hour)},
		{View: "white", Mode: "find", Started: start, N: 3, Score: 2},
		{View: "white", Mode: "find", Started: start, N: exercise.MaxTrainerScore + 1, Score: exercise.MaxTrainerScore + 1},
	} {
		if bad.Validate(start) == nil {
			t.Errorf("state %+v was accepted", bad)
		}
	}
}

func TestTrainerWithoutJavaScript(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s.h.now = func() time.Time { return now }
	v := s.visitor(t)
	get := func(target string) string {
		t.Helper()
		rec := v.do(http.MethodGet, target, "", "")
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d: %.300s", target, rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	post := func(values url.Values) string {
		t.Helper()
		rec := v.form("/practice/squares", values)
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("POST %v = %d: %.300s", values, rec.Code, rec.Body)
		}
		return rec.Header().Get("Location")
	}
	body := get("/practice/squares?view=black")
	for _, want := range []string{`data-trainer`, `data-view="black"`, `data-orientation="black"`, `value="start"`, "Best <strong data-best>–"} {
		if !strings.Contains(body, want) {
			t.Errorf("start page lacks %q", want)
		}
	}
	loc := post(url.Values{"view": {"black"}, "mode": {"find"}, "action": {"start"}})
	state := func(loc string) url.Values {
		u, err := url.Parse(loc)
		if err != nil {
			t.Fatal(err)
		}
		return u.Query()
	}
	q := state(loc)
	target := func(q url.Values) string {
		seed, _ := strconv.ParseUint(q.Get("seed"), 10, 64)
		n, _ := strconv.Atoi(q.Get("n"))
		return exercise.TrainerTarget(seed, n).String()
	}
	body = get(loc)
	if !strings.Contains(body, `data-target="`+target(q)+`"`) || !strings.Contains(body, `name="seed"`) {
		t.Fatalf("the running page lacks the target %s or the round's hidden fields", target(q))
	}
	answer := func(q url.Values, sq string) url.Values {
		q.Set("square", sq)
		return state(post(q))
	}
	// Two right, one wrong.
	q = answer(q, target(q))
	now = now.Add(3 * time.Second)
	q = answer(q, target(q))
	wrongSq := "a1"
	if target(q) == "a1" {
		wrongSq = "h8"
	}
	missedSq := target(q)
	q = answer(q, wrongSq)
	if q.Get("n") != "3" || q.Get("miss") != "1" || q.Get("last") != "wrong" {
		t.Fatalf("after two right and one wrong: %v", q)
	}
	// The round goes on with a new square; the miss is explained and marked.
	if body = get("/practice/squares?" + q.Encode()); !strings.Contains(body, "That is "+wrongSq+", not "+missedSq) {
		t.Error("the wrong answer's reason is missing")
	} else if !regexp.MustCompile(`class="[^"]*\bmissed\b[^"]*"[^>]*data-square="` + missedSq + `"`).MatchString(body) {
		t.Errorf("the missed square %s is not marked", missedSq)
	}
	// A forged score is refused.
	forged := url.Values{}
	for k, vs := range q {
		forged[k] = vs
	}
	forged.Set("n", "500")
	if rec := v.form("/practice/squares", forged); rec.Code != http.StatusBadRequest {
		t.Errorf("a forged score: %d, want 400", rec.Code)
	}
	// After 30 seconds the next answer ends the round and saves the best.
	now = now.Add(exercise.TrainerRound)
	q.Set("square", target(q))
	loc = post(q)
	if d := state(loc); d.Get("done") != "2" || d.Get("new") != "1" {
		t.Fatalf("the round's end redirects to %q", loc)
	}
	if body = get(loc); !strings.Contains(body, "Time! You found 2 squares. A new best score!") || !strings.Contains(body, "Best <strong data-best>2") {
		t.Errorf("the end page lacks the score or the best")
	}
	// The best is per view: White's view has none yet.
	if body = get("/practice/squares?view=white"); !strings.Contains(body, "Best <strong data-best>–") {
		t.Error("White's view shows Black's best")
	}

	// Name mode: the typed name answers.
	now = now.Add(time.Minute)
	q = state(post(url.Values{"view": {"white"}, "mode": {"name"}, "action": {"start"}}))
	if body = get("/practice/squares?" + q.Encode()); !strings.Contains(body, `name="answer"`) || !strings.Contains(body, "target") {
		t.Error("name mode lacks the answer field or the marked square")
	}
	q.Set("answer", strings.ToUpper(target(q)))
	if q = state(post(q)); q.Get("n") != "1" || q.Get("last") != "right" {
		t.Errorf("typing the name: %v", q)
	}
}

func TestTrainerScoreAPI(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	v := s.visitor(t)
	out := v.api(t, http.MethodPost, "/api/trainer/scores", `{"view":"white","mode":"find","score":14,"misses":3}`, http.StatusOK)
	if out["best"] != float64(14) || out["newBest"] != true {
		t.Fatalf("first score: %v", out)
	}
	out = v.api(t, http.MethodPost, "/api/trainer/scores", `{"view":"white","mode":"find","score":9,"misses":0}`, http.StatusOK)
	if out["best"] != float64(14) || out["newBest"] != false {
		t.Fatalf("a lower score: %v", out)
	}
	if body := v.do(http.MethodGet, "/practice/squares", "", "").Body.String(); !strings.Contains(body, "Best <strong data-best>14") {
		t.Error("the page does not show the saved best")
	}
	for _, bad := range []string{
		`{"view":"white","mode":"find","score":151}`,
		`{"view":"white","mode":"find","score":-1}`,
		`{"view":"white","mode":"find"}`,
		`{"view":"up","mode":"find","score":3}`,
		`{"view":"white","mode":"fast","score":3}`,
		`{"view":"white","mode":"find","score":3,"extra":1}`,
	} {
		if rec := v.do(http.MethodPost, "/api/trainer/scores", "application/json", bad); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", bad, rec.Code)
		}
	}
}
