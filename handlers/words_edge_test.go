package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/views"
	"chesstutor/words"
)

// The edge words what the services return in the request's language
// (issue 31): the same refusal has one code and different words, and an
// exercise's reasons arrive in the language the visitor chose.

// TestJSONErrorsInRussian sends broken bodies with Accept-Language: ru and
// gets Russian words with the same stable codes English gets.
func TestJSONErrorsInRussian(t *testing.T) {
	f := newFoundation(t, Limits{BodyBytes: 1024})
	cases := []struct {
		name, body, code, ru string
	}{
		{"wrong type", `{"ply":"three"}`, "http.json_field_type", "Поле «ply» должно быть целым числом, а не строкой."},
		{"not an object", `[1,2]`, "http.json_not_object", "Тело запроса должно быть объектом JSON, а не списком."},
		{"broken JSON", `{"move":x}`, "http.json_syntax", "Тело запроса — неправильный JSON (ошибка на байте 9)."},
		{"cut short", `{"move":`, "http.json_truncated", "Тело запроса обрывается посреди значения JSON."},
		{"unknown field", `{"mvoe":"e2e4"}`, "http.json_unknown_field", "В теле запроса есть поле, которого этот адрес не знает: «mvoe»."},
		{"empty", ``, "http.json_empty", "Тело запроса пустое; отправь объект JSON."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got [2]map[string]any
			for i, lang := range []string{"ru", "en"} {
				req := postJSON("/api/test/echo", c.body, map[string]string{"Accept-Language": lang})
				rec := f.do(req)
				wantJSONError(t, rec, http.StatusBadRequest)
				got[i] = jsonBody(t, rec)
			}
			ru, en := got[0], got[1]
			if ru["code"] != c.code || en["code"] != c.code {
				t.Errorf("codes ru %v, en %v; want %s in both", ru["code"], en["code"], c.code)
			}
			if ru["error"] != c.ru {
				t.Errorf("ru words %q, want %q", ru["error"], c.ru)
			}
			if ru["error"] == en["error"] {
				t.Errorf("ru and en words are the same: %q", ru["error"])
			}
		})
	}
}

