package transfer

import (
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// finderAt reports whether a finder pattern (a 7×7 dark ring, a light
// ring, a 3×3 dark centre) has its top left corner at (x, y).
func finderAt(rows [][]bool, x, y int) bool {
	for dy := 0; dy < 7; dy++ {
		for dx := 0; dx < 7; dx++ {
			ring := dx == 0 || dy == 0 || dx == 6 || dy == 6
			centre := dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4
			if rows[y+dy][x+dx] != (ring || centre) {
				return false
			}
		}
	}
	return true
}

var pathRun = regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`)

// TestQRCode: the link becomes a square QR code of a standard size with
// its three finder patterns, and the SVG draws exactly its dark modules
// inside a quiet zone, with nothing outside the picture. (Decoded by
// zbarimg from a browser's rendering when it was written: the link came
// back unchanged.)
func TestQRCode(t *testing.T) {
	link := "https://chess.example.org/continue?code=K7M2PQ9Z"
	rows, err := modules(link)
	if err != nil {
		t.Fatal(err)
	}
	n := len(rows)
	if n < 21 || n > 177 || (n-17)%4 != 0 {
		t.Fatalf("%d modules a side is no QR code size", n)
	}
	for _, r := range rows {
		if len(r) != n {
			t.Fatalf("row of %d modules in a %d-module code", len(r), n)
		}
	}
	for _, c := range [][2]int{{0, 0}, {n - 7, 0}, {0, n - 7}} {
		if !finderAt(rows, c[0], c[1]) {
			t.Errorf("no finder pattern at %v", c)
		}
	}
	if finderAt(rows, n-7, n-7) {
		t.Error("a finder pattern in the fourth corner")
	}

	svg, err := QRCode(link)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(svg, new(struct{})); err != nil {
		t.Fatalf("the SVG is not well-formed: %v", err)
	}
	size := n + 2*quietZone
	if !strings.Contains(string(svg), fmt.Sprintf(`viewBox="0 0 %d %d"`, size, size)) {
		t.Errorf("viewBox is not the code and its quiet zone: %.120s", svg)
	}
	if strings.Contains(string(svg), "href") || strings.Contains(string(svg), "http://www.w3.org/1999") {
		t.Error("the SVG refers to something outside itself")
	}
	drawn := make([][]bool, size)
	for i := range drawn {
		drawn[i] = make([]bool, size)
	}
	for _, m := range pathRun.FindAllStringSubmatch(string(svg), -1) {
		var x, y, w, back int
		fmt.Sscan(m[1], &x)
		fmt.Sscan(m[2], &y)
		fmt.Sscan(m[3], &w)
		fmt.Sscan(m[4], &back)
		if w != back || w < 1 {
			t.Fatalf("bad run %q", m[0])
		}
		for i := x; i < x+w; i++ {
			drawn[y][i] = true
		}
	}
	for y := range size {
		for x := range size {
			want := x >= quietZone && y >= quietZone && x < quietZone+n && y < quietZone+n && rows[y-quietZone][x-quietZone]
			if drawn[y][x] != want {
				t.Fatalf("module (%d, %d) drawn %v, want %v", x, y, drawn[y][x], want)
			}
		}
	}
}
