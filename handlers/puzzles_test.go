package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/puzzles"
)

// Puzzles (issue 34, P3–P7): the API, the pages without JavaScript, the
// rating of first attempts and the streak.

// somePuzzle returns a shipped puzzle with at least solverMoves moves of
// the solver's.
func somePuzzle(t *testing.T, s *fullSite, solverMoves int) *puzzles.Puzzle {
	t.Helper()
	for _, p := range s.h.puzzles.Set().All() {
		if p.SolverMoves() >= solverMoves {
			return p
		}
	}
	t.Skipf("no shipped puzzle has %d moves of the solver's", solverMoves)
	return nil
}

// wrongMove returns a legal move at ply that is neither the solution's
// nor a mate.
func wrongMove(t *testing.T, p *puzzles.Puzzle, ply int) chess.Move {
	t.Helper()
	pos := p.Position(ply)
	for _, m := range pos.LegalMoves() {
		if m != p.Solution[ply] && !pos.Play(m).IsCheckmate() {
			return m
		}
	}
	t.Fatalf("puzzle %s has no wrong move at ply %d", p.ID, ply)
	return chess.NoMove
}

func move(t *testing.T, v *siteVisitor, p *puzzles.Puzzle, uci string, ply int, extra string, want int) map[string]any {
	t.Helper()
	return v.api(t, http.MethodPost, "/api/puzzles/"+p.ID+"/move", fmt.Sprintf(`{"move":%q,"ply":%d%s}`, uci, ply, extra), want)
}

