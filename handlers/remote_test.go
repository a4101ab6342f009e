package handlers

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"chesstutor/words"
)

// remoteGame makes a game from two devices for host (White) and returns
// its id and the create answer.
func remoteGame(t *testing.T, host *siteVisitor) (string, map[string]any) {
	t.Helper()
	out := host.api(t, http.MethodPost, "/api/games", `{"mode":"remote","color":"white","clock":"5+0"}`, http.StatusCreated)
	id, _ := out["id"].(string)
	if len(id) != 32 {
		t.Fatalf("the remote game's id: %v", out)
	}
	return id, out
}

// TestRemoteGameAPI: the invite and watch links, the one free seat, and
// 403 for anyone acting without a seat or for the other side (G24, H1).
func TestRemoteGameAPI(t *testing.T) {
	s := newFullSite(t)
	host, friend, third := s.visitor(t), s.visitor(t), s.visitor(t)
	id, created := remoteGame(t, host)
	invite, _ := created["invite_url"].(string)
	watch, _ := created["watch_url"].(string)
	if !strings.HasSuffix(invite, "/join/"+id) || !strings.Contains(watch, "/watch/") || strings.Contains(watch, id) {
		t.Fatalf("links: invite %q watch %q", invite, watch)
	}
	watchPath := watch[strings.Index(watch, "/watch/"):]
	if created["human_color"] != "white" {
		t.Errorf("the creator's human_color %v", created["human_color"])
	}

	// Before the friend comes: someone opening the game's page is offered
	// the seat; the invite page takes nothing by itself.
	if rec := third.do(http.MethodGet, "/play/"+id, "", ""); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/join/"+id {
		t.Errorf("a visitor without a seat on /play/%s: %d %s", id, rec.Code, rec.Header().Get("Location"))
	}
	if rec := friend.do(http.MethodGet, "/join/"+id, "", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `data-action="join"`) {
		t.Errorf("the invite page: %d", rec.Code)
	}
	host.api(t, http.MethodPost, "/api/games/"+id+"/moves", `{"move":"e2e4","ply":0}`, http.StatusConflict) // nobody to play yet

	// The friend joins with the form's button; the third is too late.
	if rec := friend.form("/join/"+id, url.Values{}); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/play/"+id {
		t.Fatalf("joining with the form: %d %s %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	again := friend.api(t, http.MethodPost, "/api/games/"+id+"/join", `{}`, http.StatusOK)
	if again["human_color"] != "black" {
		t.Errorf("the joiner's human_color %v", again["human_color"])
	}
	third.api(t, http.MethodPost, "/api/games/"+id+"/join", `{}`, http.StatusConflict)

	for _, tc := range []struct {
		name string
		who  *siteVisitor
		path string
		body string
		want int
	}{
		{"black moves white's pawn", friend, "/moves", `{"move":"e2e4","ply":0}`, http.StatusForbidden},
		{"a watcher moves", third, "/moves", `{"move":"e2e4","ply":0}`, http.StatusForbidden},
		{"a watcher resigns", third, "/resign", `{"ply":0}`, http.StatusForbidden},
		{"a watcher offers a draw", third, "/draw", `{"ply":0}`, http.StatusForbidden},
		{"white moves", host, "/moves", `{"move":"e2e4","ply":0}`, http.StatusOK},
		{"white moves again", host, "/moves", `{"move":"d2d4","ply":1}`, http.StatusForbidden},
		{"black answers", friend, "/moves", `{"move":"e7e5","ply":1}`, http.StatusOK},
		{"black asks for a takeback", friend, "/undo", `{"ply":2}`, http.StatusOK},
		{"black accepts its own", friend, "/takeback/accept", `{"ply":2}`, http.StatusForbidden},
		{"a watcher accepts", third, "/takeback/accept", `{"ply":2}`, http.StatusForbidden},
		{"white accepts", host, "/takeback/accept", `{"ply":2}`, http.StatusOK},
		{"claiming too early", friend, "/claim", `{"ply":1}`, http.StatusConflict},
	} {
		rec := tc.who.do(http.MethodPost, "/api/games/"+id+tc.path, "application/json", tc.body)
		if rec.Code != tc.want {
			t.Errorf("%s: %d, want %d: %s", tc.name, rec.Code, tc.want, rec.Body)
		}
	}
	st := host.api(t, http.MethodGet, "/api/games/"+id, "", http.StatusOK)
	if st["ply"].(float64) != 1 {
		t.Errorf("after the takeback: ply %v, want 1 (black's move taken back)", st["ply"])
	}

	// Pages: the players' page carries the stream; a late visitor and a
	// watch link's holder watch, the latter without the game's id.
	page := host.do(http.MethodGet, "/play/"+id, "", "").Body.String()
	for _, want := range []string{`data-events="/api/games/` + id + `/events"`, `data-invite`, `/play/` + id + `/qr.svg`, watchPath} {
		if !strings.Contains(page, want) {
			t.Errorf("the host's page lacks %s", want)
		}
	}
	for _, p := range []string{"/play/" + id, "/join/" + id} {
		rec := third.do(http.MethodGet, p, "", "")
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "data-watching") {
			t.Errorf("%s for a late visitor: %d, want the watch view", p, rec.Code)
		}
	}
	rec := s.visitor(t).do(http.MethodGet, watchPath, "", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "data-watching") || strings.Contains(rec.Body.String(), id) {
		t.Errorf("the watch page: %d; it must watch and not show the game's id", rec.Code)
	}
	w := third.api(t, http.MethodGet, "/api"+watchPath, "", http.StatusOK)
	if w["id"] != "" || w["remote"].(map[string]any)["seat"] != "" {
		t.Errorf("the watch link's state: id %v remote %v", w["id"], w["remote"])
	}
	third.api(t, http.MethodGet, "/api/watch/"+strings.Repeat("0", 32), "", http.StatusNotFound)

	// The QR code is the players'.
	if rec := host.do(http.MethodGet, "/play/"+id+"/qr.svg", "", ""); rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/svg+xml" {
		t.Errorf("the host's QR code: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if rec := third.do(http.MethodGet, "/play/"+id+"/qr.svg", "", ""); rec.Code != http.StatusForbidden {
		t.Errorf("a watcher's QR code: %d, want 403", rec.Code)
	}
	// A game from one device has no seats to take.
	solo := host.newGame(t, `{"mode":"friend"}`)
	third.api(t, http.MethodPost, "/api/games/"+solo+"/join", `{}`, http.StatusNotFound)
}

