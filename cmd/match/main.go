// Command match plays the site's engine (through its UCI binary) against
// another UCI engine, usually Debian's stockfish limited with UCI_Elo, and
// reports wins, draws and losses with an Elo estimate (issue 8).
//
//	go build -o /tmp/ct-uci ./cmd/uci
//	go run ./cmd/match -engine /tmp/ct-uci -level 8 -elo 2000 -games 20 -movetime 1s
//
// With -opponent-level the opponent is the same binary at another level,
// which checks that the levels are spread out; adding -opponent-engine
// plays another build (an older version) to test a change:
//
//	go run ./cmd/match -engine /tmp/new -opponent-engine /tmp/old -level 8 -opponent-level 8 -movetime 100ms
//
// With -stockfish-elo, Stockfish limited to that UCI_Elo plays in place of
// the site's engine, which shows how Stockfish's own levels score against
// each other (the yardstick for the levels' games between neighbours):
//
//	go run ./cmd/match -stockfish-elo 2000 -elo 1800 -games 64 -movetime 100ms
//
// With -loss it plays no match but measures the levels' loss per move
// (issue 16): in each position of a file (cmd/match/testdata/middlegames.fen,
// written by -make-positions) every level chooses a move, and Stockfish at
// a fixed depth judges how much worse it is than the best move. Stockfish
// limited to the UCI_Elo values of -elos is measured the same way, which
// puts the levels' figures beside those of the opponents in the matches:
//
//	go run ./cmd/match -loss cmd/match/testdata/middlegames.fen -judge-depth 12
//
// With -free it measures how often the weak levels take material that is
// free to take (issue 38): a free piece, and a hanging queen, in each
// position of a file written by -make-free (no Stockfish needed):
//
//	go run ./cmd/match -free cmd/match/testdata/free-pieces.fen -levels 0-3
//
// Games start from a fixed set of varied openings, each played twice with
// the colours swapped. A game ends by the site's rules (checkmate,
// stalemate, R8 draws), when both engines agree that one side is lost or,
// after move 40, that the game is dead level for ten moves (adjudication
// saves time), or as a draw after -maxplies half-moves.
package main

import (
	"bufio"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"chesstutor/chess"
	"chesstutor/internal/adjudicate"
)

// opening is where a game starts: a position (the initial one when fen is
// empty) and moves played from it before the engines take over.
type opening struct{ name, fen, moves string }

var openings = []opening{
	{name: "Ruy Lopez", moves: "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"},
	{name: "Sicilian Najdorf", moves: "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"},
	{name: "Queen's Gambit Declined", moves: "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"},
	{name: "King's Indian", moves: "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"},
	{name: "French Winawer", moves: "e2e4 e7e6 d2d4 d7d5 b1c3 f8b4"},
	{name: "Caro-Kann Advance", moves: "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5"},
	{name: "English", moves: "c2c4 e7e5 b1c3 g8f6 g2g3"},
	{name: "Réti", moves: "g1f3 d7d5 g2g3 g8f6 f1g2"},
	{name: "Italian", moves: "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"},
	{name: "Nimzo-Indian", moves: "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"},
	{name: "Scandinavian", moves: "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"},
	{name: "Slav", moves: "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6"},
	{name: "Modern", moves: "e2e4 g7g6 d2d4 f8g7 b1c3 d7d6"},
	{name: "King's Gambit", moves: "e2e4 e7e5 f2f4 e5f4"},
	{name: "Dutch", moves: "d2d4 f7f5 g2g3 g8f6 f1g2"},
	{name: "Closed Sicilian", moves: "e2e4 c7c5 b1c3 b8c6 g2g3"},
}

