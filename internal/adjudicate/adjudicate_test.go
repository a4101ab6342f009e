package adjudicate

import "testing"

func TestReferee(t *testing.T) {
	rules := Rules{LostBy: 700, LostPlies: 3, LevelAfter: 10, LevelWithin: 10, LevelPlies: 4}
	cases := []struct {
		name  string
		start int     // ply of the first observation; each next one is a ply later
		obs   [][]int // each observation's scores, from White's view
		want  []Verdict
	}{
		{"both engines see White lost three times", 0,
			[][]int{{-800, -900}, {-750, -701}, {-1000, -800}},
			[]Verdict{Play, Play, BlackWins}},
		{"both engines see Black lost three times", 0,
			[][]int{{800, 900}, {750, 701}, {1000, 800}},
			[]Verdict{Play, Play, WhiteWins}},
		{"one engine disagrees: play on", 0,
			[][]int{{-800, -900}, {-800, -600}, {-800, -900}, {-800, -900}},
			[]Verdict{Play, Play, Play, Play}},
		{"exactly the threshold is not lost", 0,
			[][]int{{-700}, {-700}, {-700}, {-700}},
			[]Verdict{Play, Play, Play, Play}},
		{"the streak restarts when the losing side changes", 0,
			[][]int{{-800}, {-800}, {800}, {800}, {800}},
			[]Verdict{Play, Play, Play, Play, WhiteWins}},
		{"level for four plies after ply 10 is drawn", 10,
			[][]int{{0, 0}, {5, -10}, {10, 0}, {-3, 2}, {0, 0}},
			[]Verdict{Play, Play, Play, Play, Draw}},
		{"one engine off level restarts the count", 11,
			[][]int{{0, 0}, {0, 0}, {0, 11}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
			[]Verdict{Play, Play, Play, Play, Play, Play, Draw}},
		{"no scores decide nothing", 20,
			[][]int{{}, {}, {}, {}, {}},
			[]Verdict{Play, Play, Play, Play, Play}},
	}
	for _, c := range cases {
		r := Referee{Rules: rules}
		for i, scores := range c.obs {
			if got := r.Observe(c.start+i, scores...); got != c.want[i] {
				t.Errorf("%s: observation %d %v: got %v, want %v", c.name, i+1, scores, got, c.want[i])
			}
		}
	}
}

func TestVerdictResult(t *testing.T) {
	for v, want := range map[Verdict]string{Play: "*", WhiteWins: "1-0", BlackWins: "0-1", Draw: "1/2-1/2"} {
		if got := v.Result(); got != want {
			t.Errorf("%d.Result() = %q, want %q", v, got, want)
		}
	}
}
