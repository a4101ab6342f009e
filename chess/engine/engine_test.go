package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"chesstutor/chess"
)

func mustFEN(t testing.TB, fen string) *chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

func TestFindsMate(t *testing.T) {
	t.Parallel()
	// Mate lengths were checked with Stockfish 15.1.
	cases := []struct {
		name, fen string
		mateIn    int
		want      string // the mating move, when only one leads to the shortest mate
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "a1a8"},
		{"queen and king", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", 1, ""},
		{"smothered", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", 1, "g5f7"},
		{"queen takes with knight support", "6rk/6pp/7N/8/8/1Q6/8/6K1 w - - 0 1", 1, "b3g8"},
		{"black mates", "1r4k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 1, "b8b1"},
		{"scholar", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3", 1, "f3f7"},
		{"promotion", "k7/2P5/1K6/8/8/8/8/8 w - - 0 1", 1, ""},
		{"rook roller", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2, ""},
		{"king steps up", "k7/8/2K5/8/8/8/8/7R w - - 0 1", 2, "c6b6"},
		{"knight sacrifice", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, "d5f6"},
		{"black rook sacrifice", "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2, "g2g1"},
		{"queen sacrifice", "r1b3kr/ppp1Bp1p/1b6/n2P4/2p3q1/2Q2N2/P4PPP/RN2R1K1 w - - 1 1", 3, "c3h8"},
		{"Philidor's legacy", "2r4k/6pp/8/4N3/8/1Q6/8/6K1 w - - 0 1", 4, "e5f7"},
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pos := mustFEN(t, tc.fen)
			s := NewSearcher(4)
			res := s.Search(context.Background(), pos, nil, Limits{Depth: 2*tc.mateIn + 2, Time: 5 * time.Second})
			if got := MateIn(res.Score); got != tc.mateIn {
				t.Errorf("mate in %d, want mate in %d (score %d, move %s)", got, tc.mateIn, res.Score, res.Move)
			}
			if tc.want != "" && res.Move.UCI() != tc.want {
				t.Errorf("move %s, want %s", res.Move, tc.want)
			}
			if tc.mateIn == 1 && !pos.Play(res.Move).IsCheckmate() {
				t.Errorf("%s does not mate", res.Move)
			}
		})
	}
}

// TestNeverIllegal plays many random games and checks the engine's answer
// (a very short search) at every position along the way. The searches are
// bounded by nodes, not time, so the test does the same work on a busy
// machine as on an idle one.
func TestNeverIllegal(t *testing.T) {
	t.Parallel()
	games, plies := 40, 80
	if testing.Short() {
		games = 3 // go test -short stays within seconds (issues 17, 37)
	}
	r := rand.New(rand.NewPCG(1, 2))
	s := NewSearcher(4)
	checked := 0
	for g := 0; g < games; g++ {
		pos := mustFEN(t, chess.StartFEN)
		var hist []uint64
		for ply := 0; ply < plies; ply++ {
			legal := pos.LegalMoves()
			if len(legal) == 0 {
				break
			}
			res := s.Search(context.Background(), pos, hist, Limits{Depth: 2, Nodes: 3000})
			checked++
			if !pos.IsLegal(res.Move) {
				t.Fatalf("illegal move %s in %s", res.Move, pos.FEN())
			}
			// Level play must be legal too.
			lv := 1 + ply%MaxLevel
			m, _, err := s.PlayLevel(context.Background(), pos, hist, lv, Limits{Nodes: 3000})
			if err != nil || !pos.IsLegal(m) {
				t.Fatalf("level %d: move %s, err %v in %s", lv, m, err, pos.FEN())
			}
			hist = append(hist, pos.Hash())
			pos = pos.Play(legal[r.IntN(len(legal))])
		}
	}
	if checked < games*50 {
		t.Errorf("only %d positions checked", checked)
	}
}

func TestAvoidsStalemate(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, fen string }{
		// Qb6 or Qc7 would stalemate; White must find another way.
		{"queen near cornered king", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1"},
		{"rook and king", "7k/8/6K1/8/8/8/8/5R2 w - - 0 1"},
		{"extra pawns", "7k/5Q2/6K1/8/8/8/P7/8 w - - 0 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pos := mustFEN(t, tc.fen)
			// Levels 1 and 2 play like beginners, whose blind spots and
			// hazy judgement sometimes stalemate a won ending (C2, issue
			// 16); from level 3 up it must never happen.
			for lv := 3; lv <= MaxLevel; lv++ {
				s := NewSearcher(2)
				s.SetSeed(uint64(lv))
				m, _, err := s.PlayLevel(context.Background(), pos, nil, lv, Limits{Nodes: 200_000})
				if err != nil {
					t.Fatal(err)
				}
				if pos.Play(m).IsStalemate() {
					t.Errorf("level %d stalemates with %s", lv, m)
				}
			}
		})
	}
}

func TestDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("measures searches against 50 and 80 ms on the clock: runs without -short")
	}
	pos := mustFEN(t, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 9")
	s := NewSearcher(8)
	start := time.Now()
	res := s.Search(context.Background(), pos, nil, Limits{Time: 50 * time.Millisecond})
	if el := time.Since(start); el > time.Second {
		t.Errorf("search took %v with a 50ms budget", el)
	}
	if !pos.IsLegal(res.Move) {
		t.Errorf("illegal move %s", res.Move)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 80*time.Millisecond)
	defer cancel()
	start = time.Now()
	res = s.Search(ctx, pos, nil, Limits{})
	if el := time.Since(start); el > time.Second {
		t.Errorf("search took %v with an 80ms context", el)
	}
	if !pos.IsLegal(res.Move) {
		t.Errorf("illegal move %s", res.Move)
	}
}

func TestLevelsAnswerWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	pos := mustFEN(t, "r2q1rk1/pp1bbppp/2n1pn2/3p4/3P4/2NBPN2/PP1B1PPP/R2Q1RK1 w - - 4 10")
	p := NewPool(1, 8)
	for _, l := range Levels() {
		start := time.Now()
		m, err := p.Move(context.Background(), pos, nil, l.Number)
		el := time.Since(start)
		if err != nil || !pos.IsLegal(m) {
			t.Fatalf("level %d: %s, %v", l.Number, m, err)
		}
		if el > 2*LevelBudget(l.Number)+500*time.Millisecond {
			t.Errorf("level %d took %v, budget %v", l.Number, el, LevelBudget(l.Number))
		}
	}
}

// queenPositions have the side to move's queen attacked (or a tempting
// capture that loses it); keeping the queen is easy in each.
var queenPositions = []string{
	"rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 3",        // Qh4 attacked by Nf3
	"rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3",           // Qd5 attacked by Nc3
	"r1bqkbnr/pp1ppppp/2n5/8/3QP3/8/PPP2PPP/RNB1KBNR w KQkq - 1 4",           // Qd4 attacked by Nc6
	"rnbqkb1r/pppp1ppp/5n2/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3",        // Qh5 attacked by Nf6; Qxf7+ loses it
	"r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1Q2/PPP2PPP/RNB1K1NR w KQkq - 0 5", // Qxf7 mates; Qxf6?? loses the queen
	"rn1qkbnr/ppp2ppp/3p4/4p3/4P1b1/5N2/PPPPQPPP/RNB1KB1R w KQkq - 0 4",      // the queen behind a pinned knight
}

// givesQueenAway reports whether, after m, the opponent can take the
// mover's queen and come out ahead in the exchange, when m neither traded
// queens nor ended the game.
func givesQueenAway(pos *chess.Position, m chess.Move) bool {
	if m.IsCapture() && m.Captured().Type() == chess.Queen {
		return false
	}
	next := pos.Play(m)
	q := next.Pieces(pos.Turn(), chess.Queen)
	if q == 0 {
		return false // promoted or traded away elsewhere
	}
	for _, r := range next.LegalMoves() {
		if r.IsCapture() && q.Has(r.To()) && see(next, r) > 300 {
			return true
		}
	}
	return false
}

func TestLevelsThreeUpKeepTheQueen(t *testing.T) {
	t.Parallel()
	seeds := 12
	if testing.Short() {
		seeds = 1
	}
	s := NewSearcher(4)
	for _, fen := range queenPositions {
		pos := mustFEN(t, fen)
		// Levels 4–7 are blind to some captures two replies deep; level
		// 8 is not blind. A level that thinks for a fixed time (7) is
		// cut short here, by nodes (about 40 ms on an idle machine): its
		// blind spots do not depend on how long it thinks.
		for level := 3; level <= 7; level++ {
			p, err := levelFor(level)
			if err != nil {
				t.Fatal(err)
			}
			lim := byWork
			if p.Depth == 0 {
				lim.Nodes = 100_000
			}
			for seed := range seeds {
				s.SetSeed(uint64(seed))
				m, _, err := s.PlayLevel(context.Background(), pos, nil, level, lim)
				if err != nil {
					t.Fatal(err)
				}
				if givesQueenAway(pos, m) {
					t.Errorf("level %d (seed %d) gives its queen away with %s in %s", level, seed, m.UCI(), fen)
				}
			}
		}
	}
}

