package lessons

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/views"
	"chesstutor/words"
)

// document is one rendered Markdown file.
type document struct {
	meta      map[string]string
	html      template.HTML
	exercises []*Exercise
	diagrams  int

	// What a translation must keep of the file (library.go): everything
	// but its words.
	headings []string     // heading ids, in order
	links    []string     // link and image targets (compared in any order)
	blocks   []blockShape // boards and exercises, in order
}

// blockShape is a board or exercise block without its words: its kind and
// its language-neutral fields, normalised (see fields.facts).
type blockShape struct {
	line  int    // file line of the opening fence
	kind  string // board, exercise, move or name
	facts string // "fen=…; highlight=…; …"
}

// kindBlock is the AST node kind of a board or exercise block, already
// rendered to HTML while the tree was checked.
var kindBlock = ast.NewNodeKind("LessonBlock")

// blockNode replaces a fenced `board` or `exercise` block in the tree.
type blockNode struct {
	ast.BaseBlock
	html template.HTML
	name bool // a square-name exercise, which groupSeries may join with its neighbours
}

func (n *blockNode) Kind() ast.NodeKind { return kindBlock }

func (n *blockNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// blockRenderer writes blockNodes; everything else is goldmark's default
// renderer, which escapes text and omits raw HTML (N2).
type blockRenderer struct{}

func (blockRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindBlock, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(string(n.(*blockNode).html))
		}
		return ast.WalkSkipChildren, nil
	})
}

var markdown = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Typographer, extension.DefinitionList),
	goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithAttribute()),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(blockRenderer{}, 100))),
)

// render turns one Markdown file into HTML, with the words it adds (exercise
// links, generated prompts, board labels) from w. slug is the lesson's
// slug, or "" for the rules page and the glossary. Errors name the file and
// line; they are for the course's authors, so they stay in English.
func render(name, slug string, src []byte, w *words.Words) (*document, error) {
	meta, body, headerLines, err := splitFrontMatter(name, src)
	if err != nil {
		return nil, err
	}
	doc := &document{meta: meta}
	tree := markdown.Parser().Parse(text.NewReader(body))

	// Collect first, change the tree afterwards: replacing nodes while
	// walking would skip siblings.
	var fences []*ast.FencedCodeBlock
	var unsafe []ast.Node
	err = ast.Walk(tree, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			fences = append(fences, n)
		case *ast.HTMLBlock, *ast.RawHTML:
			unsafe = append(unsafe, n)
		case *ast.Heading:
			if id, ok := n.AttributeString("id"); ok {
				if b, ok := id.([]byte); ok {
					doc.headings = append(doc.headings, string(b))
				}
			}
		case *ast.Link:
			if dangerousURL(string(n.Destination)) {
				unsafe = append(unsafe, n)
			} else {
				doc.links = append(doc.links, string(n.Destination))
			}
		case *ast.AutoLink:
			if dangerousURL(string(n.URL(body))) {
				unsafe = append(unsafe, n)
			} else {
				doc.links = append(doc.links, string(n.URL(body)))
			}
		case *ast.Image:
			if dangerousURL(string(n.Destination)) {
				unsafe = append(unsafe, n)
			} else {
				doc.links = append(doc.links, string(n.Destination))
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return nil, fmt.Errorf("lessons: %s: %w", name, err)
	}
	for _, n := range unsafe {
		dropUnsafe(n, body)
	}
	for _, f := range fences {
		lang := string(f.Language(body))
		if lang != "board" && lang != "exercise" && lang != "move" && lang != "name" && lang != "setup" && lang != "undefended" {
			continue
		}
		line := headerLines + 1 + bytes.Count(body[:fenceStart(f, body)], []byte("\n"))
		var b strings.Builder
		for i := 0; i < f.Lines().Len(); i++ {
			seg := f.Lines().At(i)
			b.Write(seg.Value(body))
		}
		fields, err := parseFields(name, line+1, lang, b.String())
		if err != nil {
			return nil, err
		}
		var html template.HTML
		if lang == "board" {
			html, err = diagramHTML(fields, w)
			doc.diagrams++
		} else {
			var ex *Exercise
			switch lang {
			case "move":
				ex, html, err = moveExerciseHTML(fields, slug, w)
			case "name":
				ex, html, err = nameExerciseHTML(fields, slug, w)
			case "setup":
				ex, html, err = setupExerciseHTML(fields, slug, w)
			case "undefended":
				ex, html, err = undefendedExerciseHTML(fields, slug, w)
			default:
				ex, html, err = exerciseHTML(fields, slug, w)
			}
			if ex != nil {
				doc.exercises = append(doc.exercises, ex)
			}
		}
		var fe *fieldError
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("lessons: %s:%d: %w", name, fe.line, err)
		}
		if err != nil {
			return nil, fmt.Errorf("lessons: %s:%d: %w", name, line, err)
		}
		doc.blocks = append(doc.blocks, blockShape{line: line, kind: lang, facts: fields.facts(lang)})
		f.Parent().ReplaceChild(f.Parent(), f, &blockNode{html: html, name: lang == "name"})
	}
	groupSeries(tree)

	var out bytes.Buffer
	if err := markdown.Renderer().Render(&out, body, tree); err != nil {
		return nil, fmt.Errorf("lessons: %s: render: %w", name, err)
	}
	doc.html = template.HTML(out.String()) // goldmark escapes text; raw HTML and unsafe links were removed above
	return doc, nil
}