func main() {
	enginePath := flag.String("engine", "", "path of the site's UCI binary (go build -o /tmp/ct-uci ./cmd/uci)")
	level := flag.Int("level", 8, "the site engine's level, 0-8 (-1 for full strength)")
	sfPath := flag.String("stockfish", "/usr/games/stockfish", "path of the opponent engine")
	elo := flag.Int("elo", 2000, "UCI_Elo for the opponent (0 to play it at full strength)")
	stockfishElo := flag.Int("stockfish-elo", 0, "play -stockfish limited to this UCI_Elo instead of -engine: how Stockfish's own levels score against each other")
	oppLevel := flag.Int("opponent-level", -1, "play the site's own engine at this level (0-8) instead of stockfish")
	oppEngine := flag.String("opponent-engine", "", "with -opponent-level: another build of the site's UCI binary (an older version, to test a change)")
	games := flag.Int("games", 20, "number of games")
	first := flag.Int("first", 1, "number of the first game: a later run continues an earlier one with the next openings")
	movetime := flag.Duration("movetime", time.Second, "thinking time per move for both engines")
	oppMovetime := flag.Duration("opponent-movetime", 0, "the opponent's thinking time per move, if not -movetime (Stockfish's limited strength picks its move at a fixed depth, so it needs little time)")
	maxPlies := flag.Int("maxplies", 240, "adjudicate a draw after this many half-moves")
	pgnPath := flag.String("pgn", "", "append the games to this PGN file")
	lossPath := flag.String("loss", "", "instead of a match, measure each level's loss per move over the positions in this file, judged by -stockfish (no -engine needed)")
	judgeDepth := flag.Int("judge-depth", 12, "with -loss: the judge's search depth")
	samples := flag.Int("samples", 4, "with -loss: moves chosen per level and position (with different seeds) by levels 0-6")
	slowSamples := flag.Int("slow-samples", 1, "with -loss: the same for levels 7-8, which think for a fixed time and vary their moves less")
	levelList := flag.String("levels", "0-8", "with -loss or -free: the levels to measure, as 0-8 or 2,4 (none for no level)")
	eloList := flag.String("elos", "1350,1800,2200", "with -loss: also measure -stockfish limited to these UCI_Elo values, -samples moves each at -elo-movetime (\"\" for none)")
	eloMovetime := flag.Duration("elo-movetime", 300*time.Millisecond, "with -elos: the limited Stockfish's thinking time a move")
	makeN := flag.Int("make-positions", 0, "instead of a match, write this many middlegame positions from play to standard output")
	seed := flag.Uint64("seed", 16, "with -make-positions or -make-free: the seed of the games' choices")
	freePath := flag.String("free", "", "instead of a match, measure how often -levels take a free piece or a hanging queen in the positions of this file")
	freeSamples := flag.Int("free-samples", 10, "with -free: moves chosen per level and position, with different seeds")
	makeFreeN := flag.Int("make-free", 0, "instead of a match, write this many positions with a free piece or queen to take (from games between levels 0 and 1) to standard output")
	openingsPath := flag.String("openings", "", "start the games from the positions in this file (one FEN a line, as -make-positions writes) instead of the built-in openings: more distinct games for testing a change")
	flag.Parse()
	if *makeFreeN > 0 {
		if err := makeFree(os.Stdout, *makeFreeN, *seed); err != nil {
			fail(err)
		}
		return
	}
	if *freePath != "" {
		runFree(*freePath, *levelList, *freeSamples)
		return
	}
	if *makeN > 0 {
		if err := makePositions(os.Stdout, *makeN, *seed); err != nil {
			fail(err)
		}
		return
	}
	if *lossPath != "" {
		positions, err := readPositions(*lossPath)
		if err != nil {
			fail(err)
		}
		var levels []int
		if *levelList != "none" {
			if levels, err = parseLevels(*levelList); err != nil {
				fail(err)
			}
		}
		subjects := levelSubjects(levels, max(*samples, 1), max(*slowSamples, 1))
		elos, err := parseElos(*eloList)
		if err != nil {
			fail(err)
		}
		for _, elo := range elos {
			sub, e, err := stockfishSubject(*sfPath, elo, max(*samples, 1), *eloMovetime)
			if err != nil {
				fail(err)
			}
			defer e.close()
			subjects = append(subjects, sub)
		}
		judge, err := startEngine("Stockfish", *sfPath, map[string]string{"Threads": "1", "Hash": "64"})
		if err != nil {
			fail(err)
		}
		defer judge.close()
		if err := measureLoss(judge, positions, subjects, *judgeDepth); err != nil {
			fail(err)
		}
		return
	}
	var us *engine
	var err error
	switch {
	case *stockfishElo > 0:
		us, err = startStockfish(*sfPath, *stockfishElo)
	case *enginePath == "":
		fmt.Fprintln(os.Stderr, "match: -engine is required (build it with: go build -o /tmp/ct-uci ./cmd/uci)")
		os.Exit(2)
	default:
		name := fmt.Sprintf("Chesstutor level %d", *level)
		if *level < 0 {
			name = "Chesstutor at full strength"
		}
		us, err = startEngine(name, *enginePath, map[string]string{"Level": strconv.Itoa(*level), "Hash": "32"})
	}
	if err != nil {
		fail(err)
	}
	defer us.close()
	var them *engine
	if *oppLevel >= 0 {
		path, oppName := *enginePath, fmt.Sprintf("Chesstutor level %d", *oppLevel)
		if *oppEngine != "" {
			path, oppName = *oppEngine, fmt.Sprintf("Other build level %d", *oppLevel)
		}
		them, err = startEngine(oppName, path, map[string]string{"Level": strconv.Itoa(*oppLevel), "Hash": "32"})
	} else {
		them, err = startStockfish(*sfPath, *elo)
	}
	if err != nil {
		fail(err)
	}
	defer them.close()
	us.movetime, them.movetime = *movetime, *movetime
	if *oppMovetime > 0 {
		them.movetime = *oppMovetime
	}

	starts := openings
	if *openingsPath != "" {
		if starts, err = readOpenings(*openingsPath); err != nil {
			fail(err)
		}
	}
	var w, d, l int
	unfinished := 0 // draws called at the move limit
	for g := max(*first, 1) - 1; g < max(*first, 1)-1+*games; g++ {
		op := starts[(g/2)%len(starts)]
		usWhite := g%2 == 0
		white, black := us, them
		if !usWhite {
			white, black = them, us
		}
		game, end, err := play(white, black, op, *maxPlies)
		if err != nil {
			fail(err)
		}
		score := 0.5
		switch {
		case end.result == "1-0" && usWhite, end.result == "0-1" && !usWhite:
			score = 1
			w++
		case end.result == "1/2-1/2":
			d++
		default:
			score = 0
			l++
		}
		if end.atLimit {
			unfinished++
		}
		fmt.Printf("game %2d  %-26s %-16s vs %-16s %-7s %-40s (%s for %s, %d plies)\n",
			g+1, op.name, white.name, black.name, end.result, end.reason, fmtScore(score), us.name, game.Ply())
		if *pgnPath != "" {
			appendPGN(*pgnPath, game, white.name, black.name, op.name, end)
		}
	}
	n := w + d + l
	eloDiff, margin := eloEstimate(w, d, l)
	times := fmt.Sprint(us.movetime)
	if them.movetime != us.movetime {
		times += " and " + fmt.Sprint(them.movetime)
	}
	fmt.Printf("\n%s vs %s, %s per move: +%d =%d -%d in %d games, score %.1f%%\n",
		us.name, them.name, times, w, d, l, n, 100*(float64(w)+float64(d)/2)/float64(n))
	fmt.Printf("Elo difference %+.0f ± %.0f (95%%)\n", eloDiff, margin)
	if unfinished > 0 {
		fmt.Printf("%d of the draws stopped unfinished at the limit of %d half-moves\n", unfinished, *maxPlies)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "match:", err)
	os.Exit(1)
}

