//go:build full

package faults

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Games from two devices on two instances (G25, N6): each player's page
// may talk to either instance, so a move made on one must reach a stream
// held by the other (LISTEN/NOTIFY), and a stream whose instance dies must
// pick up on the other without losing a move.

// event is one state event of a stream.
type event struct {
	id  string
	ply int
	raw map[string]any
}

// stream is an open event stream read in the background.
type stream struct {
	events chan event
	byes   chan struct{}
	cancel context.CancelFunc
}

// follow opens the game's event stream on v's instance, as v, naming the
// last event seen (Last-Event-ID) when there was one.
func (v *visitor) follow(t *testing.T, id, lastID string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, v.URL+"/api/games/"+id+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	client := &http.Client{Jar: v.HTTP.Jar} // no timeout: a stream lasts
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("open stream on %s: %v", v.URL, err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("open stream on %s: status %d", v.URL, res.StatusCode)
	}
	s := &stream{events: make(chan event, 256), byes: make(chan struct{}, 1), cancel: cancel}
	go func() {
		defer close(s.events)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		var ev event
		name := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if name == "state" {
					s.events <- ev
				} else if name == "bye" {
					s.byes <- struct{}{}
				}
				ev, name = event{}, ""
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				name = line[7:]
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(line[6:]), &ev.raw)
				if p, ok := ev.raw["ply"].(float64); ok {
					ev.ply = int(p)
				}
			}
		}
	}()
	return s
}

// waitPly reads the stream until a state at ply comes, and returns it.
func (s *stream) waitPly(t *testing.T, ply int) event {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatalf("the stream ended waiting for ply %d", ply)
			}
			if ev.ply == ply {
				return ev
			}
		case <-timeout:
			t.Fatalf("no state at ply %d within 15 s", ply)
		}
	}
}

// remoteOn starts a game from two devices for host and seats friend.
func remoteOn(t *testing.T, host, friend *visitor) string {
	t.Helper()
	st := host.must(t, http.StatusCreated, "POST", "/api/games", map[string]any{"mode": "remote", "color": "white", "clock": "10+0"})
	friend.must(t, http.StatusOK, "POST", "/api/games/"+st.ID+"/join", map[string]any{})
	return st.ID
}

// TestRemotePlayersOnTwoInstances: the host plays through A, the friend
// through B; every move reaches the other's stream on the other instance.
func TestRemotePlayersOnTwoInstances(t *testing.T) {
	a, b := twoInstances(t)
	host, friend := newVisitor(t, a), newVisitor(t, b)
	id := remoteOn(t, host, friend)
	hs, fs := host.follow(t, id, ""), friend.follow(t, id, "")
	hs.waitPly(t, 0)
	fs.waitPly(t, 0)
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}
	for i, mv := range moves {
		mover, other := host, fs
		if i%2 == 1 {
			mover, other = friend, hs
		}
		start := time.Now()
		mover.must(t, http.StatusOK, "POST", "/api/games/"+id+"/moves", map[string]any{"move": mv, "ply": i})
		ev := other.waitPly(t, i+1)
		if ev.raw["last_move"] != mv {
			t.Errorf("move %d: the other instance's stream says %v, want %s", i+1, ev.raw["last_move"], mv)
		}
		t.Logf("move %d %s: POST on %s to the event on the other instance: %v", i+1, mv, mover.URL, time.Since(start).Round(time.Millisecond))
	}
}

// TestRemoteStreamMovesToTheOtherInstance: the instance holding the
// host's stream is killed; meanwhile the friend plays on; the host's page
// reconnects through the other instance naming the last state it had,
// and gets everything it missed. A stopping instance says goodbye to its
// streams instead of holding its shutdown up.
func TestRemoteStreamMovesToTheOtherInstance(t *testing.T) {
	a, b := twoInstances(t)
	host, friend := newVisitor(t, a), newVisitor(t, b)
	id := remoteOn(t, host, friend)
	hs := host.follow(t, id, "")
	hs.waitPly(t, 0)
	host.must(t, http.StatusOK, "POST", "/api/games/"+id+"/moves", map[string]any{"move": "d2d4", "ply": 0})
	friend.must(t, http.StatusOK, "POST", "/api/games/"+id+"/moves", map[string]any{"move": "d7d5", "ply": 1})
	last := hs.waitPly(t, 2)

	a.Kill()
	select {
	case _, ok := <-hs.events:
		for ok {
			_, ok = <-hs.events
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream stayed open after its instance was killed")
	}
	// While the host is away, the game goes on through B.
	onB := host.on(b)
	onB.must(t, http.StatusOK, "POST", "/api/games/"+id+"/moves", map[string]any{"move": "c2c4", "ply": 2})
	friend.must(t, http.StatusOK, "POST", "/api/games/"+id+"/moves", map[string]any{"move": "e7e6", "ply": 3})

	// The page reconnects through B, naming the last state it had.
	hs2 := onB.follow(t, id, last.id)
	got := hs2.waitPly(t, 4)
	uci, _ := got.raw["uci"].([]any)
	if len(uci) != 4 || uci[2] != "c2c4" || uci[3] != "e7e6" {
		t.Errorf("after reconnecting through B: %v, want d2d4 d7d5 c2c4 e7e6", uci)
	}
	onB.must(t, http.StatusOK, "POST", "/api/games/"+id+"/moves", map[string]any{"move": "b1c3", "ply": 4})
	hs2.waitPly(t, 5)

	// B stops: its streams hear goodbye and the stop is not held up.
	start := time.Now()
	stopped := make(chan error, 1)
	go func() { stopped <- b.Stop() }()
	select {
	case <-hs2.byes:
	case <-time.After(10 * time.Second):
		t.Error("no goodbye on the stream when its instance stopped")
	}
	if err := <-stopped; err != nil {
		t.Errorf("B stopped with %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("B took %v to stop with a stream open", d)
	}
}
