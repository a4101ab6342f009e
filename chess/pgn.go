package chess

import (
	"sort"
	"strconv"
	"strings"
)

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
	num, turn := start.FullmoveNumber(), start.Turn()
	for i, san := range g.sans {
		switch {
		case turn == White:
			tokens = append(tokens, strconv.Itoa(num)+".")
		case i == 0:
			tokens = append(tokens, strconv.Itoa(num)+"...")
		}
		tokens = append(tokens, san)
		if turn == Black {
			num++
		}
		turn = turn.Other()
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
