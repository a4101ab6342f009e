package handlers

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"chesstutor/lessons"
)

// help asks the help API of one exercise.
func (c *exerciseClient) help(id, body string) (int, map[string]any) {
	c.t.Helper()
	rec := c.do(http.MethodPost, "/api/exercises/"+id+"/help", "application/json", body)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		c.t.Fatalf("help %s: body is not JSON: %v: %.200s", id, err, rec.Body)
	}
	return rec.Code, out
}

// TestMoveExerciseHelp asks for a hint and the answer of "play the move"
// exercises (X12, issue 38 point 5): the hint names the piece, the answer
// the move, after the first two moves of a mate in two too; nothing is
// stored, and other kinds of exercise are refused.
func TestMoveExerciseHelp(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	code, out := c.help("mate-one-queen-corner", `{"kind":"hint"}`)
	if code != http.StatusOK || out["square"] != "b1" || out["move"] != nil {
		t.Fatalf("hint: %d %v", code, out)
	}
	if text, _ := out["text"].(string); !strings.Contains(text, "queen on b1") {
		t.Errorf("hint text = %q, want the queen on b1", text)
	}
	code, out = c.help("mate-one-queen-corner", `{"kind":"answer"}`)
	if code != http.StatusOK || out["move"] != "b1b8" || out["san"] != "Qb8#" {
		t.Fatalf("answer: %d %v", code, out)
	}
	if text, _ := out["text"].(string); !strings.Contains(text, "♕b8#") || !strings.Contains(text, "Checkmate") {
		t.Errorf("answer text = %q, want the move in figurines and what it does", text)
	}
	if c.solved()["mate-one-queen-corner"] {
		t.Error("asking for the answer stored a solve")
	}
	code, out = c.help("mate-two-back-rank", `{"kind":"answer","line":["e2e8","a8e8"]}`)
	if code != http.StatusOK || out["move"] != "e1e8" {
		t.Errorf("answer after Re8+ Rxe8: %d %v", code, out)
	}
	for _, tc := range []struct{ id, body string }{
		{"mate-one-queen-corner", `{"kind":"all"}`},
		{"board-name-e4", `{"kind":"hint"}`},
		{"mate-two-back-rank", `{"kind":"hint","line":["a1a2","a8e8"]}`},
		{"mate-two-back-rank", `{"kind":"hint","line":["e2e3","a8a7"]}`},
	} {
		if code, out := c.help(tc.id, tc.body); code != http.StatusBadRequest || out["error"] == "" {
			t.Errorf("help %s %s: %d %v, want 400 with words", tc.id, tc.body, code, out)
		}
	}
}

// TestMoveExerciseWrongMoveShown: a wrong legal move's answer carries the
// position after it, for the page to show before taking it back, and a
// mate names the mated king's square.
func TestMoveExerciseWrongMoveShown(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	_, out := c.check("mate-one-queen-corner", `{"move":"b1h1"}`)
	if fen, _ := out["fen"].(string); out["correct"] != false || fen == "" || out["check"] != "h8" {
		t.Errorf("Qh1+: fen %q, check %v, want the position after it and h8", fen, out["check"])
	}
	_, out = c.check("mate-one-queen-corner", `{"move":"b1b8"}`)
	if out["check"] != "h8" {
		t.Errorf("Qb8#: check = %v, want h8", out["check"])
	}
}

// nextHref is the href of the practice page's Next link.
func nextHref(t *testing.T, page string) string {
	t.Helper()
	i := strings.Index(page, `data-action="next"`)
	if i < 0 {
		t.Fatalf("no Next link on the page")
	}
	tag := page[strings.LastIndex(page[:i], "<a "):i]
	j := strings.Index(tag, `href="`)
	if j < 0 {
		t.Fatalf("Next has no href: %s", tag)
	}
	href := tag[j+len(`href="`):]
	return strings.ReplaceAll(href[:strings.Index(href, `"`)], "&amp;", "&")
}

// TestNextAfterLastExerciseReadsOn: after a lesson's last exercise, Next
// opens the next lesson to read, and its practice only once that lesson
// is read (L12, issue 38 point 2).
func TestNextAfterLastExerciseReadsOn(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	all := c.course.Lessons()
	var l *lessons.Lesson // the first lesson with exercises followed by one with exercises
	for _, cand := range all {
		if len(cand.Exercises) > 0 && cand.Next != nil && len(cand.Next.Exercises) > 0 {
			l = cand
			break
		}
	}
	if l == nil {
		t.Fatal("no two lessons with exercises in a row")
	}
	last := l.Exercises[len(l.Exercises)-1].PracticeURL()
	if got, want := nextHref(t, c.get(last, http.StatusOK)), "/learn/"+l.Next.Slug; got != want {
		t.Errorf("Next after %s's last exercise = %q, want the next lesson %q", l.Slug, got, want)
	}
	c.markDone(l.Next.Slug)
	if got, want := nextHref(t, c.get(last, http.StatusOK)), l.Next.Exercises[0].PracticeURL(); got != want {
		t.Errorf("Next once %s is read = %q, want its practice %q", l.Next.Slug, got, want)
	}
}

// TestMovesInWordsBeforeNotation: before the notation lesson a move
// exercise's feedback names the move in words beside its notation
// (issue 38), in every language.
func TestMovesInWordsBeforeNotation(t *testing.T) {
	t.Parallel()
	c := newExerciseClient(t)
	_, out := c.check("mate-one-queen-corner", `{"move":"b1c1"}`)
	if out["said"] != "♕c1 (the queen to c1)" {
		t.Errorf("said = %v, want the move in words beside it", out["said"])
	}
	if r, _ := out["reason"].(string); !strings.Contains(r, "♕c1 (the queen to c1)") || strings.Contains(r, "Qc1") {
		t.Errorf("reason = %q, want the move in words, not in English letters", r)
	}
	if out["san"] != "Qc1" {
		t.Errorf("san = %v, the machine field stays English SAN", out["san"])
	}
	for lang, want := range map[string]string{"es": "♕c1 (la dama a c1)", "ru": "♕c1 (ферзь идёт на c1)"} {
		rec := c.do(http.MethodPost, "/api/exercises/mate-one-queen-corner/check?lang="+lang, "application/json", `{"move":"b1c1"}`)
		var got map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || got["said"] != want {
			t.Errorf("%s: said = %v (%v), want %q", lang, got["said"], err, want)
		}
	}
}