func TestPuzzleAPIShapes(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	next := v.api(t, http.MethodGet, "/api/puzzles/next", "", http.StatusOK)
	for _, k := range []string{"id", "fen", "color", "last_move", "themes", "rating"} {
		if _, ok := next[k]; !ok {
			t.Errorf("GET /api/puzzles/next has no %q: %v", k, next)
		}
	}
	id, _ := next["id"].(string)
	one := v.api(t, http.MethodGet, "/api/puzzles/"+id, "", http.StatusOK)
	if one["fen"] != next["fen"] || one["last_move"] != next["last_move"] || one["color"] != next["color"] {
		t.Errorf("GET /api/puzzles/%s = %v, want the same start as next gave: %v", id, one, next)
	}
	p, err := s.h.puzzles.Set().Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if one["fen"] != p.Start().FEN() || one["last_move"] != p.Last.UCI() || one["color"] != p.Color().String() {
		t.Errorf("puzzle %s: %v, want fen %s, last move %s", id, one, p.Start().FEN(), p.Last.UCI())
	}
	rec := v.do(http.MethodGet, "/api/puzzles/themes", "", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"theme":"material"`) || !strings.Contains(rec.Body.String(), `"count":`) {
		t.Errorf("GET /api/puzzles/themes = %d %s", rec.Code, rec.Body)
	}
	me := v.api(t, http.MethodGet, "/api/puzzles/me", "", http.StatusOK)
	if me["rating"] != float64(puzzles.NewVisitorRating.R) || me["solved"] != 0.0 || me["failed"] != 0.0 || me["streak_best"] != 0.0 {
		t.Errorf("a new visitor's /api/puzzles/me = %v", me)
	}
	// A theme narrows the choice.
	for i := 0; i < 5; i++ {
		got := v.api(t, http.MethodGet, "/api/puzzles/next?theme=hanging-piece", "", http.StatusOK)
		if !strings.Contains(fmt.Sprint(got["themes"]), "hanging-piece") {
			t.Errorf("next?theme=hanging-piece gave themes %v", got["themes"])
		}
	}
}

func TestPuzzleSolvedRatesOnce(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	p := somePuzzle(t, s, 2)
	var last map[string]any
	for ply := 0; ply < p.Plies(); ply += 2 {
		last = move(t, v, p, p.Solution[ply].UCI(), ply, "", http.StatusOK)
		if last["correct"] != true {
			t.Fatalf("the solution's move at ply %d was refused: %v", ply, last)
		}
		if ply+1 < p.Plies() {
			if last["done"] != false || last["reply"] != p.Solution[ply+1].UCI() || last["ply"] != float64(ply+2) {
				t.Fatalf("after ply %d: %v, want not done, reply %s, ply %d", ply, last, p.Solution[ply+1].UCI(), ply+2)
			}
		}
	}
	rating := last["rating"].(map[string]any)
	if last["done"] != true || last["rated"] != true || rating["after"].(float64) <= rating["before"].(float64) {
		t.Fatalf("the last move: %v, want done, rated, the rating up", last)
	}
	me := v.api(t, http.MethodGet, "/api/puzzles/me", "", http.StatusOK)
	if me["solved"] != 1.0 || me["rating"] != rating["after"] {
		t.Errorf("/api/puzzles/me after a solve = %v", me)
	}
	// Playing it again changes nothing: replays do not count.
	for ply := 0; ply < p.Plies(); ply += 2 {
		last = move(t, v, p, p.Solution[ply].UCI(), ply, "", http.StatusOK)
	}
	if last["rated"] != false {
		t.Errorf("a replay was rated: %v", last)
	}
	if again := v.api(t, http.MethodGet, "/api/puzzles/me", "", http.StatusOK); again["solved"] != 1.0 || again["rating"] != me["rating"] {
		t.Errorf("after a replay /api/puzzles/me = %v, want %v", again, me)
	}
}

func TestPuzzleWrongMoveIsPunishedAndTakenBack(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	p := somePuzzle(t, s, 1)
	bad := wrongMove(t, p, 0)
	out := move(t, v, p, bad.UCI(), 0, "", http.StatusOK)
	if out["correct"] != false || out["done"] != false || out["ply"] != 0.0 || out["fen"] != p.Start().FEN() {
		t.Fatalf("a wrong move: %v, want refused with the position kept", out)
	}
	reply, _ := out["reply"].(string)
	if reply == "" {
		t.Fatalf("a wrong move got no punishing reply: %v", out)
	}
	if _, err := p.Start().Play(bad).ParseUCI(reply); err != nil {
		t.Errorf("the punishing reply %s is not legal after %s: %v", reply, bad.UCI(), err)
	}
	reason, _ := out["reason"].(string)
	if reason == "" || !strings.Contains(reason, out["reply_san"].(string)) {
		t.Errorf("the reason %q does not name the reply %v", reason, out["reply_san"])
	}
	rating := out["rating"].(map[string]any)
	if out["rated"] != true || rating["after"].(float64) >= rating["before"].(float64) {
		t.Errorf("a failed first attempt: %v, want rated with the rating down", out)
	}
	// The learner tries again from the same position: solved, not rated.
	var last map[string]any
	for ply := 0; ply < p.Plies(); ply += 2 {
		last = move(t, v, p, p.Solution[ply].UCI(), ply, "", http.StatusOK)
	}
	if last["done"] != true || last["rated"] != false {
		t.Errorf("solving after a wrong try: %v, want done and not rated", last)
	}
	me := v.api(t, http.MethodGet, "/api/puzzles/me", "", http.StatusOK)
	if me["failed"] != 1.0 || me["solved"] != 0.0 {
		t.Errorf("/api/puzzles/me = %v, want one failed and none solved", me)
	}
}

func TestPuzzleRefusals(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	p := somePuzzle(t, s, 1)
	for _, c := range []struct {
		name, target, body string
		want               int
	}{
		{"odd ply", "/api/puzzles/" + p.ID + "/move", `{"move":"e2e4","ply":1}`, http.StatusConflict},
		{"ply past the end", "/api/puzzles/" + p.ID + "/move", fmt.Sprintf(`{"move":"e2e4","ply":%d}`, p.Plies()+1), http.StatusConflict},
		{"no ply", "/api/puzzles/" + p.ID + "/move", `{"move":"e2e4"}`, http.StatusBadRequest},
		{"illegal move", "/api/puzzles/" + p.ID + "/move", `{"move":"a1a1","ply":0}`, http.StatusUnprocessableEntity},
		{"not a move", "/api/puzzles/" + p.ID + "/move", `{"move":"hello","ply":0}`, http.StatusUnprocessableEntity},
		{"unknown puzzle", "/api/puzzles/zzzzzzzz/move", `{"move":"e2e4","ply":0}`, http.StatusNotFound},
		{"bad id", "/api/puzzles/NOT-AN-ID", "", http.StatusNotFound},
		{"bad mode", "/api/puzzles/" + p.ID + "/move", `{"move":"e2e4","ply":0,"mode":"blitz"}`, http.StatusBadRequest},
		{"streak not started", "/api/puzzles/" + p.ID + "/move", fmt.Sprintf(`{"move":%q,"ply":0,"mode":"streak"}`, p.Solution[0].UCI()), http.StatusConflict},
		{"unknown theme", "/api/puzzles/next?theme=nonsense", "", http.StatusBadRequest},
	} {
		method := http.MethodPost
		if c.body == "" {
			method = http.MethodGet
		}
		out := v.api(t, method, c.target, c.body, c.want)
		if out["error"] == "" || out["code"] == "" {
			t.Errorf("%s: %v, want an error and a code", c.name, out)
		}
	}
	if me := v.api(t, http.MethodGet, "/api/puzzles/me", "", http.StatusOK); me["failed"] != 0.0 || me["solved"] != 0.0 {
		t.Errorf("refused moves counted: %v", me)
	}
}

// TestPuzzleWithoutJavaScript plays a puzzle through the forms: a square
// selects the piece, another plays it; a wrong move shows the reply, the
// reason and a take-back link.
func TestPuzzleWithoutJavaScript(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	p := somePuzzle(t, s, 1)
	page := v.do(http.MethodGet, "/puzzles/"+p.ID, "", "")
	body := page.Body.String()
	if page.Code != http.StatusOK || !strings.Contains(body, `data-puzzle="`+p.ID+`"`) || !strings.Contains(body, "last-move") {
		t.Fatalf("GET /puzzles/%s = %d, want the board with data-puzzle and the last move", p.ID, page.Code)
	}
	side := "White"
	if p.Color() == chess.Black {
		side = "Black"
	}
	if !strings.Contains(body, "best move for "+side) && !strings.Contains(body, "only move that saves") {
		t.Errorf("the prompt does not name %s", side)
	}
	bad := wrongMove(t, p, 0)
	post := func(vals url.Values) string {
		vals.Set("ply", "0")
		rec := v.form("/puzzles/"+p.ID, vals)
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("POST /puzzles/%s %v = %d: %s", p.ID, vals, rec.Code, rec.Body)
		}
		return rec.Header().Get("Location")
	}
	loc := post(url.Values{"square": {bad.From().String()}})
	if !strings.Contains(loc, "sel="+bad.From().String()) {
		t.Fatalf("selecting %s went to %s", bad.From(), loc)
	}
	loc = post(url.Values{"square": {bad.To().String()}, "sel": {bad.From().String()}})
	if bad.IsPromotion() {
		loc = post(url.Values{"promote": {bad.UCI()}})
	}
	if !strings.Contains(loc, "wrong="+bad.UCI()) {
		t.Fatalf("a wrong move went to %s", loc)
	}
	page = v.do(http.MethodGet, loc, "", "")
	body = page.Body.String()
	if page.Code != http.StatusOK || !strings.Contains(body, `data-verdict="wrong"`) || !strings.Contains(body, `data-action="take-back"`) ||
		!strings.Contains(body, `data-reason`) {
		t.Fatalf("the page after a wrong move (%d) lacks the verdict, reason or take-back", page.Code)
	}
	if !strings.Contains(body, "Not this one.") || !strings.Contains(body, "your opponent") {
		t.Error("the wrong move's words are missing")
	}
	// Take back, then play the solution with the forms.
	good := p.Solution[0]
	post(url.Values{"square": {good.From().String()}})
	loc = post(url.Values{"square": {good.To().String()}, "sel": {good.From().String()}})
	if good.IsPromotion() {
		loc = post(url.Values{"promote": {good.UCI()}})
	}
	want := "solved="
	if p.Plies() > 1 {
		want = "ply=2"
	}
	if !strings.Contains(loc, want) {
		t.Fatalf("the solution's first move went to %s, want %s", loc, want)
	}
	if page := v.do(http.MethodGet, loc, "", ""); page.Code != http.StatusOK {
		t.Fatalf("GET %s = %d", loc, page.Code)
	}
	// The hint counts as help: the page shows it.
	rec := v.form("/puzzles/"+p.ID, url.Values{"ply": {"0"}, "action": {"hint"}})
	if rec.Code != http.StatusSeeOther || !strings.Contains(rec.Header().Get("Location"), "hint=1") {
		t.Fatalf("the hint button: %d %s", rec.Code, rec.Header().Get("Location"))
	}
	page = v.do(http.MethodGet, rec.Header().Get("Location"), "", "")
	if !strings.Contains(page.Body.String(), "data-hint") || !strings.Contains(page.Body.String(), good.From().String()) {
		t.Error("the hint page does not name the square of the piece to move")
	}
}

func TestPuzzleStreak(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	first := v.api(t, http.MethodPost, "/api/puzzles/streak", "", http.StatusOK)
	id, _ := first["id"].(string)
	p, err := s.h.puzzles.Set().Get(id)
	if err != nil {
		t.Fatal(err)
	}
	var last map[string]any
	for ply := 0; ply < p.Plies(); ply += 2 {
		last = move(t, v, p, p.Solution[ply].UCI(), ply, `,"mode":"streak"`, http.StatusOK)
	}
	if last["done"] != true || last["streak"] != 1.0 {
		t.Fatalf("solving the streak's first puzzle: %v, want done and a streak of 1", last)
	}
	// The page shows the streak's next puzzle.
	page := v.do(http.MethodGet, "/puzzles/streak", "", "")
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), `data-streak="1"`) {
		t.Fatalf("GET /puzzles/streak = %d, want the streak at 1", page.Code)
	}
	second, _, err := s.h.puzzles.StreakPuzzle(t.Context(), v.id)
	if err != nil || second == nil || second == p {
		t.Fatalf("the streak's second puzzle: %v, %v", second, err)
	}
	// The old puzzle is no longer the streak's.
	move(t, v, p, p.Solution[0].UCI(), 0, `,"mode":"streak"`, http.StatusConflict)
	// The second is solved with the forms: the last move lands on the
	// streak's page with a word of praise and the count of 2.
	for ply := 0; ply < second.Plies(); ply += 2 {
		m := second.Solution[ply]
		base := url.Values{"ply": {fmt.Sprint(ply)}, "mode": {"streak"}}
		sel := url.Values{"square": {m.From().String()}}
		to := url.Values{"square": {m.To().String()}, "sel": {m.From().String()}}
		if m.IsPromotion() {
			to = url.Values{"promote": {m.UCI()}}
		}
		for _, vals := range []url.Values{sel, to} {
			for k, vs := range base {
				vals[k] = vs
			}
		}
		v.form("/puzzles/"+second.ID, sel)
		rec := v.form("/puzzles/"+second.ID, to)
		if ply+1 == second.Plies() {
			if loc := rec.Header().Get("Location"); loc != "/puzzles/streak?won=1" {
				t.Fatalf("the form's last move in a streak went to %q", loc)
			}
		}
	}
	page = v.do(http.MethodGet, "/puzzles/streak?won=1", "", "")
	if !strings.Contains(page.Body.String(), "Solved! Well done.") || !strings.Contains(page.Body.String(), `data-streak="2"`) {
		t.Error("the streak page after a solve by form lacks the praise or the count of 2")
	}
	third, _, err := s.h.puzzles.StreakPuzzle(t.Context(), v.id)
	if err != nil || third == nil {
		t.Fatalf("the streak's third puzzle: %v, %v", third, err)
	}
	out := move(t, v, third, wrongMove(t, third, 0).UCI(), 0, `,"mode":"streak"`, http.StatusOK)
	if out["streak_over"] != true || out["streak"] != 2.0 {
		t.Fatalf("a mistake in the streak: %v, want it over after 2", out)
	}
	me := v.api(t, http.MethodGet, "/api/puzzles/me", "", http.StatusOK)
	if me["streak_best"] != 2.0 || me["streak"] != 0.0 {
		t.Errorf("/api/puzzles/me after the streak = %v, want best 2 and none running", me)
	}
	if page := v.do(http.MethodGet, "/puzzles/streak", "", ""); !strings.Contains(page.Body.String(), `data-action="start-streak"`) {
		t.Error("after the streak ended, the streak page offers no new start")
	}
}

func TestDailyPuzzlePage(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	page := v.do(http.MethodGet, "/puzzles/daily", "", "")
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), "Puzzle of the day") ||
		!strings.Contains(page.Body.String(), `data-puzzle="`+s.h.puzzles.Daily().ID+`"`) {
		t.Fatalf("GET /puzzles/daily = %d, want today's puzzle", page.Code)
	}
}
