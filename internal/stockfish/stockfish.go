// Package stockfish drives a Stockfish binary over UCI for the programs
// that make and check the site's puzzles (cmd/puzzles, cmd/puzzlecheck).
// Stockfish is a build tool here: nothing the web site runs imports this
// package.
//
// Every search is bounded by a node budget on one thread, so the same
// commands give the same answers on a busy machine as on an idle one.
package stockfish

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// DefaultPath is where Debian's package installs the binary.
const DefaultPath = "/usr/games/stockfish"

// MateScore is the centipawn value Score gives a mate in one; a mate in n
// is MateScore-n+1, being mated in n is -(MateScore-n+1).
const MateScore = 100000

// Line is one of the engine's principal variations.
type Line struct {
	Move  string   // UCI, the line's first move
	PV    []string // UCI, Move first
	CP    int      // centipawns for the side to move, when not a mate
	Mate  int      // > 0: the side to move mates in Mate; < 0: is mated in -Mate; 0: no mate found
	Depth int
}

// Score orders lines: centipawns, or a mate as a huge value.
func (l Line) Score() int {
	switch {
	case l.Mate > 0:
		return MateScore - l.Mate + 1
	case l.Mate < 0:
		return -MateScore - l.Mate - 1
	}
	return l.CP
}

// Engine is a running Stockfish.
type Engine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// Start runs the binary at path on one thread with a hash table of hashMB.
func Start(path string, hashMB int) (*Engine, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("stockfish: start %s: %w", path, err)
	}
	e := &Engine{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	e.out.Buffer(make([]byte, 64*1024), 1<<20)
	e.send("uci")
	if err := e.waitFor("uciok"); err != nil {
		return nil, err
	}
	e.send("setoption name Threads value 1")
	e.send("setoption name Hash value " + strconv.Itoa(hashMB))
	return e, e.NewGame()
}

func (e *Engine) send(s string) { fmt.Fprintln(e.in, s) }

func (e *Engine) waitFor(prefix string) error {
	for e.out.Scan() {
		if strings.HasPrefix(e.out.Text(), prefix) {
			return nil
		}
	}
	if err := e.out.Err(); err != nil {
		return fmt.Errorf("stockfish: %w", err)
	}
	return errors.New("stockfish: the engine stopped")
}

// NewGame clears the engine's hash table, so what follows does not depend
// on what came before (a run in parts gives the same answers as one run).
func (e *Engine) NewGame() error {
	e.send("ucinewgame")
	e.send("isready")
	return e.waitFor("readyok")
}

// Analyse searches the position fen (after the UCI moves, if any) with
// nodes nodes and returns up to multiPV lines, best first.
func (e *Engine) Analyse(fen string, moves []string, multiPV int, nodes int) ([]Line, error) {
	e.send("setoption name MultiPV value " + strconv.Itoa(multiPV))
	pos := "position fen " + fen
	if len(moves) > 0 {
		pos += " moves " + strings.Join(moves, " ")
	}
	e.send(pos)
	e.send("go nodes " + strconv.Itoa(nodes))
	lines := make([]Line, multiPV)
	for e.out.Scan() {
		f := strings.Fields(e.out.Text())
		if len(f) == 0 {
			continue
		}
		if f[0] == "bestmove" {
			var out []Line
			for _, l := range lines {
				if l.Move != "" {
					out = append(out, l)
				}
			}
			if len(out) == 0 && len(f) > 1 && f[1] != "(none)" {
				return nil, fmt.Errorf("stockfish: no line for %s", fen)
			}
			return out, nil
		}
		if f[0] != "info" {
			continue
		}
		l, idx, ok := parseInfo(f)
		if ok && idx >= 1 && idx <= multiPV {
			lines[idx-1] = l
		}
	}
	return nil, errors.New("stockfish: the engine stopped")
}

// parseInfo reads an info line with a score and a pv.
func parseInfo(f []string) (Line, int, bool) {
	var l Line
	idx, scored := 1, false
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "depth":
			if i+1 < len(f) {
				l.Depth, _ = strconv.Atoi(f[i+1])
			}
		case "multipv":
			if i+1 < len(f) {
				idx, _ = strconv.Atoi(f[i+1])
			}
		case "score":
			if i+2 < len(f) {
				n, err := strconv.Atoi(f[i+2])
				if err != nil {
					return l, 0, false
				}
				switch f[i+1] {
				case "cp":
					l.CP, scored = n, true
				case "mate":
					l.Mate, scored = n, true
				}
				if i+3 < len(f) && (f[i+3] == "lowerbound" || f[i+3] == "upperbound") {
					return l, 0, false
				}
			}
		case "pv":
			l.PV = append([]string(nil), f[i+1:]...)
			if len(l.PV) > 0 {
				l.Move = l.PV[0]
			}
			return l, idx, scored && l.Move != ""
		}
	}
	return l, 0, false
}

// Close stops the engine.
func (e *Engine) Close() {
	e.send("quit")
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		e.cmd.Process.Kill()
	}
}
