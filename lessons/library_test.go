package lessons

import (
	"html/template"
	"strings"
	"testing"
	"testing/fstest"

	"chesstutor/words"
)

func mustLibrary(t *testing.T) *Library {
	t.Helper()
	lib, err := LoadLibrary(nil)
	if err != nil {
		t.Fatalf("LoadLibrary: %v", err)
	}
	return lib
}

// TestLibraryServesEveryLanguage: each language has its own course, with
// the same lessons and exercises as English, and an unknown language
// reads English.
func TestLibraryServesEveryLanguage(t *testing.T) {
	lib := mustLibrary(t)
	en := lib.In(words.English)
	if lib.In("xx") != en || lib.In("") != en {
		t.Error("an unknown language does not get the English course")
	}
	for _, code := range []string{"es", "ru"} {
		tr := lib.In(code)
		if tr == en || tr.Lang() != code {
			t.Fatalf("In(%q) is not its own course (lang %q)", code, tr.Lang())
		}
		if len(tr.Lessons()) != len(en.Lessons()) || len(tr.Exercises()) != len(en.Exercises()) {
			t.Fatalf("%s: %d lessons and %d exercises, English %d and %d", code,
				len(tr.Lessons()), len(tr.Exercises()), len(en.Lessons()), len(en.Exercises()))
		}
		for i, l := range tr.Lessons() {
			if l.Slug != en.Lessons()[i].Slug || l.Title == en.Lessons()[i].Title {
				t.Errorf("%s lesson %d: slug %q title %q (English %q %q)", code, i+1, l.Slug, l.Title,
					en.Lessons()[i].Slug, en.Lessons()[i].Title)
			}
		}
		for i, ex := range tr.Exercises() {
			e := en.Exercises()[i]
			if ex.ID != e.ID || ex.Kind != e.Kind || ex.Pos.FEN() != e.Pos.FEN() || ex.Goal != e.Goal ||
				ex.From != e.From || ex.Target != e.Target || ex.Flipped != e.Flipped {
				t.Errorf("%s exercise %d (%s) does not grade like English's %s", code, i+1, ex.ID, e.ID)
			}
			if ex.Prompt == e.Prompt {
				t.Errorf("%s exercise %s keeps the English prompt %q", code, ex.ID, ex.Prompt)
			}
		}
		if tr.Rules() == en.Rules() || tr.RulesTitle() == en.RulesTitle() || tr.RulesSummary() == "" {
			t.Errorf("%s: the rules page is not translated", code)
		}
		if tr.Glossary() == en.Glossary() || tr.GlossaryTitle() == en.GlossaryTitle() {
			t.Errorf("%s: the glossary is not translated", code)
		}
	}
}

// TestRussianLessonSpeaksRussian renders the rook lesson in Russian: its
// boards are labelled in Russian and the words the course adds (the
// exercise link, the name-exercise prompt) come from the Russian
// catalogue.
func TestRussianLessonSpeaksRussian(t *testing.T) {
	lib := mustLibrary(t)
	ru := words.Default().For("ru")
	rook, ok := lib.In("ru").Lesson("rook")
	if !ok {
		t.Fatal("no Russian rook lesson")
	}
	html := string(rook.HTML)
	for _, want := range []string{
		"белая ладья",             // a square's label
		"Шахматная доска, внизу ", // the board's label
		template.HTMLEscapeString(ru.T("lesson.solve_squares")),
		template.HTMLEscapeString(ru.T("lesson.exercise_label")),
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the Russian rook lesson lacks %q", want)
		}
	}
	for _, english := range []string{"white rook", "Chess board", "Solve it", "Exercise."} {
		if strings.Contains(html, english) {
			t.Errorf("the Russian rook lesson says %q", english)
		}
	}
	// The generated prompt of a name exercise is worded too.
	for _, ex := range lib.In("ru").Exercises() {
		if ex.Kind == KindName {
			want := ru.T("lesson.name_prompt_white", "Square", ex.Target.String())
			if ex.Flipped {
				want = ru.T("lesson.name_prompt_black", "Square", ex.Target.String())
			}
			if ex.Prompt != want || !strings.HasPrefix(ex.Prompt, "Нажми") {
				t.Errorf("name exercise %s: prompt %q, want %q", ex.ID, ex.Prompt, want)
			}
		}
	}
}