// sseEvent is one event of a stream.
type sseEvent struct {
	ID, Name string
	Data     map[string]any
}

// sseClient reads a stream's events in the background.
type sseClient struct {
	events chan sseEvent
	res    *http.Response
}

func openStream(t *testing.T, srv *httptest.Server, v *siteVisitor, path, lastID string) (*sseClient, int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
	req.AddCookie(v.cookie)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		return nil, res.StatusCode
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("stream Content-Type %q", ct)
	}
	c := &sseClient{events: make(chan sseEvent, 64), res: res}
	go func() {
		defer close(c.events)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Name != "" {
					c.events <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.Name = line[7:]
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(line[6:]), &ev.Data)
			}
		}
	}()
	return c, http.StatusOK
}

// next waits for the next state event (pings are skipped).
func (c *sseClient) next(t *testing.T, name string) sseEvent {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-c.events:
			if !ok {
				t.Fatalf("the stream ended waiting for %s", name)
			}
			if ev.Name == "ping" {
				continue
			}
			if ev.Name != name {
				t.Fatalf("event %q, want %q", ev.Name, name)
			}
			return ev
		case <-timeout:
			t.Fatalf("no %s event in 10 s", name)
		}
	}
}

// nextPly waits for a state at ply (presence updates may come between).
func (c *sseClient) nextPly(t *testing.T, ply int) sseEvent {
	t.Helper()
	for {
		ev := c.next(t, "state")
		if int(ev.Data["ply"].(float64)) == ply {
			return ev
		}
	}
}

