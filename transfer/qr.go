package transfer

import (
	"bytes"
	"fmt"

	qrcode "github.com/yeqown/go-qrcode/v2"
)

// quietZone is the blank margin around a QR code, in modules, that the
// standard asks for so that a camera finds the code's edges.
const quietZone = 4

// QRCode draws text (a /continue link) as a QR code in SVG: dark modules
// on white, with error correction level M (15 %), so a phone's camera
// reads it off a screen. The picture is self-contained: it refers to
// nothing outside itself.
func QRCode(text string) ([]byte, error) {
	rows, err := modules(text)
	if err != nil {
		return nil, err
	}
	return drawSVG(rows), nil
}

// modules encodes text as a QR code's modules, row by row (true: dark).
func modules(text string) ([][]bool, error) {
	qr, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return nil, fmt.Errorf("transfer: QR code: %w", err)
	}
	w := &bitmapWriter{}
	if err := qr.Save(w); err != nil {
		return nil, fmt.Errorf("transfer: QR code: %w", err)
	}
	return w.rows, nil
}

// bitmapWriter is a qrcode.Writer that keeps the matrix's modules.
type bitmapWriter struct{ rows [][]bool }

func (b *bitmapWriter) Write(mat qrcode.Matrix) error {
	b.rows = mat.Bitmap()
	return nil
}

func (b *bitmapWriter) Close() error { return nil }

// drawSVG draws modules as one SVG path inside the quiet zone: each
// row's runs of dark modules become rectangles one module high.
func drawSVG(rows [][]bool) []byte {
	size := len(rows) + 2*quietZone
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" shape-rendering="crispEdges">`,
		size, size, size*8, size*8)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, size, size)
	for y, row := range rows {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", start+quietZone, y+quietZone, x-start, x-start)
		}
	}
	b.WriteString(`"/></svg>`)
	return b.Bytes()
}
