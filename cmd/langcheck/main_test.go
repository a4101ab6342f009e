package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"chesstutor/words"
)

// locales copies the catalogue's files from the source tree, for a test
// to break.
func locales(t *testing.T) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	src := os.DirFS("../../words/locales")
	err := fs.WalkDir(src, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(src, name)
		out[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// change replaces old with new in one file of fsys, once.
func change(t *testing.T, fsys fstest.MapFS, name, old, new string) {
	t.Helper()
	src := string(fsys[name].Data)
	if !strings.Contains(src, old) {
		t.Fatalf("%s lacks %q: the test needs another line to break", name, old)
	}
	fsys[name] = &fstest.MapFile{Data: []byte(strings.Replace(src, old, new, 1))}
}

func check(t *testing.T, fsys fstest.MapFS, lang string) (int, string) {
	t.Helper()
	cat, err := words.LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	status := run(&out, cat, lang)
	return status, out.String()
}

// TestListsABrokenCatalogue: a translation that lost a key, dropped a
// placeholder and kept a key English no longer has is listed line by
// line with the file to open, and the status is 1; the lessons, which
// are sound, add nothing.
func TestListsABrokenCatalogue(t *testing.T) {
	fsys := locales(t)
	var missing string
	for _, line := range strings.Split(string(fsys["es/errors.toml"].Data), "\n") {
		if strings.HasPrefix(line, "status_404 =") {
			missing = line + "\n"
		}
	}
	if missing == "" {
		t.Fatal("es/errors.toml has no status_404 line to delete")
	}
	change(t, fsys, "es/errors.toml", missing, "")
	change(t, fsys, "es/errors.toml", "[error]\n", "[error]\nold_words = \"Palabras viejas\"\n")
	change(t, fsys, "ru/errors.toml", "{{.Limit}}", "{{.Limt}}")

	status, out := check(t, fsys, "")
	if status != 1 {
		t.Errorf("status %d, want 1", status)
	}
	for _, want := range []string{
		"\nes: 2 problems\n",
		"  catalogue words/locales/es/errors.toml: error.status_404: missing\n",
		"  catalogue words/locales/es/errors.toml: error.old_words: not in English (unused?)\n",
		"\nru: 2 problems\n",
		"  catalogue words/locales/ru/errors.toml: error.body_too_large: drops the placeholder .Limit\n",
		"  catalogue words/locales/ru/errors.toml: error.body_too_large: has a placeholder English lacks: .Limt\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	en := len(words.MustLoad().Keys("en"))
	for _, want := range []string{
		"Keys per language:\n",
		fmt.Sprintf("  en  %4d (the source)\n", en),
		fmt.Sprintf("  es  %4d\n", en), // one missing, one extra
		fmt.Sprintf("  ru  %4d\n", en),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the key counts lack %q:\n%s", want, out)
		}
	}

	// One language: only its problems.
	status, out = check(t, fsys, "ru")
	if status != 1 || strings.Contains(out, "es:") || strings.Contains(out, "es ") || !strings.Contains(out, "\nru: 2 problems\n") {
		t.Errorf("-lang ru: status %d\n%s", status, out)
	}
}

// TestCleanIsZero: the catalogue as it is, and each language alone, is
// clean.
func TestCleanIsZero(t *testing.T) {
	if testing.Short() {
		t.Skip("renders the course in every language")
	}
	for _, lang := range []string{"", "en", "es", "ru"} {
		status, out := check(t, locales(t), lang)
		want := "\nen: clean\n\nes: clean\n\nru: clean\n"
		if lang != "" {
			want = "\n" + lang + ": clean\n"
		}
		if status != 0 || !strings.HasSuffix(out, want) {
			t.Errorf("-lang %q: status %d\n%s", lang, status, out)
		}
	}
}

// TestUnknownLanguage: a language the site does not speak is a usage
// error that says what to do first.
func TestUnknownLanguage(t *testing.T) {
	status, out := check(t, locales(t), "de")
	if status != 2 || !strings.Contains(out, `does not speak "de"; it speaks en, es, ru`) || !strings.Contains(out, "Adding a language") {
		t.Errorf("status %d\n%s", status, out)
	}
}

// TestQuizProblemIsItsLanguages: the quiz stops at its first problem; it
// is listed under the language whose folder it names, and a language the
// site speaks without questions is missing them.
func TestQuizProblemIsItsLanguages(t *testing.T) {
	esErr := errors.New(`quiz: questions/es/board.json: question 2 ("board-queen-colour"): the fen differs from English`)
	tests := []struct {
		name    string
		err     error
		langs   []string
		lang    string
		want    string
		wantErr bool
	}{
		{"its own", esErr, nil, "es", `quiz/questions/es/board.json: question 2 ("board-queen-colour"): the fen differs from English`, false},
		{"another's", esErr, nil, "ru", "", false},
		{"English's", errors.New("quiz: questions/en/board.json: question 1: bad FEN"), nil, "ru", "", true},
		{"no folder", nil, []string{"en", "es"}, "ru", "quiz/questions/ru: missing (copy quiz/questions/en and translate it)", false},
		{"sound", nil, []string{"en", "es", "ru"}, "ru", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := quizProblem(tt.err, tt.langs, tt.lang)
			if strings.Join(got, "\n") != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("got %q, %v; want %q (error %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
