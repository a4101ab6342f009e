// Package lessons holds the beginner course: Markdown files embedded in the
// binary, one folder per language (en, es, ru), each rendered once at
// start-up by goldmark with two fenced blocks of our own, a board diagram
// and an exercise (L1–L4, X2).
//
// A lesson that cannot be rendered (a bad FEN, an unknown square, a missing
// front-matter field) fails Load with the file and line, so a mistake stops
// the build and the tests, never a visitor's request. A translation that
// differs from English in anything but its words (see library.go) fails
// LoadLibrary the same way.
package lessons

import (
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"chesstutor/chess"
	"chesstutor/exercise"
	"chesstutor/words"
)

// files holds one folder of Markdown per language, named by its code.
//
//go:embed */*.md
var files embed.FS

// rulesFile is the /rules page; it is rendered like a lesson but is not part
// of the course order.
const rulesFile = "rules.md"

// glossaryFile is the /glossary page: the words of chess in plain terms,
// rendered like a lesson, outside the course order.
const glossaryFile = "glossary.md"

// Course is the whole course in one language, rendered and checked.
type Course struct {
	lang         string
	lessons      []*Lesson
	bySlug       map[string]*Lesson
	exercises    []*Exercise
	byID         map[string]*Exercise
	rules        template.HTML
	rulesName    string
	rulesSummary string
	glossary     template.HTML
	glossaryName string
	// files are the documents by file name with what a translation must
	// keep of them (library.go compares them with English).
	files map[string]*document
}

// Lesson is one rendered lesson.
type Lesson struct {
	Slug, Title, Summary string
	Order                int
	HTML                 template.HTML // rendered once at start-up
	Exercises            []*Exercise
	Diagrams             int // number of board diagrams (not counting exercises)
	Prev, Next           *Lesson
}

// Kind is the kind of an exercise.
type Kind string

// The exercise kinds.
const (
	KindSquares Kind = "squares" // mark every square the piece may move to (X1)
	KindMove    Kind = "move"    // play the move that reaches a goal (X6)
	KindName    Kind = "name"    // click the named square (X7)
	KindSetup   Kind = "setup"   // place the pieces from a tray to set up the board (X10)
	// KindUndefended: mark every piece of the side to move that no other
	// piece of that side guards (issue 36).
	KindUndefended Kind = "undefended"
)

// Marks reports whether the exercise is answered by marking squares on
// the board and pressing Check: the squares and undefended kinds.
func (e *Exercise) Marks() bool { return e.Kind == KindSquares || e.Kind == KindUndefended }

// Exercise is one task. Its answer is never stored: for the squares kind
// it is Pos.Destinations(From) (X3), for the move kind the moves that reach
// Goal (exercise.Task), for the name kind the square Target.
type Exercise struct {
	ID, Prompt, Lesson string // Lesson = slug of its lesson
	Pos                *chess.Position
	From               chess.Square // squares: the piece; move: the piece to save (save goal) or NoSquare
	Kind               Kind
	Goal               exercise.Goal // move kind
	Limit              int           // move kind, mate-technique: the moves allowed
	Target             chess.Square  // name kind
	Flipped            bool          // name kind: seen from Black's side
}

// Setup is the setup exercise as the grader sees it: Pos is the board as
// it is given.
func (e *Exercise) Setup() exercise.Setup { return exercise.Setup{Given: e.Pos} }

// Task is the move exercise as the grader sees it.
func (e *Exercise) Task() exercise.Task {
	return exercise.Task{Pos: e.Pos, Goal: e.Goal, Square: e.From, Limit: e.Limit}
}

// Load parses and renders the English course, the source every
// translation follows: its exercises, slugs and positions are those of
// every language. The site serves all languages through LoadLibrary.
func Load() (*Course, error) {
	sub, err := fs.Sub(files, words.English)
	if err != nil {
		return nil, err
	}
	return load(sub, words.English, words.Default().For(words.English))
}

var fileNameRe = regexp.MustCompile(`^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$`)

