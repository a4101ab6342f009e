package quiz

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func loadBank(t *testing.T) *Bank {
	t.Helper()
	b, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return b
}

func TestLoadEveryQuestion(t *testing.T) {
	b := loadBank(t)
	qs := b.Questions()
	if len(qs) < 36 {
		t.Errorf("got %d questions, want at least 36", len(qs))
	}
	counts := b.Counts()
	for _, k := range Kinds {
		if counts[k] == 0 {
			t.Errorf("no question of kind %s", k)
		}
	}
	topics := map[string]bool{}
	for _, q := range qs {
		topics[q.Topic] = true
		if len(q.Key()) == 0 {
			t.Errorf("%s: empty key", q.ID)
		}
		if q.Kind != Choice && q.Pos == nil {
			t.Errorf("%s: board question without a position", q.ID)
		}
		if !q.Board() && len(q.Options) < 2 {
			t.Errorf("%s: %d options, want at least 2", q.ID, len(q.Options))
		}
		for _, k := range q.Key() {
			if !q.Board() && q.OptionText(k) == "" {
				t.Errorf("%s: key %q is not an option", q.ID, k)
			}
		}
		if q.TopicTitle() == "" {
			t.Errorf("%s: topic %q has no title", q.ID, q.Topic)
		}
	}
	for topic := range topicTitles {
		if !topics[topic] {
			t.Errorf("topic %q has no question", topic)
		}
	}
	t.Logf("%d questions: %v", len(qs), counts)
}

// TestBoardKeys checks every computed key against what a chess player knows
// the answer to be, so an explanation can never contradict its key.
func TestBoardKeys(t *testing.T) {
	b := loadBank(t)
	want := map[string]string{
		"castle-king-moved":       "no",
		"castle-other-rook":       "yes",
		"castle-in-check":         "no",
		"castle-through-check":    "no",
		"castle-into-check":       "no",
		"castle-rook-attacked":    "yes",
		"castle-b1-attacked":      "yes",
		"castle-queen-landing":    "c1",
		"status-rook-check":       "check",
		"status-blocked-file":     "none",
		"status-back-rank-mate":   "checkmate",
		"status-luft":             "check",
		"status-queen-mate":       "checkmate",
		"status-stalemate":        "stalemate",
		"check-escape-squares":    "d7 f7 f8",
		"king-moves-in-check":     "d2 e2 f2",
		"mate-rook-square":        "a8",
		"pawn-squares":            "d3 e3 e4",
		"pieces-knight-squares":   "b3 b5 c2 e2 e6 f3 f5",
		"pieces-rook-squares":     "a2 b2 c2 d1 d3 d4 d5 e2",
		"pieces-pinned-bishop":    "b4 c3",
		"ep-capture-square":       "d6",
		"ep-pawn-squares":         "d6 e6",
		"promotion-squares":       "a8 b8",
		"draw-bishop-alone":       "material",
		"draw-knights-play-on":    "none",
		"draw-fifty-moves":        "fifty",
		"draw-threefold":          "repetition",
		"draw-mate-not-draw":      "none",
		"draw-stalemate-blunder":  "stalemate",
		"timeout-lone-king":       "timeout",
		"timeout-knight-vs-rook":  "none",
		"timeout-knight-vs-queen": "timeout",
		// Issue 15 (Q5).
		"double-check-king-only":          "f7 f8",
		"castle-piece-between":            "no",
		"underpromotion-queen-stalemates": "stalemate",
		"underpromotion-rook-wins":        "none",
		"notation-nbd2":                   "b1",
		"notation-promotion-e8q":          "e7",
		"timeout-case-c-bishop":           "timeout",
		"timeout-case-c-knight":           "none",
		"same-coloured-bishops":           "material",
		"name-e4":                         "e4",
		"name-c6":                         "c6",
		"name-g3-black-view":              "g3",
		"name-h8-corner":                  "h8",
	}
	for _, q := range b.Questions() {
		if q.Kind == Choice {
			continue
		}
		w, ok := want[q.ID]
		if !ok {
			t.Errorf("%s: board question missing from this table (key %v)", q.ID, q.Key())
			continue
		}
		if got := strings.Join(q.Key(), " "); got != w {
			t.Errorf("%s: key %q, want %q", q.ID, got, w)
		}
	}
	for id := range want {
		if _, ok := b.Question(id); !ok {
			t.Errorf("question %s is gone", id)
		}
	}
}

