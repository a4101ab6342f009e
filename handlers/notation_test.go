package handlers

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/views"
)

// A typed move in the API's san field is read in the request's language:
// its letters, figurines, and the English letters that do not clash. The
// game keeps English SAN whatever was typed.
func TestTypedMovesInTheVisitorsLanguage(t *testing.T) {
	site := newFullSite(t)
	v := site.visitor(t)
	play := func(lang, id string, ply int, san string, want int) map[string]any {
		t.Helper()
		return v.api(t, http.MethodPost, "/api/games/"+id+"/moves?lang="+lang, fmt.Sprintf(`{"san":%q,"ply":%d}`, san, ply), want)
	}
	lastMove := func(st map[string]any) string {
		moves, _ := st["moves"].([]any)
		if len(moves) == 0 {
			return ""
		}
		s, _ := moves[len(moves)-1].(string)
		return s
	}
	tests := []struct{ lang, san string }{
		{"es", "Cf3"},
		{"ru", "Кf3"},
		{"en", "♘f3"},
		{"es", "♘f3"},
		{"ru", "♘f3"},
		{"es", "Nf3"}, // English N does not clash in Spanish
		{"en", "Nf3"},
	}
	for _, tt := range tests {
		id := v.newGame(t, `{"mode":"friend"}`)
		st := play(tt.lang, id, 0, tt.san, http.StatusOK)
		if got := lastMove(st); got != "Nf3" || st["last_move"] != "g1f3" {
			t.Errorf("%s %q played %q (%v), want the knight to f3, kept as Nf3", tt.lang, tt.san, got, st["last_move"])
		}
	}

	// "Rd1": in Spanish R is the king; in English it is a rook, and no
	// rook can go there.
	opening := func(lang string) string {
		id := v.newGame(t, `{"mode":"friend"}`)
		for i, san := range []string{"e4", "e5", "Qe2", "Nc6"} {
			play(lang, id, i, san, http.StatusOK)
		}
		return id
	}
	st := play("es", opening("es"), 4, "Rd1", http.StatusOK)
	if got := lastMove(st); got != "Kd1" {
		t.Errorf("es Rd1 played %q, want the king: Kd1", got)
	}
	// A refusal speaks the visitor's language and quotes the move as typed.
	st = play("es", opening("es"), 4, "Td1", http.StatusUnprocessableEntity)
	if st["code"] != "chess.san_illegal_rook" || st["error"] != `"Td1" no es una jugada legal aquí: ninguna de tus torres puede ir a d1.` {
		t.Errorf("es Td1 refused with %v", st)
	}
	st = play("ru", opening("ru"), 4, " Фd4 ", http.StatusUnprocessableEntity)
	if st["code"] != "chess.san_illegal_queen" || st["error"] != `"Фd4" — так ходить нельзя: твой ферзь не может пойти на d4.` {
		t.Errorf("ru Фd4 refused with %v", st)
	}
	st = play("en", opening("en"), 4, "Rd1", http.StatusUnprocessableEntity)
	if st["code"] != "chess.san_illegal_rook" || !strings.Contains(st["error"].(string), `"Rd1"`) {
		t.Errorf("en Rd1 refused with %v", st)
	}
	st = play("ru", opening("ru"), 4, "Крd1", http.StatusOK)
	if got := lastMove(st); got != "Kd1" {
		t.Errorf("ru Крd1 played %q, want Kd1", got)
	}
	// Castling typed with a Cyrillic О.
	id := v.newGame(t, `{"mode":"friend"}`)
	for i, san := range []string{"e4", "e5", "Кf3", "Кc6", "Сc4", "Сc5"} {
		play("ru", id, i, san, http.StatusOK)
	}
	if got := lastMove(play("ru", id, 6, "О-О", http.StatusOK)); got != "O-O" {
		t.Errorf("ru О-О played %q, want O-O", got)
	}
	// The PGN keeps the English letters.
	rec := v.do(http.MethodGet, "/api/games/"+id+"/pgn?lang=ru", "", "")
	if body := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(body, "2. Nf3 Nc6 3. Bc4 Bc5 4. O-O") {
		t.Errorf("PGN = %d:\n%s", rec.Code, body)
	}
}

