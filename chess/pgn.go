package chess

import (
	"fmt"
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

// The Termination tag's values in the PGN standard (8.2.7 of its
// supplement) that the site uses.
const (
	TerminationTimeForfeit  = "time forfeit" // a flag fell
	TerminationAdjudication = "adjudication" // a third party decided the result
	TerminationAbandoned    = "abandoned"    // the game was left unfinished
	TerminationUnterminated = "unterminated" // the game goes on
)

// Termination is the standard Termination value for an outcome when the
// moves and the result alone do not tell how the game ended (a flag fell),
// and "" when they do.
func Termination(o Outcome) string {
	if o.Method == Timeout {
		return TerminationTimeForfeit
	}
	return ""
}

// Note is what PGN says after one move: a Numeric Annotation Glyph (NAG,
// "$2"), an evaluation in the [%eval] comment command that chess programs
// read, and a comment in words.
type Note struct {
	NAG     int    // 0: none; 1 good, 2 mistake, 4 blunder, 6 dubious, …
	Eval    string // "0.35", "-1.20" (pawns, from White's side) or "#3", "#-2"; "": none
	Comment string
}

// PGN is a game written for other chess programs (R11): its tags, its
// moves from Start, what to say about each move, and how it ended. It is
// the one PGN writer of the site: the game download, the annotated review
// and cmd/match's games all go through it.
type PGN struct {
	// Tags are written after the Seven Tag Roster (filled with "?" where
	// missing), in name order. Result, SetUp, FEN and Termination come
	// from the fields below, whatever Tags says.
	Tags  map[string]string
	Start *Position
	Moves []Move
	// Notes[i] follows Moves[i]; Notes may be shorter than Moves.
	Notes []Note
	// Lead is a comment before the first move.
	Lead string
	// Result is "1-0", "0-1", "1/2-1/2" or "*" (a game that goes on).
	Result string
	// Termination, when set, is the Termination tag: one of the standard
	// values above.
	Termination string
	// Ending is a comment after the last move: how the game ended.
	Ending string
}

var sevenTagRoster = [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// lineWidth is the longest line PGN's export format allows.
const lineWidth = 79

// Text writes p in PGN's export format: the tags, an empty line, and the
// movetext wrapped at 79 columns, the moves numbered from the start
// position (a Black move after a comment gets its number again, "12..."),
// each move's NAG and comment after it, and the result last. It fails when
// a move is not legal where it is played.
func (p *PGN) Text() (string, error) {
	var b strings.Builder
	values := map[string]string{"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}
	for k, v := range p.Tags {
		if validTagName(k) {
			values[k] = v
		}
	}
	result := p.Result
	if result == "" {
		result = "*"
	}
	values["Result"] = result
	if fen := p.Start.FEN(); fen != StartFEN {
		values["SetUp"] = "1"
		values["FEN"] = fen
	}
	if p.Termination != "" {
		values["Termination"] = p.Termination
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

	// The movetext is tokens joined by spaces and wrapped between them; a
	// comment's braces stick to its first and last word.
	var tokens []string
	comment := func(words ...string) {
		text := strings.Fields(strings.ReplaceAll(strings.Join(words, " "), "}", ")"))
		if len(text) == 0 {
			return
		}
		text[0] = "{" + text[0]
		text[len(text)-1] += "}"
		tokens = append(tokens, text...)
	}
	comment(p.Lead)
	pos := p.Start
	num := pos.FullmoveNumber()
	for i, m := range p.Moves {
		if !pos.IsLegal(m) {
			return "", fmt.Errorf("chess: PGN: move %d (%s) is not legal in %s", i+1, m.UCI(), pos.FEN())
		}
		switch {
		case pos.Turn() == White:
			tokens = append(tokens, strconv.Itoa(num)+".")
		case i == 0 || strings.HasSuffix(tokens[len(tokens)-1], "}"):
			tokens = append(tokens, strconv.Itoa(num)+"...")
		}
		tokens = append(tokens, pos.SAN(m))
		if pos.Turn() == Black {
			num++
		}
		pos = pos.Play(m)
		if i >= len(p.Notes) {
			continue
		}
		n := p.Notes[i]
		if n.NAG > 0 {
			tokens = append(tokens, "$"+strconv.Itoa(n.NAG))
		}
		eval := ""
		if n.Eval != "" {
			eval = "[%eval " + n.Eval + "]"
		}
		comment(eval, n.Comment)
	}
	comment(p.Ending)
	tokens = append(tokens, result)
	col := 0
	for _, t := range tokens {
		if col > 0 && col+1+len(t) > lineWidth {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(t)
		col += len(t)
	}
	b.WriteByte('\n')
	return b.String(), nil
}

// Record is the game as a PGN to write: its start, its moves, its result,
// the standard Termination where one is needed and the reason it ended as
// the closing comment (English, as PGN is; a game that goes on has none).
// tags are any tags beyond those.
func (g *Game) Record(tags map[string]string) *PGN {
	o := g.outcome
	p := &PGN{Tags: tags, Start: g.positions[0], Moves: g.Moves(), Result: o.Result, Termination: Termination(o)}
	if r := o.Reason(); r != "" {
		p.Ending = r + "."
	}
	return p
}

// PGN returns the game in Portable Game Notation (R11); see Record and
// (*PGN).Text. A game's moves are legal, so it cannot fail.
func (g *Game) PGN(tags map[string]string) string {
	text, _ := g.Record(tags).Text()
	return text
}

// validTagName reports whether k can be a PGN tag name (letters, digits and
// underscores, starting with a letter) that the caller may set.
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
