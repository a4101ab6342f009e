//go:build full

package e2e

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"

	"chesstutor/internal/pgtest"
	"chesstutor/internal/testbin"
)

// failover is a load balancer for two instances: every request goes to
// the first while it answers, then to the second, as a balancer takes a
// dead instance out. Event streams pass through unbuffered.
type failover struct {
	backends [2]*url.URL
	current  atomic.Int32
	proxy    *httputil.ReverseProxy
}

func newFailover(a, b string) *failover {
	f := &failover{}
	f.backends[0], _ = url.Parse(a)
	f.backends[1], _ = url.Parse(b)
	f.proxy = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(f.backends[f.current.Load()])
			r.Out.Host = r.In.Host
		},
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			f.current.Store(1) // the first is gone: send everything to the second from now on
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	return f
}

func (f *failover) ServeHTTP(w http.ResponseWriter, r *http.Request) { f.proxy.ServeHTTP(w, r) }

// TestBrowserRemoteInstanceKilled: two instances on one PostgreSQL
// database behind a balancer. The host's page follows the game through
// instance A, the friend plays on B. A is killed while the host's stream
// is open; the friend moves meanwhile; the host's page reconnects through
// the balancer, now to B, and shows the move it missed, then plays on.
func TestBrowserRemoteInstanceKilled(t *testing.T) {
	requireE2E(t)
	dsn := pgtest.DSN(t)
	env := []string{"CHESS_API_RATE=1000", "CHESS_API_BURST=1000", "CHESS_DB_POOL=4"}
	a := testbin.Start(t, testbin.Options{DB: dsn, Env: env})
	b := testbin.Start(t, testbin.Options{DB: dsn, Env: env})
	lb := httptest.NewServer(newFailover(a.URL, b.URL))
	defer lb.Close()

	host := newBrowser(t, WithViewport(Phone))
	friend := newBrowser(t, WithViewport(Phone))
	id := startGame(t, host, &Server{URL: lb.URL}, `{"mode":"remote","color":"white","clock":"10+0"}`)
	friend.Open(b.URL + "/join/" + id)
	click(friend, `[data-action="join"]`)
	gameWait(t, friend, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
	gameWait(t, host, `document.querySelector("[data-invite]").hidden`)

	tapMove(t, host, "e2", "e4")
	gameWait(t, friend, pieceOn("e4", "wP"))
	tapMove(t, friend, "e7", "e5")
	gameWait(t, host, pieceOn("e5", "bP"))
	tapMove(t, host, "g1", "f3")
	gameWait(t, friend, pieceOn("f3", "wN"))

	a.Kill() // the host's stream was on A
	tapMove(t, friend, "b8", "c6")
	gameWait(t, host, pieceOn("c6", "bN")) // reconnected through the balancer to B
	tapMove(t, host, "f1", "c4")
	gameWait(t, friend, pieceOn("c4", "wB"))
	if got := Eval[string](host, `Array.from(document.querySelectorAll("[data-movelist] li")).map(li => li.textContent.replace(/\s+/g, " ").trim()).join(" ")`); got != "1. e4 e5 2. ♘f3 ♘c6 3. ♗c4" {
		t.Errorf("the host's move list after the failover: %q", got)
	}
}