// A small course: two lessons with every kind of block, a heading id, a
// link, the rules page and the glossary. tr gives a translation's words;
// the English words are the default.
func smallCourse(title, caption, prompt, term string) fstest.MapFS {
	lesson1 := "---\ntitle: " + title + " 1\norder: 1\nsummary: " + title + "\n---\n\n" +
		"## " + title + " {#moves}\n\nSee [" + term + "](/learn/b) and [" + term + "](/rules#castling).\n\n" +
		"```board\nfen: 8/8/8/8/4R3/8/8/8 w - - 0 1\nhighlight: e4 e5\narrows: e4e8\nattacks: e4a4\ncaption: " + caption + "\n```\n\n" +
		"```exercise\nid: rook-a\nfen: 8/8/8/8/4R3/8/8/8 w - - 0 1\nsquare: e4\nprompt: " + prompt + "\n```\n"
	lesson2 := "---\ntitle: " + title + " 2\norder: 2\nsummary: " + title + "\n---\n\n" +
		"## " + title + " {#mate}\n\n" +
		"```move\nid: mate-a\nfen: 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngoal: mate\nprompt: " + prompt + "\n```\n\n" +
		"```name\nid: find-e4\nsquare: e4\norientation: black\n```\n"
	rules := "---\ntitle: " + title + "\nsummary: " + title + "\n---\n\n## " + title + " {#castling}\n\n[" + term + "](/learn/a)\n\n" +
		"```board\nfen: 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1\nplay: computer\ncaption: " + caption + "\n```\n"
	glossary := "---\ntitle: " + title + "\n---\n\n" + term + "\n: " + term + " [" + term + "](/learn/a)\n\n" +
		term + " 2\n: " + term + " [" + term + "](/learn/b)\n"
	return fstest.MapFS{
		"01-a.md": {Data: []byte(lesson1)}, "02-b.md": {Data: []byte(lesson2)},
		"rules.md": {Data: []byte(rules)}, "glossary.md": {Data: []byte(glossary)},
	}
}

// library lays out en, es and ru; es is the translation under test, ru a
// good one.
func library(es fstest.MapFS) fstest.MapFS {
	out := fstest.MapFS{}
	for dir, files := range map[string]fstest.MapFS{
		"en": smallCourse("Rook", "The rook", "Mark the squares.", "Castling"),
		"es": es,
		"ru": smallCourse("Ладья", "Ладья", "Отметь поля.", "Рокировка"),
	} {
		for name, f := range files {
			out[dir+"/"+name] = f
		}
	}
	return out
}

func spanish() fstest.MapFS {
	return smallCourse("Torre", "La torre", "Marca las casillas.", "Enroque")
}

// edit returns the Spanish course with one file changed.
func edit(name, old, new string) fstest.MapFS {
	es := spanish()
	src := string(es[name].Data)
	if !strings.Contains(src, old) {
		panic("edit: " + name + " lacks " + old)
	}
	es[name] = &fstest.MapFile{Data: []byte(strings.Replace(src, old, new, 1))}
	return es
}

func without(name string) fstest.MapFS {
	es := spanish()
	delete(es, name)
	return es
}

func with(name, src string) fstest.MapFS {
	es := spanish()
	es[name] = &fstest.MapFile{Data: []byte(src)}
	return es
}

