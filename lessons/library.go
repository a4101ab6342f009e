package lessons

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"chesstutor/words"
)

// Library is the course in every language the site speaks. English is the
// source; every translation is checked against it when the library loads,
// so a translation can change the words and nothing else.
type Library struct {
	courses map[string]*Course
	english *Course
}

// LoadLibrary renders the embedded course in each language of the
// catalogue (nil: words.Default()), each with that language's words, and
// refuses a translation that differs from English (see compare). The
// test-only pseudo-language, which has no lessons of its own, gets the
// English lessons with its words around them.
//
// A library is read-only, so the one for the embedded catalogue is built
// once per process and shared (tests build many sites).
func LoadLibrary(cat *words.Catalogue) (*Library, error) {
	if cat == nil || cat == words.Default() {
		return defaultLibrary()
	}
	return loadLibrary(files, cat)
}

var defaultLibrary = sync.OnceValues(func() (*Library, error) { return loadLibrary(files, words.Default()) })

// loadLibrary builds a library from a file system with one folder per
// language code; tests use it with fstest.MapFS.
func loadLibrary(fsys fs.FS, cat *words.Catalogue) (*Library, error) {
	lib := &Library{courses: map[string]*Course{}}
	codes := []string{words.English}
	for _, l := range cat.Languages() {
		if l.Code != words.English {
			codes = append(codes, l.Code)
		}
	}
	for _, code := range codes {
		c, err := loadCourse(fsys, cat, code)
		if err != nil {
			return nil, err
		}
		lib.courses[code] = c
	}
	lib.english = lib.courses[words.English]
	var problems []string
	for _, code := range codes[1:] {
		problems = append(problems, compare(lib.english, lib.courses[code])...)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("lessons: %d differences between a translation and English:\n  %s",
			len(problems), strings.Join(problems, "\n  "))
	}
	dirs, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if d.IsDir() && lib.courses[d.Name()] == nil {
			return nil, fmt.Errorf("lessons: lessons/%s is a language the site does not speak (no words catalogue)", d.Name())
		}
	}
	if cat.Supported(words.Pseudo) {
		sub, err := fs.Sub(fsys, words.English)
		if err != nil {
			return nil, err
		}
		c, err := load(sub, words.English, cat.For(words.Pseudo))
		if err != nil {
			return nil, err
		}
		lib.courses[words.Pseudo] = c
	}
	return lib, nil
}

// loadCourse renders one language's folder of fsys with that language's
// words.
func loadCourse(fsys fs.FS, cat *words.Catalogue, code string) (*Course, error) {
	sub, err := fs.Sub(fsys, code)
	if err != nil {
		return nil, err
	}
	if names, _ := fs.Glob(sub, "*.md"); len(names) == 0 {
		return nil, fmt.Errorf("lessons: the site speaks %q but lessons/%s holds no lessons", code, code)
	}
	return load(sub, code, cat.For(code))
}

// Check lists everything that keeps the embedded course in lang from
// loading: the first error that stops its files rendering (a bad FEN, a
// missing front-matter field), else every way it differs from English
// other than its words (see compare). LoadLibrary refuses the same
// things one start-up at a time; Check is for cmd/langcheck, which shows
// a translator the whole list. An empty list means the course is sound.
// The error is for English itself failing to load, the yardstick.
func Check(cat *words.Catalogue, lang string) ([]string, error) {
	return check(files, cat, lang)
}

func check(fsys fs.FS, cat *words.Catalogue, lang string) ([]string, error) {
	en, err := loadCourse(fsys, cat, words.English)
	if err != nil || lang == words.English {
		return nil, err
	}
	tr, err := loadCourse(fsys, cat, lang)
	if err != nil {
		return []string{strings.TrimPrefix(err.Error(), "lessons: ")}, nil
	}
	return compare(en, tr), nil
}

// In returns the course in lang; a language without a course gets English.
func (l *Library) In(lang string) *Course {
	if c := l.courses[lang]; c != nil {
		return c
	}
	return l.english
}

// compare lists every way a translation differs from English other than
// its words: the lesson files (so the slugs and the order), the front
// matter each needs, and in every file the heading ids, the link targets
// and the boards and exercises with their language-neutral fields.
func compare(en, tr *Course) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	names := func(c *Course) []string {
		var ns []string
		for n := range c.files {
			ns = append(ns, n)
		}
		slices.Sort(ns)
		return ns
	}
	for _, n := range names(en) {
		if tr.files[n] == nil {
			add("%s/%s: missing (English has %s/%s)", tr.lang, n, en.lang, n)
		}
	}
	for _, n := range names(tr) {
		if en.files[n] == nil {
			add("%s/%s: not in English (a lesson must have the English file name, so the same slug)", tr.lang, n)
		}
	}
	for _, n := range names(en) {
		e, t := en.files[n], tr.files[n]
		if t == nil {
			continue
		}
		where := tr.lang + "/" + n
		for _, k := range []string{"title", "order", "summary"} {
			switch {
			case e.meta[k] != "" && t.meta[k] == "":
				add("%s:1: the front matter lacks %s", where, k)
			case e.meta[k] == "" && t.meta[k] != "":
				add("%s:1: the front matter has %s, which English lacks", where, k)
			}
		}
		if e.meta["order"] != t.meta["order"] {
			add("%s:1: order is %q, English has %q", where, t.meta["order"], e.meta["order"])
		}
		if !slices.Equal(e.headings, t.headings) {
			add("%s: heading ids %v, English has %v (give every heading its English {#id})", where, t.headings, e.headings)
		}
		el, tl := slices.Sorted(slices.Values(e.links)), slices.Sorted(slices.Values(t.links))
		if !slices.Equal(el, tl) {
			add("%s: links to %s, English to %s", where, linkDiff(tl, el), linkDiff(el, tl))
		}
		out = append(out, compareBlocks(where, e.blocks, t.blocks)...)
	}
	return out
}

// linkDiff lists the targets of a that b lacks (both sorted), or "the same
// targets" when there are none.
func linkDiff(a, b []string) string {
	var extra []string
	i := 0
	for _, x := range a {
		for i < len(b) && b[i] < x {
			i++
		}
		if i < len(b) && b[i] == x {
			i++
			continue
		}
		extra = append(extra, x)
	}
	if len(extra) == 0 {
		return "the same targets"
	}
	return strings.Join(extra, " ")
}

// compareBlocks pairs the boards and exercises of a translated file with
// English's, in order.
func compareBlocks(where string, en, tr []blockShape) []string {
	var out []string
	for i := 0; i < max(len(en), len(tr)); i++ {
		switch {
		case i >= len(tr):
			out = append(out, fmt.Sprintf("%s: lacks block %d, English's %s block (%s)", where, i+1, en[i].kind, en[i].facts))
		case i >= len(en):
			out = append(out, fmt.Sprintf("%s:%d: block %d (%s) is not in English", where, tr[i].line, i+1, tr[i].kind))
		case en[i].kind != tr[i].kind || en[i].facts != tr[i].facts:
			out = append(out, fmt.Sprintf("%s:%d: block %d is %s (%s); English's is %s (%s)",
				where, tr[i].line, i+1, tr[i].kind, tr[i].facts, en[i].kind, en[i].facts))
		}
	}
	return out
}