// fenceStart returns the byte offset of the block's opening fence line.
func fenceStart(f *ast.FencedCodeBlock, body []byte) int {
	if f.Info != nil {
		return f.Info.Segment.Start
	}
	if f.Lines().Len() > 0 {
		// The fence sits on the line before the first content line.
		start := f.Lines().At(0).Start
		if i := bytes.LastIndexByte(body[:max(start-1, 0)], '\n'); i >= 0 {
			return i + 1
		}
	}
	return 0
}

// dangerousURL reports whether a link would run code or smuggle content:
// javascript:, vbscript:, data: and file: schemes, however they are spelled
// (case, spaces and control characters are ignored as browsers do).
func dangerousURL(u string) bool {
	var b strings.Builder
	for _, r := range u {
		if r > ' ' && r != 0x7f {
			b.WriteRune(r)
		}
	}
	s := strings.ToLower(b.String())
	for _, scheme := range []string{"javascript:", "vbscript:", "data:", "file:"} {
		if strings.HasPrefix(s, scheme) {
			return true
		}
	}
	return false
}

// dropUnsafe removes raw HTML and dangerous images from the tree, and
// replaces a dangerous link by its plain text, so the words stay readable.
func dropUnsafe(n ast.Node, source []byte) {
	parent := n.Parent()
	if parent == nil {
		return
	}
	switch n := n.(type) {
	case *ast.Link:
		for c := n.FirstChild(); c != nil; c = n.FirstChild() {
			n.RemoveChild(n, c)
			parent.InsertBefore(parent, n, c)
		}
	case *ast.AutoLink:
		parent.InsertBefore(parent, n, ast.NewString(n.Label(source)))
	}
	parent.RemoveChild(parent, n)
}

// fieldError is a problem inside a block, with the file line it is on.
type fieldError struct {
	line int
	msg  string
}

func (e *fieldError) Error() string { return e.msg }

// fields are the key: value lines of a block, with the line of each key.
type fields struct {
	start  int // file line of the first content line
	values map[string]string
	lines  map[string]int
}

func (f fields) errorf(key, format string, args ...any) error {
	line, ok := f.lines[key]
	if !ok {
		line = f.start - 1 // the fence line
	}
	return &fieldError{line: line, msg: fmt.Sprintf(format, args...)}
}

var allowedKeys = map[string][]string{
	"board":      {"fen", "highlight", "arrows", "attacks", "xray", "forbid", "caption", "orientation", "play"},
	"exercise":   {"id", "fen", "square", "prompt"},
	"move":       {"id", "fen", "goal", "square", "limit", "prompt"},
	"name":       {"id", "square", "orientation"},
	"setup":      {"id", "fen", "prompt"},
	"undefended": {"id", "fen", "prompt"},
}

