package quiz

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"chesstutor/words"
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
	en := words.Default().For(words.English)
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
			if !q.Board() && !q.HasOption(k) {
				t.Errorf("%s: key %q is not an option", q.ID, k)
			}
		}
		if !en.Has(q.TopicTitle().Key) {
			t.Errorf("%s: topic %q has no title in the catalogue", q.ID, q.Topic)
		}
		for _, o := range q.Options {
			if o.Words.IsZero() != (q.Kind == Choice) || (!o.Words.IsZero() && !en.Has(o.Words.Key)) {
				t.Errorf("%s: option %q has words %q", q.ID, o.ID, o.Words.Key)
			}
		}
	}
	for _, topic := range Topics {
		if !topics[topic] {
			t.Errorf("topic %q has no question", topic)
		}
		if topicKeys[topic] == "" {
			t.Errorf("topic %q has no catalogue key", topic)
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
	if got, want := q.MovesText(nil), "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"; got != want {
		t.Errorf("Moves = %q, want %q", got, want)
	}
	knight := func(san string) string { return strings.Replace(san, "N", "C", 1) }
	if got, want := q.MovesText(knight), "1. Cf3 Cf6 2. Cg1 Cg8 3. Cf3 Cf6 4. Cg1 Cg8"; got != want {
		t.Errorf("Moves in Spanish letters = %q, want %q", got, want)
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
		code     string
	}{
		{"nothing chosen", "board-first-move", nil, "quiz.refuse_no_choice"},
		{"blank values", "board-first-move", []string{" ", ""}, "quiz.refuse_no_choice"},
		{"unknown option", "board-first-move", []string{"z"}, "quiz.refuse_not_option"},
		{"two answers to a single choice", "board-first-move", []string{"a", "b"}, "quiz.refuse_just_one"},
		{"status word not offered", "status-luft", []string{"draw"}, "quiz.refuse_not_option"},
		{"no squares", "check-escape-squares", []string{}, "quiz.refuse_no_square"},
		{"not a square", "check-escape-squares", []string{"z9"}, "quiz.refuse_not_square"},
		{"injection", "check-escape-squares", []string{"e4'; drop table"}, "quiz.refuse_not_square"},
		{"timeout option absent from a plain draw question", "draw-threefold", []string{"timeout"}, "quiz.refuse_not_option"},
	}
	en := words.Default().For(words.English)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := b.Question(tt.id)
			_, err := q.Grade(tt.answer)
			if !errors.Is(err, ErrBadAnswer) || words.Code(err) != tt.code {
				t.Errorf("got %v, want ErrBadAnswer with code %s", err, tt.code)
			}
			if !en.Has(tt.code) {
				t.Errorf("%s is not in the catalogue", tt.code)
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
		if !slices.EqualFunc(q.Options, again.Options, func(a, b Option) bool { return a.ID == b.ID }) {
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
	const xy = `"options": [{"key": "a", "text": "x", "right": true}, {"key": "b", "text": "y"}]`
	tests := []struct {
		name, json, says string
	}{
		{"bad fen", `[{"id": "a", "topic": "check", "kind": "status", "fen": "8/8/8 w", ` + lesson + `}]`, "chess:"},
		{"empty key", `[{"id": "a", "topic": "check", "kind": "squares", "find": "en-passant", "fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", ` + lesson + `}]`, "key is empty"},
		{"no right option", `[{"id": "a", "topic": "check", "kind": "choice", "options": [{"key": "a", "text": "x"}, {"key": "b", "text": "y"}], ` + lesson + `}]`, "no option is marked right"},
		{"option without a key", `[{"id": "a", "topic": "check", "kind": "choice", "options": [{"text": "x", "right": true}, {"key": "b", "text": "y"}], ` + lesson + `}]`, "option key"},
		{"option key twice", `[{"id": "a", "topic": "check", "kind": "choice", "options": [{"key": "a", "text": "x", "right": true}, {"key": "a", "text": "y"}], ` + lesson + `}]`, "used twice"},
		{"empty option", `[{"id": "a", "topic": "check", "kind": "choice", "options": [{"key": "a", "text": " ", "right": true}, {"key": "b", "text": "y"}], ` + lesson + `}]`, "is empty"},
		{"duplicate id", `[{"id": "a", "topic": "check", "kind": "choice", ` + xy + `, ` + lesson + `},
			{"id": "a", "topic": "check", "kind": "choice", ` + xy + `, ` + lesson + `}]`, "used twice"},
		{"unknown topic", `[{"id": "a", "topic": "chess960", "kind": "choice", ` + xy + `, ` + lesson + `}]`, "unknown topic"},
		{"typo in a field", `[{"id": "a", "topic": "check", "kind": "status", "fenn": "8/8/8/8/8/8/8/8 w - - 0 1", ` + lesson + `}]`, "unknown field"},
		{"game position needs kings", `[{"id": "a", "topic": "check", "kind": "castle", "side": "king", "fen": "8/8/8/8/8/8/8/4K2R w K - 0 1", ` + lesson + `}]`, "chess:"},
		{"bad lesson link", `[{"id": "a", "topic": "check", "kind": "choice", ` + xy + `, "lesson": "https://evil.example", "explanation": "E.", "prompt": "P?"}]`, "lesson link"},
		{"illegal move in a draw question", `[{"id": "a", "topic": "draws", "kind": "draw", "moves": ["Ke2"], ` + lesson + `}]`, "chess:"},
		{"unknown kind", `[{"id": "a", "topic": "check", "kind": "essay", ` + lesson + `}]`, "unknown kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"q/en/x.json": {Data: []byte(tt.json)}}
			_, err := Parse(fsys, "q")
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %v, want an error saying %q", err, tt.says)
			}
		})
	}
}

// A translation differs from English in its words only: anything else
// (ids, kinds, topics, positions, squares, moves, option keys, which
// options are right, lesson links, the files and questions themselves)
// stops the bank from loading, so the site does not start.
func TestTranslationsMustMatchEnglish(t *testing.T) {
	const en = `[
  {"id": "pick", "topic": "check", "kind": "choice", "prompt": "Which?", "explanation": "Because.", "lesson": "/learn/check#x",
   "options": [{"key": "a", "text": "This", "right": true}, {"key": "b", "text": "That"}]},
  {"id": "where", "topic": "pieces", "kind": "squares", "prompt": "Where?", "explanation": "There.", "lesson": "/learn/rook",
   "fen": "8/8/8/3p4/8/8/3R1P2/8 w - - 0 1", "find": "piece", "square": "d2"},
  {"id": "rep", "topic": "draws", "kind": "draw", "prompt": "Draw?", "explanation": "Yes.", "lesson": "/learn/game-end",
   "moves": ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]}
]`
	const es = `[
  {"id": "pick", "topic": "check", "kind": "choice", "prompt": "¿Cuál?", "explanation": "Porque sí.", "lesson": "/learn/check#x",
   "options": [{"key": "a", "text": "Esta", "right": true}, {"key": "b", "text": "Aquella"}]},
  {"id": "where", "topic": "pieces", "kind": "squares", "prompt": "¿Dónde?", "explanation": "Allí.", "lesson": "/learn/rook",
   "fen": "8/8/8/3p4/8/8/3R1P2/8 w - - 0 1", "find": "piece", "square": "d2"},
  {"id": "rep", "topic": "draws", "kind": "draw", "prompt": "¿Tablas?", "explanation": "Sí.", "lesson": "/learn/game-end",
   "moves": ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]}
]`
	load := func(files map[string]string) (*Bank, error) {
		fsys := fstest.MapFS{}
		for name, data := range files {
			fsys["q/"+name] = &fstest.MapFile{Data: []byte(data)}
		}
		return Parse(fsys, "q")
	}
	b, err := load(map[string]string{"en/x.json": en, "es/x.json": es})
	if err != nil {
		t.Fatalf("a faithful translation: %v", err)
	}
	if got := b.Languages(); !slices.Equal(got, []string{"en", "es"}) {
		t.Errorf("languages %v, want [en es]", got)
	}
	q, _ := b.Question("pick")
	if q.Text("es").Prompt != "¿Cuál?" || q.Text("es").Options["b"] != "Aquella" || q.Text("en").Options["b"] != "That" {
		t.Errorf("the Spanish words are not the question's: %+v", q.Text("es"))
	}
	if q.Text("fr").Prompt != "Which?" {
		t.Errorf("a language the bank lacks gets %q, want English", q.Text("fr").Prompt)
	}

	broken := []struct {
		name, old, new, says string
	}{
		{"another id", `"id": "where"`, `"id": "donde"`, "the id differs"},
		{"another kind", `"kind": "draw"`, `"kind": "choice"`, "the kind differs"},
		{"another topic", `"topic": "pieces"`, `"topic": "king"`, "the topic differs"},
		{"another position", `3R1P2/8 w`, `3R1P2/8 b`, "the fen differs"},
		{"another square", `"square": "d2"`, `"square": "f2"`, "the square differs"},
		{"another move", `"Ng1", "Ng8"]`, `"Ng1", "Nh6"]`, "the moves differ"},
		{"another option key", `{"key": "b", "text": "Aquella"}`, `{"key": "c", "text": "Aquella"}`, "key differs"},
		{"another right option", `{"key": "b", "text": "Aquella"}`, `{"key": "b", "text": "Aquella", "right": true}`, "is right differs"},
		{"an option more", `{"key": "b", "text": "Aquella"}`, `{"key": "b", "text": "Aquella"}, {"key": "c", "text": "Otra"}`, "number of options differs"},
		{"another lesson", `"lesson": "/learn/rook"`, `"lesson": "/learn/bishop"`, "the lesson link differs"},
		{"an empty prompt", `"prompt": "¿Dónde?"`, `"prompt": " "`, "the prompt is empty"},
		{"an empty option", `"text": "Aquella"`, `"text": ""`, "is empty"},
		{"a field English lacks", `"square": "d2"}`, `"square": "d2", "side": "king"}`, "the side differs"},
	}
	for _, tt := range broken {
		t.Run(tt.name, func(t *testing.T) {
			bad := strings.Replace(es, tt.old, tt.new, 1)
			if bad == es {
				t.Fatalf("the test's replacement %q does not apply", tt.old)
			}
			_, err := load(map[string]string{"en/x.json": en, "es/x.json": bad})
			if err == nil || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "q/es/x.json") {
				t.Errorf("got %v, want an error in q/es/x.json saying %q", err, tt.says)
			}
		})
	}
	for name, files := range map[string]map[string]string{
		"a file missing":       {"en/x.json": en, "en/y.json": strings.ReplaceAll(en, `"id": "`, `"id": "y-`), "es/x.json": es},
		"a file English lacks": {"en/x.json": en, "es/x.json": es, "es/z.json": es},
		"a question missing": {"en/x.json": en, "es/x.json": es[:strings.Index(es, `,
  {"id": "rep"`)] + "]"},
		"a folder not named by a language": {"en/x.json": en, "spanish/x.json": es},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := load(files)
			if err == nil || !strings.Contains(err.Error(), "es") {
				t.Errorf("got %v, want an error naming the translation", err)
			}
		})
	}
}

