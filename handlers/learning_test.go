package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// finishQuizRound plays a whole round through the JSON API with right
// answers for the first `right` questions and a wrong one for the rest.
func finishQuizRound(t *testing.T, s *fullSite, v *siteVisitor, right int) {
	t.Helper()
	id := v.startQuiz(t)
	r, err := s.st.QuizRound(context.Background(), v.id, id)
	if err != nil {
		t.Fatal(err)
	}
	for i, qid := range r.Questions {
		q, _ := s.bank.Question(qid)
		answer := q.Key()
		if i >= right {
			var ids []string
			for _, o := range q.Options {
				ids = append(ids, o.ID)
			}
			answer = missAnswer(q.Key(), q.Board(), ids)
		}
		body, _ := json.Marshal(map[string]any{"index": i + 1, "answer": answer})
		v.api(t, http.MethodPost, "/api/quiz/rounds/"+id+"/answers", string(body), http.StatusOK)
	}
}

// missAnswer is an answer that differs from key: one square or option
// that is not in it.
func missAnswer(key []string, board bool, options []string) []string {
	in := map[string]bool{}
	for _, k := range key {
		in[k] = true
	}
	if board {
		for _, sq := range []string{"a1", "h8", "a8", "h1"} {
			if !in[sq] {
				return append(append([]string{}, key...), sq)
			}
		}
	}
	for _, o := range options {
		if !in[o] {
			return []string{o}
		}
	}
	return key
}

// TestQuizSparkline: after two rounds the quiz page and the home page
// draw the scores as a small SVG on the server, named in words.
func TestQuizSparkline(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	v := s.visitor(t)
	finishQuizRound(t, s, v, 6)
	if page := v.do(http.MethodGet, "/quiz", "", "").Body.String(); strings.Contains(page, "quiz-sparkline") {
		t.Error("one round already draws a sparkline; a line needs two scores")
	}
	finishQuizRound(t, s, v, 9)
	for _, path := range []string{"/quiz", "/"} {
		page := v.do(http.MethodGet, path, "", "").Body.String()
		if !strings.Contains(page, `<svg class="quiz-sparkline"`) || !strings.Contains(page, `aria-label="Your last 2 scores, oldest first: 6 of 10, 9 of 10"`) {
			t.Errorf("%s does not draw the two scores as a sparkline", path)
		}
		if !strings.Contains(page, `<polyline class="spark-line" points="4,`) {
			t.Errorf("%s: the sparkline has no line", path)
		}
	}
}