func fmtScore(s float64) string {
	switch s {
	case 1:
		return "win"
	case 0:
		return "loss"
	}
	return "draw"
}

// ending is how a game of a match ended.
type ending struct {
	result string // "1-0", "0-1" or "1/2-1/2"
	reason string // why, in words
	// atLimit marks a game stopped after -maxplies half-moves and called a
	// draw, whoever stood better; the reason then gives both engines' last
	// scores.
	atLimit bool
}

// won ends a game with a win for winner, for the reason why.
func won(winner chess.Color, why string) ending {
	if winner == chess.White {
		return ending{result: "1-0", reason: "White wins: " + why}
	}
	return ending{result: "0-1", reason: "Black wins: " + why}
}

// eloEstimate returns the Elo difference implied by the score and the 95%
// margin from the games' variance (draws narrow it).
func eloEstimate(w, d, l int) (float64, float64) {
	n := float64(w + d + l)
	if n == 0 {
		return 0, 0
	}
	p := (float64(w) + float64(d)/2) / n
	variance := (float64(w)*(1-p)*(1-p) + float64(d)*(0.5-p)*(0.5-p) + float64(l)*p*p) / n
	se := math.Sqrt(variance / n)
	elo := func(p float64) float64 {
		p = math.Min(math.Max(p, 0.5/n), 1-0.5/n) // a clean sweep still gives a finite estimate
		return 400 * math.Log10(p/(1-p))          // +0, not -0, for an even score
	}
	lo, hi := elo(p-1.96*se), elo(p+1.96*se)
	return elo(p), (hi - lo) / 2
}

