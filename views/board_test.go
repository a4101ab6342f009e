package views

import (
	"regexp"
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/words"
)

func mustFEN(t *testing.T, fen string) *chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

var squareRe = regexp.MustCompile(`data-square="([a-h][1-8])"`)

func TestRenderBoardContract(t *testing.T) {
	pos := mustFEN(t, chess.StartFEN)
	html := string(RenderBoard(Board{Pos: pos}))

	if !strings.Contains(html, `data-board data-fen="`+chess.StartFEN+`"`) {
		t.Errorf("board element lacks data-board and data-fen: %.200s", html)
	}
	sqs := squareRe.FindAllStringSubmatch(html, -1)
	if len(sqs) != 64 {
		t.Fatalf("got %d data-square, want 64", len(sqs))
	}
	seen := map[string]bool{}
	for _, m := range sqs {
		seen[m[1]] = true
	}
	if len(seen) != 64 {
		t.Errorf("got %d distinct squares, want 64", len(seen))
	}
	if got := sqs[0][1]; got != "a8" {
		t.Errorf("first square (white at bottom) = %s, want a8", got)
	}
	if got := sqs[63][1]; got != "h1" {
		t.Errorf("last square = %s, want h1", got)
	}
	if got := strings.Count(html, `data-piece="`); got != 32 {
		t.Errorf("got %d pieces, want 32", got)
	}
	for _, want := range []string{
		`data-square="e1" role="img" aria-label="e1, white king"`,
		`data-piece="bQ"`,
		`<use href="#piece-wN">`,
		`class="coord coord-file" data-coord="a" aria-hidden="true"><`,
		`class="coord coord-rank" data-coord="8" aria-hidden="true"><`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	if strings.Contains(html, "<button") {
		t.Error("a static board must not render buttons")
	}
	if strings.Contains(html, "style=") {
		t.Error("board uses a style attribute, which the CSP blocks")
	}
}

func TestRenderBoardFlipped(t *testing.T) {
	html := string(RenderBoard(Board{Pos: mustFEN(t, chess.StartFEN), Flipped: true}))
	sqs := squareRe.FindAllStringSubmatch(html, -1)
	if len(sqs) != 64 || sqs[0][1] != "h1" || sqs[63][1] != "a8" {
		t.Fatalf("flipped order: first %s last %s, want h1 … a8", sqs[0][1], sqs[63][1])
	}
	if !strings.Contains(html, `data-orientation="black"`) {
		t.Error("flipped board lacks data-orientation=black")
	}
	// Coordinates follow the orientation: the bottom-left square is h8.
	if !strings.Contains(html, `data-square="h8" role="img" aria-label="h8, black rook"><span class="coord coord-rank" data-coord="8" aria-hidden="true"></span><span class="coord coord-file" data-coord="h" aria-hidden="true"></span>`) {
		t.Errorf("flipped board: h8 should carry both coordinates")
	}
}

func TestRenderBoardInteractiveAndStates(t *testing.T) {
	pos := mustFEN(t, "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1") // white king in check
	html := string(RenderBoard(Board{
		Pos:         pos,
		Interactive: true,
		ButtonName:  "mark",
		Classes: map[chess.Square][]string{
			chess.D1: {"dest"},
			chess.E2: {"dest", "last-move"},
			chess.F1: {"marked", "bad class!"},
		},
		Labels: map[chess.Square]string{chess.F1: "you marked this"},
		Attrs:  map[string]string{"data-exercise": "king-1", "onclick": "evil()"},
	}))
	if got := strings.Count(html, `<button type="submit"`); got != 64 {
		t.Errorf("got %d square buttons, want 64", got)
	}
	for _, want := range []string{
		`class="square dark occupied check" name="mark" value="e1" data-square="e1" aria-label="e1, white king, in check"`,
		`value="e2" data-square="e2" aria-label="e2, black queen, possible move, last move"`,
		`aria-label="f1, empty, marked, you marked this"`,
		`data-exercise="king-1"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	if strings.Contains(html, "onclick") || strings.Contains(html, "bad class") {
		t.Error("unsafe attribute or class got through")
	}
}

func TestRenderBoardOverlayAndCaption(t *testing.T) {
	html := string(RenderBoard(Board{
		Pos:        mustFEN(t, "8/8/8/8/3N4/8/8/8 w - - 0 1"), // a lone knight (R12)
		Highlights: []chess.Square{chess.E6, chess.C6},
		Arrows:     []Arrow{{From: chess.D4, To: chess.E6}},
		Caption:    "The knight <jumps>",
		Size:       "diagram",
	}))
	for _, want := range []string{
		`class="board-figure board-diagram"`,
		`class="board-overlay"`,
		`<polygon class="overlay-arrow"`,
		`aria-label="e6, empty, highlighted"`,
		`<figcaption>The knight &lt;jumps&gt;</figcaption>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	if got := strings.Count(html, `class="overlay-highlight"`); got != 2 {
		t.Errorf("got %d highlight rects, want 2", got)
	}
}

func TestRenderBoardWithoutPosition(t *testing.T) {
	if html := string(RenderBoard(Board{})); !strings.Contains(html, "no position") {
		t.Errorf("nil position: got %q", html)
	}
}

func TestPieceSpriteHasAllPieces(t *testing.T) {
	s := string(PieceSprite())
	for _, c := range "wb" {
		for _, p := range "KQRBNP" {
			if !strings.Contains(s, `id="piece-`+string(c)+string(p)+`"`) {
				t.Errorf("sprite lacks %c%c", c, p)
			}
		}
	}
}

func TestRendererParsesAllPages(t *testing.T) {
	r, err := New(words.Default())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := r.Render(&b, 404, "404", Page{Section: "home"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "We could not find that page") || !strings.Contains(b.String(), "/assets/") {
		t.Errorf("404 page looks wrong: %.300s", b.String())
	}
	if err := r.Render(&b, 200, "no-such-page", Page{}); err == nil {
		t.Error("rendering a missing page did not fail")
	}
}
