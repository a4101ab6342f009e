// Package uci runs an outside chess engine that speaks UCI (Stockfish) as
// the site's analysis engine (C5): game reviews and hints search with it
// when the machine has it. The levels never use it: they play with the
// built-in engine, whose calibration stands.
//
// An Engine keeps a few engine processes, one search each at a time, and
// answers Analyse with the same engine.Result the built-in pool gives, so
// the review package cannot tell them apart except by Name.
package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
)

// Engine is a set of running UCI engine processes of one program. It is
// safe for concurrent use: each search takes a process of its own, and at
// most Max run at once.
type Engine struct {
	path string
	name string
	hash int
	idle chan *proc
	// slots bounds the processes: a search takes a slot, then an idle
	// process or, when none is idle, starts one.
	slots chan struct{}

	mu     sync.Mutex
	all    []*proc
	closed bool
}

// Find returns the path of Stockfish on the PATH or in /usr/games, or ""
// when the machine has none (the "auto" choice of -analysis-engine).
func Find() string {
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	p := "/usr/games/stockfish"
	if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
		return p
	}
	return ""
}

// Start starts the UCI engine at path once, to check that it speaks UCI and
// learn its name, and returns an Engine that runs at most max searches at
// once (one process each, on one thread with hashMB megabytes of hash).
func Start(path string, max, hashMB int) (*Engine, error) {
	e := &Engine{path: path, hash: hashMB, idle: make(chan *proc, maxOf(max, 1)), slots: make(chan struct{}, maxOf(max, 1))}
	p, err := e.start()
	if err != nil {
		return nil, err
	}
	e.idle <- p
	return e, nil
}

func maxOf(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Name is the engine's name as it gives it ("Stockfish 15.1"), or the
// file's name when it gives none.
func (e *Engine) Name() string { return e.name }

// Close stops every process.
func (e *Engine) Close() error {
	e.mu.Lock()
	e.closed = true
	all := e.all
	e.all = nil
	e.mu.Unlock()
	for _, p := range all {
		p.quit()
	}
	return nil
}

// Analyse searches pos within lim (depth, time, nodes; lim.Moves restricts
// the search to those root moves, UCI's searchmoves) and returns the best
// move, the score from the side to move's view on the built-in engine's
// scale (a mate as engine.MateIn reads it), and the line. history is not
// sent: the position goes as a FEN, so a repetition before it is not seen.
// When ctx ends the search is stopped and ctx.Err() returned.
func (e *Engine) Analyse(ctx context.Context, pos *chess.Position, history []uint64, lim engine.Limits) (engine.Result, error) {
	if pos == nil {
		return engine.Result{}, errors.New("uci: no position to analyse")
	}
	if lim.Depth <= 0 && lim.Time <= 0 && lim.Nodes == 0 {
		return engine.Result{}, errors.New("uci: an analysis needs a depth, time or node limit")
	}
	legal := pos.LegalMoves()
	if len(legal) == 0 {
		res := engine.Result{}
		if pos.InCheck() {
			res.Score = -mateBase
		}
		return res, nil
	}
	select {
	case e.slots <- struct{}{}:
	case <-ctx.Done():
		return engine.Result{}, ctx.Err()
	}
	defer func() { <-e.slots }()
	var p *proc
	select {
	case p = <-e.idle:
	default:
		var err error
		if p, err = e.start(); err != nil {
			return engine.Result{}, err
		}
	}
	res, err := p.search(ctx, pos, lim)
	if err != nil && ctx.Err() == nil {
		// A broken process is dropped; the next search starts another.
		e.drop(p)
		return engine.Result{}, err
	}
	e.idle <- p
	if err := ctx.Err(); err != nil {
		return engine.Result{}, err
	}
	return res, err
}

func (e *Engine) drop(p *proc) {
	p.quit()
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, q := range e.all {
		if q == p {
			e.all = append(e.all[:i], e.all[i+1:]...)
			break
		}
	}
}

// proc is one running engine process.
type proc struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string // the engine's output, closed when it exits
	// multiPV is the number of lines the engine is set to search.
	multiPV int
}

