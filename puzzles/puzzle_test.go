package puzzles

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"chesstutor/chess"
)

// Two hand-made puzzles: a back-rank mate in one with two mating moves,
// and a knight fork of king and rook.
const (
	backRankLine = "bkrank01\t6k1/5ppp/8/8/8/8/8/RR4K1 b - - 0 1\tg8h8 a1a8\tmate-in-1,back-rank-mate\t500"
	forkLine     = "forkdemo\tr3k3/7p/8/3N4/8/8/8/6K1 b - - 0 1\th7h6 d5c7 e8d7 c7a8\tfork,material,endgame\t700"
)

func mustParse(t *testing.T, line string) *Puzzle {
	t.Helper()
	p, err := ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func uci(t *testing.T, pos *chess.Position, s string) chess.Move {
	t.Helper()
	m, err := pos.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLineRoundTrip(t *testing.T) {
	for _, line := range []string{backRankLine, forkLine} {
		p := mustParse(t, line)
		if got := p.Line(); got != line {
			t.Errorf("Line() = %q, want %q", got, line)
		}
	}
	p := mustParse(t, forkLine)
	if p.Color() != chess.White || p.SolverMoves() != 2 || p.Last.UCI() != "h7h6" {
		t.Errorf("fork puzzle: colour %v, %d solver moves, last %s", p.Color(), p.SolverMoves(), p.Last.UCI())
	}
}

func TestParseLineRefuses(t *testing.T) {
	for name, line := range map[string]string{
		"fields":        "abc\tfen",
		"bad id":        strings.Replace(forkLine, "forkdemo", "Fork-Demo", 1),
		"illegal move":  strings.Replace(forkLine, "d5c7", "d5d7", 1),
		"even solution": strings.Replace(forkLine, " c7a8", "", 1),
		"unknown theme": strings.Replace(forkLine, "fork,", "forks,", 1),
		"bad rating":    strings.Replace(forkLine, "\t700", "\tabc", 1),
	} {
		if _, err := ParseLine(line); err == nil {
			t.Errorf("%s: ParseLine accepted %q", name, line)
		}
	}
}

func TestTryAcceptsAnyMateAndRefusesOthers(t *testing.T) {
	p := mustParse(t, backRankLine)
	start := p.Start()
	for _, c := range []struct {
		move          string
		correct, done bool
	}{
		{"a1a8", true, true},
		{"b1b8", true, true}, // the other mate counts too
		{"a1a7", false, false},
	} {
		v, err := p.Try(0, uci(t, start, c.move))
		if err != nil || v.Correct != c.correct || v.Done != c.done {
			t.Errorf("Try(0, %s) = %+v, %v; want correct %v, done %v", c.move, v, err, c.correct, c.done)
		}
	}
	if _, err := p.Try(1, uci(t, start, "a1a8")); err != ErrStalePly {
		t.Errorf("Try at an odd ply: %v, want ErrStalePly", err)
	}
	if _, err := p.Try(0, uci(t, start.Play(uci(t, start, "a1a2")), "h8g8")); err != ErrIllegal {
		t.Errorf("Try with a move of the wrong side: %v, want ErrIllegal", err)
	}
}

func TestTryWalksTheLine(t *testing.T) {
	p := mustParse(t, forkLine)
	v, err := p.Try(0, uci(t, p.Start(), "d5c7"))
	if err != nil || !v.Correct || v.Done || v.Reply.UCI() != "e8d7" {
		t.Fatalf("first move: %+v, %v; want correct, not done, reply e8d7", v, err)
	}
	v, err = p.Try(2, uci(t, p.Position(2), "c7a8"))
	if err != nil || !v.Correct || !v.Done {
		t.Fatalf("second move: %+v, %v; want correct and done", v, err)
	}
	if v, _ := p.Try(2, uci(t, p.Position(2), "c7e6")); v.Correct {
		t.Error("a knight move that leaves the rook was accepted")
	}
}

func TestTagFindsThemes(t *testing.T) {
	for _, c := range []struct {
		name, line string
		want       []Theme
	}{
		{"back-rank mate", backRankLine, []Theme{MateIn1, BackRankMate, Endgame}},
		{"fork", forkLine, []Theme{Fork, Material, Endgame}},
		// White takes en passant: exd6, winning the pawn that just passed.
		{"en passant", "enpassnt\t4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1\td7d5 e5d6\tmaterial\t500", []Theme{EnPassant, Material, Endgame}},
		// The rook on e1 pins the knight on e5 to the king on e8; the pawn
		// takes the pinned knight.
		{"pin", "pinned01\t4k3/8/8/4n3/3P4/8/8/4R1K1 b - - 0 1\te8e8 d4e5\tmaterial\t500", nil},
	} {
		if c.want == nil {
			continue
		}
		p := mustParse(t, c.line)
		got := Tag(p.Start(), p.Solution, false)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: Tag = %v, want it to hold %s", c.name, got, w)
			}
		}
	}
	// Discovered double check: the bishop moves off the rook's file with
	// check, and the rook checks too.
	pos, _ := chess.ParseFEN("4k3/8/8/8/4B3/8/8/4R1K1 w - - 0 1")
	m := uci(t, pos, "e4c6")
	if got := Tag(pos, []chess.Move{m}, false); !slices.Contains(got, DoubleCheck) || !slices.Contains(got, DiscoveredAttack) {
		t.Errorf("Bc6+ with the rook behind: Tag = %v, want double-check and discovered-attack", got)
	}
	// A pinned piece taken: the knight on e5 cannot leave the e-file.
	pos, _ = chess.ParseFEN("4k3/8/8/4n3/3P4/8/8/4R1K1 w - - 0 1")
	if got := Tag(pos, []chess.Move{uci(t, pos, "d4e5")}, false); !slices.Contains(got, Pin) {
		t.Errorf("dxe5 of a pinned knight: Tag = %v, want pin", got)
	}
}

