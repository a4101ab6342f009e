// Command reviewcheck measures how far a learner can trust the game review
// (issue 32, C5): it plays games between computer levels (or reads games it
// played before), has the site's review service review them as friend
// games, judges every move again with Stockfish at a fixed depth using the
// site's own formula and thresholds (README, "Game review"), and prints
// the confusion table with the rates C5 asks for.
//
//	go run ./cmd/reviewcheck -play 24 -games /tmp/rc.games            # play, then review with the built-in engine
//	go run ./cmd/reviewcheck -games /tmp/rc.games -engine /usr/games/stockfish
//
// The judge's verdicts are kept beside the games file (FILE.judge-dDEPTH),
// so every run over the same games compares against the same judgement.
// Run it with nice: the judge and the reviews keep a core busy for minutes.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/chess/engine/uci"
	"chesstutor/games"
	"chesstutor/review"
	"chesstutor/store/sqlite"
)

func main() {
	gamesPath := flag.String("games", "reviewcheck.games", "the games file: one game a line, \"WHITELEVEL BLACKLEVEL uci-moves...\"; written by -play")
	play := flag.Int("play", 0, "play this many games between the computer levels first and write them to -games")
	levels := flag.String("levels", "1-4", "with -play: the levels that play, a range")
	seed := flag.Uint64("seed", 32, "with -play: the seed that picks the pairings")
	maxPly := flag.Int("max-ply", 160, "with -play: a game still going after this many half-moves is cut there")
	sfPath := flag.String("stockfish", "/usr/games/stockfish", "the judge")
	judgeDepth := flag.Int("judge-depth", 16, "the judge's depth for every position")
	judges := flag.Int("judges", 2, "Stockfish processes judging at once")
	first := flag.Int("n", 0, "use only the first n games of the file (0: all)")
	judged := flag.String("judged", "", "the judge's verdicts of the file's first games or more (default: FILE.judge-dDEPTH-nN, made when missing)")
	analysis := flag.String("engine", "builtin", "the review's analysis engine: builtin, or the path of a UCI engine")
	nodes := flag.Uint64("nodes", 0, "the review's nodes per position in the first pass (0: the service's default)")
	verifyNodes := flag.Uint64("verify-nodes", 0, "the review's verification nodes per move (0: as -nodes)")
	list := flag.Bool("list", false, "print every move on which the review and the judge disagree by two classes or more")
	dump := flag.String("dump", "", "with -first-pass: write every move's class, loss and first-pass loss here, one JSON line a move (to try thresholds offline)")
	direct := flag.String("first-pass", "", "review with review.Analyse and review.Build directly instead of through the site, keeping the first pass's analyses in this file (made when missing) so that a rerun only verifies again (to try verification changes; the review time is then the verification's)")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx := context.Background()

	if *play > 0 {
		lo, hi, err := parseRange(*levels)
		if err != nil {
			fatal(err)
		}
		if err := playGames(ctx, *gamesPath, *play, lo, hi, *seed, *maxPly); err != nil {
			fatal(err)
		}
	}
	gs, err := readGames(*gamesPath)
	if err != nil {
		fatal(err)
	}
	if *first > 0 && *first < len(gs) {
		gs = gs[:*first]
	}
	judgePath := fmt.Sprintf("%s.judge-d%d-n%d", *gamesPath, *judgeDepth, len(gs))
	if *judged != "" {
		judgePath = *judged
	}
	verdicts, err := readVerdicts(judgePath, gs)
	if err != nil {
		fmt.Fprintf(os.Stderr, "judging %d games with %s at depth %d…\n", len(gs), *sfPath, *judgeDepth)
		if verdicts, err = judgeGames(ctx, *sfPath, *judgeDepth, *judges, gs, judgePath+".partial"); err != nil {
			fatal(fmt.Errorf("%w (the games judged so far are kept in %s.partial: run again to go on)", err, judgePath))
		}
		if err := writeVerdicts(judgePath, verdicts); err != nil {
			fatal(err)
		}
	}

	var eng review.Engine
	name := "built-in"
	if *analysis == "builtin" {
		eng = engine.NewPool(1, 64)
	} else {
		u, err := uci.Start(*analysis, 1, 64)
		if err != nil {
			fatal(err)
		}
		defer u.Close()
		eng, name = u, u.Name()
	}
	var classes [][]string
	var took []time.Duration
	if *direct != "" {
		classes, took, err = reviewDirect(ctx, eng, *nodes, *verifyNodes, gs, *direct, *dump)
	} else {
		classes, took, err = reviewGames(ctx, log, eng, *nodes, *verifyNodes, gs)
	}
	if err != nil {
		fatal(err)
	}
	report(os.Stdout, name, *judgeDepth, gs, verdicts, classes, took, *list)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "reviewcheck:", err)
	os.Exit(1)
}