func TestLevelOneTakesAHangingQueenMostOfTheTime(t *testing.T) {
	t.Parallel()
	s := NewSearcher(4)
	for _, fen := range hangingQueens {
		pos := mustFEN(t, fen)
		took := 0
		const tries = 40
		for seed := range tries {
			s.SetSeed(uint64(seed))
			m, _, err := s.PlayLevel(context.Background(), pos, nil, 1, byWork)
			if err != nil {
				t.Fatal(err)
			}
			if m.IsCapture() && m.Captured().Type() == chess.Queen {
				took++
			}
		}
		t.Logf("level 1 took the queen %d times in %d in %s", took, tries, fen)
		if took < tries*6/10 {
			t.Errorf("level 1 took the hanging queen %d times in %d in %s; want most of the time", took, tries, fen)
		}
	}
}

// hangingQueens have the opponent's queen where a piece can take it for
// nothing.
var hangingQueens = []string{
	"rnb1kbnr/pppp1ppp/8/4p3/4P3/5q2/PPPP1PPP/RNBQKB1R w KQkq - 0 4",      // g2xf3 or Qd1xf3
	"rnbqkb1r/pppp1ppp/5n2/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 3 3",     // Nf6xh5
	"r1b1kbnr/pppp1ppp/2n5/4p3/3qP3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 5", // Nf3xd4
}

// TestLevelZeroTakesAHangingQueenAboutHalfTheTime: level 0, "First game"
// (C6), notices a free queen about half the time, however many of its
// pieces attack it, and never more than 60 % of the time (cmd/match -free
// measures the same over many positions from play).
func TestLevelZeroTakesAHangingQueenAboutHalfTheTime(t *testing.T) {
	t.Parallel()
	s := NewSearcher(4)
	took, tries := 0, 0
	for _, fen := range hangingQueens {
		pos := mustFEN(t, fen)
		here := 0
		for seed := range 40 {
			s.SetSeed(uint64(seed))
			m, _, err := s.PlayLevel(context.Background(), pos, nil, 0, Limits{})
			if err != nil || !pos.IsLegal(m) {
				t.Fatalf("level 0 (seed %d) played %s, %v in %s", seed, m, err, fen)
			}
			if m.IsCapture() && m.Captured().Type() == chess.Queen {
				here++
			}
		}
		t.Logf("level 0 took the queen %d times in 40 in %s", here, fen)
		took, tries = took+here, tries+40
	}
	if took < tries*3/10 || took > tries*6/10 {
		t.Errorf("level 0 took the hanging queen %d times in %d; want about half the time, at most 60 %%", took, tries)
	}
}