func appendPGN(path string, g *chess.Game, white, black, opening string, end ending) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	fmt.Fprintln(f, gamePGN(g, white, black, opening, end))
}

// gamePGN writes a game of the match in PGN. A game the match ended, not
// the board (adjudicated, stopped at the move limit, lost by an engine
// that failed), is still going as far as the game knows; it gets the
// match's result, the reason as its closing comment and the Termination
// tag "adjudication", as the PGN standard has it, instead of "*".
func gamePGN(g *chess.Game, white, black, opening string, end ending) string {
	doc := g.Record(map[string]string{"White": white, "Black": black, "Event": "Chesstutor match", "Opening": opening})
	if !g.Outcome().Over() {
		doc.Result, doc.Termination, doc.Ending = end.result, chess.TerminationAdjudication, end.reason
	}
	text, err := doc.Text()
	if err != nil {
		fail(err) // the game's own moves are legal
	}
	return text
}

// matchRules adjudicate a match: both engines see the same side lost by
// more than a rook for six moves in a row, or after move 40 both see the
// game within 0.1 pawn of level for 10 moves each.
var matchRules = adjudicate.Rules{LostBy: 700, LostPlies: 6, LevelAfter: 80, LevelWithin: 10, LevelPlies: 20}

// play runs one game and returns it with its ending.
func play(white, black *engine, op opening, maxPlies int) (*chess.Game, ending, error) {
	fen := cmp.Or(op.fen, chess.StartFEN)
	start, err := chess.ParseFEN(fen)
	if err != nil {
		return nil, ending{}, err
	}
	g, err := chess.NewGame(start)
	if err != nil {
		return nil, ending{}, err
	}
	position := "position startpos moves "
	if op.fen != "" {
		position = "position fen " + op.fen + " moves "
	}
	var uci []string
	for _, u := range strings.Fields(op.moves) {
		m, err := g.Position().ParseUCI(u)
		if err != nil {
			return nil, ending{}, fmt.Errorf("opening move %s: %w", u, err)
		}
		if err := g.Play(m); err != nil {
			return nil, ending{}, err
		}
		uci = append(uci, u)
	}
	for _, e := range []*engine{white, black} {
		if err := e.newGame(); err != nil {
			return nil, ending{}, err
		}
	}
	lastScore := [2]int{} // each colour's engine's last score, from White's view
	referee := adjudicate.Referee{Rules: matchRules}
	for !g.Outcome().Over() {
		if g.Ply() >= maxPlies {
			return g, ending{result: "1/2-1/2", atLimit: true, reason: fmt.Sprintf(
				"Draw: move limit (White's engine saw %+.2f, Black's %+.2f)",
				float64(lastScore[chess.White])/100, float64(lastScore[chess.Black])/100)}, nil
		}
		turn := g.Position().Turn()
		e := white
		if turn == chess.Black {
			e = black
		}
		move, score, err := e.think(position + strings.Join(uci, " "))
		if err != nil {
			return g, won(turn.Other(), fmt.Sprintf("%s failed (%v)", e.name, err)), nil
		}
		m, err := g.Position().ParseUCI(move)
		if err != nil {
			return g, won(turn.Other(), fmt.Sprintf("%s played the illegal move %s", e.name, move)), nil
		}
		if err := g.Play(m); err != nil {
			return nil, ending{}, err
		}
		uci = append(uci, move)
		if turn == chess.Black {
			score = -score
		}
		lastScore[turn] = score
		switch referee.Observe(g.Ply(), lastScore[0], lastScore[1]) {
		case adjudicate.WhiteWins:
			return g, won(chess.White, "adjudicated"), nil
		case adjudicate.BlackWins:
			return g, won(chess.Black, "adjudicated"), nil
		case adjudicate.Draw:
			return g, ending{result: "1/2-1/2", reason: "Draw: adjudicated"}, nil
		}
	}
	return g, ending{result: g.Outcome().Result, reason: g.Outcome().Reason()}, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// engine is a running UCI engine.
type engine struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	// movetime is its thinking time a move in a match.
	movetime time.Duration
}