func TestDrawQuestionShowsMoves(t *testing.T) {
	q, _ := loadBank(t).Question("draw-threefold")
	if want := "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"; q.Moves != want {
		t.Errorf("Moves = %q, want %q", q.Moves, want)
	}
	if q.LastMove.UCI() != "f6g8" {
		t.Errorf("LastMove = %s, want f6g8", q.LastMove.UCI())
	}
}

func TestGrade(t *testing.T) {
	b := loadBank(t)
	tests := []struct {
		name, id string
		answer   []string
		correct  bool
		missed   []string
		wrong    []string
	}{
		{"choice single right", "board-first-move", []string{"a"}, true, nil, nil},
		{"choice single wrong", "board-first-move", []string{"b"}, false, []string{"a"}, []string{"b"}},
		{"choice several right", "pieces-worth-three", []string{"B", "a"}, true, nil, nil},
		{"choice several, one missing", "pieces-worth-three", []string{"a"}, false, []string{"b"}, nil},
		{"choice several, one extra", "pieces-worth-three", []string{"a", "b", "c"}, false, nil, []string{"c"}},
		{"status right", "status-stalemate", []string{"stalemate"}, true, nil, nil},
		{"status wrong", "status-stalemate", []string{"checkmate"}, false, []string{"stalemate"}, []string{"checkmate"}},
		{"squares right, any order and case", "check-escape-squares", []string{"F8", "d7", "f7", "d7"}, true, nil, nil},
		{"squares missed and wrong", "check-escape-squares", []string{"d7", "e7"}, false, []string{"f7", "f8"}, []string{"e7"}},
		{"castle right", "castle-rook-attacked", []string{"yes"}, true, nil, nil},
		{"castle wrong", "castle-king-moved", []string{"yes"}, false, []string{"no"}, []string{"yes"}},
		{"draw right", "draw-threefold", []string{"repetition"}, true, nil, nil},
		{"draw wrong", "draw-fifty-moves", []string{"none"}, false, []string{"fifty"}, []string{"none"}},
		{"timeout right", "timeout-knight-vs-rook", []string{"none"}, true, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, ok := b.Question(tt.id)
			if !ok {
				t.Fatalf("no question %s", tt.id)
			}
			r, err := q.Grade(tt.answer)
			if err != nil {
				t.Fatalf("Grade: %v", err)
			}
			if r.Correct != tt.correct || !slices.Equal(r.Missed, tt.missed) || !slices.Equal(r.Wrong, tt.wrong) {
				t.Errorf("got correct=%v missed=%v wrong=%v, want %v %v %v", r.Correct, r.Missed, r.Wrong, tt.correct, tt.missed, tt.wrong)
			}
		})
	}
}

func TestGradeRejectsMalformed(t *testing.T) {
	b := loadBank(t)
	tests := []struct {
		name, id string
		answer   []string
		says     string
	}{
		{"nothing chosen", "board-first-move", nil, "choose an answer"},
		{"blank values", "board-first-move", []string{" ", ""}, "choose an answer"},
		{"unknown option", "board-first-move", []string{"z"}, "not one of the answers"},
		{"two answers to a single choice", "board-first-move", []string{"a", "b"}, "just one"},
		{"status word not offered", "status-luft", []string{"draw"}, "not one of the answers"},
		{"no squares", "check-escape-squares", []string{}, "mark at least one square"},
		{"not a square", "check-escape-squares", []string{"z9"}, "not a square"},
		{"injection", "check-escape-squares", []string{"e4'; drop table"}, "not a square"},
		{"timeout option absent from a plain draw question", "draw-threefold", []string{"timeout"}, "not one of the answers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := b.Question(tt.id)
			_, err := q.Grade(tt.answer)
			if !errors.Is(err, ErrBadAnswer) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %v, want ErrBadAnswer saying %q", err, tt.says)
			}
		})
	}
}

func TestOptionsShuffledButStable(t *testing.T) {
	first := loadBank(t)
	second := loadBank(t)
	notFirst := 0
	for _, q := range first.Questions() {
		if q.Kind != Choice {
			continue
		}
		again, _ := second.Question(q.ID)
		if !slices.Equal(q.Options, again.Options) {
			t.Errorf("%s: option order changed between loads", q.ID)
		}
		if q.Options[0].ID != "a" {
			notFirst++
		}
	}
	// Every file lists the right answer first; the shuffle must hide that.
	if notFirst == 0 {
		t.Error("the first option shown is always the one written first")
	}
}