// wordKeys are the keys whose values are words, which a translation
// changes; every other key of a block is language-neutral.
var wordKeys = map[string]bool{"caption": true, "prompt": true}

// facts are the block's language-neutral fields, normalised (the FEN as
// the position writes it, lists with single spaces, the default
// orientation spelt out), in the order of allowedKeys: two blocks with
// equal facts show the same thing in any language. Call it only on a
// block that rendered, so the FEN parses.
func (f fields) facts(lang string) string {
	var parts []string
	for _, k := range allowedKeys[lang] {
		if wordKeys[k] {
			continue
		}
		v := strings.Join(strings.Fields(f.values[k]), " ")
		switch k {
		case "fen":
			if pos, err := chess.ParseFEN(v); err == nil {
				v = pos.FEN()
			}
		case "orientation":
			if v == "" {
				v = "white"
			}
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, "; ")
}

// parseFields reads "key: value" lines. Unknown or repeated keys are errors,
// so a typo never silently drops a highlight.
func parseFields(name string, start int, lang, content string) (fields, error) {
	f := fields{start: start, values: map[string]string{}, lines: map[string]int{}}
	for i, line := range strings.Split(strings.TrimRight(content, "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return f, fmt.Errorf("lessons: %s:%d: %s block lines look like key: value", name, start+i, lang)
		}
		known := false
		for _, a := range allowedKeys[lang] {
			known = known || a == k
		}
		if !known {
			return f, fmt.Errorf("lessons: %s:%d: unknown key %q in a %s block (allowed: %s)",
				name, start+i, k, lang, strings.Join(allowedKeys[lang], ", "))
		}
		if _, dup := f.values[k]; dup {
			return f, fmt.Errorf("lessons: %s:%d: key %q appears twice", name, start+i, k)
		}
		f.values[k] = strings.TrimSpace(v)
		f.lines[k] = start + i
	}
	return f, nil
}

func (f fields) position() (*chess.Position, error) {
	fen, ok := f.values["fen"]
	if !ok || fen == "" {
		return nil, f.errorf("fen", "the block needs a fen: line")
	}
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		return nil, f.errorf("fen", "bad FEN %q: %v", fen, err)
	}
	return pos, nil
}

func (f fields) squares(key string) ([]chess.Square, error) {
	var out []chess.Square
	for _, w := range strings.Fields(f.values[key]) {
		sq, err := chess.ParseSquare(w)
		if err != nil {
			return nil, f.errorf(key, "%s: %q is not a square like e4", key, w)
		}
		out = append(out, sq)
	}
	return out, nil
}

// arrows reads the move arrows ("arrows") and lines of attack ("attacks",
// then "xray"), in that order.
func (f fields) arrows() ([]views.Arrow, error) {
	var out []views.Arrow
	for _, key := range []string{"arrows", "attacks", "xray"} {
		for _, w := range strings.Fields(f.values[key]) {
			if len(w) != 4 {
				return nil, f.errorf(key, "%s: %q should be two squares like e2e4", key, w)
			}
			from, err1 := chess.ParseSquare(w[:2])
			to, err2 := chess.ParseSquare(w[2:])
			if err1 != nil || err2 != nil || from == to {
				return nil, f.errorf(key, "%s: %q should be two different squares like e2e4", key, w)
			}
			out = append(out, views.Arrow{From: from, To: to, Attack: key != "arrows"})
		}
	}
	return out, nil
}