func TestLevelOneSometimesMissesMateInOne(t *testing.T) {
	t.Parallel()
	// Ra8 mates; a new player sees it most of the time, not always.
	pos := mustFEN(t, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
	s := NewSearcher(4)
	mates := 0
	const tries = 60
	for seed := range tries {
		s.SetSeed(uint64(seed))
		m, _, err := s.PlayLevel(context.Background(), pos, nil, 1, byWork)
		if err != nil {
			t.Fatal(err)
		}
		if m.UCI() == "a1a8" {
			mates++
		}
	}
	t.Logf("level 1 played the mate in one %d times in %d", mates, tries)
	if mates < tries/2 || mates == tries {
		t.Errorf("level 1 played the mate in one %d times in %d; want most of the time but not always", mates, tries)
	}
	// From level 5 up, which overlook none of their own moves, the mate
	// is never missed.
	for seed := range 10 {
		s.SetSeed(uint64(seed))
		m, _, _ := s.PlayLevel(context.Background(), pos, nil, 5, byWork)
		if m.UCI() != "a1a8" {
			t.Errorf("level 5 (seed %d) played %s, not the mate in one", seed, m.UCI())
		}
	}
}

// byWork bounds a level's search by its depth and a node budget larger
// than any of levels 1-6 reaches, never by its thinking time: a seeded
// level then plays the same move however busy the machine is.
var byWork = Limits{Nodes: 50_000_000}

func TestWeakLevelsPlayLegalMovesAndRepeatWithASeed(t *testing.T) {
	t.Parallel()
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	fens := append([]string{
		"r2q1rk1/pp1bbppp/2n1pn2/3p4/3P4/2NBPN2/PP1B1PPP/R2Q1RK1 w - - 4 10",
		"r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 6",
		"8/5pk1/6p1/3R4/8/6P1/r4PK1/8 b - - 3 40",
		"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
	}, queenPositions...)
	s := NewSearcher(4)
	for _, fen := range fens {
		pos := mustFEN(t, fen)
		for level := MinLevel; level <= 5; level++ {
			for seed := range seeds {
				s.Clear()
				s.SetSeed(uint64(seed))
				m, _, err := s.PlayLevel(context.Background(), pos, nil, level, byWork)
				if err != nil || !pos.IsLegal(m) {
					t.Fatalf("level %d (seed %d): move %s, err %v in %s", level, seed, m, err, fen)
				}
				s.Clear()
				s.SetSeed(uint64(seed))
				again, _, _ := s.PlayLevel(context.Background(), pos, nil, level, byWork)
				if again != m {
					t.Errorf("level %d (seed %d) played %s, then %s with the same seed in %s", level, seed, m.UCI(), again.UCI(), fen)
				}
			}
		}
	}
}

func TestLevelRatingsClimb(t *testing.T) {
	prev := 0
	for _, l := range Levels() {
		if l.Rating <= prev {
			t.Errorf("level %d is rated %d, not above the level below it (%d)", l.Number, l.Rating, prev)
		}
		prev = l.Rating
	}
}

func TestRepetitionIsDraw(t *testing.T) {
	t.Parallel()
	// Black is two rooks down. The position after Kh8 has already occurred
	// twice, so Kh8 repeats it a third time: a draw (R8), Black's best.
	root := mustFEN(t, "6k1/8/8/8/8/8/8/RR4K1 b - - 10 60")
	kh8, err := root.ParseUCI("g8h8")
	if err != nil {
		t.Fatal(err)
	}
	x := root.Play(kh8).Hash()
	hist := []uint64{11, x, 12, 13, 14, x, 15, 16}
	s := NewSearcher(4)
	res := s.Search(context.Background(), root, hist, Limits{Depth: 4})
	if res.Move != kh8 || res.Score != 0 {
		t.Errorf("got %s score %d, want g8h8 with a draw score", res.Move, res.Score)
	}
	// Without that history Black is simply lost.
	res = s.Search(context.Background(), root, nil, Limits{Depth: 4})
	if res.Score > -500 {
		t.Errorf("score %d without repetition, want clearly lost", res.Score)
	}
}

func TestFiftyMoveRule(t *testing.T) {
	t.Parallel()
	// A rook up, but the clock stands at 99 half-moves: any non-pawn,
	// non-capture move draws, except a mate, which stands (R8).
	pos := mustFEN(t, "7k/8/6K1/8/8/8/8/R7 w - - 99 80")
	s := NewSearcher(2)
	res := s.Search(context.Background(), pos, nil, Limits{Depth: 4})
	if res.Move.UCI() != "a1a8" || MateIn(res.Score) != 1 {
		t.Errorf("got %s score %d, want the mate a1a8", res.Move, res.Score)
	}
	pos = mustFEN(t, "7k/8/5K2/8/8/8/8/R7 w - - 99 80")
	res = s.Search(context.Background(), pos, nil, Limits{Depth: 4})
	if res.Score != 0 {
		t.Errorf("score %d with the fifty-move rule due, want 0", res.Score)
	}
}

func TestPoolBoundsConcurrency(t *testing.T) {
	pos := mustFEN(t, chess.StartFEN)
	p := NewPool(2, 4)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			m, err := p.Move(ctx, pos, nil, 4)
			if err != nil || !pos.IsLegal(m) {
				t.Errorf("move %s, %v", m, err)
			}
		}()
	}
	wg.Wait()
	if got := p.peak.Load(); got > 2 || got < 1 {
		t.Errorf("peak of %d searches at once, want 1 or 2", got)
	}
	if got := p.active.Load(); got != 0 {
		t.Errorf("%d searches still counted as running", got)
	}
}

