package handlers

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"chesstutor/words"
)

// newReviewSite is the full site with its review service running until
// the test ends.
func newReviewSite(t *testing.T) *fullSite {
	t.Helper()
	return newSite(t, siteOptions{limits: Limits{APIRate: 1e6, APIBurst: 1e6}, logLevel: slog.LevelWarn, reviews: true})
}

// playSAN plays the moves in a game of v's.
func (v *siteVisitor) playSAN(t *testing.T, id string, sans ...string) {
	t.Helper()
	for i, san := range sans {
		v.api(t, http.MethodPost, "/api/games/"+id+"/moves", fmt.Sprintf(`{"san":%q,"ply":%d}`, san, i), http.StatusOK)
	}
}

// waitDone polls the review until it is done.
func (v *siteVisitor) waitDone(t *testing.T, id string) map[string]any {
	t.Helper()
	for {
		out := v.api(t, http.MethodGet, "/api/games/"+id+"/review", "", http.StatusOK)
		if out["status"] == "done" {
			return out
		}
		if t.Context().Err() != nil {
			t.Fatal("the review never finished")
		}
		// Under the page rate (20 a second), however long the review
		// takes on a busy machine.
		time.Sleep(100 * time.Millisecond)
	}
}

func TestReviewAPI(t *testing.T) {
	t.Parallel()
	s := newReviewSite(t)
	v := s.visitor(t)
	id := v.newGame(t, `{"mode":"friend","clock":"none","pass_screen":false}`)

	v.api(t, http.MethodGet, "/api/games/"+id+"/review", "", http.StatusNotFound)
	if out := v.api(t, http.MethodPost, "/api/games/"+id+"/review", "", http.StatusConflict); !strings.Contains(out["error"].(string), "no moves") {
		t.Errorf("a review of a game without moves: %v", out)
	}
	v.playSAN(t, id, "e4", "e5", "Nf3", "Qg5", "Nxg5")
	out := v.api(t, http.MethodPost, "/api/games/"+id+"/review", "", http.StatusAccepted)
	if out["status"] != "pending" || out["total"] != 5.0 {
		t.Errorf("POST review: %v", out)
	}
	other := s.visitor(t)
	other.api(t, http.MethodPost, "/api/games/"+id+"/review", "", http.StatusNotFound)
	other.api(t, http.MethodGet, "/api/games/"+id+"/review", "", http.StatusNotFound)
	v.api(t, http.MethodPost, "/api/games/"+strings.Repeat("0", 32)+"/review", "", http.StatusNotFound)

	out = v.waitDone(t, id)
	if out["progress"] != 1.0 || out["done"] != 5.0 {
		t.Errorf("finished review: %v", out)
	}
	moves := out["moves"].([]any)
	if len(moves) != 5 {
		t.Fatalf("%d moves, want 5", len(moves))
	}
	qg5 := moves[3].(map[string]any)
	if qg5["ply"] != 4.0 || qg5["san"] != "Qg5" || qg5["class"] != "blunder" ||
		!strings.HasPrefix(qg5["reason"].(string), "After ♕g5, your opponent's knight can take your queen on g5 for free: nothing of yours guards g5.") {
		t.Errorf("2... Qg5: %v", qg5)
	}
	if why := qg5["why"].(map[string]any); why["code"] != "hangs" || why["piece"] != "queen" || why["by"] != "knight" {
		t.Errorf("2... Qg5's reason codes: %v", why)
	}
	if ev := qg5["eval"].(map[string]any); ev["cp"] == nil || ev["cp"].(float64) < 500 {
		t.Errorf("2... Qg5's eval %v, want White far ahead in centipawns", ev)
	}
	nxg5 := moves[4].(map[string]any)
	if nxg5["class"] != "best" || nxg5["best"] != "f3g5" || nxg5["reason"] != "" {
		t.Errorf("3. Nxg5: %v", nxg5)
	}
	black := out["summary"].(map[string]any)["black"].(map[string]any)
	if black["counts"].(map[string]any)["blunder"] != 1.0 || fmt.Sprint(black["key"]) != "[4]" {
		t.Errorf("Black's summary %v", black)
	}

	// The PGN with the review as comments.
	rec := v.do(http.MethodGet, "/api/games/"+id+"/review/pgn", "", "")
	pgn := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Content-Disposition"), "-review.pgn") {
		t.Fatalf("review PGN: %d %v", rec.Code, rec.Header())
	}
	for _, want := range []string{`[Event "`, "1. e4 {[%eval ", "Qg5 $4 {[%eval", "Blunder. After Qg5, your opponent's knight can take your queen on g5 for free", "3. Nxg5 {"} {
		if !strings.Contains(strings.ReplaceAll(pgn, "\n", " "), want) {
			t.Errorf("the review PGN has no %q:\n%s", want, pgn)
		}
	}
	for _, line := range strings.Split(pgn, "\n") {
		if len(line) > 79 {
			t.Errorf("PGN line of %d characters: %q", len(line), line)
		}
	}

	// The game goes on after the review: the review's PGN is the reviewed
	// part, unfinished, and the game's own PGN has every move.
	v.api(t, http.MethodPost, "/api/games/"+id+"/moves", `{"san":"Nc6","ply":5}`, http.StatusOK)
	pgn = strings.ReplaceAll(v.do(http.MethodGet, "/api/games/"+id+"/review/pgn", "", "").Body.String(), "\n", " ")
	if !strings.Contains(pgn, "3. Nxg5 {[%eval ") || strings.Contains(pgn, "Nc6") || !strings.HasSuffix(strings.TrimSpace(pgn), " *") {
		t.Errorf("the review PGN after another move:\n%s", pgn)
	}
	if game := v.do(http.MethodGet, "/api/games/"+id+"/pgn", "", "").Body.String(); !strings.Contains(game, "3... Nc6") && !strings.Contains(game, "Nxg5 Nc6") {
		t.Errorf("the game's PGN lacks the move after the review:\n%s", game)
	}
}