// diagramHTML renders a `board` block.
func diagramHTML(f fields, w *words.Words) (template.HTML, error) {
	pos, err := f.position()
	if err != nil {
		return "", err
	}
	hl, err := f.squares("highlight")
	if err != nil {
		return "", err
	}
	arrows, err := f.arrows()
	if err != nil {
		return "", err
	}
	if err := checkAttackLines(f, pos, arrows, len(strings.Fields(f.values["xray"]))); err != nil {
		return "", err
	}
	forbid, err := f.squares("forbid")
	if err != nil {
		return "", err
	}
	flipped := false
	switch f.values["orientation"] {
	case "", "white":
	case "black":
		flipped = true
	default:
		return "", f.errorf("orientation", "orientation must be white or black, not %q", f.values["orientation"])
	}
	html := views.RenderBoard(views.Board{
		Pos: pos, Flipped: flipped, Highlights: hl, Forbidden: forbid, Arrows: arrows,
		Caption: f.values["caption"], Size: "diagram",
		Attrs: map[string]string{"data-diagram": ""}, Words: w,
	})
	switch f.values["play"] {
	case "":
	case "computer":
		// The position must be one a game can start from.
		if _, err := chess.NewGame(pos); err != nil {
			return "", f.errorf("play", "this position cannot start a game: %v", err)
		}
		html += template.HTML(fmt.Sprintf(`<p class="play-position"><a class="button" href="/play?fen=%s" data-play-fen>%s</a></p>`,
			template.HTMLEscapeString(url.QueryEscape(pos.FEN())), template.HTMLEscapeString(w.T("lesson.play_position"))))
	default:
		return "", f.errorf("play", "play must be computer, not %q", f.values["play"])
	}
	return html, nil
}

