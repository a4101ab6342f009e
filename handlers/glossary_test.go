package handlers

import (
	"net/http"
	"strings"
	"testing"
)

func TestGlossary(t *testing.T) {
	t.Parallel()
	c := newLessonClient(t)
	body := c.get("/glossary", http.StatusOK)
	for _, word := range []string{"Arbiter", "Develop", "Gain time", "Fork", "Pin", "Perpetual check", `<dl>`} {
		if !strings.Contains(body, word) {
			t.Errorf("/glossary lacks %q", word)
		}
	}
	// Every page's footer links to it.
	if home := c.get("/", http.StatusOK); !strings.Contains(home, `href="/glossary"`) {
		t.Error("the footer does not link to /glossary")
	}
	// Its lesson links lead to lessons that exist.
	for _, part := range strings.Split(body, `href="/learn/`)[1:] {
		slug := part[:strings.IndexAny(part, `"#`)]
		if _, ok := c.course.Lesson(slug); !ok {
			t.Errorf("/glossary links to the unknown lesson %q", slug)
		}
	}
}