// TestLibraryRefusesBrokenTranslations: a translation may change its words
// and nothing else; each way of breaking it stops the load with the file
// and what differs.
func TestLibraryRefusesBrokenTranslations(t *testing.T) {
	cat := words.Default()
	lib, err := loadLibrary(library(spanish()), cat)
	if err != nil {
		t.Fatalf("a faithful translation is refused: %v", err)
	}
	if lib.In("es").Lessons()[0].Title != "Torre 1" || !strings.Contains(string(lib.In("es").Rules()), "Juega esta posición") {
		t.Fatal("the Spanish test course is not the Spanish one")
	}
	tests := []struct {
		name string
		es   fstest.MapFS
		want string
	}{
		{"missing lesson", without("02-b.md"), "es/02-b.md: missing"},
		{"lesson not in English (another slug)", with("03-c.md", "---\ntitle: C\norder: 3\nsummary: C\n---\nTexto.\n"), "es/03-c.md: not in English"},
		{"missing rules", without("rules.md"), "es/rules.md: missing"},
		{"missing glossary", without("glossary.md"), "es/glossary.md: missing"},
		{"other order", edit("02-b.md", "order: 2", "order: 3"), `es/02-b.md:1: order is "3", English has "2"`},
		{"no rules summary", edit("rules.md", "summary: Torre\n", ""), "es/rules.md:1: the front matter lacks summary"},
		{"heading without its id", edit("01-a.md", " {#moves}", ""), "es/01-a.md: heading ids [torre], English has [moves]"},
		{"other heading id", edit("rules.md", "{#castling}", "{#enroque}"), "es/rules.md: heading ids [enroque]"},
		{"other link", edit("01-a.md", "(/learn/b)", "(/learn/c)"), "es/01-a.md: links to /learn/c, English to /learn/b"},
		{"lost link", edit("glossary.md", "[Enroque](/learn/b)", "Enroque"), "es/glossary.md: links to the same targets, English to /learn/b"},
		{"other fen", edit("01-a.md", "fen: 8/8/8/8/4R3/8/8/8 w - - 0 1\nhighlight", "fen: 8/8/8/8/4R3/8/8/7K w - - 0 1\nhighlight"), "es/01-a.md:11: block 1 is board (fen=8/8/8/8/4R3/8/8/7K w - - 0 1;"},
		{"other highlight", edit("01-a.md", "highlight: e4 e5", "highlight: e4"), "; highlight=e4; "},
		{"other arrows", edit("01-a.md", "arrows: e4e8", "arrows: e4e7"), "arrows=e4e7"},
		{"other attacks", edit("01-a.md", "attacks: e4a4", ""), "attacks=;"},
		{"other orientation", edit("01-a.md", "caption: La torre", "orientation: black\ncaption: La torre"), "orientation=black"},
		{"no play button", edit("rules.md", "play: computer\n", ""), "es/rules.md:10: block 1 is board"},
		{"other exercise id", edit("01-a.md", "id: rook-a", "id: torre-a"), "block 2 is exercise (id=torre-a"},
		{"other exercise square", edit("01-a.md", "fen: 8/8/8/8/4R3/8/8/8 w - - 0 1\nsquare: e4", "fen: 8/8/8/8/3R4/8/8/8 w - - 0 1\nsquare: d4"), "block 2 is exercise (id=rook-a; fen=8/8/8/8/3R4/8/8/8 w - - 0 1; square=d4)"},
		{"spacing is no difference", edit("01-a.md", "highlight: e4 e5", "highlight:   e4    e5"), ""},
		{"other goal", edit("02-b.md", "goal: mate", "goal: check"), "block 1 is move (id=mate-a; fen=6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1; goal=check"},
		{"other name square", edit("02-b.md", "square: e4\norientation", "square: e5\norientation"), "id=find-e4; square=e5"},
		{"other name orientation", edit("02-b.md", "orientation: black", "orientation: white"), "orientation=white"},
		{"exercise turned into a board", edit("02-b.md", "```name\nid: find-e4\nsquare: e4\norientation: black\n```", "```board\nfen: 8/8/8/8/8/8/8/8 w - - 0 1\n```"), "block 2 is board"},
		{"lost exercise", edit("02-b.md", "```name\nid: find-e4\nsquare: e4\norientation: black\n```\n", ""), "es/02-b.md: lacks block 2, English's name block (id=find-e4; square=e4; orientation=black)"},
		{"extra board", edit("02-b.md", "## Torre {#mate}", "## Torre {#mate}\n\n```board\nfen: 8/8/8/8/8/8/8/8 w - - 0 1\n```"), "es/02-b.md:20: block 3 (name) is not in English"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadLibrary(library(tt.es), cat)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant an error containing %q", err, tt.want)
			}
		})
	}
}

