package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"chesstutor/chess/engine"
	"chesstutor/words"
)

// TestLevelZeroInTheAPIAndOnTheForm: "level":0 starts a game against
// level 0 (it used to become level 1); a request without a level keeps
// level 1; the form offers level 0, "First game", with its description
// and rating, in the visitor's language (C6).
func TestLevelZeroInTheAPIAndOnTheForm(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	for body, want := range map[string]float64{
		`{"mode":"computer","color":"white","level":0}`: 0,
		`{"mode":"computer","color":"white"}`:           engine.DefaultLevel,
	} {
		st := v.api(t, http.MethodPost, "/api/games", body, http.StatusCreated)
		if got, ok := st["level"].(float64); !ok || got != want {
			t.Errorf("%s: level %v, want %v", body, st["level"], want)
		}
	}
	rec := v.form("/play", url.Values{"mode": {"computer"}, "color": {"white"}, "level": {"0"}, "clock": {"none"}})
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("the form with level 0 = %d: %s", rec.Code, rec.Body)
	}
	st := v.api(t, http.MethodGet, "/api"+strings.Replace(rec.Header().Get("Location"), "/play/", "/games/", 1), "", http.StatusOK)
	if st["level"] != 0.0 {
		t.Errorf("the form's game has level %v, want 0", st["level"])
	}

	for lang, name := range map[string]string{"en": "First game", "es": "Primera partida", "ru": "Первая партия"} {
		req := httptest.NewRequest(http.MethodGet, "/play", nil)
		req.AddCookie(v.cookie)
		req.AddCookie(&http.Cookie{Name: langCookie, Value: lang})
		page := s.serve(req).Body.String()
		w := words.Default().For(lang)
		for _, want := range []string{`name="level" value="0"`, name, w.T("level.desc_0"), w.T("play.rated", "Rating", 450)} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the form lacks %q", lang, want)
			}
		}
		if !strings.Contains(page, `value="1" aria-describedby="level-desc-1" checked`) {
			t.Errorf("%s: level 1 is not the form's default", lang)
		}
	}
}

// TestNewGameFormShowsNoEmptyAlert: the form's error line appears only
// with an error (an empty role=alert paragraph was always there).
func TestNewGameFormShowsNoEmptyAlert(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	if page := v.do(http.MethodGet, "/play", "", "").Body.String(); strings.Contains(page, `class="form-error"`) {
		t.Error("the new-game form shows an error line without an error")
	}
	rec := v.form("/play", url.Values{"mode": {"computer"}, "level": {"x"}})
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `class="form-error" role="alert">Please choose a level from 0 to 8.`) {
		t.Errorf("a bad level = %d, want 400 and the error line: %s", rec.Code, rec.Body)
	}
}