func startEngine(name, path string, options map[string]string) (*engine, error) {
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
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	e := &engine{name: name, cmd: cmd, in: in, out: bufio.NewScanner(out)}
	e.send("uci")
	if _, err := e.waitFor("uciok", 10*time.Second); err != nil {
		return nil, err
	}
	for k, v := range options {
		e.send("setoption name " + k + " value " + v)
	}
	e.send("isready")
	if _, err := e.waitFor("readyok", 10*time.Second); err != nil {
		return nil, err
	}
	return e, nil
}

// startStockfish starts the engine at path as Stockfish on one thread,
// limited to the UCI_Elo elo (0 for full strength).
func startStockfish(path string, elo int) (*engine, error) {
	opts := map[string]string{"Threads": "1", "Hash": "16"}
	name := "Stockfish"
	if elo > 0 {
		opts["UCI_LimitStrength"] = "true"
		opts["UCI_Elo"] = strconv.Itoa(elo)
		name = fmt.Sprintf("Stockfish %d", elo)
	}
	return startEngine(name, path, opts)
}

func (e *engine) send(s string) { fmt.Fprintln(e.in, s) }

// waitFor reads lines until one starts with prefix, calling seen for the others.
func (e *engine) waitFor(prefix string, within time.Duration) (string, error) {
	line, _, err := e.collect(prefix, within)
	return line, err
}

// collect reads until a line starts with prefix; it also returns the last
// score reported in an info line (centipawns; a mate in n as 30000-n, being
// mated in n as -30000+n).
func (e *engine) collect(prefix string, within time.Duration) (string, int, error) {
	type res struct {
		line  string
		score int
		err   error
	}
	ch := make(chan res, 1)
	go func() {
		score := 0
		for e.out.Scan() {
			l := e.out.Text()
			if strings.HasPrefix(l, prefix) {
				ch <- res{l, score, nil}
				return
			}
			if f := strings.Fields(l); len(f) > 0 && f[0] == "info" {
				for i := 0; i+2 < len(f); i++ {
					if f[i] == "score" {
						n, _ := strconv.Atoi(f[i+2])
						switch f[i+1] {
						case "cp":
							score = n
						case "mate":
							score = 30000 - n
							if n < 0 {
								score = -30000 - n
							}
						}
					}
				}
			}
		}
		err := e.out.Err()
		if err == nil {
			err = io.EOF
		}
		ch <- res{"", 0, err}
	}()
	select {
	case r := <-ch:
		return r.line, r.score, r.err
	case <-time.After(within):
		e.cmd.Process.Kill()
		return "", 0, errors.New(e.name + " did not answer in time")
	}
}

func (e *engine) newGame() error {
	e.send("ucinewgame")
	e.send("isready")
	_, err := e.waitFor("readyok", 10*time.Second)
	return err
}

// think sets the position with a UCI position command and searches it
// for the engine's movetime.
func (e *engine) think(position string) (string, int, error) {
	e.send(position)
	e.send(fmt.Sprintf("go movetime %d", e.movetime.Milliseconds()))
	return e.awaitBestMove(3*e.movetime + 3*time.Second)
}

// awaitBestMove reads up to the engine's "bestmove" line and returns the
// move with the last score it reported.
func (e *engine) awaitBestMove(timeout time.Duration) (string, int, error) {
	line, score, err := e.collect("bestmove", timeout)
	if err != nil {
		return "", 0, err
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return "", 0, fmt.Errorf("bad line %q", line)
	}
	return f[1], score, nil
}

func (e *engine) close() {
	e.send("quit")
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		e.cmd.Process.Kill()
	}
}