// TestLibraryRefusesALanguageWithoutCourse: every language the site speaks
// has lessons, and every lesson folder is a language the site speaks.
func TestLibraryRefusesALanguageWithoutCourse(t *testing.T) {
	fsys := library(spanish())
	for name := range fsys {
		if strings.HasPrefix(name, "ru/") {
			delete(fsys, name)
		}
	}
	if _, err := loadLibrary(fsys, words.Default()); err == nil || !strings.Contains(err.Error(), `the site speaks "ru" but lessons/ru holds no lessons`) {
		t.Errorf("a language without lessons: got %v", err)
	}
	fsys = library(spanish())
	for name, f := range smallCourse("Turm", "Der Turm", "Markiere.", "Rochade") {
		fsys["de/"+name] = f
	}
	if _, err := loadLibrary(fsys, words.Default()); err == nil || !strings.Contains(err.Error(), "lessons/de is a language the site does not speak") {
		t.Errorf("lessons in a language without words: got %v", err)
	}
}

// TestPseudoLanguageGetsItsWords: the test pseudo-language has no lessons
// of its own; it gets English's with its words around them, so a test
// can tell the course's own words from the lessons' text.
func TestPseudoLanguageGetsItsWords(t *testing.T) {
	cat, err := words.Load(words.WithPseudo())
	if err != nil {
		t.Fatal(err)
	}
	lib, err := LoadLibrary(cat)
	if err != nil {
		t.Fatal(err)
	}
	pseudo := lib.In(words.Pseudo)
	if pseudo == lib.In(words.English) || len(pseudo.Lessons()) != len(lib.In(words.English).Lessons()) {
		t.Fatal("the pseudo-language has no course of its own")
	}
	rook, _ := pseudo.Lesson("rook")
	if want := template.HTMLEscapeString(cat.For(words.Pseudo).T("lesson.solve_squares")); !strings.Contains(string(rook.HTML), want) {
		t.Errorf("the pseudo rook lesson lacks %q", want)
	}
}

// TestCheckListsEveryProblem: Check (cmd/langcheck) lists all of a
// translation's differences at once, where the start-up refuses the
// library; a file that cannot render is one problem; the embedded
// translations have none.
func TestCheckListsEveryProblem(t *testing.T) {
	cat := words.Default()
	for _, code := range []string{"en", "es", "ru"} {
		problems, err := Check(cat, code)
		if err != nil || len(problems) != 0 {
			t.Errorf("Check(%s) = %q, %v", code, problems, err)
		}
	}
	es := edit("01-a.md", "(/learn/b)", "(/learn/c)")
	es["02-b.md"] = edit("02-b.md", "order: 2", "order: 3")["02-b.md"]
	delete(es, "rules.md")
	problems, err := check(library(es), cat, "es")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"es/rules.md: missing (English has en/rules.md)",
		"es/01-a.md: links to /learn/c, English to /learn/b",
		`es/02-b.md:1: order is "3", English has "2"`,
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	problems, err = check(library(edit("01-a.md", "fen: 8/8/8/8/4R3/8/8/8 w - - 0 1\nhighlight", "fen: 8/8/8/8/4R3/8/8 w - - 0 1\nhighlight")), cat, "es")
	if err != nil || len(problems) != 1 || !strings.HasPrefix(problems[0], "es/01-a.md:") || !strings.Contains(problems[0], "FEN") {
		t.Errorf("a board that cannot render: %q, %v", problems, err)
	}
	broken := library(spanish())
	delete(broken, "en/01-a.md")
	broken["en/02-b.md"] = &fstest.MapFile{Data: []byte("no front matter")}
	if _, err := check(broken, cat, "es"); err == nil {
		t.Error("a broken English course is not an error")
	}
}
