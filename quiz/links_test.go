package quiz_test

import (
	"regexp"
	"strings"
	"testing"

	"chesstutor/lessons"
	"chesstutor/quiz"
)

// TestLessonLinks checks that every question links to a lesson that exists
// and to a heading inside it (Q3).
func TestLessonLinks(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatalf("lessons.Load: %v", err)
	}
	bank, err := quiz.Load()
	if err != nil {
		t.Fatalf("quiz.Load: %v", err)
	}
	idRE := regexp.MustCompile(`\sid="([^"]+)"`)
	anchors := map[string]map[string]bool{}
	for _, l := range course.Lessons() {
		anchors[l.Slug] = map[string]bool{}
		for _, m := range idRE.FindAllStringSubmatch(string(l.HTML), -1) {
			anchors[l.Slug][m[1]] = true
		}
	}
	for _, q := range bank.Questions() {
		slug, anchor, hasAnchor := strings.Cut(strings.TrimPrefix(q.Lesson, "/learn/"), "#")
		ids, ok := anchors[slug]
		if !ok {
			t.Errorf("%s: no lesson %q", q.ID, slug)
			continue
		}
		if hasAnchor && !ids[anchor] {
			t.Errorf("%s: lesson %q has no heading #%s (it has %v)", q.ID, slug, anchor, keys(ids))
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
