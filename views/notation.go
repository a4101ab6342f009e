package views

import (
	"encoding/json"
	"html/template"

	"chesstutor/chess"
	"chesstutor/words"
)

// The ways of showing moves a visitor may choose (the notation cookie):
// figurines (♘f3), the default in every language, or the language's
// letters (Cf3 in Spanish). Stored moves and the API stay English SAN.
const (
	NotationFigurine = "figurine"
	NotationLetters  = "letters"
)

// NotationTable is the table a style shows moves with: the figurines, or
// w's letters.
func NotationTable(w *words.Words, style string) chess.Letters {
	if style == NotationLetters {
		return w.Letters()
	}
	return chess.Figurines
}

// notationFuncs are the template functions that show moves the
// visitor's way, given the page's style (Page.Notation): san (a SAN move:
// {{san $.Notation .SAN}}) and notation (the JSON the layout hands
// scripts in data-notation: the style and the table by English letter,
// for public/js/notation.js: {{notation .Notation}}). Both styles are
// made once per language, so one template set serves both: a second set
// per language for letters would double the templates the garbage
// collector walks (BenchmarkRenderPages).
func notationFuncs(w *words.Words) template.FuncMap {
	letters := NotationTable(w, NotationLetters)
	data := map[string]string{
		NotationFigurine: notationJSON(w, NotationFigurine),
		NotationLetters:  notationJSON(w, NotationLetters),
	}
	return template.FuncMap{
		"san": func(style, san string) string {
			if style == NotationLetters {
				return letters.Write(san)
			}
			return chess.Figurines.Write(san)
		},
		"notation": func(style string) string {
			if style == NotationLetters {
				return data[NotationLetters]
			}
			return data[NotationFigurine]
		},
	}
}

// notationJSON is the style and its table for notation.js.
func notationJSON(w *words.Words, style string) string {
	table := NotationTable(w, style)
	data, err := json.Marshal(struct {
		Style   string            `json:"style"`
		Letters map[string]string `json:"letters"`
	}{style, map[string]string{
		"K": table[chess.King], "Q": table[chess.Queen], "R": table[chess.Rook],
		"B": table[chess.Bishop], "N": table[chess.Knight],
	}})
	if err != nil {
		panic(err) // a map of strings always marshals
	}
	return string(data)
}
