//go:build full

package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The claim when a player is gone (G26), with the away period shortened
// from a minute to awayTest by CHESS_TEST_AWAY_CLAIM: the test waits for
// conditions on the pages, and only the reconnect must come back within
// the period, which it checks and says when the machine was too slow.

const awayTest = 12 * time.Second

// TestBrowserRemoteClaimWhenGone: Black, on their own clock, leaves the
// game and comes back within the away period: White is never offered the
// claim, even once the period has passed since Black left. Black leaves
// again and stays away: after the period White reads that they may claim,
// claims, and wins; Black, back, finds the game over.
func TestBrowserRemoteClaimWhenGone(t *testing.T) {
	s := newServer(t, WithEnv("CHESS_TEST_AWAY_CLAIM="+awayTest.String()))
	// The test waits out the away period three times: more than the
	// browsers' default 90 s on a busy machine.
	host := newBrowser(t, WithViewport(Phone), WithTimeout(4*time.Minute))
	friend := newBrowser(t, WithViewport(Phone), WithTimeout(4*time.Minute))
	id := startGame(t, host, s, `{"mode":"remote","color":"white","clock":"10+0"}`)
	friend.Open(s.URL + "/join/" + id)
	click(friend, `[data-action="join"]`)
	gameWait(t, friend, `document.querySelectorAll("[data-board] button[data-square]").length === 64`)
	gameWait(t, host, `document.querySelector("[data-invite]").hidden`)
	tapMove(t, host, "e2", "e4")
	gameWait(t, friend, pieceOn("e4", "wP")+` && document.querySelector("[data-status]").textContent.includes("Your move")`)
	claimHidden := `document.querySelector('[data-action="claim"]').hidden`
	claimState := func() (bool, int) {
		t.Helper()
		got, err := chromedp.Run(host.Ctx, chromedp.Evaluate[string](`fetch("/api/games/`+id+`").then(r => r.json()).then(d => d.remote.claimable + " " + d.remote.away_ms + " " + d.remote.claim_after_ms)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(got)
		if len(f) != 3 || f[2] != strconv.FormatInt(awayTest.Milliseconds(), 10) {
			t.Fatalf("the host's state: %q (claimable, away_ms, claim_after_ms)", got)
		}
		ms, _ := strconv.Atoi(f[1])
		return f[0] == "true", ms
	}

	// Black goes away and comes back before the period is over.
	left := time.Now()
	friend.Open(s.URL + "/play")
	friend.Open(s.URL + "/play/" + id)
	gameWait(t, friend, pieceOn("e4", "wP"))
	if back := time.Since(left); back >= awayTest*3/4 {
		t.Fatalf("the reconnect took %v, too long on this machine for an away period of %v", back.Round(time.Millisecond), awayTest)
	}
	// Half as long again as the period after Black left (the host's page
	// asks again at the period's end), White has nothing to claim.
	time.Sleep(time.Until(left.Add(awayTest * 3 / 2)))
	if claimable, away := claimState(); claimable || away >= int(awayTest.Milliseconds()) {
		t.Errorf("after Black came back: claimable %v, away %d ms; want nothing to claim", claimable, away)
	}
	if !Eval[bool](host, claimHidden) {
		t.Error("White is offered the claim although Black came back in time")
	}

	// Black goes away for good: White sees the claim, and claims.
	friend.Open(s.URL + "/play")
	waitLonger(t, host, 3*awayTest, `!`+claimHidden+` && document.querySelector("[data-remote-line]").textContent.includes("You may claim the game")`)
	viewShot(t, host, "remote-claim-phone")
	click(host, `[data-action="claim"]`)
	gameWait(t, host, `!document.querySelector("[data-result-card]").hidden`)
	if got := Eval[string](host, `document.querySelector("[data-result-card]").textContent`); !strings.Contains(got, "White wins") || !strings.Contains(got, "Black was gone") {
		t.Errorf("the result card after the claim: %q", got)
	}
	friend.Open(s.URL + "/play/" + id)
	gameWait(t, friend, `!document.querySelector("[data-result-card]").hidden`)
	if got := Eval[string](friend, `document.querySelector("[data-result-card]").textContent`); !strings.Contains(got, "Black was gone") {
		t.Errorf("the friend's result card: %q", got)
	}
	for _, b := range []*Browser{host, friend} {
		if msgs := b.ConsoleErrors(); len(msgs) > 0 {
			t.Errorf("console errors: %v", msgs)
		}
	}
}

// waitLonger is gameWait with its own deadline, for a wait that includes
// the away period.
func waitLonger(t *testing.T, b *Browser, within time.Duration, expr string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](expr)); err == nil && v {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out after %v waiting for %s", within, expr)
}