func parseRange(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || lo > hi || lo < engine.MinLevel || hi > engine.MaxLevel {
		return 0, 0, fmt.Errorf("-levels %q: give a range such as 1-4", s)
	}
	return lo, hi, nil
}

// game is one game of the file.
type game struct {
	White, Black int // levels
	Moves        []string
}

// playGames plays n games between levels lo..hi (random pairings from
// seed, each level as fast as it plays on the site) and writes them.
func playGames(ctx context.Context, path string, n, lo, hi int, seed uint64, maxPly int) error {
	rng := rand.New(rand.NewPCG(seed, 32))
	pool := engine.NewPool(1, 64)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	for i := range n {
		w, b := lo+rng.IntN(hi-lo+1), lo+rng.IntN(hi-lo+1)
		g, err := chess.NewGame(mustFEN(startFEN))
		if err != nil {
			return err
		}
		start := g.Position()
		var moves []chess.Move
		var ucis []string
		for !g.Outcome().Over() && len(moves) < maxPly {
			level := w
			if g.Position().Turn() == chess.Black {
				level = b
			}
			m, err := pool.Move(ctx, start, moves, level)
			if err != nil {
				return err
			}
			if err := g.Play(m); err != nil {
				return err
			}
			moves = append(moves, m)
			ucis = append(ucis, m.UCI())
		}
		fmt.Fprintf(f, "%d %d %s\n", w, b, strings.Join(ucis, " "))
		fmt.Fprintf(os.Stderr, "game %d/%d: level %d – level %d, %d half-moves, %s\n", i+1, n, w, b, len(moves), g.Outcome())
	}
	return f.Close()
}

