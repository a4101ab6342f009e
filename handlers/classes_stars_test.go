package handlers

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"chesstutor/puzzles"
)

// TestClassStarsAndPuzzles: the dashboard's page, JSON and CSV show each
// pupil's stars as /learn counts them (an exercise solved before stars
// were kept earns one) and their puzzles (solved and failed at the first
// attempt, rating); "solve N puzzles" homework, of a theme or any, is
// ticked on the pupil's pages once the first attempts are solved (T3, T4).
func TestClassStarsAndPuzzles(t *testing.T) {
	s := classSite(t)
	teacher, ana, ben := s.visitor(t), s.visitor(t), s.visitor(t)
	_, code, link := teacher.newClass(t, "Puzzle club")
	for v, name := range map[*siteVisitor]string{ana: "Ana", ben: "Ben"} {
		if rec := v.joinFrom(code, name, ""); rec.Code != http.StatusCreated {
			t.Fatal(rec.Body)
		}
	}

	// Bad puzzle homework is refused with the reason.
	for _, bad := range []string{`{"puzzles":0}`, `{"puzzles":101}`, `{"puzzles":3,"puzzle_theme":"cooking"}`,
		`{"puzzle_theme":"fork"}`} {
		rec := teacher.do(http.MethodPost, "/api"+link+"/homework", "application/json", bad)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"classes.refuse_puzzle`) {
			t.Errorf("homework %s = %d %s, want 400 with the reason", bad, rec.Code, rec.Body)
		}
	}
	p := somePuzzle(t, s, 1)
	theme := p.Themes[0]
	var other *puzzles.Puzzle
	for _, q := range s.h.puzzles.Set().All() {
		if q.ID != p.ID {
			other = q
			break
		}
	}
	anyHW := teacher.api(t, http.MethodPost, "/api"+link+"/homework", `{"puzzles":1}`, http.StatusCreated)
	themeHW := teacher.api(t, http.MethodPost, "/api"+link+"/homework",
		fmt.Sprintf(`{"puzzles":2,"puzzle_theme":%q}`, theme), http.StatusCreated)
	if fmt.Sprint(anyHW["items"]) != "[puzzles:1]" || fmt.Sprint(themeHW["items"]) != fmt.Sprintf("[puzzles:2:%s]", theme) {
		t.Fatalf("puzzle homework items = %v, %v", anyHW["items"], themeHW["items"])
	}
	home := ana.do(http.MethodGet, "/", "", "").Body.String()
	if !strings.Contains(home, `data-homework-item="puzzles:1"`) || strings.Contains(home, `data-homework-item="puzzles:1" data-done`) ||
		!strings.Contains(home, "Solve 1 puzzle") || !strings.Contains(home, "Solve 2 puzzles: ") {
		t.Fatalf("Ana's home page lacks the puzzle homework, or shows it done:\n%s", home)
	}

	// Ana: one exercise after a wrong try (2 stars), one at once (3), one
	// solved before stars were kept (1); one puzzle solved, one failed.
	ex1, ex2, ex3 := squaresExercise(t, s, 0), squaresExercise(t, s, 1), squaresExercise(t, s, 2)
	ana.checkSquares(t, ex1, false)
	ana.checkSquares(t, ex1, true)
	ana.checkSquares(t, ex2, true)
	if err := s.st.MarkExerciseSolved(context.Background(), ana.id, ex3.ID, ex3.Lesson); err != nil {
		t.Fatal(err)
	}
	var last map[string]any
	for ply := 0; ply < p.Plies(); ply += 2 {
		last = move(t, ana, p, p.Solution[ply].UCI(), ply, "", http.StatusOK)
	}
	if last["done"] != true || last["rated"] != true {
		t.Fatalf("solving %s: %v", p.ID, last)
	}
	move(t, ana, other, wrongMove(t, other, 0).UCI(), 0, "", http.StatusOK)
	me := ana.api(t, http.MethodGet, "/api/puzzles/me", "", http.StatusOK)

	d := dashboard(t, teacher, link)
	st := students(d)
	a, b := st["Ana"], st["Ben"]
	for k, want := range map[string]any{"stars": 6.0, "puzzles_solved": 1.0, "puzzles_failed": 1.0, "puzzle_rating": me["rating"]} {
		if a[k] != want {
			t.Errorf("Ana's %s = %v, want %v", k, a[k], want)
		}
	}
	for k, want := range map[string]any{"stars": 0.0, "puzzles_solved": 0.0, "puzzles_failed": 0.0, "puzzle_rating": nil} {
		if got, ok := b[k]; !ok || got != want {
			t.Errorf("Ben's %s = %v (present %v), want %v", k, got, ok, want)
		}
	}
	list, _ := d["homework"].([]any)
	doneBy := map[any]string{}
	for _, x := range list {
		hw, _ := x.(map[string]any)
		doneBy[hw["id"]] = fmt.Sprint(hw["done_by"])
	}
	if doneBy[anyHW["id"]] != "[Ana]" || doneBy[themeHW["id"]] != "<nil>" {
		t.Errorf("the dashboard's homework = %v, want Ana done with the one puzzle, not the two of %s", d["homework"], theme)
	}
	learn := ana.do(http.MethodGet, "/learn", "", "").Body.String()
	if !strings.Contains(learn, `data-homework-item="puzzles:1" data-done`) ||
		strings.Contains(learn, fmt.Sprintf(`data-homework-item="puzzles:2:%s" data-done`, theme)) {
		t.Error("/learn: one puzzle should be ticked, two of the theme not yet")
	}

	page := teacher.do(http.MethodGet, link+"?sort=stars&dir=desc", "", "").Body.String()
	rating := fmt.Sprint(me["rating"])
	for _, want := range []string{`data-col="stars">6<`, `data-col="puzzles">1 / 1<`, `data-col="rating">` + rating + `<`,
		`data-col="rating">–<`, `name="puzzles"`, `<option value="` + string(theme) + `">`} {
		if !strings.Contains(page, want) {
			t.Errorf("the dashboard page lacks %s", want)
		}
	}
	if strings.Index(page, ">Ana<") > strings.Index(page, ">Ben<") {
		t.Error("sorted by stars, most first, Ana should come before Ben")
	}
	// The dashboard's form gives puzzle homework too; a bad count is
	// refused on the page with the reason.
	if rec := teacher.form(link+"/homework", url.Values{"puzzles": {"5"}, "puzzle_theme": {"fork"}}); rec.Code != http.StatusSeeOther {
		t.Errorf("puzzle homework with the form = %d %s", rec.Code, rec.Body)
	}
	if got := teacher.do(http.MethodGet, link, "", "").Body.String(); !strings.Contains(got, `data-homework-item="puzzles:5:fork"`) {
		t.Error("the dashboard lacks the puzzle homework given with the form")
	}
	if rec := teacher.form(link+"/homework", url.Values{"puzzles": {"many"}}); rec.Code != http.StatusBadRequest ||
		!strings.Contains(rec.Body.String(), "Ask for 1 to 100 puzzles.") {
		t.Errorf("a bad puzzle count with the form = %d, want 400 with the reason", rec.Code)
	}
	rec := teacher.do(http.MethodGet, link+"/pupils.csv", "", "")
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(rec.Body.String(), "\ufeff"))).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("the CSV = %v, %v", rows, err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for h, want := range map[string]string{"Stars": "6", "Puzzles solved": "1", "Puzzles failed": "1", "Puzzle rating": rating} {
		i, ok := col[h]
		if !ok || rows[1][i] != want {
			t.Errorf("the CSV's %q for Ana = %v, want %s (header %v)", h, rows[1], want, rows[0])
		}
	}
	if i := col["Puzzle rating"]; rows[2][i] != "" {
		t.Errorf("Ben's puzzle rating in the CSV = %q, want empty", rows[2][i])
	}
}
