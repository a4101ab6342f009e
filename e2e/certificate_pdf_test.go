//go:build full

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"chesstutor/exams"
	"chesstutor/lessons"
	"chesstutor/quiz"
)

// paper is a sheet size in inches, as Page.printToPDF takes it.
type paper struct {
	name          string
	width, height float64
}

var papers = []paper{{"A4", 8.27, 11.69}, {"Letter", 8.5, 11}}

// longNames are 40 letters and spaces each, a long name a child or a
// teacher may type, in each language's alphabet.
var longNames = map[string]string{
	"en": "Alexandra Catherine Montgomery-Fitzgeral",
	"es": "María Fernanda Gutiérrez de la Fuente Ro",
	"ru": "Александра Константиновна Преображенская",
}

// pageObjects counts the pages of a PDF by its page objects
// ("/Type /Page", not "/Type /Pages"), which Chromium writes uncompressed.
var pageObjects = regexp.MustCompile(`/Type\s*/Page[^s]`)

// TestCertificateOnePage prints the certificate to PDF with Chromium at A4
// and Letter, in every language, with a 40-letter name, and counts the
// pages: exactly one each time (issue 36). The name must show whole in
// print, not cut off by its field. With pdfinfo on the machine its count
// is checked too. The PDFs are kept under e2e/screenshots when CHESS_SHOTS
// is set.
func TestCertificateOnePage(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	steps := exams.Steps(course)
	step := steps[len(steps)-1]
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Viewport{Width: 1280, Height: 800}))
	// Pass the last step's exam in this browser's session.
	passExam(t, b, srv.URL, step, bank)

	for _, lang := range siteLanguages {
		name := longNames[lang]
		if n := len([]rune(name)); n != 40 {
			t.Fatalf("the %s name has %d characters, want 40", lang, n)
		}
		b.Open(fmt.Sprintf("%s/certificate/%d?lang=%s", srv.URL, step.N, lang))
		b.Do(chromedp.WaitVisible(chromedp.CSS("[data-certificate]")))
		b.Do(chromedp.SendKeys(chromedp.CSS("[data-certificate-name]"), name))
		for _, p := range papers {
			pdf := printPDF(t, b, p)
			if shotsWanted() {
				_ = os.MkdirAll("screenshots", 0o755)
				_ = os.WriteFile(filepath.Join("screenshots", "certificate-"+lang+"-"+p.name+".pdf"), pdf, 0o644)
			}
			if n := len(pageObjects.FindAll(pdf, -1)); n != 1 {
				t.Errorf("%s on %s: the certificate prints on %d pages, want 1", lang, p.name, n)
			}
			if n, ok := pdfinfoPages(t, pdf); ok && n != 1 {
				t.Errorf("%s on %s: pdfinfo counts %d pages, want 1", lang, p.name, n)
			}
		}
		// In print, the whole name shows: its field does not clip it.
		printMedia(t, b)
		if got := Eval[string](b, `(() => { const n = document.querySelector("[data-certificate-name]"); return n.value + "|" + (n.scrollWidth <= n.clientWidth + 1) })()`); got != name+"|true" {
			t.Errorf("%s: the printed name is cut off or lost: %q", lang, got)
		}
		screenMedia(t, b)
	}
}

// printPDF prints the page to PDF on paper p with Chromium's own margins.
func printPDF(t *testing.T, b *Browser, p paper) []byte {
	t.Helper()
	var out []byte
	if err := chromedp.Do(b.Ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: p.width, PaperHeight: p.height})
		out = res.Data
		return err
	})); err != nil {
		t.Fatalf("print to PDF on %s: %v", p.name, err)
	}
	if !bytes.HasPrefix(out, []byte("%PDF")) {
		t.Fatalf("print to PDF on %s: not a PDF", p.name)
	}
	return out
}

// pdfinfoPages counts the pages with poppler's pdfinfo, when installed.
func pdfinfoPages(t *testing.T, pdf []byte) (int, bool) {
	t.Helper()
	bin, err := exec.LookPath("pdfinfo")
	if err != nil {
		return 0, false
	}
	f := filepath.Join(t.TempDir(), "c.pdf")
	if err := os.WriteFile(f, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, f).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			return n, err == nil
		}
	}
	return 0, false
}

// screenMedia ends printMedia's emulation: the page as on a screen.
func screenMedia(t *testing.T, b *Browser) {
	t.Helper()
	if err := chromedp.Do(b.Ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: ""})
		return err
	})); err != nil {
		t.Fatal(err)
	}
}