// checkAttackLines refuses a line of attack that the position does not
// have. An attack starts on a piece and runs to its end with nothing in
// the way (issue 36: lesson 11 once drew the queen's line through the pawn
// that had just blocked it); an x-ray (a pin or a skewer) runs along a
// rank, file or diagonal through exactly one piece of the other side.
func checkAttackLines(f fields, pos *chess.Position, arrows []views.Arrow, xrays int) error {
	for i, a := range arrows {
		if !a.Attack {
			continue
		}
		key := "attacks"
		if i >= len(arrows)-xrays {
			key = "xray"
		}
		attacker := pos.PieceAt(a.From)
		if attacker == chess.NoPiece {
			return f.errorf(key, "%s: %s%s starts on an empty square", key, a.From, a.To)
		}
		df, dr := a.To.File()-a.From.File(), a.To.Rank()-a.From.Rank()
		straight := df == 0 || dr == 0 || df == dr || df == -dr
		if !straight {
			if key == "xray" {
				return f.errorf(key, "xray: %s%s is not along a rank, file or diagonal", a.From, a.To)
			}
			continue // a knight's jump: nothing stands in its way
		}
		var between []chess.Square
		sf, sr := sign(df), sign(dr)
		for s := chess.NewSquare(a.From.File()+sf, a.From.Rank()+sr); s != a.To; s = chess.NewSquare(s.File()+sf, s.Rank()+sr) {
			if pos.PieceAt(s) != chess.NoPiece {
				between = append(between, s)
			}
		}
		switch {
		case key == "attacks" && len(between) > 0:
			return f.errorf(key, "attacks: the line %s%s runs through the piece on %s (a pin or skewer is an xray line)", a.From, a.To, between[0])
		case key == "xray" && (len(between) != 1 || pos.PieceAt(between[0]).Color() == attacker.Color()):
			return f.errorf(key, "xray: the line %s%s must run through exactly one piece of the other side", a.From, a.To)
		}
	}
	return nil
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

var idRe = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// exerciseID checks what every exercise block needs first: a lesson to
// belong to and a well-formed id.
func exerciseID(f fields, slug string) (string, error) {
	if slug == "" {
		return "", f.errorf("", "exercises belong in lessons, not on this page")
	}
	id := f.values["id"]
	if !idRe.MatchString(id) {
		return "", f.errorf("id", "exercise id %q must be lower-case words joined by hyphens", id)
	}
	return id, nil
}

// exerciseHTML checks an `exercise` block and renders its static board,
// prompt and link to the practice page.
func exerciseHTML(f fields, slug string, w *words.Words) (*Exercise, template.HTML, error) {
	id, err := exerciseID(f, slug)
	if err != nil {
		return nil, "", err
	}
	pos, err := f.position()
	if err != nil {
		return nil, "", err
	}
	sqs, err := f.squares("square")
	if err != nil {
		return nil, "", err
	}
	if len(sqs) != 1 {
		return nil, "", f.errorf("square", "exercise %s needs exactly one square: the piece to move", id)
	}
	from := sqs[0]
	pc := pos.PieceAt(from)
	if pc == chess.NoPiece {
		return nil, "", f.errorf("square", "exercise %s: there is no piece on %s", id, from)
	}
	if pc.Color() != pos.Turn() {
		return nil, "", f.errorf("fen", "exercise %s: the %s on %s is %s, but the FEN gives the move to %s",
			id, pc.Type(), from, pc.Color(), pos.Turn())
	}
	if len(pos.Destinations(from)) == 0 {
		return nil, "", f.errorf("square", "exercise %s: the %s on %s has no legal move", id, pc.Type(), from)
	}
	prompt := f.values["prompt"]
	if prompt == "" {
		return nil, "", f.errorf("prompt", "exercise %s needs a prompt", id)
	}
	ex := &Exercise{ID: id, Prompt: prompt, Lesson: slug, Pos: pos, From: from, Kind: KindSquares}
	board := views.RenderBoard(views.Board{
		Pos: pos, Flipped: pos.Turn() == chess.Black, Classes: map[chess.Square][]string{from: {"subject"}},
		Interactive: true, ButtonName: "m", Size: "exercise",
		Attrs: map[string]string{"data-exercise": id, "data-exercise-kind": "squares", "data-from": from.String()}, Words: w,
	})
	return ex, exerciseSection(ex, board, w.T("lesson.solve_squares"), w), nil
}

// moveExerciseHTML checks a `move` block ("play the move", X6) and renders
// its static board, prompt and link to the practice page. The block is
// refused unless the goal fits the position with at least one right and
// one wrong legal move.
func moveExerciseHTML(f fields, slug string, w *words.Words) (*Exercise, template.HTML, error) {
	id, err := exerciseID(f, slug)
	if err != nil {
		return nil, "", err
	}
	pos, err := f.position()
	if err != nil {
		return nil, "", err
	}
	goal, err := exercise.ParseGoal(f.values["goal"])
	if err != nil {
		return nil, "", f.errorf("goal", "exercise %s: %v", id, err)
	}
	task := exercise.Task{Pos: pos, Goal: goal, Square: chess.NoSquare}
	if f.values["square"] != "" {
		sqs, err := f.squares("square")
		if err != nil {
			return nil, "", err
		}
		if len(sqs) != 1 {
			return nil, "", f.errorf("square", "exercise %s: square names one piece", id)
		}
		task.Square = sqs[0]
	}
	if v := f.values["limit"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, "", f.errorf("limit", "exercise %s: limit is a number of moves, not %q", id, v)
		}
		task.Limit = n
	}
	if err := task.Validate(); err != nil {
		return nil, "", f.errorf("goal", "exercise %s: %v", id, err)
	}
	prompt := f.values["prompt"]
	if prompt == "" {
		return nil, "", f.errorf("prompt", "exercise %s needs a prompt", id)
	}
	ex := &Exercise{ID: id, Prompt: prompt, Lesson: slug, Pos: pos, From: task.Square, Kind: KindMove, Goal: goal, Limit: task.Limit}
	classes := map[chess.Square][]string{}
	if task.Square != chess.NoSquare {
		classes[task.Square] = []string{"target"}
	}
	attrs := map[string]string{"data-exercise": id, "data-exercise-kind": "move", "data-goal": string(goal)}
	if task.Limit > 0 {
		attrs["data-limit"] = strconv.Itoa(task.Limit)
	}
	board := views.RenderBoard(views.Board{
		Pos: pos, Flipped: pos.Turn() == chess.Black, Classes: classes,
		Interactive: true, ButtonName: "sel", Size: "exercise", Attrs: attrs, Words: w,
	})
	return ex, exerciseSection(ex, board, w.T("lesson.solve_move"), w), nil
}

