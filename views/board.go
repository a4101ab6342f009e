package views

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"regexp"
	"sort"
	"strings"

	"chesstutor/chess"
	"chesstutor/words"
)

// Board describes one board to draw: a diagram in a lesson, an exercise or
// a live game. RenderBoard turns it into accessible HTML that follows the
// page contract H2.
type Board struct {
	Pos         *chess.Position           // required
	Flipped     bool                      // black at the bottom
	Highlights  []chess.Square            // soft tint (diagrams)
	Forbidden   []chess.Square            // red cross: "may not go here" (diagrams)
	Arrows      []Arrow                   // drawn over the board
	Caption     string                    // shown under the board
	Classes     map[chess.Square][]string // selected, dest, check, last-move, marked, missed, wrong, subject
	Labels      map[chess.Square]string   // extra words for the square's label ("marked", "missed")
	Interactive bool                      // squares are <button name=ButtonName value=e4>
	ButtonName  string                    // default "square"
	Attrs       map[string]string         // extra data-* attributes on the board element
	Size        string                    // "diagram" (a lesson's picture), "exercise" (a lesson's live exercise) or "full" (the default)
	// Words is the language of the board's labels; nil means English.
	Words *words.Words
}

// Arrow is an arrow from one square's centre to another's.
type Arrow struct {
	From, To chess.Square
	// Attack draws a line of attack (a dashed red line ending in a dot)
	// instead of a move arrow, so "goes there" and "attacks there" never
	// look alike.
	Attack bool
}

// stateWordList holds the words a screen reader hears for each state
// class, so no state is shown by colour alone (N4). board.js receives the
// same list (BoardWords) and labels squares in this order.
// The catalogue's keys are board.state_<class> with "-" as "_".
var stateClasses = []string{"selected", "dest", "check", "last-move", "marked", "missed", "wrong", "correct", "subject", "forbidden"}

func stateKey(class string) string { return "board.state_" + strings.ReplaceAll(class, "-", "_") }

func isState(class string) bool { return contains(stateClasses, class) }

// pieceWords names a piece as a square's label says it: "white king"
// (catalogue key board.piece_wK).
func pieceWords(w *words.Words, p chess.Piece) string { return w.T("board.piece_" + p.String()) }

// BoardWords is the JSON of the words a square's label is made of — each
// piece code's name and the state classes' words, in order — for
// board.js, which relabels squares in the browser with the server's words
// instead of a copy of its own. The layout puts it on <body>.
func BoardWords(wd *words.Words) string {
	w := struct {
		Pieces map[string]string `json:"pieces"`
		States [][2]string       `json:"states"`
		Empty  string            `json:"empty"`
		Light  string            `json:"highlighted"`
		Sep    string            `json:"sep"`
	}{Pieces: map[string]string{}, Empty: wd.T("board.empty"), Light: wd.T("board.highlighted"), Sep: wd.T("board.label_sep")}
	for _, c := range stateClasses {
		w.States = append(w.States, [2]string{c, wd.T(stateKey(c))})
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		for t := chess.Pawn; t <= chess.King; t++ {
			p := chess.NewPiece(c, t)
			w.Pieces[p.String()] = pieceWords(wd, p)
		}
	}
	b, err := json.Marshal(w)
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	return string(b)
}

var (
	classRe = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	attrRe  = regexp.MustCompile(`^data-[a-z0-9-]+$`)
)

