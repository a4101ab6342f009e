package handlers

import (
	"net/http"
	"strings"
	"testing"
)

// Worksheets (issue 36, L10): every lesson with exercises has one, with
// 6 to 12 diagrams and as many answers; a lesson without exercises has
// none, and says so in the visitor's language.
func TestWorksheets(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	for _, l := range c.site.course.Lessons() {
		if len(l.Exercises) == 0 {
			body := c.get("/learn/"+l.Slug+"/worksheet", http.StatusNotFound)
			if !strings.Contains(body, "has no worksheet") {
				t.Errorf("%s: the 404 does not say why", l.Slug)
			}
			continue
		}
		body := c.get("/learn/"+l.Slug+"/worksheet", http.StatusOK)
		tasks := strings.Count(body, `class="worksheet-task"`)
		answers := strings.Count(body, `data-answer="`)
		if tasks < 6 || tasks > 12 || answers != tasks || !strings.Contains(body, "data-answers") {
			t.Errorf("%s: %d tasks, %d answers", l.Slug, tasks, answers)
		}
		if strings.Contains(body, `data-answer="1"></li>`) {
			t.Errorf("%s: an empty answer", l.Slug)
		}
	}
	// In Russian: the page's words and the lesson's prompts.
	body := c.get("/learn/tactics/worksheet?lang=ru", http.StatusOK)
	if !strings.Contains(body, "Лист с заданиями") || !strings.Contains(body, "Найди вилку конём") {
		t.Error("the Russian worksheet is not in Russian")
	}
	if !strings.Contains(c.get("/learn", http.StatusOK), `href="/learn/tactics/worksheet"`) {
		t.Error("/learn does not link the worksheets")
	}
}