// Planted positions for the pins and discovered attacks that a capture
// of the pinned piece alone does not show.
func TestTagFindsPinsAndDiscoveries(t *testing.T) {
	for _, c := range []struct {
		name, fen, line string
		theme           Theme
		want            bool
	}{
		// The bishop on b4 pins the knight on c3 to the king: the queen
		// takes the bishop on b5, which the knight guards in vain.
		{"pin stops the recapture", "4k3/8/8/1B4q1/1b6/2N5/8/4K3 b - - 0 1", "g5b5", Pin, true},
		// The same capture with the knight free to take back.
		{"no pin, no theme", "4k3/8/8/1B4q1/8/2N5/8/4K3 b - - 0 1", "g5b5", Pin, false},
		// The pawn attacks the knight pinned by the bishop and takes it.
		{"the pinned piece attacked", "4k3/7p/2n5/1B6/3P4/8/8/4K3 w - - 0 1", "d4d5 h7h6 d5c6", Pin, true},
		// dxe6 takes a bishop and opens the queen's file onto the other,
		// unguarded bishop: two threats at once.
		{"capture with a discovered attack", "4k3/8/3bb3/3P4/8/8/8/3QK3 w - - 0 1", "d5e6", DiscoveredAttack, true},
		// Nxe4 takes a queen and happens to open the queen's diagonal onto a
		// knight: the capture alone is the point.
		{"a queen taken is not a discovery", "r1bqkb1r/ppp2ppp/2n1pn2/6N1/4Q3/8/PPPP1PPP/RNB1KB1R b KQkq - 3 6", "f6e4", DiscoveredAttack, false},
	} {
		pos, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		var line []chess.Move
		p := pos
		for _, u := range strings.Fields(c.line) {
			m := uci(t, p, u)
			line = append(line, m)
			p = p.Play(m)
		}
		if got := Tag(pos, line, false); slices.Contains(got, c.theme) != c.want {
			t.Errorf("%s: Tag = %v, want %s: %v", c.name, got, c.theme, c.want)
		}
	}
}