// load builds a course from one language's folder dir (any file system
// laid out like the embedded one; tests use fstest.MapFS and dir ""),
// worded by w: the words the course adds around the Markdown (exercise
// links, generated prompts) and the boards' labels. Errors name the file
// with its folder ("es/03-rook.md:12: …"), so an author knows which
// translation to open.
func load(fsys fs.FS, dir string, w *words.Words) (*Course, error) {
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, fmt.Errorf("lessons: list files: %w", err)
	}
	c := &Course{lang: w.Lang(), bySlug: map[string]*Lesson{}, byID: map[string]*Exercise{}, files: map[string]*document{}}
	orders := map[int]string{}
	for _, file := range names {
		src, err := fs.ReadFile(fsys, file)
		name := path.Join(dir, file) // for errors
		if err != nil {
			return nil, fmt.Errorf("lessons: read %s: %w", name, err)
		}
		if file == glossaryFile {
			doc, err := render(name, "", src, w)
			if err != nil {
				return nil, err
			}
			c.files[file] = doc
			c.glossary, c.glossaryName = doc.html, doc.meta["title"]
			continue
		}
		if file == rulesFile {
			doc, err := render(name, "", src, w)
			if err != nil {
				return nil, err
			}
			if len(doc.exercises) > 0 {
				return nil, fmt.Errorf("lessons: %s: the rules page may not hold exercises", name)
			}
			c.files[file] = doc
			c.rules, c.rulesName, c.rulesSummary = doc.html, doc.meta["title"], doc.meta["summary"]
			continue
		}
		m := fileNameRe.FindStringSubmatch(file)
		if m == nil {
			return nil, fmt.Errorf("lessons: %s: file name must look like 01-some-slug.md", name)
		}
		slug := m[2]
		doc, err := render(name, slug, src, w)
		if err != nil {
			return nil, err
		}
		c.files[file] = doc
		l := &Lesson{Slug: slug, Title: doc.meta["title"], Summary: doc.meta["summary"], HTML: doc.html,
			Exercises: doc.exercises, Diagrams: doc.diagrams}
		if l.Title == "" || l.Summary == "" {
			return nil, fmt.Errorf("lessons: %s:1: front matter needs a title and a summary", name)
		}
		l.Order, err = strconv.Atoi(doc.meta["order"])
		if err != nil || l.Order <= 0 {
			return nil, fmt.Errorf("lessons: %s:1: front matter needs order: a positive number", name)
		}
		if other, dup := orders[l.Order]; dup {
			return nil, fmt.Errorf("lessons: %s and %s share order %d", other, name, l.Order)
		}
		orders[l.Order] = name
		if _, dup := c.bySlug[slug]; dup {
			return nil, fmt.Errorf("lessons: %s: slug %q is used twice", name, slug)
		}
		c.bySlug[slug] = l
		c.lessons = append(c.lessons, l)
		for _, ex := range l.Exercises {
			if _, dup := c.byID[ex.ID]; dup {
				return nil, fmt.Errorf("lessons: %s: exercise id %q is used twice in the course", name, ex.ID)
			}
			c.byID[ex.ID] = ex
		}
	}
	if len(c.lessons) == 0 {
		return nil, fmt.Errorf("lessons: no lessons found")
	}
	sort.Slice(c.lessons, func(i, j int) bool { return c.lessons[i].Order < c.lessons[j].Order })
	for i, l := range c.lessons {
		if i > 0 {
			l.Prev = c.lessons[i-1]
		}
		if i+1 < len(c.lessons) {
			l.Next = c.lessons[i+1]
		}
		c.exercises = append(c.exercises, l.Exercises...)
	}
	return c, nil
}

// Lang is the code of the course's language.
func (c *Course) Lang() string { return c.lang }

// Lessons returns the lessons in course order.
func (c *Course) Lessons() []*Lesson { return c.lessons }

// Lesson returns the lesson with the given slug.
func (c *Course) Lesson(slug string) (*Lesson, bool) {
	l, ok := c.bySlug[slug]
	return l, ok
}

// Exercises returns every exercise in course order.
func (c *Course) Exercises() []*Exercise { return c.exercises }

// Exercise returns the exercise with the given id.
func (c *Course) Exercise(id string) (*Exercise, bool) {
	e, ok := c.byID[id]
	return e, ok
}

// Rules returns the rendered body of the /rules page.
func (c *Course) Rules() template.HTML { return c.rules }

// Glossary returns the rendered body of the /glossary page ("" when the
// course has none).
func (c *Course) Glossary() template.HTML { return c.glossary }

// RulesTitle returns the title of the /rules page.
func (c *Course) RulesTitle() string { return c.rulesName }

// RulesSummary returns the one-line summary of the /rules page (its
// meta description).
func (c *Course) RulesSummary() string { return c.rulesSummary }

// GlossaryTitle returns the title of the /glossary page.
func (c *Course) GlossaryTitle() string { return c.glossaryName }

// Piece returns the piece the exercise is about.
func (e *Exercise) Piece() chess.Piece { return e.Pos.PieceAt(e.From) }

// PracticeURL is the address of the exercise on its lesson's practice page.
func (e *Exercise) PracticeURL() string {
	return "/learn/" + url.PathEscape(e.Lesson) + "/practice?ex=" + url.QueryEscape(e.ID)
}

// splitFrontMatter separates the "---" delimited header from the body and
// returns the number of lines the header took, so body line numbers can be
// reported as file line numbers.
func splitFrontMatter(name string, src []byte) (map[string]string, []byte, int, error) {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return nil, nil, 0, fmt.Errorf("lessons: %s:1: the file must start with a --- front matter block", name)
	}
	end := strings.Index(text[4:], "\n---\n")
	if end < 0 {
		return nil, nil, 0, fmt.Errorf("lessons: %s:1: the front matter block is not closed by ---", name)
	}
	header := text[4 : 4+end]
	body := text[4+end+5:]
	meta := map[string]string{}
	for i, line := range strings.Split(header, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, nil, 0, fmt.Errorf("lessons: %s:%d: front matter lines look like key: value", name, i+2)
		}
		switch k {
		case "title", "order", "summary":
		default:
			return nil, nil, 0, fmt.Errorf("lessons: %s:%d: unknown front matter key %q", name, i+2, k)
		}
		meta[k] = strings.TrimSpace(v)
	}
	headerLines := strings.Count(text[:4+end+5], "\n")
	return meta, []byte(body), headerLines, nil
}