// The bank speaks every language the site speaks.
func TestEveryLanguageHasTheQuestions(t *testing.T) {
	b := loadBank(t)
	for _, l := range words.Default().Languages() {
		if !slices.Contains(b.Languages(), l.Code) {
			t.Errorf("the site speaks %s but the quiz has no questions/%s", l.Code, l.Code)
		}
	}
	t.Logf("%d questions in %v", b.Len(), b.Languages())
}

// A translation that still holds an English sentence was copied, not
// written: every prompt, explanation and option reads differently from
// English.
func TestTranslationsAreWritten(t *testing.T) {
	b := loadBank(t)
	for _, lang := range b.Languages()[1:] {
		for _, q := range b.Questions() {
			en, tr := q.Text(English), q.Text(lang)
			if tr.Prompt == en.Prompt || tr.Explanation == en.Explanation {
				t.Errorf("%s %s: the prompt or the explanation is English", lang, q.ID)
			}
			for k, text := range en.Options {
				if tr.Options[k] == text {
					t.Errorf("%s %s: option %s is English: %q", lang, q.ID, k, text)
				}
			}
		}
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

// TestPickBringsMissedBackMixed: the missed questions come back, mixed
// with new ones in a new order (issue 38), at most half a round at once.
func TestPickBringsMissedBackMixed(t *testing.T) {
	b := loadBank(t)
	missed := []string{"castle-king-moved", "no-such-question", "status-stalemate", "castle-king-moved"}
	firsts := map[string]bool{}
	for seed := uint64(0); seed < 20; seed++ {
		ids := b.Pick(RoundSize, missed, nil, rand.New(rand.NewPCG(seed, 7)))
		if len(ids) != RoundSize {
			t.Fatalf("got %d questions, want %d", len(ids), RoundSize)
		}
		if !slices.Contains(ids, "castle-king-moved") || !slices.Contains(ids, "status-stalemate") {
			t.Errorf("round %v leaves out a missed question", ids)
		}
		firsts[ids[0]] = true
	}
	if len(firsts) < 3 {
		t.Errorf("20 rounds all start with one of %v: the order is not new", firsts)
	}
	var all []string
	for _, q := range b.Questions() {
		all = append(all, q.ID)
	}
	if ids := b.Pick(RoundSize, all, nil, rand.New(rand.NewPCG(1, 1))); func() int {
		n := 0
		for _, id := range ids {
			if slices.Index(all, id) < RoundSize/2 {
				n++
			}
		}
		return n
	}() > RoundSize/2 {
		t.Errorf("with every question missed, the round %v is more than half old misses", ids)
	}
	ids := b.Pick(RoundSize, missed, nil, rand.New(rand.NewPCG(7, 7)))
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
