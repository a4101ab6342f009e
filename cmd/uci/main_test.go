package main

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"

	"chesstutor/chess"
)

// uciClient drives run over pipes, as a GUI drives the binary over
// stdin and stdout.
type uciClient struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func startUCI(t *testing.T) *uciClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &uciClient{t: t, in: inW, lines: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		err := run(inR, outW)
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	return c
}

func (c *uciClient) send(cmd string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, cmd+"\n"); err != nil {
		c.t.Fatalf("send %q: %v", cmd, err)
	}
}

// expect reads lines until one starts with prefix and returns it.
func (c *uciClient) expect(prefix string, within time.Duration) string {
	c.t.Helper()
	timeout := time.After(within)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("output ended while waiting for %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-timeout:
			c.t.Fatalf("no %q within %v", prefix, within)
		}
	}
}

func legalBestMove(t *testing.T, line string, pos *chess.Position) {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 {
		t.Fatalf("bad line %q", line)
	}
	if _, err := pos.ParseUCI(f[1]); err != nil {
		t.Errorf("bestmove %s is not legal in %s: %v", f[1], pos.FEN(), err)
	}
}

func TestUCISession(t *testing.T) {
	c := startUCI(t)
	c.send("uci")
	c.expect("id name", time.Second)
	// Level 0 is a playing level, so full strength is -1 (the default).
	if l := c.expect("option name Level", time.Second); l != "option name Level type spin default -1 min -1 max 8" {
		t.Errorf("the Level option is %q", l)
	}
	c.expect("uciok", time.Second)
	c.send("isready")
	c.expect("readyok", time.Second)
	c.send("ucinewgame")
	c.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5")
	pos, _ := chess.ParseFEN(chess.StartFEN)
	for _, u := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"} {
		m, err := pos.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		pos = pos.Play(m)
	}

	c.send("go depth 4")
	c.expect("info depth 1", 2*time.Second)
	legalBestMove(t, c.expect("bestmove", 5*time.Second), pos)

	c.send("go movetime 100")
	legalBestMove(t, c.expect("bestmove", time.Second), pos)

	c.send("go wtime 3000 btime 3000 winc 100 binc 100")
	legalBestMove(t, c.expect("bestmove", 2*time.Second), pos)

	c.send("go infinite")
	time.Sleep(100 * time.Millisecond)
	c.send("stop")
	legalBestMove(t, c.expect("bestmove", time.Second), pos)

	// Level 5 is the weakest level that never overlooks one of its own
	// moves (levels 1-4 miss a mate in one now and then, by design).
	c.send("setoption name Level value 5")
	c.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	c.send("go movetime 500")
	if l := c.expect("bestmove", time.Second); l != "bestmove a1a8" {
		t.Errorf("level 5 got %q, want the mate in one a1a8", l)
	}

	// Level 0 plays a legal move; back at full strength the mate is found.
	c.send("setoption name Level value 0")
	c.send("position startpos")
	c.send("go movetime 500")
	start, _ := chess.ParseFEN(chess.StartFEN)
	legalBestMove(t, c.expect("bestmove", time.Second), start)
	c.send("setoption name Level value -1")
	c.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	c.send("go depth 3")
	if l := c.expect("bestmove", 5*time.Second); l != "bestmove a1a8" {
		t.Errorf("full strength got %q, want the mate in one a1a8", l)
	}

	for _, bad := range []string{"12", "-2"} {
		c.send("setoption name Level value " + bad)
		c.expect("info string Level must be", time.Second)
	}
	c.send("position fen not a fen")
	c.expect("info string chess:", time.Second)

	c.send("quit")
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("quit did not end the session")
	}
}