func (e *Engine) start() (*proc, error) {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return nil, errors.New("uci: engine closed")
	}
	cmd := exec.Command(e.path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", e.path, err)
	}
	p := &proc{cmd: cmd, in: in, lines: make(chan string, 256), multiPV: 1}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		cmd.Wait()
	}()
	name := ""
	p.send("uci")
	err = p.until("uciok", 10*time.Second, func(l string) {
		if rest, ok := strings.CutPrefix(l, "id name "); ok {
			name = strings.TrimSpace(rest)
		}
	})
	if err == nil {
		p.send("setoption name Threads value 1")
		p.send("setoption name Hash value " + strconv.Itoa(maxOf(e.hash, 1)))
		p.send("isready")
		err = p.until("readyok", 10*time.Second, nil)
	}
	if err != nil {
		p.quit()
		return nil, fmt.Errorf("uci: %s does not speak UCI: %w", e.path, err)
	}
	if name == "" {
		name = filepath.Base(e.path)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.name == "" {
		e.name = name
	}
	e.all = append(e.all, p)
	return p, nil
}

func (p *proc) send(s string) { fmt.Fprintln(p.in, s) }

// until reads lines up to one that starts with prefix, giving the others
// to seen; it fails when the engine exits or says nothing for within.
func (p *proc) until(prefix string, within time.Duration, seen func(string)) error {
	t := time.NewTimer(within)
	defer t.Stop()
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return errors.New("the engine stopped")
			}
			if strings.HasPrefix(l, prefix) {
				return nil
			}
			if seen != nil {
				seen(l)
			}
		case <-t.C:
			return fmt.Errorf("no %q within %s", prefix, within)
		}
	}
}