// RenderBoard renders b as HTML. The board element carries data-board and
// data-fen; its 64 squares, in reading order for the chosen orientation,
// carry data-square; pieces carry data-piece ("wK"). A king in check gets
// the class "check" automatically.
func RenderBoard(b Board) template.HTML {
	if b.Pos == nil {
		return template.HTML(`<p class="board-error">` + template.HTMLEscapeString(b.words().T("board.no_position")) + `</p>`)
	}
	esc := template.HTMLEscapeString
	size := "full"
	if b.Size == "diagram" || b.Size == "exercise" {
		size = b.Size
	}
	buttonName := b.ButtonName
	if buttonName == "" {
		buttonName = "square"
	}

	classes := map[chess.Square][]string{}
	for sq, cs := range b.Classes {
		for _, c := range cs {
			if classRe.MatchString(c) {
				classes[sq] = append(classes[sq], c)
			}
		}
	}
	if b.Pos.InCheck() {
		if k := b.Pos.KingSquare(b.Pos.Turn()); k != chess.NoSquare && !contains(classes[k], "check") {
			classes[k] = append(classes[k], "check")
		}
	}
	for _, sq := range b.Forbidden {
		if sq.Valid() && !contains(classes[sq], "forbidden") {
			classes[sq] = append(classes[sq], "forbidden")
		}
	}
	highlighted := map[chess.Square]bool{}
	for _, sq := range b.Highlights {
		if sq.Valid() {
			highlighted[sq] = true
		}
	}

	var out strings.Builder
	orientation := "white"
	if b.Flipped {
		orientation = "black"
	}
	fmt.Fprintf(&out, `<figure class="board-figure board-%s">`, size)
	fmt.Fprintf(&out, `<div class="board%s" data-board data-fen="%s" data-orientation="%s"`,
		map[bool]string{true: " board-interactive", false: ""}[b.Interactive], esc(b.Pos.FEN()), orientation)
	keys := make([]string, 0, len(b.Attrs))
	for k := range b.Attrs {
		if attrRe.MatchString(k) && k != "data-board" && k != "data-fen" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&out, ` %s="%s"`, k, esc(b.Attrs[k]))
	}
	fmt.Fprintf(&out, ` role="group" aria-label="%s">`, esc(boardLabel(b.words(), b.Pos, b.Flipped)))

	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			sq := displaySquare(row, col, b.Flipped)
			writeSquare(&out, b, sq, row, col, classes[sq], highlighted[sq], buttonName)
		}
	}
	writeOverlay(&out, b, highlighted)
	out.WriteString(`</div>`)
	if b.Caption != "" {
		fmt.Fprintf(&out, `<figcaption>%s</figcaption>`, esc(b.Caption))
	}
	out.WriteString(`</figure>`)
	return template.HTML(out.String()) // every dynamic value above is escaped
}

// displaySquare returns the square shown in a display row (0 = top) and
// column (0 = left).
func displaySquare(row, col int, flipped bool) chess.Square {
	if flipped {
		return chess.NewSquare(7-col, row)
	}
	return chess.NewSquare(col, 7-row)
}

// words is the board's language, English when none was given.
func (b Board) words() *words.Words {
	if b.Words != nil {
		return b.Words
	}
	return words.Default().For(words.English)
}

func boardLabel(w *words.Words, p *chess.Position, flipped bool) string {
	side := chess.White
	if flipped {
		side = chess.Black
	}
	return w.T("board.label", "Bottom", words.M("color."+side.String()), "Turn", words.M("color."+p.Turn().String()))
}

func writeSquare(out *strings.Builder, b Board, sq chess.Square, row, col int, cls []string, highlighted bool, buttonName string) {
	esc := template.HTMLEscapeString
	piece := b.Pos.PieceAt(sq)

	all := []string{"square"}
	if sq.IsLight() {
		all = append(all, "light")
	} else {
		all = append(all, "dark")
	}
	if piece != chess.NoPiece {
		all = append(all, "occupied")
	}
	if highlighted {
		all = append(all, "highlight")
	}
	all = append(all, cls...)

	wd := b.words()
	parts := []string{sq.String()}
	if piece != chess.NoPiece {
		parts = append(parts, pieceWords(wd, piece))
	} else {
		parts = append(parts, wd.T("board.empty"))
	}
	if highlighted {
		parts = append(parts, wd.T("board.highlighted"))
	}
	for _, c := range cls {
		if isState(c) {
			if w := wd.T(stateKey(c)); !contains(parts, w) {
				parts = append(parts, w)
			}
		}
	}
	if extra := strings.TrimSpace(b.Labels[sq]); extra != "" && !contains(parts, extra) {
		parts = append(parts, extra)
	}
	label := esc(strings.Join(parts, wd.T("board.label_sep")))

	if b.Interactive {
		fmt.Fprintf(out, `<button type="submit" class="%s" name="%s" value="%s" data-square="%s" aria-label="%s">`,
			strings.Join(all, " "), esc(buttonName), sq, sq, label)
	} else {
		fmt.Fprintf(out, `<div class="%s" data-square="%s" role="img" aria-label="%s">`,
			strings.Join(all, " "), sq, label)
	}
	if col == 0 {
		fmt.Fprintf(out, `<span class="coord coord-rank" data-coord="%d" aria-hidden="true"></span>`, sq.Rank()+1)
	}
	if row == 7 {
		fmt.Fprintf(out, `<span class="coord coord-file" data-coord="%c" aria-hidden="true"></span>`, 'a'+sq.File())
	}
	if piece != chess.NoPiece {
		code := piece.String()
		fmt.Fprintf(out, `<svg class="piece" data-piece="%s" viewBox="0 0 45 45" aria-hidden="true" focusable="false"><use href="#piece-%s"></use></svg>`, code, code)
	}
	if b.Interactive {
		out.WriteString(`</button>`)
	} else {
		out.WriteString(`</div>`)
	}
}

