// Command langcheck lists, for every language the site speaks, what keeps
// its translation from matching English: catalogue keys missing or extra
// and placeholders dropped or invented (words), lesson files, front
// matter, heading ids, links, boards and exercises that differ from
// English's (lessons), and the quiz's first problem (quiz.Load stops at
// one). It reads the files embedded in the binary, so it
// sees a translation as the site would serve it. Run from the repository
// root:
//
//	go run ./cmd/langcheck            # every language
//	go run ./cmd/langcheck -lang es   # one language
//
// It prints the key count of each language, then each language's
// problems, one per line with the file to open, and exits 0 when there
// are none, 1 when there are, 2 when it was asked for a language the
// site does not speak.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"chesstutor/lessons"
	"chesstutor/quiz"
	"chesstutor/words"
)

func main() {
	lang := flag.String("lang", "", "check only this language (a code such as es); empty: every language")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./cmd/langcheck [-lang code]\n\n"+
			"Lists what each translation lacks or does differently from English.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	cat, err := words.Load()
	if err != nil {
		// A translation's catalogue that does not parse is the first
		// thing its author must fix; go-i18n names the file.
		fmt.Fprintln(os.Stderr, "langcheck: the catalogue does not load:", err)
		os.Exit(1)
	}
	os.Exit(run(os.Stdout, cat, *lang))
}

// source is one kind of content a translation must keep in step with
// English; check lists the problems of one language, or fails when the
// English yardstick itself cannot be read.
type source struct {
	name  string
	check func(cat *words.Catalogue, lang string) ([]string, error)
}

var sources = []source{
	{"catalogue", catalogueProblems},
	{"lessons", lessonProblems},
	{"quiz", quizProblems},
}

// run checks lang ("" for every language of cat) and writes the report
// to out; it returns the exit status.
func run(out io.Writer, cat *words.Catalogue, lang string) int {
	var codes []string
	for _, l := range cat.Languages() {
		codes = append(codes, l.Code)
	}
	if lang != "" {
		if !cat.Supported(lang) || lang == words.Pseudo {
			fmt.Fprintf(out, "langcheck: the site does not speak %q; it speaks %s.\n"+
				"Add the language to the list in words/words.go first (see README, \"Adding a language\").\n",
				lang, strings.Join(codes, ", "))
			return 2
		}
		codes = []string{lang}
	}

	fmt.Fprintln(out, "Keys per language:")
	for _, l := range cat.Languages() {
		if lang == "" || l.Code == lang || l.Code == words.English {
			note := ""
			if l.Code == words.English {
				note = " (the source)"
			}
			fmt.Fprintf(out, "  %-3s %4d%s\n", l.Code, len(cat.Keys(l.Code)), note)
		}
	}

	status := 0
	for _, code := range codes {
		var lines []string
		for _, s := range sources {
			problems, err := s.check(cat, code)
			if err != nil {
				fmt.Fprintf(out, "\nlangcheck: %s: English itself does not load: %v\n", s.name, err)
				return 1
			}
			for _, p := range problems {
				lines = append(lines, fmt.Sprintf("  %-9s %s", s.name, p))
			}
		}
		if len(lines) == 0 {
			fmt.Fprintf(out, "\n%s: clean\n", code)
			continue
		}
		status = 1
		noun := "problems"
		if len(lines) == 1 {
			noun = "problem"
		}
		fmt.Fprintf(out, "\n%s: %d %s\n%s\n", code, len(lines), noun, strings.Join(lines, "\n"))
	}
	return status
}

// catalogueProblems are words.Catalogue.Check's problems of one language,
// each with the file to open.
func catalogueProblems(cat *words.Catalogue, lang string) ([]string, error) {
	var out []string
	for _, p := range cat.Check() {
		if p.Lang == lang {
			out = append(out, fmt.Sprintf("words/locales/%s/%s: %s: %s", p.Lang, p.File, p.Key, p.What))
		}
	}
	return out, nil
}

// lessonProblems are lessons.Check's, with the path from the repository
// root.
func lessonProblems(cat *words.Catalogue, lang string) ([]string, error) {
	problems, err := lessons.Check(cat, lang)
	for i, p := range problems {
		if strings.HasPrefix(p, lang+"/") {
			problems[i] = "lessons/" + p
		}
	}
	return problems, err
}

// quizProblems is what keeps the quiz in lang from loading. The quiz
// package stops at its first problem, in whichever language it meets
// it, so this lists at most one (see quizProblem).
func quizProblems(_ *words.Catalogue, lang string) ([]string, error) {
	bank, err := quiz.Load()
	var langs []string
	if bank != nil {
		langs = bank.Languages()
	}
	return quizProblem(err, langs, lang)
}

// quizProblem sorts the quiz's load error: lang's when it names lang's
// folder, an error of its own when it names English's, nobody's else;
// without one, a language of the site the quiz lacks is lang's problem.
func quizProblem(err error, langs []string, lang string) ([]string, error) {
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "quiz: ")
		switch {
		case strings.Contains(msg, "questions/"+lang+"/"), strings.HasSuffix(msg, "questions/"+lang):
			return []string{"quiz/" + msg}, nil
		case strings.Contains(msg, "questions/"+words.English+"/"), lang == words.English:
			return nil, err
		}
		return nil, nil // another translation's problem
	}
	if !slices.Contains(langs, lang) {
		return []string{fmt.Sprintf("quiz/questions/%s: missing (copy quiz/questions/%s and translate it)", lang, words.English)}, nil
	}
	return nil, nil
}