func TestPoolCancellation(t *testing.T) {
	if testing.Short() {
		t.Skip("measures how fast a cancelled search returns on the clock: runs without -short")
	}
	pos := mustFEN(t, chess.StartFEN)
	p := NewPool(1, 4)

	// A cancelled search returns quickly and drops its result.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := p.Move(ctx, pos, nil, 8)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
		if el := time.Since(start); el > time.Second {
			t.Errorf("cancel took %v", el)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("cancelled search did not return")
	}

	// A caller waiting for a busy worker gives up when its context ends.
	busyCtx, busyCancel := context.WithCancel(context.Background())
	defer busyCancel()
	go p.Move(busyCtx, pos, nil, 8)
	time.Sleep(20 * time.Millisecond)
	waitCtx, waitCancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer waitCancel()
	_, err := p.Move(waitCtx, pos, nil, 1)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting caller: err %v, want deadline exceeded", err)
	}
	busyCancel()

	// The pool still works afterwards.
	m, err := p.Move(context.Background(), pos, nil, 1)
	if err != nil || !pos.IsLegal(m) {
		t.Errorf("after cancellations: %s, %v", m, err)
	}
}

func TestPoolCountsWaitingAndDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the pool's deadlines on the clock (two level-8 budgets): runs without -short")
	}
	pos := mustFEN(t, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 9")
	p := NewPool(1, 4)
	budget := LevelBudget(8)
	// The bounds are loose on purpose: they tell a deadline honoured (a
	// fraction of the level's 1.5 s) from one ignored (the whole budget or
	// two), and stay true on a shared 2-core machine at load 20, where a
	// goroutine can wait 300 ms for a core. Speed itself is measured by the
	// benchmarks, not here.
	margin := budget / 2

	// A game clock's deadline shortens the search, and the move found is
	// returned rather than dropped.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	start := time.Now()
	m, err := p.Move(ctx, pos, nil, 8)
	cancel()
	if err != nil || !pos.IsLegal(m) {
		t.Fatalf("with a 200 ms deadline: move %s, %v", m, err)
	}
	if el := time.Since(start); el > budget/2 {
		t.Errorf("with a 200 ms deadline the reply took %v", el)
	}

	// A clock's budget shortens the level's own.
	start = time.Now()
	m, err = p.Move(WithTimeBudget(context.Background(), 150*time.Millisecond), pos, nil, 8)
	if err != nil || !pos.IsLegal(m) {
		t.Fatalf("with a 150 ms budget: move %s, %v", m, err)
	}
	if el := time.Since(start); el > budget/2 {
		t.Errorf("with a 150 ms budget the reply took %v", el)
	}

	// Time spent waiting for the only worker counts against the level's
	// budget: the second caller gets its reply within the budget plus a
	// small margin, not after two full searches.
	first := make(chan error, 1)
	start = time.Now()
	go func() {
		_, err := p.Move(context.Background(), pos, nil, 8)
		first <- err
	}()
	time.Sleep(20 * time.Millisecond)
	m, err = p.Move(context.Background(), pos, nil, 8)
	if err != nil || !pos.IsLegal(m) {
		t.Fatalf("waiting caller: move %s, %v", m, err)
	}
	if el := time.Since(start); el > budget+margin {
		t.Errorf("waiting caller answered after %v; want within the budget %v and a margin", el, budget)
	}
	if err := <-first; err != nil {
		t.Errorf("first caller: %v", err)
	}
}

