package handlers

import (
	"net/http"
	"strings"
	"testing"
)

// TestMyDataReadable: "Download my data" also offers a page to read, with
// table headings in the visitor's language, dates as dates and a game's
// moves as moves (issue 38).
func TestMyDataReadable(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	v := s.visitor(t)
	id := v.newGame(t, `{"mode":"friend"}`)
	for i, mv := range []string{"e2e4", "e7e5", "g1f3"} {
		v.api(t, http.MethodPost, "/api/games/"+id+"/moves", `{"move":"`+mv+`","ply":`+string(rune('0'+i))+`}`, http.StatusOK)
	}
	rec := v.do(http.MethodGet, "/privacy/data", "", "")
	if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("GET /privacy/data = %d, Cache-Control %q", rec.Code, rec.Header().Get("Cache-Control"))
	}
	body := rec.Body.String()
	for _, want := range []string{`data-table="games"`, "<h2>Games</h2>", "1. e4 e5 2. ♘f3", " UTC</td>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the readable data lacks %q", want)
		}
	}
	if strings.Contains(body, "e2e4") {
		t.Error("the readable data shows moves as UCI")
	}
	rec = v.do(http.MethodGet, "/privacy/data?lang=ru", "", "")
	if body := rec.Body.String(); !strings.Contains(body, "<h2>Партии</h2>") {
		t.Errorf("the Russian page lacks its table heading")
	}
	// A newcomer has nothing stored, and the page says so.
	if body := s.visitor(t).do(http.MethodGet, "/privacy/data", "", "").Body.String(); !strings.Contains(body, "data-my-data-empty") {
		t.Error("a newcomer's page does not say that nothing is stored")
	}
}