// TestRemoteEventStream: each player's stream brings the state on connect
// and after every change, as that player sees it; a reconnect naming the
// last state gets only what changed since; a visitor holds only a few
// streams; shutdown ends them cleanly (G25).
func TestRemoteEventStream(t *testing.T) {
	s := newFullSite(t)
	srv := httptest.NewServer(s.e)
	defer srv.Close()
	host, friend, third := s.visitor(t), s.visitor(t), s.visitor(t)
	id, created := remoteGame(t, host)
	friend.api(t, http.MethodPost, "/api/games/"+id+"/join", `{}`, http.StatusOK)
	events := "/api/games/" + id + "/events"

	hs, _ := openStream(t, srv, host, events, "")
	first := hs.next(t, "state")
	if first.Data["ply"].(float64) != 0 || first.Data["human_color"] != "white" || first.ID == "" {
		t.Fatalf("the host's first event: id %q %v", first.ID, first.Data)
	}
	fs, _ := openStream(t, srv, friend, events, "")
	if ev := fs.next(t, "state"); ev.Data["human_color"] != "black" {
		t.Errorf("the friend's stream speaks to white: %v", ev.Data["human_color"])
	}
	watch := created["watch_url"].(string)
	ws, _ := openStream(t, srv, third, "/api"+watch[strings.Index(watch, "/watch/"):]+"/events", "")
	if ev := ws.next(t, "state"); ev.Data["id"] != "" {
		t.Errorf("the watch stream names the game: %v", ev.Data["id"])
	}

	host.api(t, http.MethodPost, "/api/games/"+id+"/moves", `{"move":"e2e4","ply":0}`, http.StatusOK)
	got := fs.nextPly(t, 1)
	if got.Data["last_move"] != "e2e4" {
		t.Errorf("the friend's event after white's move: %v", got.Data["last_move"])
	}
	ws.nextPly(t, 1)
	// The host sees the watcher.
	deadline := time.Now().Add(5 * time.Second)
	for {
		ev := hs.next(t, "state")
		if ev.Data["remote"].(map[string]any)["watchers"].(float64) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the players never saw the watcher")
		}
	}

	// A reconnect naming the last state starts with the next change.
	fs2, _ := openStream(t, srv, friend, events, got.ID)
	friend.api(t, http.MethodPost, "/api/games/"+id+"/moves", `{"move":"e7e5","ply":1}`, http.StatusOK)
	if ev := fs2.next(t, "state"); ev.Data["ply"].(float64) != 2 {
		t.Errorf("the resumed stream began with ply %v, want 2", ev.Data["ply"])
	}
	// A stale one gets the current state at once.
	fs3, _ := openStream(t, srv, friend, events, first.ID)
	if ev := fs3.next(t, "state"); ev.Data["ply"].(float64) != 2 {
		t.Errorf("the stale reconnect began with ply %v, want 2", ev.Data["ply"])
	}

	// A visitor may hold only a few streams.
	limited := 0
	for range 8 {
		if _, code := openStream(t, srv, friend, events, ""); code == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited == 0 {
		t.Error("a visitor opened 11 streams on one game")
	}
	// A non-remote game has no stream; nor does another's game.
	solo := host.newGame(t, `{"mode":"friend"}`)
	if _, code := openStream(t, srv, third, "/api/games/"+solo+"/events", ""); code != http.StatusNotFound {
		t.Errorf("a stream on a one-device game: %d, want 404", code)
	}

	// Shutdown: every stream says goodbye and ends.
	s.h.live.Close()
	for ev := range hs.events {
		if ev.Name == "bye" {
			break
		}
	}
	if _, ok := <-hs.events; ok {
		t.Error("the stream went on after bye")
	}
}

// remoteGamePlayed makes a game from two devices between host (White) and
// friend, with 1.e4 e5 played, and returns its id.
func remoteGamePlayed(t *testing.T, host, friend *siteVisitor) string {
	t.Helper()
	id, _ := remoteGame(t, host)
	friend.api(t, http.MethodPost, "/api/games/"+id+"/join", `{}`, http.StatusOK)
	host.api(t, http.MethodPost, "/api/games/"+id+"/moves", `{"move":"e2e4","ply":0}`, http.StatusOK)
	friend.api(t, http.MethodPost, "/api/games/"+id+"/moves", `{"move":"e7e5","ply":1}`, http.StatusOK)
	return id
}

