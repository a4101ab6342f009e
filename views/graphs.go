package views

import (
	"fmt"
	"html/template"
	"strings"
)

// Small drawings of numbers, made on the server so they show without
// JavaScript: the quiz's sparkline of recent scores and the review's graph
// of winning chances. The handlers hand them plain numbers and words.

// Sparkline is a small SVG line of scores in a 100×30 box, oldest on the
// left, drawn by the "sparkline" partial: the polyline's points, a dot on
// each score, and the scores in words for screen readers.
type Sparkline struct {
	Points string
	Dots   []Dot
	Label  string
}

// Dot is one point of a Sparkline, in its box's units.
type Dot struct{ X, Y int }

// NewSparkline draws percents (0–100, oldest first) with label as its
// words; nil (nothing drawn) for fewer than two scores.
func NewSparkline(percents []int, label string) *Sparkline {
	n := len(percents)
	if n < 2 {
		return nil
	}
	s := &Sparkline{Label: label}
	pts := make([]string, n)
	for i, p := range percents {
		x := 4 + i*92/(n-1)
		y := 26 - p*22/100
		s.Dots = append(s.Dots, Dot{x, y})
		pts[i] = fmt.Sprintf("%d,%d", x, y)
	}
	s.Points = strings.Join(pts, " ")
	return s
}

// GraphPoint is one position of a game's evaluation graph.
type GraphPoint struct {
	White float64 // White's winning chances, 0–100
	// Mark is the class of the move that led here when it cost something
	// ("inaccuracy", "mistake", "blunder"), drawn as a dot (a large one
	// when Large); "" draws none.
	Mark  string
	Large bool
	Title string // what the point's link says: the move and its class
}

// EvalGraph draws White's winning chances after every analysed position of
// a game of moves moves as an SVG: a light area for White's share under
// the curve, a dot on every marked move, a line at the position shown
// (now), and over every position a link to ?ply=i (so the graph works
// without JavaScript). The move list offers the same links to the keyboard
// and screen readers, so the drawing is hidden from them and its links are
// out of the tab order.
func EvalGraph(moves int, points []GraphPoint, now int) template.HTML {
	const w, hgt, pad = 600.0, 150.0, 4.0
	if moves == 0 || len(points) == 0 {
		return ""
	}
	step := (w - 2*pad) / float64(moves)
	x := func(i int) float64 { return pad + float64(i)*step }
	y := func(i int) float64 { return hgt * (1 - points[i].White/100) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="eval-graph" viewBox="0 0 %g %g" aria-hidden="true" focusable="false" data-review-graph>`, w, hgt)
	fmt.Fprintf(&b, `<rect class="eval-black" x="0" y="0" width="%g" height="%g"/>`, w, hgt)
	var pts strings.Builder
	fmt.Fprintf(&pts, "%.1f,%g", x(0), hgt)
	for i := range points {
		fmt.Fprintf(&pts, " %.1f,%.1f", x(i), y(i))
	}
	fmt.Fprintf(&pts, " %.1f,%g", x(len(points)-1), hgt)
	fmt.Fprintf(&b, `<polygon class="eval-white" points="%s"/>`, pts.String())
	fmt.Fprintf(&b, `<line class="eval-mid" x1="0" y1="%g" x2="%g" y2="%g"/>`, hgt/2, w, hgt/2)
	if now < len(points) {
		fmt.Fprintf(&b, `<line class="eval-now" x1="%.1f" y1="0" x2="%.1f" y2="%g"/>`, x(now), x(now), hgt)
	}
	for i, p := range points {
		if p.Mark == "" {
			continue
		}
		r := 3
		if p.Large {
			r = 5
		}
		fmt.Fprintf(&b, `<circle class="eval-mark eval-%s" cx="%.1f" cy="%.1f" r="%d"/>`, template.HTMLEscapeString(p.Mark), x(i), y(i), r)
	}
	for i, p := range points {
		fmt.Fprintf(&b, `<a href="?ply=%d#review-board" tabindex="-1" data-review-link data-review-ply="%d"><title>%s</title><rect class="eval-hit" x="%.1f" y="0" width="%.1f" height="%g"/></a>`,
			i, i, template.HTMLEscapeString(p.Title), x(i)-step/2, step, hgt)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every dynamic text above is escaped
}
