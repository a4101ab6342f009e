// Command uci runs the site's chess engine as a UCI engine, so that it can
// play other engines and be used from any chess GUI (issue 8).
//
// Besides the standard commands it offers the option "Level" (0–8, the
// site's playing levels; -1, the default, for full strength, judging
// positions as level 8 does, without its time budget) and "Hash"
// (megabytes).
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "uci:", err)
		os.Exit(1)
	}
}

// fullStrength is the Level option's value for the engine at its best.
const fullStrength = -1

// session is one conversation with a GUI.
type session struct {
	out   io.Writer
	outMu sync.Mutex

	searcher *engine.Searcher
	hashMB   int
	level    int // a playing level, or fullStrength

	pos     *chess.Position
	history []uint64

	searching sync.WaitGroup
	cancel    context.CancelFunc
}

func (s *session) send(format string, args ...any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	fmt.Fprintf(s.out, format+"\n", args...)
}

// run reads UCI commands from in until "quit" or the end of input.
func run(in io.Reader, out io.Writer) error {
	start, _ := chess.ParseFEN(chess.StartFEN)
	s := &session{out: out, hashMB: 32, pos: start, level: fullStrength}
	s.searcher = engine.NewSearcher(s.hashMB)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "uci":
			s.send("id name Chesstutor")
			s.send("id author the Chesstutor team")
			s.send("option name Hash type spin default 32 min 1 max 1024")
			s.send("option name Level type spin default %d min %d max %d", fullStrength, fullStrength, engine.MaxLevel)
			s.send("uciok")
		case "isready":
			s.send("readyok")
		case "ucinewgame":
			s.stop()
			s.searcher.Clear()
		case "setoption":
			s.stop()
			s.setOption(fields[1:])
		case "position":
			s.stop()
			if err := s.setPosition(fields[1:]); err != nil {
				s.send("info string %v", err)
			}
		case "go":
			s.stop()
			s.goSearch(fields[1:])
		case "stop":
			s.stop()
		case "quit":
			s.stop()
			return nil
		default:
			s.send("info string unknown command %q", fields[0])
		}
	}
	s.stop()
	return sc.Err()
}

// stop ends a running search; its bestmove is sent before stop returns.
func (s *session) stop() {
	if s.cancel != nil {
		s.cancel()
	}
	s.searching.Wait()
}

func (s *session) setOption(args []string) {
	// setoption name <id> [value <x>]
	var name, value []string
	cur := &name
	for _, a := range args {
		switch strings.ToLower(a) {
		case "name":
			cur = &name
		case "value":
			cur = &value
		default:
			*cur = append(*cur, a)
		}
	}
	n, err := strconv.Atoi(strings.Join(value, " "))
	switch strings.ToLower(strings.Join(name, " ")) {
	case "level":
		if err != nil || n < fullStrength || n > engine.MaxLevel {
			s.send("info string Level must be %d (full strength) or %d to %d", fullStrength, engine.MinLevel, engine.MaxLevel)
			return
		}
		s.level = n
	case "hash":
		if err != nil || n < 1 || n > 1024 {
			s.send("info string Hash must be 1 to 1024 megabytes")
			return
		}
		s.hashMB = n
		s.searcher = engine.NewSearcher(n)
	default:
		s.send("info string unknown option %q", strings.Join(name, " "))
	}
}

func (s *session) setPosition(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("position needs startpos or fen")
	}
	var pos *chess.Position
	var err error
	rest := args[1:]
	switch args[0] {
	case "startpos":
		pos, err = chess.ParseFEN(chess.StartFEN)
	case "fen":
		end := len(rest)
		for i, a := range rest {
			if a == "moves" {
				end = i
				break
			}
		}
		pos, err = chess.ParseFEN(strings.Join(rest[:end], " "))
		rest = rest[end:]
	default:
		return fmt.Errorf("position needs startpos or fen, not %q", args[0])
	}
	if err != nil {
		return err
	}
	var history []uint64
	if len(rest) > 0 && rest[0] == "moves" {
		for _, u := range rest[1:] {
			m, err := pos.ParseUCI(u)
			if err != nil {
				return err
			}
			history = append(history, pos.Hash())
			pos = pos.Play(m)
		}
	}
	s.pos, s.history = pos, history
	return nil
}

func (s *session) goSearch(args []string) {
	var lim engine.Limits
	var wtime, btime, winc, binc, movetime time.Duration
	movestogo := 0
	infinite := false
	for i := 0; i < len(args); i++ {
		next := func() int {
			if i+1 < len(args) {
				i++
				n, _ := strconv.Atoi(args[i])
				return n
			}
			return 0
		}
		switch args[i] {
		case "depth":
			lim.Depth = next()
		case "nodes":
			lim.Nodes = uint64(max(next(), 0))
		case "movetime":
			movetime = time.Duration(next()) * time.Millisecond
		case "wtime":
			wtime = time.Duration(next()) * time.Millisecond
		case "btime":
			btime = time.Duration(next()) * time.Millisecond
		case "winc":
			winc = time.Duration(next()) * time.Millisecond
		case "binc":
			binc = time.Duration(next()) * time.Millisecond
		case "movestogo":
			movestogo = next()
		case "infinite":
			infinite = true
		}
	}
	left, inc := wtime, winc
	if s.pos.Turn() == chess.Black {
		left, inc = btime, binc
	}
	switch {
	case movetime > 0:
		lim.Time = max(movetime-30*time.Millisecond, movetime*3/4)
	case left > 0 && !infinite:
		// A share of the clock as the hard budget; no new iteration after
		// a third of it, since the next one would rarely finish.
		lim.Time = budget(left, inc, movestogo)
		lim.Soft = lim.Time / 3
	}

	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	pos, history, level, searcher := s.pos, s.history, s.level, s.searcher
	searcher.Info = func(in engine.Info) {
		score := fmt.Sprintf("cp %d", in.Score)
		if m := engine.MateIn(in.Score); m != 0 {
			score = fmt.Sprintf("mate %d", m)
		}
		ms := max(in.Elapsed.Milliseconds(), 1)
		pv := make([]string, len(in.PV))
		for i, m := range in.PV {
			pv[i] = m.UCI()
		}
		s.send("info depth %d score %s nodes %d nps %d time %d pv %s",
			in.Depth, score, in.Nodes, in.Nodes*1000/uint64(ms), ms, strings.Join(pv, " "))
	}
	s.searching.Add(1)
	go func() {
		defer s.searching.Done()
		defer cancel()
		var best chess.Move
		if level >= engine.MinLevel {
			m, _, err := searcher.PlayLevel(ctx, pos, history, level, lim)
			if err != nil {
				s.send("info string %v", err)
			}
			best = m
		} else {
			searcher.SetTuned(true)
			best = searcher.Search(ctx, pos, history, lim).Move
		}
		// In infinite mode the GUI expects bestmove only after stop.
		if infinite {
			<-ctx.Done()
		}
		s.send("bestmove %s", best.UCI())
	}()
}

// budget spends a share of the remaining clock on one move, keeping a
// reserve so that the engine never loses on time.
func budget(left, inc time.Duration, movestogo int) time.Duration {
	moves := 30
	if movestogo > 0 {
		moves = min(movestogo+1, 30)
	}
	t := left/time.Duration(moves) + inc*3/4
	t = min(t, left/2)
	return max(t-20*time.Millisecond, 5*time.Millisecond)
}