func TestReviewPage(t *testing.T) {
	t.Parallel()
	s := newReviewSite(t)
	v := s.visitor(t)
	id := v.newGame(t, `{"mode":"friend","clock":"none","pass_screen":false}`)
	v.playSAN(t, id, "f3", "e5", "g4", "Qh4#")

	page := v.do(http.MethodGet, "/play/"+id+"/review", "", "")
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), `data-action="start-review"`) {
		t.Fatalf("the page before a review: %d, no start button:\n%s", page.Code, page.Body)
	}
	// A finished game's page says so, and its script starts the review by
	// itself (data-over) when the end card's link opens it.
	if !strings.Contains(page.Body.String(), `data-over="true"`) {
		t.Errorf("the page of a game ended by mate does not say it is over (data-over)")
	}
	if rec := v.form("/play/"+id+"/review", url.Values{}); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/play/"+id+"/review" {
		t.Fatalf("the start form: %d %v", rec.Code, rec.Header())
	}
	if rec := v.do(http.MethodPost, "/play/"+id+"/review", "application/x-www-form-urlencoded", ""); rec.Code != http.StatusForbidden {
		t.Errorf("a form post without its token: %d, want 403", rec.Code)
	}
	v.waitDone(t, id)

	body := v.do(http.MethodGet, "/play/"+id+"/review", "", "").Body.String()
	for _, want := range []string{
		`data-review-ply="3"`, `data-class="blunder"`, "This lets your opponent checkmate at once: ♕h4#.",
		`data-review-graph`, `class="overlay-arrow"`, `Key moments`, `data-ply="3"`, `data-shows="before"`,
		`data-review-step="start"`, `data-review-step="prev"`, `data-review-step="next"`, `data-review-step="next-mistake"`,
		// Which engine reviewed (C5): the test site's built-in one.
		`data-review-engine>Reviewed by the site&#39;s own engine.`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the review page has no %q", want)
			if testing.Verbose() {
				t.Log(body)
			}
		}
	}
	if strings.Contains(body, "data-review-refresh") {
		t.Error("a finished review still offers a refresh")
	}
	if body := v.do(http.MethodGet, "/play/"+id+"/review?ply=0", "", "").Body.String(); !strings.Contains(body, `data-ply="0"`) || !strings.Contains(body, "Start position") {
		t.Error("?ply=0 does not show the start position")
	}
	for _, bad := range []string{"5", "-1", "x"} {
		if rec := v.do(http.MethodGet, "/play/"+id+"/review?ply="+bad, "", ""); rec.Code != http.StatusBadRequest {
			t.Errorf("?ply=%s: %d, want 400", bad, rec.Code)
		}
	}
	other := s.visitor(t)
	if rec := other.do(http.MethodGet, "/play/"+id+"/review", "", ""); rec.Code != http.StatusNotFound {
		t.Errorf("another visitor's review page: %d, want 404", rec.Code)
	}
}

