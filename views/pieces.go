package views

import (
	"fmt"
	"html/template"
	"strings"
)

// The site's own piece set: classic Staunton silhouettes drawn on a 45×45
// grid. Each piece is a list of filled shapes (body) and thin detail
// strokes. Light pieces are white with a dark outline so they stay visible
// on light squares; dark pieces are near-black with light detail lines so
// their inner shapes read at 32 px.

type pieceShape struct {
	body   []string // closed paths, filled and outlined
	detail []string // open paths, stroked only
	dots   []string // circles as "cx cy r", filled with the outline colour (eyes, knobs)
}

var pieceShapes = map[byte]pieceShape{
	'P': {
		body: []string{
			"M10 39h25v-2.2c0-1.5-1.2-2.8-3-2.8H13c-1.8 0-3 1.3-3 2.8z",
			"M13.5 34c2.5-3 5-7.5 5-12.5h8c0 5 2.5 9.5 5 12.5z",
			"M16.5 18.5h12a1.5 1.5 0 0 1 0 3h-12a1.5 1.5 0 0 1 0-3z",
			"M22.5 7a5 5 0 1 1 0 10a5 5 0 1 1 0-10z",
		},
	},
	'R': {
		body: []string{
			"M8.5 39h28v-3h-28z",
			"M11 36l1.5-3.5h20L34 36z",
			"M14 32.5l1-15h15l1 15z",
			"M11.5 17.5l3-3h16l3 3z",
			"M11 14.5V8.5h4.5v2.5h4.5V8.5h5v2.5h4.5V8.5H34v6z",
		},
		detail: []string{"M14.5 29.5h16", "M15 20.5h15"},
	},
	'N': {
		body: []string{
			"M10 39h25v-3.5H10z",
			"M13.5 35.5C13.5 30 18 27 19.5 23.5C16.5 25.5 13 27.5 10.5 28.5C8.5 29 6.5 27 7 25C8 21.5 11.5 16 14.5 12.5L16.5 6.5L20 10.5C28 10.5 35 18.5 34 35.5z",
		},
		detail: []string{"M21 12.5C27 14 30.5 21 30.5 33", "M8.5 25.5l1.5-1"},
		dots:   []string{"15 17.5 1.3"},
	},
	'B': {
		body: []string{
			"M11 39h23a2 2 0 0 0 0-4H11a2 2 0 0 0 0 4z",
			"M14.5 35h16l-1.5-4h-13z",
			"M16.5 31C12.5 27 13 20 22.5 11.5C32 20 32.5 27 28.5 31z",
			"M22.5 6a2.75 2.75 0 1 1 0 5.5a2.75 2.75 0 1 1 0-5.5z",
		},
		detail: []string{"M25.5 16.5L21 23", "M17 27.5h11"},
	},
	'Q': {
		body: []string{
			"M10 39h25a1.5 1.5 0 0 0 0-3H10a1.5 1.5 0 0 0 0 3z",
			"M11.5 36C12.5 31 12 26 9 15.5L15.5 25.5L16 12.5L20.5 24.5L22.5 11L24.5 24.5L29 12.5L29.5 25.5L36 15.5C33 26 32.5 31 33.5 36z",
			"M9 11.5a2 2 0 1 1 0 4a2 2 0 1 1 0-4z",
			"M16 9a2 2 0 1 1 0 4a2 2 0 1 1 0-4z",
			"M22.5 7.5a2 2 0 1 1 0 4a2 2 0 1 1 0-4z",
			"M29 9a2 2 0 1 1 0 4a2 2 0 1 1 0-4z",
			"M36 11.5a2 2 0 1 1 0 4a2 2 0 1 1 0-4z",
		},
		detail: []string{"M12.5 31.5h20"},
	},
	'K': {
		body: []string{
			"M10 39h25a1.5 1.5 0 0 0 0-3H10a1.5 1.5 0 0 0 0 3z",
			"M12 36C11 29.5 8.5 23.5 12.5 20.5C15.5 18 20 19.5 22.5 23.5C25 19.5 29.5 18 32.5 20.5C36.5 23.5 34 29.5 33 36z",
			"M22.5 23.5C20.5 19 20 15.5 22.5 13C25 15.5 24.5 19 22.5 23.5z",
		},
		detail: []string{"M22.5 5.5v7", "M19.5 8.5h6", "M13 31.5h19"},
	},
}

// pieceSymbols returns the <symbol> for one piece in one colour.
func pieceSymbol(code string) string {
	white := code[0] == 'w'
	fill, line, inner := "#fff", "#1b1b1b", "#1b1b1b"
	if !white {
		fill, line, inner = "#262421", "#000", "#ececec"
	}
	shape := pieceShapes[code[1]]
	var b strings.Builder
	fmt.Fprintf(&b, `<symbol id="piece-%s" viewBox="0 0 45 45">`, code)
	fmt.Fprintf(&b, `<g fill="%s" stroke="%s" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round">`, fill, line)
	for _, d := range shape.body {
		fmt.Fprintf(&b, `<path d="%s"/>`, d)
	}
	b.WriteString(`</g>`)
	if len(shape.detail) > 0 {
		detail := inner
		if code[1] == 'K' && !white {
			detail = "#000" // the cross stands outside the body; keep it dark
		}
		fmt.Fprintf(&b, `<g fill="none" stroke="%s" stroke-width="1.5" stroke-linecap="round">`, inner)
		for i, d := range shape.detail {
			if code[1] == 'K' && i < 2 {
				fmt.Fprintf(&b, `<path d="%s" stroke="%s" stroke-width="2"/>`, d, detail)
				continue
			}
			fmt.Fprintf(&b, `<path d="%s"/>`, d)
		}
		b.WriteString(`</g>`)
	}
	for _, c := range shape.dots {
		var cx, cy, r float64
		fmt.Sscan(c, &cx, &cy, &r)
		fmt.Fprintf(&b, `<circle cx="%g" cy="%g" r="%g" fill="%s"/>`, cx, cy, r, inner)
	}
	b.WriteString(`</symbol>`)
	return b.String()
}

// pieceSprite is the hidden SVG holding all twelve piece symbols; the
// layout includes it once per page and boards refer to it with <use>.
var pieceSprite = func() template.HTML {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="piece-sprite" aria-hidden="true" focusable="false"><defs>`)
	for _, c := range "wb" {
		for _, p := range "KQRBNP" {
			b.WriteString(pieceSymbol(string(c) + string(p)))
		}
	}
	b.WriteString(`</defs></svg>`)
	return template.HTML(b.String()) // built from constants above only
}()

// PieceSprite returns the hidden SVG with the twelve piece symbols
// (ids "piece-wK" … "piece-bP") for pages that do not use the layout.
func PieceSprite() template.HTML { return pieceSprite }