// writeOverlay draws highlights in an SVG under the pieces and arrows in
// an SVG over them, in board units (one square = 1), so both scale with
// the board.
func writeOverlay(out *strings.Builder, b Board, highlighted map[chess.Square]bool) {
	if len(highlighted) > 0 {
		out.WriteString(`<svg class="board-underlay" viewBox="0 0 8 8" aria-hidden="true" focusable="false">`)
		hs := make([]chess.Square, 0, len(highlighted))
		for sq := range highlighted {
			hs = append(hs, sq)
		}
		sort.Slice(hs, func(i, j int) bool { return hs[i] < hs[j] })
		for _, sq := range hs {
			x, y := squareXY(sq, b.Flipped)
			fmt.Fprintf(out, `<rect class="overlay-highlight" x="%g" y="%g" width="0.92" height="0.92" rx="0.06"/>`, x+0.04, y+0.04)
		}
		out.WriteString(`</svg>`)
	}
	arrows := len(b.Forbidden)
	for _, a := range b.Arrows {
		if a.From.Valid() && a.To.Valid() && a.From != a.To {
			arrows++
		}
	}
	if arrows == 0 {
		return
	}
	out.WriteString(`<svg class="board-overlay" viewBox="0 0 8 8" aria-hidden="true" focusable="false">`)
	for _, a := range b.Arrows {
		if !a.From.Valid() || !a.To.Valid() || a.From == a.To {
			continue
		}
		if a.Attack {
			writeAttackLine(out, a, b.Flipped)
			continue
		}
		fmt.Fprintf(out, `<polygon class="overlay-arrow" points="%s"/>`, arrowPoints(a, b.Flipped))
	}
	for _, sq := range b.Forbidden {
		if !sq.Valid() {
			continue
		}
		x, y := squareXY(sq, b.Flipped)
		fmt.Fprintf(out, `<path class="overlay-forbidden" d="M%g %gL%g %gM%g %gL%g %g"/>`,
			x+0.25, y+0.25, x+0.75, y+0.75, x+0.75, y+0.25, x+0.25, y+0.75)
	}
	out.WriteString(`</svg>`)
}

// writeAttackLine draws a line of attack: dashed, ending in a dot on the
// attacked square.
func writeAttackLine(out *strings.Builder, a Arrow, flipped bool) {
	x1, y1 := squareXY(a.From, flipped)
	x2, y2 := squareXY(a.To, flipped)
	fmt.Fprintf(out, `<line class="overlay-attack" x1="%g" y1="%g" x2="%g" y2="%g"/><circle class="overlay-attack-dot" cx="%g" cy="%g" r="0.12"/>`,
		x1+0.5, y1+0.5, x2+0.5, y2+0.5, x2+0.5, y2+0.5)
}

// squareXY returns the top-left corner of sq in board units.
func squareXY(sq chess.Square, flipped bool) (float64, float64) {
	if flipped {
		return float64(7 - sq.File()), float64(sq.Rank())
	}
	return float64(sq.File()), float64(7 - sq.Rank())
}

// arrowPoints returns the outline of an arrow with a shaft and a head,
// from the centre of From to near the centre of To.
func arrowPoints(a Arrow, flipped bool) string {
	x1, y1 := squareXY(a.From, flipped)
	x2, y2 := squareXY(a.To, flipped)
	x1, y1, x2, y2 = x1+0.5, y1+0.5, x2+0.5, y2+0.5
	dx, dy := x2-x1, y2-y1
	length := math.Hypot(dx, dy)
	ux, uy := dx/length, dy/length // along the arrow
	nx, ny := -uy, ux              // across it
	const shaft, head, headLen, tipGap = 0.09, 0.3, 0.45, 0.12
	// Start a little away from the origin centre and stop just short of the target centre.
	sx, sy := x1+ux*0.15, y1+uy*0.15
	tx, ty := x2-ux*tipGap, y2-uy*tipGap
	bx, by := tx-ux*headLen, ty-uy*headLen
	pts := [][2]float64{
		{sx + nx*shaft, sy + ny*shaft},
		{bx + nx*shaft, by + ny*shaft},
		{bx + nx*head, by + ny*head},
		{tx, ty},
		{bx - nx*head, by - ny*head},
		{bx - nx*shaft, by - ny*shaft},
		{sx - nx*shaft, sy - ny*shaft},
	}
	parts := make([]string, len(pts))
	for i, p := range pts {
		parts[i] = fmt.Sprintf("%.3f,%.3f", p[0], p[1])
	}
	return strings.Join(parts, " ")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
