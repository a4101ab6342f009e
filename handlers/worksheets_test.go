package handlers

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"chesstutor/lessons"
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

// screenWords are the words of a screen (clicking, tapping, dragging,
// pressing) that a printed sheet must not use, per language: a stem
// matches at the start of a word (Spanish: whole words).
var screenWords = map[string]*regexp.Regexp{
	"en": regexp.MustCompile(`(?i)(^|[^\p{L}])(click|tap|taps|tapping|drag|press)`),
	// Whole words in Spanish: the touch-move rule's "has tocado" is chess.
	"es": regexp.MustCompile(`(?i)(^|[^\p{L}])(pulsa|pulse|pulsando|clic|toca|toque|tocando|arrastra|arrastre)([^\p{L}]|$)`),
	"ru": regexp.MustCompile(`(?i)(^|[^\p{L}])(нажм|нажим|кликн|щёлкн|щелкн|коснис|касай|перетащ)`),
}

var taskLineRe = regexp.MustCompile(`(?s)<p class="worksheet-(?:task-line|intro)">(.*?)</p>`)

// A printed sheet asks in printed words (issue 36): no worksheet task of
// any lesson, in any language, says click or tap; a square exercise asks
// to mark the squares.
func TestWorksheetsUsePrintedWords(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	for lang, re := range screenWords {
		squares := 0
		for _, l := range c.site.course.Lessons() {
			if len(l.Exercises) == 0 {
				continue
			}
			body := c.get("/learn/"+l.Slug+"/worksheet?lang="+lang, http.StatusOK)
			lines := taskLineRe.FindAllStringSubmatch(body, -1)
			if len(lines) < 7 { // the intro and at least six tasks
				t.Fatalf("%s %s: %d task lines", lang, l.Slug, len(lines))
			}
			for _, m := range lines {
				if w := re.FindString(m[1]); w != "" {
					t.Errorf("%s %s: a printed task says %q: %s", lang, l.Slug, strings.TrimSpace(w), m[1])
				}
			}
			for _, ex := range l.Exercises {
				if ex.Kind == lessons.KindSquares {
					squares++
				}
			}
		}
		if squares < 40 {
			t.Errorf("%s: only %d square exercises were looked at", lang, squares)
		}
	}
}
