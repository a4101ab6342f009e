package lessons

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"chesstutor/chess"
	"chesstutor/words"
)

// english is the words the test courses are rendered with.
func english() *words.Words { return words.Default().For(words.English) }

func mustLoad(t *testing.T) *Course {
	t.Helper()
	c, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

func TestCourseShape(t *testing.T) {
	c := mustLoad(t)
	if got := len(c.Lessons()); got < 18 {
		t.Errorf("got %d lessons, want at least 18", got)
	}
	if got := len(c.Exercises()); got < 40 {
		t.Errorf("got %d exercises, want at least 40", got)
	}
	for i, l := range c.Lessons() {
		if l.Diagrams < 2 {
			t.Errorf("lesson %s has %d diagrams, want at least 2", l.Slug, l.Diagrams)
		}
		html := string(l.HTML)
		boards := strings.Count(html, "data-board")
		if want := l.Diagrams + len(l.Exercises); boards != want {
			t.Errorf("lesson %s: got %d boards in the HTML, want %d", l.Slug, boards, want)
		}
		if got := strings.Count(html, "data-square="); got != 64*boards {
			t.Errorf("lesson %s: got %d data-square, want %d", l.Slug, got, 64*boards)
		}
		if strings.Contains(html, "<pre") {
			t.Errorf("lesson %s: a block was left as a code listing", l.Slug)
		}
		if (i == 0) != (l.Prev == nil) || (i == len(c.Lessons())-1) != (l.Next == nil) {
			t.Errorf("lesson %s: wrong prev/next links", l.Slug)
		}
		if got, ok := c.Lesson(l.Slug); !ok || got != l {
			t.Errorf("Lesson(%q) did not return the lesson", l.Slug)
		}
	}
	if !strings.Contains(string(c.Rules()), "data-board") {
		t.Error("rules page has no diagram")
	}
}

func TestEveryExerciseIsSound(t *testing.T) {
	c := mustLoad(t)
	seen := map[string]bool{}
	for _, e := range c.Exercises() {
		t.Run(e.ID, func(t *testing.T) {
			if seen[e.ID] {
				t.Fatalf("id %s used twice", e.ID)
			}
			seen[e.ID] = true
			if _, err := chess.ParseFEN(e.Pos.FEN()); err != nil {
				t.Fatalf("FEN does not round-trip: %v", err)
			}
			if e.Kind != KindSquares {
				return // move and name exercises have their own tests (moves_test.go)
			}
			pc := e.Piece()
			if pc == chess.NoPiece {
				t.Fatalf("no piece on %s", e.From)
			}
			if pc.Color() != e.Pos.Turn() {
				t.Errorf("piece is %s but %s is to move", pc.Color(), e.Pos.Turn())
			}
			if len(e.Pos.Destinations(e.From)) == 0 {
				t.Errorf("piece on %s has no legal destination", e.From)
			}
			if got, ok := c.Exercise(e.ID); !ok || got != e {
				t.Errorf("Exercise(%q) did not return it", e.ID)
			}
			l, ok := c.Lesson(e.Lesson)
			if !ok || !strings.Contains(string(l.HTML), `data-exercise="`+e.ID+`"`) {
				t.Errorf("exercise not shown in its lesson %q", e.Lesson)
			}
			if !strings.Contains(string(l.HTML), `href="/learn/`+e.Lesson+`/practice?ex=`+e.ID+`"`) {
				t.Errorf("lesson %q lacks the practice link", e.Lesson)
			}
		})
	}
}

// TestExerciseCoverage checks that the exercise kinds of X2 exist, judged
// from the positions and the rules package rather than from the ids.
func TestExerciseCoverage(t *testing.T) {
	c := mustLoad(t)
	perPiece := map[chess.PieceType]int{}
	kinds := map[string]bool{}
	for _, e := range c.Exercises() {
		if e.Kind != KindSquares {
			continue
		}
		p := e.Pos
		pt := e.Piece().Type()
		perPiece[pt]++
		dests := map[chess.Square]bool{}
		for _, d := range p.Destinations(e.From) {
			dests[d] = true
		}
		if p.InCheck() {
			kinds["in check"] = true
		}
		if p.Occupied().Count() > 12 {
			kinds["crowded"] = true
		}
		switch pt {
		case chess.Pawn:
			fwd := 8
			if p.Turn() == chess.Black {
				fwd = -8
			}
			if dests[chess.Square(int(e.From)+2*fwd)] {
				kinds["double step"] = true
			}
			if p.PieceAt(chess.Square(int(e.From)+fwd)) != chess.NoPiece {
				kinds["blocked pawn"] = true
			}
			for d := range dests {
				if d.File() != e.From.File() {
					kinds["pawn capture"] = true
				}
				if d == p.EnPassant() {
					kinds["en passant"] = true
				}
				if d.Rank() == 0 || d.Rank() == 7 {
					kinds["promotion"] = true
				}
			}
			if p.EnPassant() == chess.NoSquare && (e.From.Rank() == 4 || e.From.Rank() == 3) {
				for _, df := range []int{-1, 1} {
					f := e.From.File() + df
					if f >= 0 && f < 8 && p.PieceAt(chess.NewSquare(f, e.From.Rank())) == chess.NewPiece(p.Turn().Other(), chess.Pawn) {
						kinds["en passant expired"] = true
					}
				}
			}
		case chess.King:
			if dests[chess.Square(int(e.From)+2)] || dests[chess.Square(int(e.From)-2)] {
				kinds["castling allowed"] = true
			}
			if p.CanCastle(p.Turn(), true) && !dests[chess.Square(int(e.From)+2)] ||
				p.CanCastle(p.Turn(), false) && !dests[chess.Square(int(e.From)-2)] {
				kinds["castling refused"] = true
			}
			if k := p.KingSquare(p.Turn().Other()); k != chess.NoSquare &&
				absInt(k.File()-e.From.File()) <= 2 && absInt(k.Rank()-e.From.Rank()) <= 2 {
				kinds["kings close"] = true
			}
		}
		if pt != chess.King && p.KingSquare(p.Turn()) != chess.NoSquare && !p.InCheck() {
			// A piece is pinned if some pseudo-move along its lines is missing.
			var reach chess.Bitboard
			switch pt {
			case chess.Rook:
				reach = chess.RookAttacks(e.From, p.Occupied())
			case chess.Bishop:
				reach = chess.BishopAttacks(e.From, p.Occupied())
			case chess.Queen:
				reach = chess.QueenAttacks(e.From, p.Occupied())
			}
			reach &^= p.Occupancy(p.Turn())
			if reach.Count() > len(dests) {
				kinds["pinned"] = true
			}
			if pt == chess.Pawn && len(dests) == 1 && p.PieceAt(chess.Square(int(e.From)+8)) == chess.NoPiece && p.Turn() == chess.White {
				kinds["pinned"] = true
			}
		}
	}
	for _, pt := range []chess.PieceType{chess.Pawn, chess.Knight, chess.Bishop, chess.Rook, chess.Queen, chess.King} {
		if perPiece[pt] < 3 {
			t.Errorf("only %d exercises for the %s, want at least 3", perPiece[pt], pt)
		}
	}
	for _, k := range []string{"in check", "crowded", "double step", "blocked pawn", "pawn capture", "en passant",
		"en passant expired", "promotion", "castling allowed", "castling refused", "kings close", "pinned"} {
		if !kinds[k] {
			t.Errorf("no exercise of kind %q", k)
		}
	}
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestDiagramFacts checks what the lesson text says about its diagrams.
func TestDiagramFacts(t *testing.T) {
	c := mustLoad(t)
	var all strings.Builder
	for _, l := range c.Lessons() {
		all.WriteString(string(l.HTML))
	}
	all.WriteString(string(c.Rules()))
	tests := []struct {
		name, fen string
		check     func(*chess.Position) bool
	}{
		{"back-rank mate", "4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", (*chess.Position).IsCheckmate},
		{"queen and king mate", "7k/6Q1/5K2/8/8/8/8/8 b - - 0 1", (*chess.Position).IsCheckmate},
		{"scholar's mate", "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4", (*chess.Position).IsCheckmate},
		{"protected queen mate", "4k3/4Q3/8/8/1B6/8/8/4K3 b - - 0 1", (*chess.Position).IsCheckmate},
		{"queen stalemate", "k7/8/1Q6/8/8/8/8/7K b - - 0 1", (*chess.Position).IsStalemate},
		{"pawn stalemate", "7k/7P/6K1/8/8/8/8/8 b - - 0 1", (*chess.Position).IsStalemate},
		{"K+B v K", "8/8/4k3/8/8/3B4/8/4K3 w - - 0 1", (*chess.Position).InsufficientMaterial},
		{"same-coloured bishops", "k7/8/4b3/8/8/3B4/8/4K3 w - - 0 1", (*chess.Position).InsufficientMaterial},
		{"K+N v K+N plays on", "8/8/3nk3/8/8/3NK3/8/8 w - - 0 1", func(p *chess.Position) bool { return !p.InsufficientMaterial() }},
		{"lone king cannot mate", "8/8/8/4k3/8/8/3Q4/4K3 w - - 0 1", func(p *chess.Position) bool { return chess.CanNeverMate(p, chess.Black) }},
		{"check on the e-file", "4r2k/8/8/8/8/8/8/4K3 w - - 0 1", (*chess.Position).InCheck},
		{"double check", "3qk3/8/8/1B6/8/8/8/4R1K1 b - - 0 1", func(p *chess.Position) bool {
			return p.Attackers(p.KingSquare(chess.Black), chess.White).Count() == 2
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := chess.ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(all.String(), `data-fen="`+p.FEN()+`"`) {
				t.Fatalf("no diagram with FEN %s in the course", p.FEN())
			}
			if !tt.check(p) {
				t.Errorf("the text's claim about %s is false for %s", tt.name, tt.fen)
			}
		})
	}
}

var hrefRe = regexp.MustCompile(`href="(/learn/[^"?#]*)`)

func TestInternalLinksPointToLessons(t *testing.T) {
	c := mustLoad(t)
	pages := map[string]string{"rules": string(c.Rules())}
	for _, l := range c.Lessons() {
		pages[l.Slug] = string(l.HTML)
	}
	for name, html := range pages {
		for _, m := range hrefRe.FindAllStringSubmatch(html, -1) {
			slug := strings.TrimSuffix(strings.TrimPrefix(m[1], "/learn/"), "/practice")
			if _, ok := c.Lesson(slug); !ok {
				t.Errorf("%s links to %s, which is no lesson", name, m[1])
			}
		}
	}
	if n := len(hrefRe.FindAllString(string(c.Rules()), -1)); n < 15 {
		t.Errorf("rules page links to %d lessons, want one per section (at least 15)", n)
	}
}

const goodHeader = "---\ntitle: T\norder: 1\nsummary: S\n---\n"

func TestUnsafeMarkdownIsDropped(t *testing.T) {
	src := goodHeader + `Hello <script>alert(1)</script> there.

<script>alert(2)</script>

<div onclick="x()">raw block</div>

[bad](javascript:alert(3)) [bad2](  JaVaScRiPt:alert(4)) [v](vbscript:x) [d](data:text/html,<b>)
<javascript:alert(5)> [good](/learn/x) ![img](data:image/svg+xml,<svg onload=alert(6)>) ![pic](data:image/png;base64,AAAA)
`
	c, err := load(fstest.MapFS{"01-x.md": {Data: []byte(src)}}, "", english())
	if err != nil {
		t.Fatal(err)
	}
	html := strings.ToLower(string(c.Lessons()[0].HTML))
	for _, bad := range []string{"<script", "onclick", "onload", "<div", "<img", "<svg"} {
		if strings.Contains(html, bad) {
			t.Errorf("rendered HTML contains %q:\n%s", bad, html)
		}
	}
	if unsafeAttr := regexp.MustCompile(`(href|src)="\s*(javascript|vbscript|data):`); unsafeAttr.MatchString(html) {
		t.Errorf("rendered HTML keeps a dangerous link:\n%s", html)
	}
	if got := strings.Count(html, "<a "); got != 1 {
		t.Errorf("got %d links, want only the safe one:\n%s", got, html)
	}
	for _, want := range []string{"bad", "bad2", `href="/learn/x"`} {
		if !strings.Contains(html, want) {
			t.Errorf("rendered HTML lost %q:\n%s", want, html)
		}
	}
}

func TestBadBlocksNameFileAndLine(t *testing.T) {
	block := func(lang, body string) string {
		return goodHeader + "Intro.\n\n```" + lang + "\n" + body + "```\n"
	}
	// The header is 5 lines, then "Intro.", a blank line and the fence
	// (line 8); the block's first key is on line 9.
	tests := []struct{ name, src, want string }{
		{"bad fen", block("board", "fen: 8/8/9 w - - 0 1\n"), "01-x.md:9: bad FEN"},
		{"missing fen", block("board", "caption: hi\n"), "01-x.md:8:"},
		{"bad highlight", block("board", "fen: 8/8/8/8/8/8/8/8 w - - 0 1\nhighlight: e4 z9\n"), "01-x.md:10: highlight"},
		{"bad arrow", block("board", "fen: 8/8/8/8/8/8/8/8 w - - 0 1\narrows: e2e9\n"), "01-x.md:10: arrows"},
		{"bad orientation", block("board", "fen: 8/8/8/8/8/8/8/8 w - - 0 1\norientation: up\n"), "01-x.md:10: orientation"},
		{"unknown key", block("board", "fen: 8/8/8/8/8/8/8/8 w - - 0 1\nhighlite: e4\n"), "01-x.md:10: unknown key"},
		// Issue 36: lesson 11 drew the queen's attack on f7 through the
		// pawn that had just blocked it.
		{"attack through a blocker", block("board", "fen: r1bqkbnr/pppp1p1p/2n3p1/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 4\nattacks: h5f7\n"), "01-x.md:10: attacks: the line h5f7 runs through the piece on g6"},
		{"setup piece off its square", block("setup", "id: a\nfen: 8/8/8/8/4K3/8/8/8 w - - 0 1\nprompt: p\n"), "starting squares only, and e4 is not one"},
		{"setup with nothing to place", block("setup", "id: a\nfen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nprompt: p\n"), "nothing to set up"},
		{"attack from nowhere", block("board", "fen: 8/8/8/8/8/8/8/8 w - - 0 1\nattacks: e2e4\n"), "starts on an empty square"},
		{"xray through nothing", block("board", "fen: 4r1k1/8/8/8/8/8/8/4K3 w - - 0 1\nxray: e8e1\n"), "exactly one piece of the other side"},
		{"xray through a friend", block("board", "fen: 4r1k1/8/8/8/8/8/4n3/4K3 w - - 0 1\nxray: e8e1\n"), "exactly one piece of the other side"},
		{"no piece", block("exercise", "id: a\nfen: 8/8/8/8/8/8/8/8 w - - 0 1\nsquare: e4\nprompt: p\n"), "01-x.md:11: exercise a: there is no piece"},
		{"wrong colour", block("exercise", "id: a\nfen: 8/8/8/8/4r3/8/8/8 w - - 0 1\nsquare: e4\nprompt: p\n"), "01-x.md:10: exercise a: the rook on e4 is black"},
		{"no moves", block("exercise", "id: a\nfen: 8/8/8/8/4p3/4P3/8/8 w - - 0 1\nsquare: e3\nprompt: p\n"), "no legal move"},
		{"bad id", block("exercise", "id: Not OK\nfen: 8/8/8/8/4R3/8/8/8 w - - 0 1\nsquare: e4\nprompt: p\n"), "01-x.md:9: exercise id"},
		{"no prompt", block("exercise", "id: a\nfen: 8/8/8/8/4R3/8/8/8 w - - 0 1\nsquare: e4\n"), "01-x.md:8: exercise a needs a prompt"},
		{"no front matter", "# Hi\n", "01-x.md:1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(fstest.MapFS{"01-x.md": {Data: []byte(tt.src)}}, "", english())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestDuplicateExerciseIDsAcrossLessons(t *testing.T) {
	ex := "```exercise\nid: same\nfen: 8/8/8/8/4R3/8/8/8 w - - 0 1\nsquare: e4\nprompt: p\n```\n"
	fsys := fstest.MapFS{
		"01-a.md": {Data: []byte(goodHeader + ex)},
		"02-b.md": {Data: []byte(strings.Replace(goodHeader, "order: 1", "order: 2", 1) + ex)},
	}
	if _, err := load(fsys, "", english()); err == nil || !strings.Contains(err.Error(), `"same" is used twice`) {
		t.Errorf("got %v, want a duplicate id error", err)
	}
}
