package lessons

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/yuin/goldmark/ast"

	"chesstutor/chess"
	"chesstutor/words"
)

// An exercise inside a lesson answers where it stands (L12): its board
// takes taps, clicks and keys, and the verdict appears beside it. The
// section carries the hooks of the practice pages' scripts
// (public/js/exercise.js for squares, move-exercise.js for moves and
// square names), so lesson.js brings them to life with the same code.
//
// Without JavaScript the board is a GET form to the exercise's practice
// page: a tap there opens the practice page with that square marked,
// selected or tried (the query it already reads: m, sel, tried), and the
// learner goes on there. A GET carries no CSRF token, which a lesson's
// HTML, rendered once at start-up, could not hold.

// exerciseSection wraps an exercise's live board with its prompt, its
// verdict and its buttons. The prompt names the section, so each exercise
// landmark on a page has its own accessible name (axe landmark-unique).
func exerciseSection(ex *Exercise, board template.HTML, link string, w *words.Words) template.HTML {
	esc := template.HTMLEscapeString
	id := esc(ex.ID)
	var b strings.Builder
	fmt.Fprintf(&b, `<section class="exercise-block exercise-live" id="ex-%s" aria-labelledby="ex-%s-prompt" data-lesson-exercise="%s" data-api="/api/exercises/%s/check"`,
		id, id, id, esc(ex.ID))
	switch ex.Kind {
	case KindSquares:
		fmt.Fprintf(&b, ` data-exercise-page data-piece-name="%s">`, esc(w.Msg(words.M("piece.the_"+ex.Piece().Type().String()))))
		fmt.Fprintf(&b, `<form method="get" action="/learn/%s/practice" class="exercise-form" data-exercise-form>`, esc(ex.Lesson))
	case KindUndefended:
		b.WriteString(` data-exercise-page data-exercise-kind="undefended">`)
		fmt.Fprintf(&b, `<form method="get" action="/learn/%s/practice" class="exercise-form" data-exercise-form>`, esc(ex.Lesson))
	default:
		fmt.Fprintf(&b, ` data-move-page data-exercise-kind="%s"`, esc(string(ex.Kind)))
		if ex.Kind == KindMove {
			fmt.Fprintf(&b, ` data-goal="%s" data-help-api="/api/exercises/%s/hint" data-moves="%s" data-line=""`,
				esc(string(ex.Goal)), esc(ex.ID), esc(legalUCI(ex.Pos)))
		}
		fmt.Fprintf(&b, `><form method="get" action="/learn/%s/practice" class="move-form" data-move-form>`, esc(ex.Lesson))
	}
	fmt.Fprintf(&b, `<input type="hidden" name="ex" value="%s">`, id)
	fmt.Fprintf(&b, `<p class="exercise-prompt" id="ex-%s-prompt"><strong>%s</strong> <span data-prompt>%s</span></p>`,
		id, esc(w.T("lesson.exercise_label")), esc(ex.Prompt))
	b.WriteString(string(board))
	b.WriteString(`<div class="exercise-result" data-result aria-live="polite" hidden></div>`)
	b.WriteString(`<div class="exercise-actions">`)
	// Buttons that only work with the script start hidden; lesson.js
	// shows them (data-needs-script).
	if ex.Marks() {
		fmt.Fprintf(&b, `<button type="submit" class="button button-primary" name="action" value="check" data-action="check" data-needs-script hidden>%s</button>`, esc(w.T("exercise.check")))
	}
	fmt.Fprintf(&b, `<button type="submit" class="button" name="action" value="reset" data-action="reset" hidden>%s</button>`, esc(w.T("exercise.try_again")))
	if ex.Kind != KindName {
		if ex.Kind == KindMove {
			fmt.Fprintf(&b, `<button type="submit" class="button" name="action" value="hint" data-action="hint" data-needs-script hidden>%s</button>`, esc(w.T("exercise.hint")))
		}
		fmt.Fprintf(&b, `<button type="submit" class="button" name="action" value="answer" data-action="answer" data-needs-script hidden>%s</button>`, esc(w.T("exercise.show_answer")))
	}
	fmt.Fprintf(&b, `<a class="button" href="%s" data-action="practice">%s</a>`, esc(ex.PracticeURL()), esc(link))
	b.WriteString(`</div></form></section>`)
	return template.HTML(b.String()) // every value above is escaped
}

// legalUCI lists the legal moves of pos in UCI, space-separated, for the
// page's script to show where a piece may go.
func legalUCI(pos *chess.Position) string {
	moves := pos.LegalMoves()
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.UCI()
	}
	return strings.Join(out, " ")
}

// sectionStart is how exerciseSection's opening tag starts; sectionShut
// the same with the hidden attribute.
const (
	sectionStart = `<section class="exercise-block`
	sectionShut  = `<section hidden class="exercise-block`
)

// groupSeries joins consecutive square-name exercises (lesson 1 asks for
// five squares in a row) into one series: the first shows, the others
// wait hidden, and lesson.js brings the next one in place of a solved
// one, so a phone scrolls past one board instead of five. Without
// JavaScript the first one's board leads to the practice page, which
// walks through them all.
func groupSeries(doc ast.Node) {
	for n := doc.FirstChild(); n != nil; {
		var run []*blockNode
		for m := n; m != nil; m = m.NextSibling() {
			b, ok := m.(*blockNode)
			if !ok || !b.name {
				break
			}
			run = append(run, b)
		}
		if len(run) < 2 {
			n = n.NextSibling()
			continue
		}
		for i, b := range run {
			if i > 0 {
				b.html = template.HTML(strings.Replace(string(b.html), sectionStart, sectionShut, 1))
			}
		}
		run[0].html = template.HTML(fmt.Sprintf(`<div class="exercise-series" data-exercise-series="%d">`, len(run))) + run[0].html
		last := run[len(run)-1]
		last.html += `</div>`
		n = last.NextSibling()
	}
}