// The footer's notation form keeps the choice in a cookie; pages then
// hand scripts the language's letters, and the template function san
// writes moves the visitor's way.
func TestNotationSetting(t *testing.T) {
	site := newFullSite(t)
	v := site.visitor(t)

	page := site.serve(httpGet("/?lang=es", v)).Body.String()
	if !strings.Contains(page, `action="/settings/notation"`) || !strings.Contains(page, `<option value="figurine" selected>`) {
		t.Error("the footer does not offer the notation setting with figurines chosen")
	}
	if !strings.Contains(page, `data-notation="{&#34;style&#34;:&#34;figurine&#34;,&#34;letters&#34;:{&#34;B&#34;:&#34;♗&#34;`) {
		t.Errorf("the layout does not hand scripts the figurines")
	}

	before := site.snapshot(t)
	rec := v.form("/settings/notation", url.Values{"notation": {"letters"}, "back": {"/learn?x=1"}})
	if site.snapshot(t) != before {
		t.Error("saving the notation stored something about the visitor")
	}
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/learn?x=1" {
		t.Fatalf("save = %d to %q, want 303 to /learn?x=1", rec.Code, rec.Header().Get("Location"))
	}
	ck := cookieOf(rec, notationCookie)
	if ck == nil || ck.Value != "letters" || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode {
		t.Fatalf("notation cookie = %+v", ck)
	}
	for lang, want := range map[string]string{
		"es": `&#34;B&#34;:&#34;A&#34;,&#34;K&#34;:&#34;R&#34;,&#34;N&#34;:&#34;C&#34;,&#34;Q&#34;:&#34;D&#34;,&#34;R&#34;:&#34;T&#34;`,
		"ru": `&#34;B&#34;:&#34;С&#34;,&#34;K&#34;:&#34;Кр&#34;,&#34;N&#34;:&#34;К&#34;,&#34;Q&#34;:&#34;Ф&#34;,&#34;R&#34;:&#34;Л&#34;`,
	} {
		page := site.serve(httpGet("/?lang="+lang, v, ck)).Body.String()
		if !strings.Contains(page, `&#34;style&#34;:&#34;letters&#34;`) || !strings.Contains(page, want) {
			t.Errorf("%s: the layout does not hand scripts the language's letters", lang)
		}
		if !strings.Contains(page, `<option value="letters" selected>`) {
			t.Errorf("%s: the footer does not show the saved choice", lang)
		}
	}

	// Figurines are the default again: the cookie goes.
	rec = v.form("/settings/notation", url.Values{"notation": {"figurine"}, "back": {"/"}})
	if ck := cookieOf(rec, notationCookie); rec.Code != http.StatusSeeOther || ck == nil || ck.MaxAge >= 0 {
		t.Errorf("choosing figurines = %d, cookie %+v; want the cookie deleted", rec.Code, ck)
	}
	rec = v.form("/settings/notation?lang=ru", url.Values{"notation": {"runes"}})
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "Выбери") {
		t.Errorf("an unknown style = %d, want 400 in Russian:\n%s", rec.Code, rec.Body)
	}
	// A forged cookie value means figurines.
	page = site.serve(httpGet("/", v, &http.Cookie{Name: notationCookie, Value: `x"><script>`})).Body.String()
	if !strings.Contains(page, `&#34;style&#34;:&#34;figurine&#34;`) || strings.Contains(page, "<script>") {
		t.Error("an unknown notation cookie reached the page")
	}
}

// The san template function and the handlers' table show a move the
// visitor's way, in every language and style.
func TestShownLetters(t *testing.T) {
	site := newFullSite(t)
	for _, tt := range []struct{ lang, style, want string }{
		{"en", views.NotationFigurine, "♘xe5"},
		{"es", views.NotationFigurine, "♘xe5"},
		{"en", views.NotationLetters, "Nxe5"},
		{"es", views.NotationLetters, "Cxe5"},
		{"ru", views.NotationLetters, "Кxe5"},
	} {
		req, _ := http.NewRequest(http.MethodGet, "/?lang="+tt.lang, nil)
		req.AddCookie(&http.Cookie{Name: notationCookie, Value: tt.style})
		c := site.e.NewContext(req, httptest.NewRecorder())
		if got := site.h.shownLetters(c).Write("Nxe5"); got != tt.want {
			t.Errorf("%s %s: Nxe5 is shown as %q, want %q", tt.lang, tt.style, got, tt.want)
		}
		if got := site.h.typedLetters(c); tt.lang == "es" && got[chess.King] != "R" {
			t.Errorf("es: typed moves are read with %q", got)
		}
	}
}