// TestRemoteReviewOnlyForThePlayers: a watcher may neither ask for the
// review of a game from two devices nor read it (403, worded in the
// reader's language); either player reads the review the other asked for.
func TestRemoteReviewOnlyForThePlayers(t *testing.T) {
	s := newFullSite(t)
	host, friend, third := s.visitor(t), s.visitor(t), s.visitor(t)
	id := remoteGamePlayed(t, host, friend)
	host.api(t, http.MethodPost, "/api/games/"+id+"/resign", `{"ply":2}`, http.StatusOK)

	for _, lang := range []string{"en", "es", "ru"} {
		for _, method := range []string{http.MethodPost, http.MethodGet} {
			rec := third.do(method, "/api/games/"+id+"/review?lang="+lang, "application/json", "")
			want := words.Default().For(lang).T("review.refuse_not_seated")
			var body map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &body)
			if rec.Code != http.StatusForbidden || body["error"] != want {
				t.Errorf("%s review by a watcher (%s): %d %v, want 403 %q", method, lang, rec.Code, body, want)
			}
		}
	}
	if rec := third.do(http.MethodGet, "/play/"+id+"/review", "", ""); rec.Code != http.StatusForbidden {
		t.Errorf("the review page for a watcher: %d, want 403", rec.Code)
	}
	friend.api(t, http.MethodPost, "/api/games/"+id+"/review", `{}`, http.StatusAccepted)
	for name, v := range map[string]*siteVisitor{"the friend, who asked": friend, "the host": host} {
		if got := v.api(t, http.MethodGet, "/api/games/"+id+"/review", "", http.StatusOK); got["game_id"] != nil && got["game_id"] != id {
			t.Errorf("%s reads the review of %v", name, got["game_id"])
		}
		if rec := v.do(http.MethodGet, "/play/"+id+"/review", "", ""); rec.Code != http.StatusOK {
			t.Errorf("the review page for %s: %d", name, rec.Code)
		}
	}
	third.api(t, http.MethodGet, "/api/games/"+id+"/review", "", http.StatusForbidden)
	// The watch view says who may review.
	if page := third.do(http.MethodGet, "/join/"+id, "", ""); !strings.Contains(page.Body.String(), "data-watch-review") {
		t.Error("the watch view does not say that the players can review the game")
	}
}

// TestRemoteGuestExport: "download my data" of the friend who took the
// seat holds the game they sit in, as JSON and on the readable page, and
// neither player's copy names the other.
func TestRemoteGuestExport(t *testing.T) {
	s := newFullSite(t)
	host, friend := s.visitor(t), s.visitor(t)
	id := remoteGamePlayed(t, host, friend)
	rec := friend.do(http.MethodGet, "/api/me", "", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/me: %d", rec.Code)
	}
	var me struct {
		Tables map[string][]map[string]any `json:"tables"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &me); err != nil {
		t.Fatal(err)
	}
	if seats := me.Tables["remote_seats"]; len(seats) != 1 || seats[0]["game_id"] != id || seats[0]["seat"] != "black" || seats[0]["moves"] != "e2e4 e7e5" {
		t.Errorf("the friend's exported seats: %v", seats)
	}
	if strings.Contains(rec.Body.String(), host.id) {
		t.Error("the friend's export names the host")
	}
	if body := host.do(http.MethodGet, "/api/me", "", "").Body.String(); strings.Contains(body, friend.id) {
		t.Error("the host's export names the friend")
	}
	for _, lang := range []string{"en", "es", "ru"} {
		page := friend.do(http.MethodGet, "/privacy/data?lang="+lang, "", "")
		title := words.Default().For(lang).T("privacy.table_remote_seats")
		if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), title) || !strings.Contains(page.Body.String(), "e4") {
			t.Errorf("/privacy/data (%s) lacks the seat under %q", lang, title)
		}
	}
}