func readGames(path string) ([]game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []game
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 3 {
			continue
		}
		w, err1 := strconv.Atoi(fs[0])
		b, err2 := strconv.Atoi(fs[1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: a line must start with the two levels", path)
		}
		if _, err := chess.Replay(startFEN, fs[2:]); err != nil {
			return nil, fmt.Errorf("%s: game %d: %w", path, len(out)+1, err)
		}
		out = append(out, game{White: w, Black: b, Moves: fs[2:]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no games", path)
	}
	return out, sc.Err()
}

// verdict is the judge's class of one move, with the numbers behind it.
type verdict struct {
	Class string  `json:"class"`
	Loss  float64 `json:"loss"`
	Best  string  `json:"best"`
}

func readVerdicts(path string, gs []game) ([][]verdict, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v [][]verdict
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	if len(v) < len(gs) {
		return nil, errors.New("judgement of other games")
	}
	v = v[:len(gs)]
	for i := range v {
		if len(v[i]) != len(gs[i].Moves) {
			return nil, errors.New("judgement of other games")
		}
	}
	return v, nil
}

func writeVerdicts(path string, v [][]verdict) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// judgeGames classes every move of every game with Stockfish at depth:
// each position is searched once, and a move's loss is the mover's
// winning chances in the position before minus those after, both by the
// judge, classed with the site's thresholds (review.Classify) and floors
// (a missed mate in one or two is at least a mistake; stalemating from a
// won position is a blunder).
//
// Every game judged is written to partial at once, and a run that finds
// partial judges only the games it lacks: on a loaded machine a judge
// can fall silent, and the hours already spent are kept.
func judgeGames(ctx context.Context, path string, depth, judges int, gs []game, partial string) ([][]verdict, error) {
	sf, err := uci.Start(path, judges, 16)
	if err != nil {
		return nil, err
	}
	defer sf.Close()
	out := make([][]verdict, len(gs))
	if b, err := os.ReadFile(partial); err == nil {
		var kept [][]verdict
		if json.Unmarshal(b, &kept) == nil {
			for gi := range min(len(kept), len(gs)) {
				if len(kept[gi]) == len(gs[gi].Moves) {
					out[gi] = kept[gi]
				}
			}
		}
	}
	var mu sync.Mutex
	next := make(chan int, len(gs))
	for gi := range gs {
		if out[gi] == nil {
			next <- gi
		}
	}
	close(next)
	errs := make(chan error, judges)
	for range max(judges, 1) {
		go func() {
			for gi := range next {
				v, err := judgeGame(ctx, sf, depth, gs[gi])
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				out[gi] = v
				err = writeVerdicts(partial, out)
				mu.Unlock()
				if err != nil {
					errs <- err
					return
				}
				fmt.Fprintf(os.Stderr, "judged game %d/%d\n", gi+1, len(gs))
			}
			errs <- nil
		}()
	}
	for range max(judges, 1) {
		if err := <-errs; err != nil {
			return nil, err
		}
	}
	return out, nil
}

func judgeGame(ctx context.Context, sf *uci.Engine, depth int, g game) ([]verdict, error) {
	var out []verdict
	{
		cg, err := chess.Replay(startFEN, g.Moves)
		if err != nil {
			return nil, err
		}
		pos := cg.Positions()
		evals := make([]review.Eval, len(pos))
		bests := make([]chess.Move, len(pos))
		for i, p := range pos {
			switch {
			case p.IsCheckmate():
				evals[i] = review.Eval{IsMate: true}
				continue
			case len(p.LegalMoves()) == 0, i == len(pos)-1 && cg.Outcome().Over():
				continue // stalemate or a draw by the rules: 0
			}
			res, err := sf.Analyse(ctx, p, nil, engine.Limits{Depth: depth})
			if err != nil {
				return nil, err
			}
			evals[i], bests[i] = whiteEval(res.Score, p.Turn()), res.Move
		}
		for i, m := range cg.Moves() {
			before, after := pos[i], pos[i+1]
			c := before.Turn()
			pb, pa := evals[i].For(c, c), evals[i+1].For(c, after.Turn())
			loss := max(0, pb-pa)
			cl := review.Classify(loss, bests[i] == m)
			if n := evals[i].MateFor(c); n >= 1 && n <= 2 && evals[i+1].MateFor(c) == 0 && !after.IsCheckmate() {
				cl = max(cl, review.Mistake)
			}
			if after.IsStalemate() && pb >= 75 {
				cl = review.Blunder
			}
			v := verdict{Class: cl.String(), Loss: loss}
			if bests[i] != chess.NoMove {
				v.Best = bests[i].UCI()
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// whiteEval turns a search score (side to move's view) into a review.Eval
// from White's side, as the review does.
func whiteEval(score int, toMove chess.Color) review.Eval {
	sign := 1
	if toMove == chess.Black {
		sign = -1
	}
	if n := engine.MateIn(score); n != 0 {
		return review.Eval{Mate: sign * n, IsMate: true}
	}
	return review.Eval{CP: sign * score}
}

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func mustFEN(s string) *chess.Position {
	p, err := chess.ParseFEN(s)
	if err != nil {
		panic(err)
	}
	return p
}

const visitor = "0123456789abcdef0123456789abcdef"

// reviewGames plays every game into a fresh site database as a friend
// game and has the review service review them one after another, as a
// visitor's press of "Review" does; it returns each move's class.
func reviewGames(ctx context.Context, log *slog.Logger, eng review.Engine, nodes, verifyNodes uint64, gs []game) ([][]string, []time.Duration, error) {
	dir, err := os.MkdirTemp("", "reviewcheck")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	st, err := sqlite.Open(ctx, dir+"/site.db")
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	if err := st.EnsureVisitor(ctx, visitor); err != nil {
		return nil, nil, err
	}
	games := games.New(games.Config{Store: st, MaxActive: len(gs) + 1})
	svc := review.NewService(review.ServiceConfig{Store: st, Games: games, Engine: eng, Nodes: nodes, VerifyNodes: verifyNodes, Logger: log})
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go svc.Run(runCtx)

	classes := make([][]string, len(gs))
	took := make([]time.Duration, len(gs))
	for gi, g := range gs {
		id, err := playInto(ctx, games, g)
		if err != nil {
			return nil, nil, fmt.Errorf("game %d: %w", gi+1, err)
		}
		began := time.Now()
		if _, err := svc.Request(ctx, visitor, id); err != nil {
			return nil, nil, err
		}
		for {
			s, err := svc.Get(ctx, visitor, id)
			if err != nil {
				return nil, nil, err
			}
			if !s.Pending {
				took[gi] = time.Since(began)
				for _, m := range s.Review.Moves {
					// A move the rules label (a piece given away or a mate
					// in one or two walked into is a blunder, a mate in
					// one or two missed at least a mistake) rather than
					// its loss of winning chances: counted apart.
					cl := m.Class.String()
					if m.Class >= review.Mistake && review.Classify(m.Loss, m.Best == chess.NoMove) < review.Mistake {
						cl += ruledMark
					}
					classes[gi] = append(classes[gi], cl)
				}
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		fmt.Fprintf(os.Stderr, "reviewed game %d/%d (%d half-moves) in %s\n", gi+1, len(gs), len(g.Moves), took[gi].Round(time.Millisecond))
	}
	return classes, took, nil
}

// reviewDirect reviews every game with review.Analyse and review.Build,
// without the site: the first pass's analyses are read from cachePath
// when it holds them for these games (else made and written there), so
// that only the verification runs again.
func reviewDirect(ctx context.Context, eng review.Engine, nodes, verifyNodes uint64, gs []game, cachePath, dumpPath string) ([][]string, []time.Duration, error) {
	var dump *json.Encoder
	if dumpPath != "" {
		f, err := os.Create(dumpPath)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		dump = json.NewEncoder(f)
	}
	var cached [][]review.Analysis
	if b, err := os.ReadFile(cachePath); err == nil {
		if err := json.Unmarshal(b, &cached); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", cachePath, err)
		}
	}
	start := mustFEN(startFEN)
	classes := make([][]string, len(gs))
	took := make([]time.Duration, len(gs))
	changed := false
	for gi, g := range gs {
		cg, err := chess.Replay(startFEN, g.Moves)
		if err != nil {
			return nil, nil, err
		}
		moves := cg.Moves()
		if gi >= len(cached) || len(cached[gi]) != len(moves)+1 {
			first, err := review.Analyse(ctx, eng, start, moves, nil, review.Options{Nodes: nodes, NoVerify: true})
			if err != nil {
				return nil, nil, err
			}
			cached = append(cached[:min(gi, len(cached))], first)
			changed = true
		}
		done := make([]review.Analysis, len(cached[gi]))
		copy(done, cached[gi])
		began := time.Now()
		an, err := review.Analyse(ctx, eng, start, moves, done, review.Options{Nodes: nodes, VerifyNodes: verifyNodes})
		if err != nil {
			return nil, nil, err
		}
		took[gi] = time.Since(began)
		r, err := review.Build(start, moves, an)
		if err != nil {
			return nil, nil, err
		}
		one, err := review.Build(start, moves, cached[gi])
		if err != nil {
			return nil, nil, err
		}
		for i, m := range r.Moves {
			if dump != nil {
				dump.Encode(map[string]any{"game": gi + 1, "ply": i + 1, "class": m.Class.String(), "loss": m.Loss, "reason": m.Reason.Code,
					"checked": an[i].Check != nil, "first": one.Moves[i].Class.String(), "firstLoss": one.Moves[i].Loss, "engineMove": an[i].Best == moves[i]})
			}
			cl := m.Class.String()
			if m.Class >= review.Mistake && review.Classify(m.Loss, m.Best == chess.NoMove) < review.Mistake {
				cl += ruledMark
			}
			classes[gi] = append(classes[gi], cl)
		}
		fmt.Fprintf(os.Stderr, "verified game %d/%d (%d half-moves) in %s\n", gi+1, len(gs), len(g.Moves), took[gi].Round(time.Millisecond))
	}
	if changed {
		b, err := json.Marshal(cached)
		if err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(cachePath, b, 0o644); err != nil {
			return nil, nil, err
		}
	}
	return classes, took, nil
}

func playInto(ctx context.Context, svc *games.Service, g game) (string, error) {
	st, err := svc.Create(ctx, visitor, games.NewGame{Mode: "friend", Clock: "none"})
	if err != nil {
		return "", err
	}
	for i, u := range g.Moves {
		ply := i
		if _, err := svc.Move(ctx, visitor, st.ID, &ply, u, ""); err != nil {
			return "", fmt.Errorf("move %d %s: %w", i+1, u, err)
		}
	}
	return st.ID, nil
}

var classNames = []string{"best", "good", "inaccuracy", "mistake", "blunder"}

// ruledMark ends the class of a move labelled by a rule, not its loss.
const ruledMark = "*"

func classIndex(s string) int {
	s = strings.TrimSuffix(s, ruledMark)
	for i, c := range classNames {
		if c == s {
			return i
		}
	}
	return -1
}

// report prints the confusion table (rows: the judge; columns: the
// review) and C5's rates.
func report(w io.Writer, name string, depth int, gs []game, verdicts [][]verdict, classes [][]string, took []time.Duration, list bool) {
	var table [5][5]int
	moves, ruledFalse := 0, 0
	for gi := range gs {
		for i, v := range verdicts[gi] {
			if i >= len(classes[gi]) {
				break
			}
			j, s := classIndex(v.Class), classIndex(classes[gi][i])
			table[j][s]++
			moves++
			if j <= 1 && s >= 3 && strings.HasSuffix(classes[gi][i], ruledMark) {
				ruledFalse++
			}
			if list && abs(j-s) >= 2 {
				fmt.Fprintf(w, "game %d ply %d %s: judge %s (loss %.1f, best %s), review %s\n", gi+1, i+1, gs[gi].Moves[i], v.Class, v.Loss, v.Best, classes[gi][i])
			}
		}
	}
	var total time.Duration
	for _, t := range took {
		total += t
	}
	fmt.Fprintf(w, "review engine: %s; judge: Stockfish depth %d; %d games, %d moves; review time %s in all, %s a game on average\n",
		name, depth, len(gs), moves, total.Round(time.Second), (total / time.Duration(max(len(gs), 1))).Round(100*time.Millisecond))
	fmt.Fprintf(w, "%-22s", "judge \\ review")
	for _, c := range classNames {
		fmt.Fprintf(w, "%11s", c)
	}
	fmt.Fprintf(w, "%8s\n", "all")
	for j, c := range classNames {
		fmt.Fprintf(w, "%-22s", c)
		sum := 0
		for s := range classNames {
			fmt.Fprintf(w, "%11d", table[j][s])
			sum += table[j][s]
		}
		fmt.Fprintf(w, "%8d\n", sum)
	}
	row := func(j int) (n int) {
		for s := range 5 {
			n += table[j][s]
		}
		return n
	}
	col := func(s int) (n int) {
		for j := range 5 {
			n += table[j][s]
		}
		return n
	}
	blunders, mistakes := row(4), row(3)
	caught := table[4][3] + table[4][4]
	waved := table[4][0] + table[4][1]
	flagged := table[3][2] + table[3][3] + table[3][4]
	alarms := col(3) + col(4)
	false_ := table[0][3] + table[0][4] + table[1][3] + table[1][4]
	agree := 0
	for i := range 5 {
		agree += table[i][i]
	}
	fmt.Fprintf(w, "judge's blunders called mistake or blunder: %d of %d (%s; target >= 95 %%)\n", caught, blunders, pct(caught, blunders))
	fmt.Fprintf(w, "judge's blunders called best or good:       %d (target 0)\n", waved)
	fmt.Fprintf(w, "judge's mistakes called inaccuracy or worse: %d of %d (%s; target >= 80 %%)\n", flagged, mistakes, pct(flagged, mistakes))
	fmt.Fprintf(w, "review's mistakes and blunders the judge calls best or good: %d of %d (%s; target <= 5 %%)\n", false_, alarms, pct(false_, alarms))
	fmt.Fprintf(w, "  of which labelled by a rule, not by the loss (a piece given away, a short mate walked into or missed): %d; by the loss alone: %d of %d (%s)\n",
		ruledFalse, false_-ruledFalse, alarms-ruledFalse, pct(false_-ruledFalse, alarms-ruledFalse))
	fmt.Fprintf(w, "same class: %d of %d moves (%s)\n", agree, moves, pct(agree, moves))
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(a)/float64(b))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