// set makes a set of n copies of the fork puzzle rated from 400 up.
func set(t *testing.T, n int) *Set {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		line := strings.Replace(forkLine, "forkdemo", fmt.Sprintf("p%04d", i), 1)
		line = strings.Replace(line, "\t700", fmt.Sprintf("\t%d", 400+i*1400/n), 1)
		b.WriteString(line + "\n")
	}
	s, err := Read(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNextChoosesNearTheTarget(t *testing.T) {
	s := set(t, 200)
	rng := rand.New(rand.NewPCG(1, 2))
	shipped := func(p *Puzzle) Rating { return PuzzleStart(p.Rating) }
	v := Rating{R: 1100, RD: 80, Sigma: 0.06}
	target := TargetRating(v, 150)
	if e := Expected(v, Rating{R: target, RD: 150}); e < 0.69 || e > 0.71 {
		t.Fatalf("a visitor's chance at the target rating %v is %.3f, want 0.70", target, e)
	}
	tried := map[string]bool{}
	sum := 0.0
	for i := 0; i < 20; i++ {
		p := s.Next(v, 0, "", tried, shipped, rng)
		if d := float64(p.Rating) - target; i == 0 && (d < -35 || d > 35) {
			t.Errorf("first choice rated %d for target %.0f", p.Rating, target)
		}
		sum += float64(p.Rating)
		if tried[p.ID] {
			t.Errorf("chose %s twice while untried ones were left", p.ID)
		}
		tried[p.ID] = true
	}
	if mean := sum / 20; mean < target-40 || mean > target+40 {
		t.Errorf("20 choices averaged %.0f, want near the target %.0f", mean, target)
	}
	if p := s.Next(v, 0, MateIn3, nil, shipped, rng); p != nil {
		t.Errorf("a theme no puzzle has gave %s", p.ID)
	}
}

func TestStreakClimbsWithoutRepeats(t *testing.T) {
	s := set(t, 300)
	seen := map[string]bool{}
	prev := 0
	for k := 0; k < 25; k++ {
		p := s.Streak(77, k)
		if seen[p.ID] {
			t.Fatalf("streak puzzle %d repeats %s", k, p.ID)
		}
		seen[p.ID] = true
		if k > 0 && p.Rating < prev-60 {
			t.Errorf("streak puzzle %d rated %d after %d: the ladder went down", k, p.Rating, prev)
		}
		prev = p.Rating
		if again := s.Streak(77, k); again != p {
			t.Errorf("the same seed gave %s then %s at step %d", p.ID, again.ID, k)
		}
	}
	if prev < 1400 {
		t.Errorf("after 25 puzzles the streak is at %d, want it well up the ladder", prev)
	}
}

func TestDailyIsEasierOnMonday(t *testing.T) {
	s := set(t, 300)
	monday := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	if monday.Weekday() != time.Monday {
		t.Fatal("not a Monday")
	}
	sunday := monday.AddDate(0, 0, 6)
	if s.Daily(monday).Rating >= s.Daily(sunday).Rating {
		t.Errorf("Monday's puzzle %d, Sunday's %d: want Monday easier", s.Daily(monday).Rating, s.Daily(sunday).Rating)
	}
	if s.Daily(monday) != s.Daily(monday.Add(5*time.Hour)) {
		t.Error("two times of one day gave two daily puzzles")
	}
	for d := 0; d < 6; d++ {
		day := monday.AddDate(0, 0, d)
		if DailyRating(day.Weekday()) >= DailyRating(day.AddDate(0, 0, 1).Weekday()) {
			t.Errorf("%v's daily rating is not below the next day's", day.Weekday())
		}
	}
}
