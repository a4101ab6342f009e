// Command puzzles makes the site's puzzles (P1, P2): it plays games
// between the computer's levels 1–6, asks Stockfish (Debian's package, one
// thread, a node budget) about every position, and keeps the positions
// right after a mistake where the side to move has a forced win — a mate,
// or a decisive gain of material — or where only one move saves it. Each
// solver's move is the only one that keeps the result by a clear margin
// (in a mate in one any mate counts); the opponent's replies are the most
// stubborn. Themes are tagged from the moves (puzzles.Tag), and a starting
// rating is fitted to which of the levels 0–6 solve it.
//
// Everything is seeded: game i of seed s is the same game on any machine,
// and Stockfish's hash is cleared before every game, so a run in parts
// (-games 0:300, then -games 300:600 -append) writes what one run writes.
//
//	nice -n 15 go run ./cmd/puzzles -seed 1 -games 0:2000 -o puzzles/data/puzzles.tsv
//
// Stockfish is a build tool: the web site never runs it.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/internal/stockfish"
	"chesstutor/puzzles"
)

var verbose *bool

// config is what a run takes from its flags.
type config struct {
	seed        uint64
	pool        []int // the levels a game's sides are drawn from (levelsOf)
	minMoves    int   // the fewest solver's moves a puzzle keeps
	from, to    int
	screenNodes int
	nodes       int
	tries       int
	strongTries int
	maxPlies    int
	// minRating keeps only the puzzles rated this much or more, and skips
	// without Stockfish's long look the positions where the strongest
	// level plays the first look's best move on every try (-min-rating).
	minRating int
}