// nameExerciseHTML checks a `name` block ("click e4", X7): an empty board
// and the square to find.
func nameExerciseHTML(f fields, slug string, w *words.Words) (*Exercise, template.HTML, error) {
	id, err := exerciseID(f, slug)
	if err != nil {
		return nil, "", err
	}
	sqs, err := f.squares("square")
	if err != nil {
		return nil, "", err
	}
	if len(sqs) != 1 {
		return nil, "", f.errorf("square", "exercise %s needs exactly one square to find", id)
	}
	flipped := false
	switch f.values["orientation"] {
	case "", "white":
	case "black":
		flipped = true
	default:
		return nil, "", f.errorf("orientation", "orientation must be white or black, not %q", f.values["orientation"])
	}
	pos, _ := chess.ParseFEN(emptyBoardFEN)
	prompt := "lesson.name_prompt_white"
	if flipped {
		prompt = "lesson.name_prompt_black"
	}
	ex := &Exercise{ID: id, Lesson: slug, Pos: pos, From: chess.NoSquare, Kind: KindName, Target: sqs[0], Flipped: flipped,
		Prompt: w.T(prompt, "Square", sqs[0].String())}
	board := views.RenderBoard(views.Board{
		Pos: pos, Flipped: flipped, Interactive: true, ButtonName: "tried", Size: "exercise",
		Attrs: map[string]string{"data-exercise": id, "data-exercise-kind": "name", "data-target": sqs[0].String()}, Words: w,
	})
	return ex, exerciseSection(ex, board, w.T("lesson.solve_name"), w), nil
}

// setupExerciseHTML checks a `setup` block (X10): the board as given, each
// of its pieces on its starting square, and pieces left to place.
func setupExerciseHTML(f fields, slug string, w *words.Words) (*Exercise, template.HTML, error) {
	id, err := exerciseID(f, slug)
	if err != nil {
		return nil, "", err
	}
	pos, err := f.position()
	if err != nil {
		return nil, "", err
	}
	if err := (exercise.Setup{Given: pos}).Validate(); err != nil {
		return nil, "", f.errorf("fen", "exercise %s: %v", id, err)
	}
	prompt := f.values["prompt"]
	if prompt == "" {
		return nil, "", f.errorf("prompt", "exercise %s needs a prompt", id)
	}
	ex := &Exercise{ID: id, Prompt: prompt, Lesson: slug, Pos: pos, From: chess.NoSquare, Kind: KindSetup}
	board := views.RenderBoard(views.Board{
		Pos: pos, Size: "diagram", Words: w,
		Attrs: map[string]string{"data-exercise": id, "data-exercise-kind": "setup"},
	})
	return ex, exerciseSection(ex, board, w.T("lesson.solve_setup"), w), nil
}

// undefendedExerciseHTML checks an `undefended` block ("which of your
// pieces are undefended?"): the side to move has pieces both guarded and
// unguarded, and the learner marks the unguarded ones.
func undefendedExerciseHTML(f fields, slug string, w *words.Words) (*Exercise, template.HTML, error) {
	id, err := exerciseID(f, slug)
	if err != nil {
		return nil, "", err
	}
	pos, err := f.position()
	if err != nil {
		return nil, "", err
	}
	if err := exercise.ValidateUndefended(pos); err != nil {
		return nil, "", f.errorf("fen", "exercise %s: %v", id, err)
	}
	prompt := f.values["prompt"]
	if prompt == "" {
		return nil, "", f.errorf("prompt", "exercise %s needs a prompt", id)
	}
	ex := &Exercise{ID: id, Prompt: prompt, Lesson: slug, Pos: pos, From: chess.NoSquare, Kind: KindUndefended}
	board := views.RenderBoard(views.Board{
		Pos: pos, Flipped: pos.Turn() == chess.Black,
		Interactive: true, ButtonName: "m", Size: "exercise",
		Attrs: map[string]string{"data-exercise": id, "data-exercise-kind": "undefended", "data-from": pos.KingSquare(pos.Turn()).String()}, Words: w,
	})
	return ex, exerciseSection(ex, board, w.T("lesson.solve_loose"), w), nil
}

// emptyBoardFEN is a board with no pieces, for square-name exercises.
const emptyBoardFEN = "8/8/8/8/8/8/8/8 w - - 0 1"
