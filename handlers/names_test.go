package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestFriendGameNames: a friend game may be given the players' names
// (issue 38): trimmed, at most 30 characters, plain text; they come back
// in the state, the PGN tags, My games and the export, and go with the
// game when the visitor is forgotten.
func TestFriendGameNames(t *testing.T) {
	s := newFullSite(t)
	v := s.visitor(t)
	st := v.api(t, "POST", "/api/games", `{"mode":"friend","white_name":"  Anna ","black_name":"Борис"}`, http.StatusCreated)
	if st["white_name"] != "Anna" || st["black_name"] != "Борис" {
		t.Fatalf("names in the state: %v / %v, want Anna / Борис", st["white_name"], st["black_name"])
	}
	id := st["id"].(string)
	pgn := v.do("GET", "/api/games/"+id+"/pgn", "", "").Body.String()
	if !strings.Contains(pgn, `[White "Anna"]`) || !strings.Contains(pgn, `[Black "Борис"]`) {
		t.Errorf("PGN tags without the names:\n%s", pgn)
	}
	if body := v.do("GET", "/games", "", "").Body.String(); !strings.Contains(body, "Anna (white) and Борис (black)") {
		t.Errorf("My games does not name the players")
	}
	if me := v.do("GET", "/api/me", "", "").Body.String(); !strings.Contains(me, `"white_name": "Anna"`) && !strings.Contains(me, `"white_name":"Anna"`) {
		t.Errorf("the export has no names: %s", me)
	}

	// Unnamed friend games keep the colours.
	plain := v.api(t, "POST", "/api/games", `{"mode":"friend"}`, http.StatusCreated)
	if plain["white_name"] != "" || plain["black_name"] != "" {
		t.Errorf("an unnamed game has names %v / %v", plain["white_name"], plain["black_name"])
	}

	for _, c := range []struct{ name, body, says string }{
		{"too long", `{"mode":"friend","white_name":"` + strings.Repeat("я", 31) + `"}`, "at most 30"},
		{"markup", `{"mode":"friend","black_name":"<b>Ann</b>"}`, "letters, numbers"},
		{"a control character", `{"mode":"friend","white_name":"An\u0007na"}`, "letters, numbers"},
		{"names against the computer", `{"mode":"computer","white_name":"Anna"}`, "only for a game against a friend"},
	} {
		rec := v.do("POST", "/api/games", "application/json", c.body)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), c.says) {
			t.Errorf("%s: %d %s, want 400 saying %q", c.name, rec.Code, rec.Body, c.says)
		}
	}
	// Thirty characters are fine.
	v.api(t, "POST", "/api/games", `{"mode":"friend","white_name":"`+strings.Repeat("я", 30)+`"}`, http.StatusCreated)

	// The form: two optional fields; a refusal keeps what was typed.
	rec := v.form("/play", url.Values{"mode": {"friend"}, "clock": {"none"}, "white_name": {"Mia"}, "black_name": {"Leo"}})
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("the form with names = %d: %s", rec.Code, rec.Body)
	}
	game := strings.TrimPrefix(rec.Header().Get("Location"), "/play/")
	if st := v.api(t, "GET", "/api/games/"+game, "", http.StatusOK); st["white_name"] != "Mia" || st["black_name"] != "Leo" {
		t.Errorf("the form's names: %v / %v", st["white_name"], st["black_name"])
	}
	rec = v.form("/play", url.Values{"mode": {"friend"}, "clock": {"none"}, "white_name": {"<i>"}})
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `value="&lt;i&gt;"`) {
		t.Errorf("a refused name on the form = %d, want 400 with the field kept", rec.Code)
	}

	// Forget me removes the games, names and all.
	if rec := v.do("DELETE", "/api/me", "", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("forget = %d", rec.Code)
	}
	if rec := v.do("GET", "/api/games/"+id, "", ""); rec.Code != http.StatusNotFound {
		t.Errorf("the named game after forget = %d, want 404", rec.Code)
	}
}