// TestSquareExerciseReasonsInSpanish answers a square exercise wrongly in
// Spanish, through the API and through the page without JavaScript.
func TestSquareExerciseReasonsInSpanish(t *testing.T) {
	c := newExerciseClient(t)
	ex, ok := c.course.Exercise("rook-open-board") // a rook alone on d4
	if !ok {
		t.Fatal("no exercise rook-open-board")
	}
	var marks []string
	for _, sq := range exercise.Answer(ex.Pos, ex.From) {
		if sq != chess.D8 {
			marks = append(marks, sq.String())
		}
	}
	marks = append(marks, "e5")
	wantWrong := "la torre solo se mueve en línea recta, por filas y columnas, y e5 no está en ninguna de las suyas"
	wantMissed := "la torre puede llegar a d8: el camino está libre"

	rec := c.do(http.MethodPost, "/api/exercises/"+ex.ID+"/check?lang=es", "application/json", jsonSquares(marks...))
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || rec.Code != http.StatusOK || out["correct"] != false {
		t.Fatalf("check: %d %s", rec.Code, rec.Body)
	}
	reasons, _ := out["reasons"].(map[string]any)
	if reasons["e5"] != wantWrong || reasons["d8"] != wantMissed {
		t.Errorf("reasons in es = %v, want e5 %q and d8 %q", reasons, wantWrong, wantMissed)
	}

	// The same answer on the page without JavaScript.
	q := url.Values{"ex": {ex.ID}, "m": {strings.Join(marks, ",")}, "show": {"check"}, "lang": {"es"}}
	page := c.get("/learn/"+ex.Lesson+"/practice?"+q.Encode(), http.StatusOK)
	for _, want := range []string{
		`<html lang="es"`,
		"Casi: 1 olvidada y 1 incorrecta.",
		"<strong>e5 (incorrecta):</strong> " + wantWrong,
		"<strong>d8 (olvidada):</strong> " + wantMissed,
		">Comprobar</button>",
		`data-piece-name="la torre"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("Spanish practice page lacks %q", want)
		}
	}
	var script map[string]any
	if err := json.Unmarshal([]byte(attr(t, page, "data-words")), &script); err != nil {
		t.Fatalf("data-words: %v", err)
	}
	if script["correct"] != "¡Correcto! Has encontrado todas las casillas." || script["server_status"] == nil {
		t.Errorf("the page hands exercise.js %v", script)
	}
}

// attr is the unescaped value of the first attribute name="…" in page.
func attr(t *testing.T, page, name string) string {
	t.Helper()
	_, rest, ok := strings.Cut(page, name+`="`)
	if !ok {
		t.Fatalf("page has no %s", name)
	}
	v, _, _ := strings.Cut(rest, `"`)
	r := strings.NewReplacer("&#34;", `"`, "&quot;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&")
	return r.Replace(v)
}

// TestPagesInRussian renders the pages this package words itself in
// Russian: each has its own title and meta description, and the privacy
// page's periods and counts take Russian plural forms.
func TestPagesInRussian(t *testing.T) {
	s := newSite(t, siteOptions{})
	v := s.visitor(t)
	ru := words.Default().For("ru")
	for _, p := range []struct{ path, title, description string }{
		{"/?lang=ru", "home.title", "home.meta_description"},
		{"/privacy?lang=ru", "privacy.title", "privacy.meta_description"},
		{"/practice?lang=ru", "exercise.practice_title", "exercise.practice_description"},
		{"/practice/squares?lang=ru", "trainer.title", "trainer.meta_description"},
		{"/no-such-page?lang=ru", "errorpage.not_found_title", "errorpage.not_found_description"},
	} {
		rec := v.do(http.MethodGet, p.path, "", "")
		body := rec.Body.String()
		if rec.Code != http.StatusOK && rec.Code != http.StatusNotFound {
			t.Fatalf("GET %s = %d", p.path, rec.Code)
		}
		if !strings.Contains(body, "<title>"+ru.T(p.title)) || !strings.Contains(body, `<meta name="description" content="`+ru.T(p.description)+`">`) {
			t.Errorf("%s: no Russian title and description", p.path)
		}
		if strings.Contains(body, "[home.") || strings.Contains(body, "[privacy.") || strings.Contains(body, "[exercise.") || strings.Contains(body, "[trainer.") {
			t.Errorf("%s: a key without words", p.path)
		}
	}
	privacy := v.do(http.MethodGet, "/privacy?lang=ru", "", "").Body.String()
	for _, want := range []string{"Если за <strong>1 год</strong>", "не играет <strong>30 дней</strong>"} {
		if !strings.Contains(privacy, want) {
			t.Errorf("Russian privacy page lacks %q", want)
		}
	}
	for n, want := range map[int]string{1: "1 минуту", 3: "3 минуты", 5: "5 минут", 21: "21 минуту"} {
		if got := ru.Msg(humanDuration(time.Duration(n) * time.Minute)); got != want {
			t.Errorf("%d minutes in ru: %q, want %q", n, got, want)
		}
	}
}

// TestHomeInSpanishAndRussian renders the home page with progress, quiz
// scores and saved games: counts take the language's plural forms and
// dates its month names.
func TestHomeInSpanishAndRussian(t *testing.T) {
	s := newSite(t, siteOptions{})
	at := time.Date(2026, time.May, 3, 10, 0, 0, 0, time.UTC)
	score := quizScore{Score: 7, Total: 10, Percent: 70, At: at}
	data := homeData{
		Start:      homeNext{URL: "/learn", Label: "x"},
		Progress:   &homeProgress{LessonsRead: 2, LessonsTotal: 20, Solved: 5, ExercisesTotal: 90},
		QuizScores: []quizScore{score},
		GamesCount: 3,
	}
	for lang, wants := range map[string][]string{
		"es": {"Lecciones terminadas: <strong>2</strong> de 20", "<strong>7</strong> de 10 <span class=\"muted\">el 3 may 2026</span>", "Tienes 3 partidas guardadas."},
		"ru": {"Пройдено уроков: <strong>2</strong> из 20", "<strong>7</strong> из 10 <span class=\"muted\">3 мая 2026</span>", "У тебя 3 сохранённые партии."},
	} {
		page, err := s.h.views.Execute("home", views.Page{Lang: lang, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(string(page), want) {
				t.Errorf("%s home lacks %q", lang, want)
			}
		}
	}
}
