package chess

import (
	"sort"
	"strconv"
	"strings"
)

// FullMove is one numbered line of a move list: "12. Nf3 Nc6". White is ""
// when the list starts with Black's move, Black is "" when White's move is
// the last one.
type FullMove struct {
	Number       int
	White, Black string
}

// FullMoves groups the SAN moves of a game that started at start into
// numbered full moves, counting from start's move number. It is the one
// place the site numbers moves: PGN, the game page's move list and the quiz.
func FullMoves(start *Position, sans []string) []FullMove {
	var out []FullMove
	n, i := start.FullmoveNumber(), 0
	if start.Turn() == Black && len(sans) > 0 {
		out = append(out, FullMove{Number: n, Black: sans[0]})
		n, i = n+1, 1
	}
	for ; i < len(sans); i += 2 {
		fm := FullMove{Number: n, White: sans[i]}
		if i+1 < len(sans) {
			fm.Black = sans[i+1]
		}
		out = append(out, fm)
		n++
	}
	return out
}

var sevenTagRoster = [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// PGN returns the game in Portable Game Notation (R11): the Seven Tag Roster
// first (values from tags, "?" when missing, Result always from the game),
// then any other tags in name order, SetUp and FEN when the game did not
// start from the standard position, and the move text wrapped at 80 columns,
// ending with the reason as a comment and the result.
func (g *Game) PGN(tags map[string]string) string {
	var b strings.Builder
	o := g.outcome
	values := map[string]string{"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}
	for k, v := range tags {
		if validTagName(k) {
			values[k] = v
		}
	}
	values["Result"] = o.Result
	start := g.positions[0]
	if fen := start.FEN(); fen != StartFEN {
		values["SetUp"] = "1"
		values["FEN"] = fen
	}
	writeTag := func(k string) {
		b.WriteString("[" + k + " \"" + escapeTag(values[k]) + "\"]\n")
		delete(values, k)
	}
	for _, k := range sevenTagRoster {
		writeTag(k)
	}
	rest := make([]string, 0, len(values))
	for k := range values {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	for _, k := range rest {
		writeTag(k)
	}
	b.WriteByte('\n')

	var tokens []string
	for _, fm := range FullMoves(start, g.sans) {
		if fm.White == "" {
			tokens = append(tokens, strconv.Itoa(fm.Number)+"...")
		} else {
			tokens = append(tokens, strconv.Itoa(fm.Number)+".", fm.White)
		}
		if fm.Black != "" {
			tokens = append(tokens, fm.Black)
		}
	}
	if r := o.Reason(); r != "" {
		tokens = append(tokens, strings.Fields("{"+r+".}")...)
	}
	tokens = append(tokens, o.Result)
	col := 0
	for _, t := range tokens {
		if col > 0 && col+1+len(t) > 80 {
			b.WriteByte('\n')
			col = 0
		}
		if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(t)
		col += len(t)
	}
	b.WriteByte('\n')
	return b.String()
}

// validTagName reports whether k can be a PGN tag name (letters, digits and
// underscores, starting with a letter).
func validTagName(k string) bool {
	if k == "" || len(k) > 255 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_')) {
			return false
		}
	}
	return k != "Result" && k != "SetUp" && k != "FEN"
}

func escapeTag(v string) string {
	v = strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", " ", "\r", " ", "\t", " ").Replace(v)
	return v
}
