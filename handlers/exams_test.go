package handlers

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/exams"
)

// Step exams and certificates (L9, issue 36 point 4): the certificate is
// locked until the exam is passed, a failed exam stores nothing and may be
// retaken, a pass unlocks the certificate and shows on /learn, and a
// tampered exam is refused in words.

var examItemRe = regexp.MustCompile(`data-exam-item="([^"]+)"`)

// takeExam opens a fresh exam of step and answers it: right answers for
// the first right items, nothing for the rest. It returns the result page.
func takeExam(t *testing.T, c *lessonClient, step, right int) (string, int) {
	t.Helper()
	page := c.get("/exam/"+strconv.Itoa(step), http.StatusOK)
	if !strings.Contains(page, `data-exam="`+strconv.Itoa(step)+`"`) {
		t.Fatalf("the exam page lacks data-exam: %.300s", page)
	}
	var ids []string
	for _, m := range examItemRe.FindAllStringSubmatch(page, -1) {
		ids = append(ids, m[1])
	}
	s := exams.Steps(c.site.course)[step-1]
	items, err := exams.Read(s, c.site.bank, ids)
	if err != nil {
		t.Fatalf("the page's items %v: %v", ids, err)
	}
	form := url.Values{"item": ids}
	for i, it := range items {
		if i >= right {
			break
		}
		key := exams.Grade(it, nil, chess.Letters{}).Key
		field := "a" + strconv.Itoa(i+1)
		switch it.Kind {
		case exams.Choice:
			form[field] = key
		case exams.Move:
			form.Set(field, key[0])
		case exams.Setup:
			for _, pair := range key {
				sq, code, _ := strings.Cut(pair, "=")
				form.Set(field+"-"+sq, code)
			}
		default:
			form.Set(field, strings.Join(key, ", "))
		}
	}
	rec := c.form("/exam/"+strconv.Itoa(step), form)
	if rec.Code != http.StatusOK {
		t.Fatalf("POST the exam: %d %.300s", rec.Code, rec.Body)
	}
	return rec.Body.String(), len(items)
}