func (p *proc) quit() {
	p.send("quit")
	p.in.Close()
	done := make(chan struct{})
	go func() {
		for range p.lines {
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		p.cmd.Process.Kill()
	}
}

// search runs one "go" and reads its answer.
func (p *proc) search(ctx context.Context, pos *chess.Position, lim engine.Limits) (engine.Result, error) {
	var gocmd strings.Builder
	gocmd.WriteString("go")
	if lim.Depth > 0 {
		fmt.Fprintf(&gocmd, " depth %d", lim.Depth)
	}
	if lim.Time > 0 {
		fmt.Fprintf(&gocmd, " movetime %d", max(lim.Time.Milliseconds(), 1))
	}
	if lim.Nodes > 0 {
		fmt.Fprintf(&gocmd, " nodes %d", lim.Nodes)
	}
	if len(lim.Moves) > 0 {
		gocmd.WriteString(" searchmoves")
		for _, m := range lim.Moves {
			gocmd.WriteString(" " + m.UCI())
		}
	}
	// Several moves to compare are searched as that many lines (MultiPV),
	// so each gets its own exact score, as the built-in engine gives them.
	lines := max(len(lim.Moves), 1)
	if lines != p.multiPV {
		p.send("setoption name MultiPV value " + strconv.Itoa(lines))
		p.multiPV = lines
	}
	p.send("position fen " + pos.FEN())
	p.send(gocmd.String())

	var res engine.Result
	var pv []string
	root := map[int]engine.RootMove{}
	// A background search (a review) is paused while a game needs the
	// core: the engine's process is stopped and continued (SIGSTOP,
	// SIGCONT), and goes on where it was.
	paused := engine.PausedFrom(ctx)
	var tick <-chan time.Time
	if paused != nil {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	frozen := false
	defer func() {
		if frozen {
			p.cmd.Process.Signal(syscall.SIGCONT)
		}
	}()
	stopped := false
	// The engine answers within its limits; a depth-only search on a
	// slow machine may take long, so only a silent engine is an error.
	silence := time.NewTimer(time.Minute)
	defer silence.Stop()
	for {
		select {
		case <-ctx.Done():
			if !stopped {
				if frozen {
					p.cmd.Process.Signal(syscall.SIGCONT)
					frozen = false
				}
				p.send("stop")
				stopped = true
			}
			ctx = context.Background() // keep reading up to bestmove
			continue
		case <-tick:
			if want := paused.IsPaused() && !stopped; want != frozen {
				sig := syscall.SIGCONT
				if want {
					sig = syscall.SIGSTOP
				}
				if p.cmd.Process.Signal(sig) == nil {
					frozen = want
				}
				silence.Reset(time.Minute)
			}
		case <-silence.C:
			if frozen {
				silence.Reset(time.Minute)
				continue
			}
			return engine.Result{}, errors.New("uci: the engine went silent")
		case l, ok := <-p.lines:
			if !ok {
				return engine.Result{}, errors.New("uci: the engine stopped")
			}
			silence.Reset(time.Minute)
			f := strings.Fields(l)
			if len(f) == 0 {
				continue
			}
			switch f[0] {
			case "info":
				if n, ok := infoNodes(f); ok {
					res.Nodes = n
				}
				if d, k, s, line, ok := parseInfo(f); ok {
					if k == 1 {
						res.Depth, res.Score, pv = d, s, line
					}
					if len(line) > 0 {
						if m, err := pos.ParseUCI(line[0]); err == nil {
							root[k] = engine.RootMove{Move: m, Score: s, Scored: true}
						}
					}
				}
			case "bestmove":
				if len(f) < 2 || f[1] == "(none)" {
					return engine.Result{}, fmt.Errorf("uci: no best move in %s", pos.FEN())
				}
				m, err := pos.ParseUCI(f[1])
				if err != nil {
					return engine.Result{}, fmt.Errorf("uci: best move %q: %w", f[1], err)
				}
				res.Move = m
				res.PV = linePV(pos, m, pv)
				res.Root = []engine.RootMove{{Move: m, Score: res.Score, Scored: true}}
				for k := 2; k <= lines; k++ {
					if r, ok := root[k]; ok && r.Move != m {
						res.Root = append(res.Root, r)
					}
				}
				return res, nil
			}
		}
	}
}

// mateBase is the built-in engine's score for a mate on the board (see
// engine.MateIn): a mate in n moves scores mateBase-(2n-1), being mated
// in n scores -(mateBase-2n).
const mateBase = 31000

// parseInfo reads an "info" line with a score and a line of play: the
// depth, the line's number (multipv, 1 when not given), the score on the
// built-in engine's scale and the moves. Lines with a bound (lowerbound,
// upperbound) are skipped.
func parseInfo(f []string) (depth, multipv, score int, pv []string, ok bool) {
	scored := false
	multipv = 1
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "depth":
			if i+1 < len(f) {
				depth, _ = strconv.Atoi(f[i+1])
			}
		case "multipv":
			if i+1 < len(f) {
				multipv, _ = strconv.Atoi(f[i+1])
			}
		case "lowerbound", "upperbound":
			return 0, 0, 0, nil, false
		case "score":
			if i+2 >= len(f) {
				return 0, 0, 0, nil, false
			}
			n, err := strconv.Atoi(f[i+2])
			if err != nil {
				return 0, 0, 0, nil, false
			}
			switch f[i+1] {
			case "cp":
				score = n
			case "mate":
				score = mateScore(n)
			default:
				return 0, 0, 0, nil, false
			}
			scored = true
		case "pv":
			pv = append([]string(nil), f[i+1:]...)
			i = len(f)
		}
	}
	return depth, multipv, score, pv, scored && depth > 0
}

// mateScore turns UCI's "mate n" (the side to move mates in n moves; n < 0:
// it is mated in -n) into the built-in engine's score.
func mateScore(n int) int {
	switch {
	case n > 0:
		return mateBase - (2*n - 1)
	case n < 0:
		return -(mateBase + 2*n)
	}
	return -mateBase // mated on the board
}

// linePV parses the engine's line from pos, keeping its legal start; it
// always begins with best.
func linePV(pos *chess.Position, best chess.Move, pv []string) []chess.Move {
	out := []chess.Move{best}
	if len(pv) == 0 || pv[0] != best.UCI() {
		return out
	}
	p := pos.Play(best)
	for _, u := range pv[1:] {
		m, err := p.ParseUCI(u)
		if err != nil {
			break
		}
		out = append(out, m)
		p = p.Play(m)
	}
	return out
}

// infoNodes reads the nodes searched so far from an "info" line.
func infoNodes(f []string) (uint64, bool) {
	for i := 1; i+1 < len(f); i++ {
		if f[i] == "nodes" {
			n, err := strconv.ParseUint(f[i+1], 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// StockfishScale reports that the engine's centipawns are used as they
// come: a UCI engine is taken to count as Stockfish does (the review's
// winning-chances curve was fitted to Stockfish's scale).
func (e *Engine) StockfishScale() bool { return true }