func main() {
	var (
		cfg   config
		games = flag.String("games", "0:100", "the games to play, from:to (game numbers)")
		out   = flag.String("o", "", "the data file to write (standard output when empty)")
		add   = flag.Bool("append", false, "add to the data file, skipping positions it already holds")
		sf    = flag.String("stockfish", stockfish.DefaultPath, "the Stockfish binary")
	)
	verbose = flag.Bool("v", false, "log every position's first look")
	flag.Uint64Var(&cfg.seed, "seed", 1, "the seed of the games")
	flag.IntVar(&cfg.screenNodes, "screen-nodes", 2500, "Stockfish's nodes for a first look at every position")
	flag.IntVar(&cfg.nodes, "nodes", 30000, "Stockfish's nodes for each step of a candidate's line (two lines each)")
	flag.IntVar(&cfg.tries, "tries", 2, "tries of each level at each puzzle, for its rating")
	flag.IntVar(&cfg.maxPlies, "max-plies", 140, "longest game")
	pool := flag.String("pool", "1,1,2,2,3,3,4,5,6", "the levels the games' sides are drawn from, in turn (a level twice is drawn twice as often)")
	flag.IntVar(&cfg.minRating, "min-rating", 0, "keep only puzzles rated this much or more; positions where level 6 plays the first look's best move in both of two tries are skipped before the long look (they rarely rate high), so a run aims at the hard puzzles")
	flag.IntVar(&cfg.minMoves, "min-moves", 1, "keep only puzzles with at least this many of the solver's moves (longer lines are the harder puzzles)")
	rerate := flag.String("rate", "", "measure the ratings of the puzzles in this data file again (with -tries for levels 0–3 and -strong-tries for levels 4–6) and write them to -o; the other flags but -seed and -shard are ignored")
	flag.IntVar(&cfg.strongTries, "strong-tries", 0, "tries of levels 4–6 at each puzzle, for its rating (0: as -tries); the strong levels' few misses are what tells the hard puzzles apart")
	shard := flag.String("shard", "", "with -rate: i/n, only every n-th puzzle from the i-th (0-based), to share the work between processes")
	pack := flag.Bool("pack", false, "write the data files named after the flags, in order, to -o as one file: duplicates dropped, themes tagged again by the current puzzles.Tag, with a header saying how they were made")
	header := flag.String("header", "", "with -pack: the header's lines (\\n between them), after the format line")
	flag.Parse()
	if *pack {
		if err := packFiles(*out, flag.Args(), *header); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *rerate != "" {
		if err := rateFile(cfg, *sf, *rerate, *out, *shard); err != nil {
			log.Fatal(err)
		}
		return
	}
	var err error
	if cfg.from, cfg.to, err = parseRange(*games); err != nil {
		log.Fatal(err)
	}
	for _, f := range strings.Split(*pool, ",") {
		l, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || l < 1 || l > 6 {
			log.Fatalf("-pool %q: levels 1 to 6, separated by commas", *pool)
		}
		cfg.pool = append(cfg.pool, l)
	}
	seen := map[string]bool{}
	w := bufio.NewWriter(os.Stdout)
	if *out != "" {
		if *add {
			if b, err := os.ReadFile(*out); err == nil {
				for _, line := range strings.Split(string(b), "\n") {
					if p, err := puzzles.ParseLine(line); err == nil {
						seen[key(p.Start())] = true
					}
				}
			}
		}
		flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if *add {
			flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(*out, flags, 0o644)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		w = bufio.NewWriter(f)
	}
	eng, err := stockfish.Start(*sf, 16)
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close()
	g := newGenerator(cfg, eng)
	started := time.Now()
	found := 0
	for game := cfg.from; game < cfg.to; game++ {
		ps, err := g.game(game)
		if err != nil {
			log.Fatalf("game %d: %v", game, err)
		}
		for _, p := range ps {
			if seen[key(p.Start())] {
				continue
			}
			seen[key(p.Start())] = true
			fmt.Fprintln(w, p.Line())
			found++
		}
		w.Flush()
		log.Printf("game %d: %d puzzles so far, %.1f s a puzzle", game, found, time.Since(started).Seconds()/math.Max(1, float64(found)))
	}
}

func parseRange(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, ":")
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || from < 0 || to < from {
		return 0, 0, fmt.Errorf("-games %q: want from:to", s)
	}
	return from, to, nil
}

// key tells positions apart for duplicates: the FEN without the move counters.
func key(pos *chess.Position) string {
	f := strings.Fields(pos.FEN())
	return strings.Join(f[:4], " ")
}

type generator struct {
	cfg     config
	sf      *stockfish.Engine
	players map[int]*engine.Searcher
	solver  *engine.Searcher
}

func newGenerator(cfg config, sf *stockfish.Engine) *generator {
	g := &generator{cfg: cfg, sf: sf, players: map[int]*engine.Searcher{}, solver: engine.NewSearcher(8)}
	for l := 1; l <= 6; l++ {
		g.players[l] = engine.NewSearcher(8)
	}
	return g
}

// levelsOf gives game n its two levels from the pool: every pair in
// turn. The default pool has the weaker levels twice (their games hold the
// beginner's tactics).
func levelsOf(pool []int, n int) (int, int) {
	return pool[n%len(pool)], pool[(n/len(pool))%len(pool)]
}

func mix(seed uint64, parts ...int) uint64 {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	for _, p := range parts {
		binary.LittleEndian.PutUint64(b[:], uint64(p))
		h.Write(b[:])
	}
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// game plays game n and returns the puzzles found in it.
func (g *generator) game(n int) ([]*puzzles.Puzzle, error) {
	ctx := context.Background()
	white, black := levelsOf(g.cfg.pool, n)
	start, _ := chess.ParseFEN(chess.StartFEN)
	game, err := chess.NewGame(start)
	if err != nil {
		return nil, err
	}
	for _, s := range g.players {
		s.Clear()
	}
	for !game.Outcome().Over() && game.Ply() < g.cfg.maxPlies {
		pos := game.Position()
		level := white
		if pos.Turn() == chess.Black {
			level = black
		}
		s := g.players[level]
		s.SetSeed(mix(g.cfg.seed, n, game.Ply()))
		m, _, err := s.PlayLevel(ctx, pos, nil, level, engine.Limits{Nodes: 4_000_000})
		if err != nil {
			return nil, err
		}
		if err := game.Play(m); err != nil {
			return nil, err
		}
	}
	if *verbose {
		log.Printf("game %d played: %d plies", n, game.Ply())
	}
	if err := g.sf.NewGame(); err != nil {
		return nil, err
	}
	positions := game.Positions()
	moves := game.Moves()
	// scores[k]: Stockfish's first look at positions[k], for its side to move.
	scores := make([]stockfish.Line, len(positions))
	for k, pos := range positions {
		if pos.IsCheckmate() || pos.IsStalemate() || k < 4 {
			continue
		}
		ls, err := g.sf.Analyse(pos.FEN(), nil, 1, g.cfg.screenNodes)
		if err != nil {
			return nil, err
		}
		if len(ls) > 0 {
			scores[k] = ls[0]
		}
	}
	var out []*puzzles.Puzzle
	for k := 6; k < len(positions); k++ {
		pos := positions[k]
		if pos.IsCheckmate() || pos.IsStalemate() || scores[k].Move == "" || scores[k-1].Move == "" {
			continue
		}
		now, before := scores[k].Score(), -scores[k-1].Score()
		if *verbose {
			log.Printf("game %d ply %d: %d after %d", n, k, now, before)
		}
		var p *puzzles.Puzzle
		mateBefore := scores[k-1].Mate < 0 // the solver already had a forced mate
		attack := scores[k].Mate > 0 && scores[k].Mate <= 3 && !mateBefore ||
			before <= 300 && now >= 300 && now-before >= 250 && g.promising(pos)
		defence := !attack && before <= 150 && now >= -150 && now <= 200 && threatened(pos)
		if (attack || defence) && g.cfg.minRating > 0 && g.strongFinds(n, k, pos, scores[k].Move) {
			continue
		}
		switch {
		case attack:
			p, err = g.attack(n, positions[k-1], moves[k-1])
		case defence:
			p, err = g.defence(n, positions[k-1], moves[k-1])
		}
		if err != nil {
			return nil, err
		}
		if p != nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// strongFinds reports whether level 6 plays move (Stockfish's first look's
// best) in position k of game n on both of two tries: a position the
// strongest level finds at once is rarely a hard puzzle, so a run aiming
// at hard puzzles (-min-rating) skips it before Stockfish's long look.
// The seeds are the game's and the position's, so a run stays the same.
func (g *generator) strongFinds(n, k int, pos *chess.Position, move string) bool {
	for t := 0; t < 2; t++ {
		g.solver.Clear()
		g.solver.SetSeed(mix(g.cfg.seed, n, k, t, 13))
		m, _, err := g.solver.PlayLevel(context.Background(), pos, nil, 6, engine.Limits{Nodes: 4_000_000})
		if err != nil || m.UCI() != move {
			return false
		}
	}
	return true
}

// threatened reports a position whose side to move is in check or has a
// piece worth a knight or more attacked by a lesser piece or left
// undefended under attack: a position that may ask for a defence.
func threatened(pos *chess.Position) bool {
	if pos.InCheck() {
		return len(pos.LegalMoves()) > 1
	}
	c := pos.Turn()
	for t := chess.Knight; t <= chess.Queen; t++ {
		bb := pos.Pieces(c, t)
		for bb != 0 {
			s := bb.PopFirst()
			att := pos.Attackers(s, c.Other())
			if att == 0 {
				continue
			}
			if pos.Attackers(s, c) == 0 {
				return true
			}
			for att != 0 {
				if puzzles.Value(pos.PieceAt(att.PopFirst()).Type()) < puzzles.Value(t) {
					return true
				}
			}
		}
	}
	return false
}

// promising takes a quick look at the two best lines of pos before the
// long one: the best move must already stand out.
func (g *generator) promising(pos *chess.Position) bool {
	ls, err := g.sf.Analyse(pos.FEN(), nil, 2, 3*g.cfg.screenNodes)
	return err == nil && len(ls) == 2 && ls[0].Score() >= 200 && ls[0].Score()-ls[1].Score() >= 100
}

// analyse asks Stockfish for the two best lines of pos.
func (g *generator) analyse(pos *chess.Position) ([]stockfish.Line, error) {
	return g.sf.Analyse(pos.FEN(), nil, 2, g.cfg.nodes)
}

const (
	// gap is how much better, in centipawns, the solver's move must be
	// than the second best (P1: "by a clear margin").
	gap = 150
	// maxSolverMoves is the longest solution, in the solver's moves.
	maxSolverMoves = 3
)

// attack builds the line of only-moves from the position after last, or
// returns nil when the position is not a puzzle.
func (g *generator) attack(n int, before *chess.Position, last chess.Move) (*puzzles.Puzzle, error) {
	start := before.Play(last)
	pos := start
	var line []chess.Move
	mateMode := false
	for step := 0; step < maxSolverMoves; step++ {
		ls, err := g.analyse(pos)
		if err != nil || len(ls) == 0 {
			return nil, err
		}
		best := ls[0]
		if *verbose {
			log.Printf("  step %d %s: %+v", step, pos.FEN(), ls)
		}
		m, err := pos.ParseUCI(best.Move)
		if err != nil {
			return nil, fmt.Errorf("stockfish's move %s: %w", best.Move, err)
		}
		if step == 0 {
			mateMode = best.Mate > 0
			if !mateMode && best.Score() < 250 {
				return nil, nil
			}
		}
		switch {
		case mateMode && best.Mate <= 0:
			return nil, nil // the mate went away at a deeper look
		case mateMode && best.Mate == 1:
			line = append(line, m)
			return g.finish(n, before, last, line, false)
		case mateMode:
			if len(ls) > 1 && ls[1].Mate > 0 {
				return nil, nil // two ways to mate: not an only-move
			}
			if best.Mate > maxSolverMoves-step {
				return nil, nil
			}
		default: // material
			unique := len(ls) == 1 || best.Score()-ls[1].Score() >= gap
			if best.Mate > 0 || !unique {
				if step == 0 {
					return nil, nil
				}
				return g.finish(n, before, last, line, false)
			}
		}
		line = append(line, m)
		after := pos.Play(m)
		if after.IsCheckmate() {
			return g.finish(n, before, last, line, false)
		}
		if len(best.PV) < 2 {
			return nil, nil
		}
		reply, err := after.ParseUCI(best.PV[1])
		if err != nil {
			return nil, fmt.Errorf("stockfish's reply %s: %w", best.PV[1], err)
		}
		if step == maxSolverMoves-1 {
			if mateMode {
				return nil, nil
			}
			return g.finish(n, before, last, line, false)
		}
		line = append(line, reply)
		pos = after.Play(reply)
	}
	return nil, nil
}

// defence keeps a position where one move holds and every other loses.
func (g *generator) defence(n int, before *chess.Position, last chess.Move) (*puzzles.Puzzle, error) {
	start := before.Play(last)
	ls, err := g.analyse(start)
	if err != nil || len(ls) < 2 {
		return nil, err
	}
	best, second := ls[0], ls[1]
	if best.Mate != 0 || best.Score() < -150 || best.Score() > 200 || best.Score()-second.Score() < 250 || second.Score() > -200 {
		return nil, nil
	}
	m, err := start.ParseUCI(best.Move)
	if err != nil {
		return nil, err
	}
	if m.IsCapture() && m.To() == last.To() {
		return nil, nil // taking back what was just taken: too easy to be a puzzle
	}
	return g.finish(n, before, last, []chess.Move{m}, true)
}

// finish checks what the line wins, tags it, rates it and names it.
func (g *generator) finish(n int, before *chess.Position, last chess.Move, line []chess.Move, defence bool) (*puzzles.Puzzle, error) {
	if len(line)%2 == 0 { // stopped before the solver's next move: end on the solver's last
		line = line[:max(len(line)-1, 0)]
	}
	if len(line) == 0 || (len(line)+1)/2 < g.cfg.minMoves {
		return nil, nil
	}
	start := before.Play(last)
	end := start
	for _, m := range line {
		end = end.Play(m)
	}
	if !end.IsCheckmate() && !defence {
		// A decisive gain: two points of material or more once the
		// opponent has taken back what it can (Stockfish's reply).
		gain := puzzles.Balance(end, start.Turn()) - puzzles.Balance(start, start.Turn())
		ls, err := g.sf.Analyse(end.FEN(), nil, 1, g.cfg.screenNodes)
		if err != nil {
			return nil, err
		}
		if len(ls) > 0 {
			if r, err := end.ParseUCI(ls[0].Move); err == nil {
				gain = puzzles.Balance(end.Play(r), start.Turn()) - puzzles.Balance(start, start.Turn())
			}
			if -ls[0].Score() < 200 {
				return nil, nil
			}
		}
		if gain < 2 {
			return nil, nil
		}
	}
	themes := puzzles.Tag(start, line, defence)
	rating := g.rate(n, start, line, 7)
	if rating < g.cfg.minRating {
		return nil, nil
	}
	id := idFor(before.FEN(), last)
	return puzzles.New(id, before.FEN(), last, line, themes, rating)
}

// idFor names a puzzle by its position and last move: eight base-36 digits.
func idFor(fen string, last chess.Move) string {
	sum := sha256.Sum256([]byte(fen + " " + last.UCI()))
	v := binary.LittleEndian.Uint64(sum[:8]) % 2821109907456 // 36^8
	s := strconv.FormatUint(v, 36)
	return strings.Repeat("0", 8-len(s)) + s
}

// rate lets each level 0–6 try the puzzle a few times (-tries, and
// -strong-tries for levels 4–6) and fits the rating at which a player of
// each level's rating would solve it as often as the level did (logistic,
// 400 points a factor of ten, with a weak prior at 1000 so that a puzzle
// every level solves still gets a finite rating). salt keeps a measuring
// run's seeds apart from another's.
func (g *generator) rate(n int, start *chess.Position, line []chess.Move, salt int) int {
	type result struct {
		rating float64
		solved bool
	}
	var results []result
	levels := engine.Levels()
	for l := 0; l <= 6; l++ {
		tries := g.cfg.tries
		if l >= 4 && g.cfg.strongTries > 0 {
			tries = g.cfg.strongTries
		}
		for t := 0; t < tries; t++ {
			results = append(results, result{float64(levels[l].Rating), g.solves(l, start, line, mix(g.cfg.seed, n, l, t, salt))})
		}
	}
	// Maximise the log-likelihood plus the prior over a grid of ratings.
	bestR, bestLL := 1000.0, math.Inf(-1)
	for r := 200.0; r <= 2400; r += 5 {
		ll := -(r - 1000) * (r - 1000) / (2 * 500 * 500)
		for _, res := range results {
			p := 1 / (1 + math.Pow(10, (r-res.rating)/400))
			if res.solved {
				ll += math.Log(p)
			} else {
				ll += math.Log(1 - p)
			}
		}
		if ll > bestLL {
			bestR, bestLL = r, ll
		}
	}
	// The scale's ends: every level solves it, or none does.
	return int(math.Round(math.Max(400, math.Min(2000, bestR))/10) * 10)
}

// rateFile measures the rating of every puzzle in the data file in again
// (or of one shard of them) and writes the puzzles with their new ratings
// to out. Game n of a puzzle's seeds is taken from its id, and the salt
// differs from the generator's, so the tries are new ones.
func rateFile(cfg config, sf, in, out, shard string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	i, n := 0, 1
	if shard != "" {
		if _, err := fmt.Sscanf(shard, "%d/%d", &i, &n); err != nil || n < 1 || i < 0 || i >= n {
			return fmt.Errorf("-shard %q: want i/n with 0 <= i < n", shard)
		}
	}
	eng, err := stockfish.Start(sf, 16)
	if err != nil {
		return err
	}
	defer eng.Close()
	g := newGenerator(cfg, eng)
	w := bufio.NewWriter(os.Stdout)
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = bufio.NewWriter(f)
	}
	defer w.Flush()
	k := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k++
		if (k-1)%n != i {
			continue
		}
		p, err := puzzles.ParseLine(line)
		if err != nil {
			return err
		}
		h := sha256.Sum256([]byte(p.ID))
		game := int(binary.LittleEndian.Uint32(h[:4]))
		q, err := puzzles.New(p.ID, p.FEN, p.Last, p.Solution, p.Themes, g.rate(game, p.Start(), p.Solution, 11))
		if err != nil {
			return err
		}
		fmt.Fprintln(w, q.Line())
		w.Flush()
		if *verbose {
			log.Printf("%s: %d → %d", p.ID, p.Rating, q.Rating)
		}
	}
	return nil
}

// solves reports whether level plays the whole solution (any mate counts).
func (g *generator) solves(level int, start *chess.Position, line []chess.Move, seed uint64) bool {
	pos := start
	g.solver.Clear()
	g.solver.SetSeed(seed)
	for i := 0; i < len(line); i += 2 {
		m, _, err := g.solver.PlayLevel(context.Background(), pos, nil, level, engine.Limits{Nodes: 4_000_000})
		if err != nil {
			return false
		}
		if pos.Play(m).IsCheckmate() {
			return true
		}
		if m != line[i] {
			return false
		}
		pos = pos.Play(m)
		if i+1 < len(line) {
			pos = pos.Play(line[i+1])
		}
	}
	return true
}

// packFiles joins the data files ins into out, in order, dropping a
// position seen before and tagging every puzzle's themes again (a
// defence keeps its Defence theme: only the generator knows it).
func packFiles(out string, ins []string, header string) error {
	if out == "" {
		return fmt.Errorf("-pack needs -o")
	}
	var b strings.Builder
	b.WriteString("# Chess Steps puzzles, one a line: id, the FEN before the opponent's last move, the moves (UCI, that move\n")
	b.WriteString("# first, then the solution, the solver's moves at odd places), themes, starting rating. Tab-separated.\n")
	for _, line := range strings.Split(header, "\\n") {
		if line != "" {
			b.WriteString("# " + line + "\n")
		}
	}
	seen := map[string]bool{}
	for _, in := range ins {
		data, err := os.ReadFile(in)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			p, err := puzzles.ParseLine(line)
			if err != nil {
				return fmt.Errorf("%s: %w", in, err)
			}
			if seen[key(p.Start())] {
				continue
			}
			seen[key(p.Start())] = true
			q, err := puzzles.New(p.ID, p.FEN, p.Last, p.Solution, puzzles.Tag(p.Start(), p.Solution, p.Has(puzzles.Defence)), p.Rating)
			if err != nil {
				return err
			}
			b.WriteString(q.Line() + "\n")
		}
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}