func TestPoolRejectsBadInput(t *testing.T) {
	p := NewPool(1, 1)
	pos := mustFEN(t, chess.StartFEN)
	for _, level := range []int{MinLevel - 1, MaxLevel + 1} {
		if _, err := p.Move(context.Background(), pos, nil, level); err == nil {
			t.Errorf("level %d accepted", level)
		}
	}
	if _, err := p.Move(context.Background(), nil, nil, 1); err == nil {
		t.Error("nil position accepted")
	}
	bad, _ := mustFEN(t, "8/8/8/8/8/8/8/K6k w - - 0 1").ParseUCI("a1a2")
	if _, err := p.Move(context.Background(), pos, []chess.Move{bad}, 1); err == nil {
		t.Error("illegal move history accepted")
	}
	mated := mustFEN(t, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
	if _, err := p.Move(context.Background(), mated, nil, 1); err == nil {
		t.Error("move in a finished game accepted")
	}
	if got := Levels(); len(got) != 9 || got[0].Number != MinLevel || got[len(got)-1].Number != MaxLevel {
		t.Errorf("levels %v, want 0 to 8", got)
	}
}

func BenchmarkSearchMiddlegame(b *testing.B) {
	pos := mustFEN(b, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 9")
	s := NewSearcher(16)
	var nodes uint64
	start := time.Now()
	for b.Loop() {
		s.Clear()
		res := s.Search(context.Background(), pos, nil, Limits{Depth: 9})
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
}

func BenchmarkEvaluate(b *testing.B) {
	pos := mustFEN(b, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 9")
	for b.Loop() {
		Evaluate(pos)
	}
}

func TestLevelOneMissesMateInTwo(t *testing.T) {
	t.Parallel()
	// Kb6 followed by Rh8 mates; level 1 looks only two half-moves ahead,
	// so it does not know this, while level 8 announces the mate.
	pos := mustFEN(t, "k7/8/2K5/8/8/8/8/7R w - - 0 1")
	s := NewSearcher(2)
	_, res, err := s.PlayLevel(context.Background(), pos, nil, 1, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if MateIn(res.Score) != 0 {
		t.Errorf("level 1 saw mate in %d; it should not look that far", MateIn(res.Score))
	}
	_, res, err = s.PlayLevel(context.Background(), pos, nil, 8, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if MateIn(res.Score) != 2 {
		t.Errorf("level 8 found mate in %d, want 2", MateIn(res.Score))
	}
}

func TestSEE(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fen, move string
		want      int
	}{
		// A free pawn.
		{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100},
		// A pawn defended by a pawn, taken by the queen: queen for pawn.
		{"4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", 100 - 950},
		// Rook takes a pawn defended by a knight, backed by a second rook:
		// RxP NxR RxN leaves White a pawn and knight for a rook.
		{"4k3/8/5n2/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100 - 500 + 320},
		// Knight takes a pawn twice defended and twice attacked: the
		// defenders (pawn, pawn) make it a losing trade.
		{"4k3/8/2p1p3/3p4/1N6/8/8/3RK3 w - - 0 1", "b4d5", 100 - 320},
		// The king may not recapture on a defended square.
		{"8/8/4k3/3p4/8/4N3/8/3RK3 w - - 0 1", "e3d5", 100},
		// An x-ray: the queen behind the bishop joins the exchange.
		{"4k3/8/5p2/4p3/8/2B5/1Q6/4K3 w - - 0 1", "c3e5", 100 - 330 + 100},
	}
	for _, tc := range tests {
		pos := mustFEN(t, tc.fen)
		m, err := pos.ParseUCI(tc.move)
		if err != nil {
			t.Fatalf("%s in %s: %v", tc.move, tc.fen, err)
		}
		if got := see(pos, m); got != tc.want {
			t.Errorf("see(%s) in %s = %d, want %d", tc.move, tc.fen, got, tc.want)
		}
	}
}

// TestExcludedMoveIsLeftOut checks the search that singular extensions
// run without the hash move: it must not find what only that move does,
// and must not leave its result in the table for the full search.
func TestExcludedMoveIsLeftOut(t *testing.T) {
	t.Parallel()
	pos := mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1") // Ra8 mates; nothing else does
	s := NewSearcher(1)
	s.Search(context.Background(), pos, nil, Limits{Depth: 1}) // sets up the root
	mate, err := pos.ParseUCI("a1a8")
	if err != nil {
		t.Fatal(err)
	}
	s.excluded[0] = mate
	without := s.negamax(0, 3, -infinity, infinity, false)
	s.excluded[0] = chess.NoMove
	if MateIn(without) != 0 {
		t.Errorf("without Ra8 the search still mates (score %d)", without)
	}
	// A null-window search at the same depth would take the table's word
	// if the search without Ra8 had been stored.
	if with := s.negamax(0, 3, mateBound, mateBound+1, false); with <= mateBound {
		t.Errorf("with every move the search scores %d, want the mate (the search without Ra8 was stored)", with)
	}
}

// TestStoppedSearchesLeaveNoMoveExcluded stops searches at many points,
// some of them inside the singular-extension searches, and checks that no
// move stays excluded for the next search.
func TestStoppedSearchesLeaveNoMoveExcluded(t *testing.T) {
	t.Parallel()
	pos := mustFEN(t, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 9")
	s := NewSearcher(4)
	step := uint64(19000)
	if testing.Short() {
		step *= 7
	}
	for nodes := uint64(20000); nodes <= 400000; nodes += step {
		s.Search(context.Background(), pos, nil, Limits{Nodes: nodes})
		for ply, m := range s.excluded {
			if m != chess.NoMove {
				t.Fatalf("after a search stopped at %d nodes, %s stays excluded at ply %d", nodes, m, ply)
			}
		}
	}
}