func TestExamFlow(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	ctx := context.Background()

	// Before passing, the certificate says what to do and links the exam.
	locked := c.get("/certificate/1", http.StatusOK)
	if !strings.Contains(locked, `data-certificate-locked="1"`) || !strings.Contains(locked, `href="/exam/1"`) || strings.Contains(locked, "data-certificate=") {
		t.Fatalf("the certificate before passing: %.500s", locked)
	}

	// A failed exam shows the score and a retake, and stores nothing.
	failed, n := takeExam(t, c, 1, 0)
	if n < exams.MinItems || n > exams.MaxItems {
		t.Errorf("the exam has %d items", n)
	}
	if !strings.Contains(failed, `data-exam-result="failed"`) || !strings.Contains(failed, `data-score="0/`) || !strings.Contains(failed, `data-action="retake"`) {
		t.Errorf("a failed exam's page: %.500s", failed)
	}
	if strings.Count(failed, `data-verdict="wrong"`) != n {
		t.Errorf("a failed exam shows %d wrong items, want %d", strings.Count(failed, `data-verdict="wrong"`), n)
	}
	if p, err := c.site.st.ExamPasses(ctx, c.id); err != nil || len(p) != 0 {
		t.Fatalf("passes after failing: %v, %v", p, err)
	}

	// Ten right of 10 to 12 is at least 83 %: a pass, which links the
	// certificate.
	passed, n := takeExam(t, c, 1, 10)
	if !strings.Contains(passed, `data-exam-result="passed"`) || !strings.Contains(passed, `href="/certificate/1"`) {
		t.Fatalf("10 of %d right: %.500s", n, passed)
	}
	p, err := c.site.st.ExamPasses(ctx, c.id)
	if err != nil || p[1].Score != 10 || p[1].Total != n {
		t.Fatalf("the pass stored: %+v, %v", p, err)
	}
	cert := c.get("/certificate/1", http.StatusOK)
	for _, want := range []string{`data-certificate="1"`, `data-certificate-name`, `data-certificate-date`, "names every square of the board", "The board and the pieces"} {
		if !strings.Contains(cert, want) {
			t.Errorf("the certificate lacks %q", want)
		}
	}
	// The name is typed in the page and never sent: its field has no
	// name and belongs to no form.
	field := cert[strings.Index(cert, `<input id="certificate-name"`):]
	field = field[:strings.Index(field, ">")]
	if strings.Contains(field, " name=") || strings.Contains(cert, `<form`) && strings.Index(cert, "<form") < strings.Index(cert, `id="certificate-name"`) && strings.Index(cert, "</form>") > strings.Index(cert, `id="certificate-name"`) {
		t.Errorf("the name field could be sent: %s", field)
	}

	// A retake that fails keeps the pass.
	if again, _ := takeExam(t, c, 1, 0); !strings.Contains(again, `data-exam-result="failed"`) {
		t.Error("the retake did not fail")
	}
	c.get("/certificate/1", http.StatusOK)
	if p, _ := c.site.st.ExamPasses(ctx, c.id); p[1].Score != 10 {
		t.Errorf("a failed retake changed the pass: %+v", p)
	}

	// /learn shows the steps, their stars and exam state.
	learn := c.get("/learn", http.StatusOK)
	for i := 1; i <= 4; i++ {
		if !strings.Contains(learn, `data-step="`+strconv.Itoa(i)+`"`) {
			t.Errorf("/learn lacks step %d", i)
		}
	}
	step1 := learn[strings.Index(learn, `data-step="1"`):strings.Index(learn, `data-step="2"`)]
	if !strings.Contains(step1, `data-exam-state="passed"`) || !strings.Contains(step1, `href="/certificate/1"`) || !strings.Contains(step1, `data-step-stars="0"`) {
		t.Errorf("step 1 on /learn: %.400s", step1[strings.Index(step1, "course-step-exam"):])
	}
	if step2 := learn[strings.Index(learn, `data-step="2"`):strings.Index(learn, `data-step="3"`)]; !strings.Contains(step2, `data-exam-state="open"`) || !strings.Contains(step2, `href="/exam/2"`) {
		t.Error("step 2 on /learn is not open with its exam link")
	}
	if strings.Count(learn, `data-lesson=`) != len(c.site.course.Lessons()) {
		t.Errorf("/learn lists %d lessons, the course has %d", strings.Count(learn, `data-lesson=`), len(c.site.course.Lessons()))
	}
}

func TestExamRefusals(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	for _, path := range []string{"/exam/0", "/exam/5", "/exam/x", "/certificate/9"} {
		c.get(path, http.StatusNotFound)
	}
	// An exam with an item from another step, or too few, is not graded.
	page := c.get("/exam/4", http.StatusOK)
	var ids []string
	for _, m := range examItemRe.FindAllStringSubmatch(page, -1) {
		ids = append(ids, m[1])
	}
	for name, posted := range map[string][]string{
		"foreign": append(ids[1:], "x:rook-corner"),
		"short":   ids[:3],
	} {
		rec := c.form("/exam/4", url.Values{"item": posted})
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "start a new exam of step 4") {
			t.Errorf("%s: %d %.300s", name, rec.Code, rec.Body)
		}
	}
	if p, _ := c.site.st.ExamPasses(context.Background(), c.id); len(p) != 0 {
		t.Errorf("a refused exam stored %v", p)
	}
}

// TestExamInEveryLanguage: the exam, its result and the locked
// certificate speak Spanish and Russian.
func TestExamInEveryLanguage(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	for lang, want := range map[string][]string{
		"es": {"Examen del paso 2", "Terminar el examen"},
		"ru": {"Экзамен ступени 2", "Закончить экзамен"},
	} {
		body := c.get("/exam/2?lang="+lang, http.StatusOK)
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the exam lacks %q", lang, w)
			}
		}
	}
}
