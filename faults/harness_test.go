//go:build full

// Package faults starts the real chesstutor binary and breaks things under
// it: SIGKILL in the middle of a burst of moves, SIGTERM with requests in
// flight, a database that turns read-only and a disk that fills up (N3).
//
// The tests need no browser. The read-only and disk-full cases need the
// rights to run chattr or mount a small tmpfs (root in a container is
// enough); without them they skip and say why, and the handler-level test
// in handlers/storefault_test.go still covers the 503 mapping.
package faults

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"testing"

	"chesstutor/internal/pgtest"
	"chesstutor/internal/testbin"
)

// TestMain removes the binary the run built, and stops the throwaway
// PostgreSQL cluster if a test started one.
func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	testbin.Cleanup()
	os.Exit(code)
}

// server is the real binary on a free loopback port (the harness faults
// shares with e2e).
type server = testbin.Server

// newServer starts the site on db (a fresh one when db is "") and stops it
// with SIGTERM when the test ends. Under go test -short it skips the test.
func newServer(t *testing.T, db string, env ...string) *server {
	t.Helper()
	return testbin.Start(t, testbin.Options{DB: db, LogLevel: "warn",
		Env: append([]string{"CHESS_API_RATE=10000", "CHESS_API_BURST=10000"}, env...)})
}

// visitor is one browser: its own cookie jar, so its own visitor id and
// its own rate-limit bucket.
type visitor struct{ *testbin.Visitor }

func newVisitor(t *testing.T, s *server) *visitor {
	t.Helper()
	return &visitor{s.NewVisitor(t)}
}

// state is the part of the H1 game state these tests read.
type state = testbin.GameState

// do sends a JSON request; a transport error (server gone) is returned,
// not fatal, because the fault tests provoke exactly that.
func (v *visitor) do(method, path string, body any) (int, state, []byte, error) {
	code, raw, err := v.Do(method, path, body)
	if err != nil {
		return code, state{}, raw, err
	}
	var st state
	json.Unmarshal(raw, &st) // error bodies and PGN are not states; callers check the status
	return code, st, raw, nil
}

// must is do for the set-up steps: anything but the wanted status fails.
func (v *visitor) must(t *testing.T, want int, method, path string, body any) state {
	t.Helper()
	code, st, raw, err := v.do(method, path, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if code != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, code, want, raw)
	}
	return st
}

// burstMove is one step of a burst of moves on g: read the game and play a
// random legal move at the ply it shows. ok is false when the burst ends:
// the server is gone, the game is over, or the read failed (reported).
func (v *visitor) burstMove(t *testing.T, g *tracked, rng *rand.Rand) (code int, st state, move string, raw []byte, ok bool) {
	code, st, raw, err := v.do("GET", "/api/games/"+g.id, nil)
	if err != nil {
		return 0, st, "", raw, false // the server is gone
	}
	if code != http.StatusOK {
		t.Errorf("GET game on %s: status %d: %s", v.URL, code, raw)
		return 0, st, "", raw, false
	}
	g.saw(t, st)
	if st.Status != "active" || len(st.Legal) == 0 {
		return 0, st, "", raw, false
	}
	move = st.Legal[rng.IntN(len(st.Legal))]
	code, st, raw, err = v.do("POST", "/api/games/"+g.id+"/moves", map[string]any{"move": move, "ply": st.Ply})
	return code, st, move, raw, err == nil
}

func newFriendGame(t *testing.T, v *visitor) state {
	t.Helper()
	return v.must(t, http.StatusCreated, "POST", "/api/games",
		map[string]any{"mode": "friend", "clock": "none", "pass_screen": false})
}

// hasPrefix reports whether list starts with prefix.
func hasPrefix(list, prefix []string) bool {
	return len(list) >= len(prefix) && strings.Join(list[:len(prefix)], " ") == strings.Join(prefix, " ")
}