func TestParseRejectsBadQuestions(t *testing.T) {
	const lesson = `"lesson": "/learn/check#x", "explanation": "Because.", "prompt": "Why?"`
	tests := []struct {
		name, json, says string
	}{
		{"bad fen", `[{"id": "a", "topic": "check", "kind": "status", "fen": "8/8/8 w", ` + lesson + `}]`, "chess:"},
		{"empty key", `[{"id": "a", "topic": "check", "kind": "squares", "find": "en-passant", "fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", ` + lesson + `}]`, "key is empty"},
		{"no right option", `[{"id": "a", "topic": "check", "kind": "choice", "options": [{"text": "x"}, {"text": "y"}], ` + lesson + `}]`, "no option is marked right"},
		{"duplicate id", `[{"id": "a", "topic": "check", "kind": "choice", "options": [{"text": "x", "right": true}, {"text": "y"}], ` + lesson + `},
			{"id": "a", "topic": "check", "kind": "choice", "options": [{"text": "x", "right": true}, {"text": "y"}], ` + lesson + `}]`, "used twice"},
		{"unknown topic", `[{"id": "a", "topic": "chess960", "kind": "choice", "options": [{"text": "x", "right": true}, {"text": "y"}], ` + lesson + `}]`, "unknown topic"},
		{"typo in a field", `[{"id": "a", "topic": "check", "kind": "status", "fenn": "8/8/8/8/8/8/8/8 w - - 0 1", ` + lesson + `}]`, "unknown field"},
		{"game position needs kings", `[{"id": "a", "topic": "check", "kind": "castle", "side": "king", "fen": "8/8/8/8/8/8/8/4K2R w K - 0 1", ` + lesson + `}]`, "chess:"},
		{"bad lesson link", `[{"id": "a", "topic": "check", "kind": "choice", "options": [{"text": "x", "right": true}, {"text": "y"}], "lesson": "https://evil.example", "explanation": "E.", "prompt": "P?"}]`, "lesson link"},
		{"illegal move in a draw question", `[{"id": "a", "topic": "draws", "kind": "draw", "moves": ["Ke2"], ` + lesson + `}]`, "chess:"},
		{"unknown kind", `[{"id": "a", "topic": "check", "kind": "essay", ` + lesson + `}]`, "unknown kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"q/x.json": {Data: []byte(tt.json)}}
			_, err := Parse(fsys, "q")
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %v, want an error saying %q", err, tt.says)
			}
		})
	}
}

func TestPickSpreadsTopics(t *testing.T) {
	b := loadBank(t)
	for seed := range uint64(20) {
		ids := b.Pick(RoundSize, nil, nil, rand.New(rand.NewPCG(seed, 1)))
		if len(ids) != RoundSize {
			t.Fatalf("got %d questions, want %d", len(ids), RoundSize)
		}
		topics := map[string]bool{}
		for _, id := range ids {
			q, ok := b.Question(id)
			if !ok {
				t.Fatalf("unknown id %s", id)
			}
			if topics[q.Topic] {
				t.Errorf("seed %d: topic %s twice in %v", seed, q.Topic, ids)
			}
			topics[q.Topic] = true
		}
	}
}

func TestPickBringsMissedBackFirst(t *testing.T) {
	b := loadBank(t)
	missed := []string{"castle-king-moved", "no-such-question", "status-stalemate", "castle-king-moved"}
	ids := b.Pick(RoundSize, missed, nil, rand.New(rand.NewPCG(7, 7)))
	if len(ids) != RoundSize {
		t.Fatalf("got %d questions, want %d", len(ids), RoundSize)
	}
	if ids[0] != "castle-king-moved" || ids[1] != "status-stalemate" {
		t.Errorf("round starts %v, want the missed questions first", ids[:2])
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("%s twice in one round", id)
		}
		seen[id] = true
	}
}

func TestPickPrefersUnseen(t *testing.T) {
	b := loadBank(t)
	seen := map[string]bool{}
	for _, q := range b.Questions() {
		seen[q.ID] = q.ID != "castle-in-check" && q.ID != "notation-knight-letter"
	}
	for seed := range uint64(10) {
		ids := b.Pick(RoundSize, nil, seen, rand.New(rand.NewPCG(seed, 2)))
		if !slices.Contains(ids, "castle-in-check") || !slices.Contains(ids, "notation-knight-letter") {
			t.Errorf("round %v leaves out the two questions never seen", ids)
		}
	}
}

func TestPickSmallBank(t *testing.T) {
	b := loadBank(t)
	ids := b.Pick(len(b.Questions())+5, nil, nil, rand.New(rand.NewPCG(3, 3)))
	if len(ids) != len(b.Questions()) {
		t.Errorf("got %d, want every question once (%d)", len(ids), len(b.Questions()))
	}
}