// TestReviewPagePseudo renders a finished review, its API and its
// refusals in the pseudo-language: every sentence of the review (the
// reasons, the classes, the summary, the graph's titles, the board's
// caption) comes from the catalogue (issue 31).
func TestReviewPagePseudo(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{limits: Limits{APIRate: 1e6, APIBurst: 1e6}, logLevel: slog.LevelWarn, reviews: true,
		words: pseudoWords(t)})
	v := s.visitor(t)
	pseudo := &http.Cookie{Name: langCookie, Value: words.Pseudo}
	get := func(path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.AddCookie(v.cookie)
		req.AddCookie(pseudo)
		return s.serve(req)
	}
	id := v.newGame(t, `{"mode":"computer","level":1,"color":"white","clock":"none"}`)
	if rec := get("/play/" + id + "/review"); len(bareText(t, rec.Body.String(), nil)) > 0 {
		t.Errorf("the review page before a review shows English: %v", bareText(t, rec.Body.String(), nil))
	}
	friend := v.newGame(t, `{"mode":"friend","clock":"none","pass_screen":false}`)
	v.playSAN(t, friend, "e4", "e5", "Nf3", "Qg5", "Nxg5", "Nc6", "Nf3", "Nd4")
	v.api(t, http.MethodPost, "/api/games/"+friend+"/review", "", http.StatusAccepted)
	v.waitDone(t, friend)
	for _, p := range []string{"", "?ply=0", "?ply=4", "?ply=8"} {
		rec := get("/play/" + friend + "/review" + p)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", p, rec.Code)
		}
		if bare := bareText(t, rec.Body.String(), nil); len(bare) > 0 {
			t.Errorf("the review page%s shows %d texts outside the catalogue:\n  %s", p, len(bare), strings.Join(bare, "\n  "))
		}
	}
	for _, path := range []string{"/api/games/" + friend + "/review", "/play/" + friend + "/review?ply=99"} {
		rec := get(path)
		body := rec.Body.String()
		if strings.HasPrefix(path, "/api") {
			var out struct {
				Moves []struct{ Reason string } `json:"moves"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
				t.Fatal(err)
			}
			worded := 0
			for _, m := range out.Moves {
				if m.Reason != "" {
					worded++
					if !strings.HasPrefix(m.Reason, words.PseudoOpen) {
						t.Errorf("a reason outside the catalogue: %q", m.Reason)
					}
				}
			}
			if worded == 0 {
				t.Errorf("no move has a reason: %s", body)
			}
			continue
		}
		if rec.Code != http.StatusBadRequest || len(bareText(t, body, nil)) > 0 {
			t.Errorf("%s: %d, %v", path, rec.Code, bareText(t, body, nil))
		}
	}
	req := httptest.NewRequest(http.MethodGet, "/api/games/"+id+"/review", nil)
	req.AddCookie(v.cookie)
	req.AddCookie(pseudo)
	var refusal map[string]string
	if rec := s.serve(req); json.Unmarshal(rec.Body.Bytes(), &refusal) != nil || refusal["code"] != "review.refuse_not_requested" ||
		!strings.HasPrefix(refusal["error"], words.PseudoOpen) {
		t.Errorf("the refusal of a review never asked for: %s", rec.Body)
	}
}

func TestHintsAndThreats(t *testing.T) {
	t.Parallel()
	s := newReviewSite(t)
	v := s.visitor(t)
	id := v.newGame(t, `{"mode":"computer","color":"white","level":1,"clock":"none"}`)
	v.api(t, http.MethodPost, "/api/games/"+id+"/hint", `{"step":"piece"}`, http.StatusBadRequest)
	v.api(t, http.MethodPost, "/api/games/"+id+"/hint", `{"ply":0,"step":"all"}`, http.StatusBadRequest)
	v.api(t, http.MethodPost, "/api/games/"+id+"/hint", `{"ply":3,"step":"piece"}`, http.StatusConflict)
	piece := v.api(t, http.MethodPost, "/api/games/"+id+"/hint", `{"ply":0,"step":"piece"}`, http.StatusOK)
	if piece["move"] != nil || !strings.HasPrefix(piece["text"].(string), "Hint: move your ") {
		t.Errorf("first step: %v", piece)
	}
	move := v.api(t, http.MethodPost, "/api/games/"+id+"/hint", `{"ply":0,"step":"move"}`, http.StatusOK)
	uci, _ := move["move"].(string)
	if len(uci) < 4 || uci[:2] != piece["from"] || move["text"] != "Hint: play "+move["san"].(string)+"." {
		t.Errorf("second step %v after %v", move, piece)
	}
	if out := v.api(t, http.MethodGet, "/api/games/"+id+"/threats", "", http.StatusOK); len(out["threats"].([]any)) != 0 || out["offered"] != true {
		t.Errorf("threats at the start: %v", out)
	}
	v.api(t, http.MethodPost, "/api/games/"+id+"/moves", fmt.Sprintf(`{"move":%q,"ply":0}`, uci), http.StatusOK)

	rec := v.do(http.MethodGet, "/api/games/"+id+"/pgn", "", "")
	pgn := strings.ReplaceAll(rec.Body.String(), "\n", " ")
	for _, want := range []string{"{The player used a hint once.} 1. ", "{Hint before this move: which piece to move, then the move.}", `[Result "*"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("the PGN has no %q:\n%s", want, rec.Body)
		}
	}

	other := s.visitor(t)
	other.api(t, http.MethodPost, "/api/games/"+id+"/hint", `{"ply":2,"step":"piece"}`, http.StatusNotFound)
	strong := v.newGame(t, `{"mode":"computer","color":"white","level":6,"clock":"none"}`)
	v.api(t, http.MethodPost, "/api/games/"+strong+"/hint", `{"ply":0,"step":"piece"}`, http.StatusConflict)
	if out := v.api(t, http.MethodGet, "/api/games/"+strong+"/threats", "", http.StatusOK); out["offered"] != false {
		t.Errorf("threats against level 6: %v, want none offered", out)
	}
	// A game without hints keeps its PGN as the game service writes it.
	if body := v.do(http.MethodGet, "/api/games/"+strong+"/pgn", "", "").Body.String(); strings.Contains(body, "hint") {
		t.Errorf("a PGN without hints mentions them:\n%s", body)
	}
}

// TestReviewRetry tries a blunder again (G27, issue 38): a sound move
// instead of it is correct, the blunder itself or another queen loss is
// wrong, and a ply that is no mistake or a move that is not legal is
// refused.
func TestReviewRetry(t *testing.T) {
	t.Parallel()
	s := newReviewSite(t)
	v := s.visitor(t)
	id := v.newGame(t, `{"mode":"friend","clock":"none","pass_screen":false}`)
	v.playSAN(t, id, "e4", "e5", "Nf3", "Qg5", "Nxg5")
	v.api(t, http.MethodPost, "/api/games/"+id+"/review/retry", `{"ply":4,"move":"b8c6"}`, http.StatusNotFound)
	v.api(t, http.MethodPost, "/api/games/"+id+"/review", "", http.StatusAccepted)
	done := v.waitDone(t, id)
	best := done["moves"].([]any)[3].(map[string]any)["best"].(string)

	tests := []struct {
		name, move string
		result     string
		reason     string
	}{
		{"the engine's move", best, "correct", "Well done! "},
		{"a sound developing move", "b8c6", "correct", "Well done! ♘c6 keeps most of your winning chances."},
		{"the blunder again", "d8g5", "wrong", "That is the move you played in the game."},
		{"the queen where the knight takes it", "d8h4", "wrong", "♕h4 is not good enough: after it your winning chances are "},
	}
	for _, tt := range tests {
		out := v.api(t, http.MethodPost, "/api/games/"+id+"/review/retry", fmt.Sprintf(`{"ply":4,"move":%q}`, tt.move), http.StatusOK)
		if out["result"] != tt.result || out["correct"] != (tt.result == "correct") || !strings.HasPrefix(out["reason"].(string), tt.reason) {
			t.Errorf("%s (%s): %v, want %s and a reason starting %q", tt.name, tt.move, out, tt.result, tt.reason)
		}
		if out["best"] != best || out["move"] != tt.move || out["fen"] == "" {
			t.Errorf("%s: %v", tt.name, out)
		}
	}
	for _, bad := range []struct {
		body   string
		status int
		code   string
	}{
		{`{"ply":1,"move":"e2e4"}`, http.StatusBadRequest, "review.retry.refuse_ply"},
		{`{"ply":9,"move":"e2e4"}`, http.StatusBadRequest, "review.retry.refuse_ply"},
		{`{"move":"e2e4"}`, http.StatusBadRequest, "review.retry.refuse_ply"},
		{`{"ply":4,"move":"e2e4"}`, http.StatusUnprocessableEntity, "review.retry.refuse_move"},
		{`{"ply":4,"move":"zz"}`, http.StatusUnprocessableEntity, "review.retry.refuse_move"},
	} {
		if out := v.api(t, http.MethodPost, "/api/games/"+id+"/review/retry", bad.body, bad.status); out["code"] != bad.code {
			t.Errorf("%s: %v, want %s", bad.body, out, bad.code)
		}
	}
	s.visitor(t).api(t, http.MethodPost, "/api/games/"+id+"/review/retry", `{"ply":4,"move":"b8c6"}`, http.StatusNotFound)

	// The page offers the retry on the blunder, with the position before
	// it and its legal moves.
	body := v.do(http.MethodGet, "/play/"+id+"/review?ply=4", "", "").Body.String()
	for _, want := range []string{`data-action="retry"`, `data-retry-ply="4"`, `data-retry-moves="`, `b8c6`, `data-shows="before"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the blunder's page has no %q", want)
		}
	}
	if body := v.do(http.MethodGet, "/play/"+id+"/review?ply=3", "", "").Body.String(); strings.Contains(body, `data-action="retry"`) {
		t.Error("a good move offers a retry")
	}
}
