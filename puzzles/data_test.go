package puzzles

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// The shipped data file (P1, P2): every line reads, every puzzle plays
// through its own solution, its themes are what Tag finds today, and no
// position comes twice.
func TestShippedPuzzles(t *testing.T) {
	set := Shipped()
	if set.Len() == 0 {
		t.Fatal("no puzzles shipped")
	}
	seen := map[string]string{}
	for _, p := range set.All() {
		key := strings.Join(strings.Fields(p.Start().FEN())[:4], " ")
		if other, ok := seen[key]; ok {
			t.Errorf("puzzles %s and %s start from the same position", other, p.ID)
		}
		seen[key] = p.ID
		if p.Rating < 400 || p.Rating > 2000 {
			t.Errorf("puzzle %s is rated %d, outside 400–2000", p.ID, p.Rating)
		}
		for ply := 0; ply < p.Plies(); ply += 2 {
			v, err := p.Try(ply, p.Solution[ply])
			if err != nil || !v.Correct || v.Done != (ply+1 == p.Plies()) {
				t.Errorf("puzzle %s refuses its own move at ply %d: %+v, %v", p.ID, ply, v, err)
			}
		}
		want := Tag(p.Start(), p.Solution, p.Has(Defence))
		if !slices.Equal(want, p.Themes) {
			t.Errorf("puzzle %s is tagged %v, Tag finds %v (run cmd/puzzles -pack)", p.ID, p.Themes, want)
		}
	}
	for d := time.Sunday; d <= time.Saturday; d++ {
		day := time.Date(2026, 11, 29+int(d), 9, 0, 0, 0, time.UTC)
		if set.Daily(day) == nil {
			t.Errorf("no daily puzzle on %v", day.Weekday())
		}
	}
}

// TestShippedRatingsSpread: most puzzles are for beginners (under 1,200),
// and the hardest reach well above them.
func TestShippedRatingsSpread(t *testing.T) {
	all := Shipped().All()
	under := 0
	for _, p := range all {
		if p.Rating < 1200 {
			under++
		}
	}
	if 2*under <= len(all) {
		t.Errorf("%d of %d puzzles are rated under 1,200, want most", under, len(all))
	}
	if lo, hi := all[0].Rating, all[len(all)-1].Rating; lo > 500 || hi < 1400 {
		t.Errorf("ratings run from %d to %d, want about 400 to 1,800", lo, hi)
	}
}
