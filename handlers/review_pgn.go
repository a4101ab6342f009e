package handlers

// The review's PGN download: the game with the review as comments (G23, H1).

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
	"chesstutor/review"
)

// downloadReviewPGN is GET /api/games/:id/review/pgn: the game's PGN with
// the review as comments, a [%eval] for every move and, for the moves that
// cost something, a NAG and the sentence.
func (h *Handler) downloadReviewPGN(c echo.Context) error {
	ctx := c.Request().Context()
	st, err := h.reviews.Get(ctx, visitorID(c), c.Param("id"))
	if err != nil {
		return reviewError(err)
	}
	name, text, err := h.games.PGN(ctx, visitorID(c), c.Param("id"))
	if err != nil {
		return gameError(err)
	}
	header, result := pgnHeader(text)
	if len(st.Moves) != len(strings.Fields(pgnMoves(text))) {
		result = "*" // the game went on after the review; this is the reviewed part
	}
	name = strings.TrimSuffix(name, ".pgn") + "-review.pgn"
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "application/x-chess-pgn; charset=utf-8", []byte(header+"\n"+reviewMovetext(st, result)))
}

// pgnHeader returns the tag section of a PGN text (with its final
// newline) and its Result.
func pgnHeader(text string) (string, string) {
	var b strings.Builder
	result := "*"
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "[") {
			break
		}
		b.WriteString(line + "\n")
		if v, ok := strings.CutPrefix(line, `[Result "`); ok {
			result = strings.TrimSuffix(v, `"]`)
		}
	}
	return b.String(), result
}

// pgnMoves returns the SAN moves of a PGN movetext without numbers and
// result, space separated (the site's own PGN has no comments).
func pgnMoves(text string) string {
	_, body, _ := strings.Cut(text, "\n\n")
	var out []string
	for _, f := range strings.Fields(body) {
		if strings.HasSuffix(f, ".") || f == "1-0" || f == "0-1" || f == "1/2-1/2" || f == "*" {
			continue
		}
		if i := strings.Index(f, "."); i > 0 {
			f = strings.TrimLeft(f[i:], ".")
		}
		if f != "" {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

var nags = map[review.Class]string{review.Inaccuracy: "$6", review.Mistake: "$2", review.Blunder: "$4"}

// reviewMovetext writes the reviewed moves with their NAGs and comments.
func reviewMovetext(st *review.Status, result string) string {
	nagAt, comments := map[int]string{}, map[int]string{}
	for i, m := range st.Review.Moves {
		if n, ok := nags[m.Class]; ok {
			nagAt[i] = n
		}
		var words []string
		if e := pgnEval(m.Eval); e != "" {
			words = append(words, "[%eval "+e+"]")
		}
		if m.Class >= review.Inaccuracy {
			words = append(words, classWords[m.Class]+".")
			if s := m.Sentence(); s != "" {
				words = append(words, s)
			}
		}
		comments[i] = strings.Join(words, " ")
	}
	return movetext(st.Positions[0], st.SANs, nagAt, comments, "", result)
}

// movetext writes PGN movetext from start: the moves (SAN), a NAG and a
// comment after move i (0-based) where given, an opening comment lead,
// and the result, wrapped at 79 columns as PGN asks. After a comment,
// Black's move gets its number again ("12...").
func movetext(start *chess.Position, sans []string, nagAt, comments map[int]string, lead, result string) string {
	var tokens []string
	comment := func(text string) {
		if text == "" {
			return
		}
		tokens = append(tokens, "{")
		for _, w := range strings.Fields(text) {
			tokens = append(tokens, strings.ReplaceAll(w, "}", ")"))
		}
		tokens = append(tokens, "}")
	}
	comment(lead)
	num, white := start.FullmoveNumber(), start.Turn() == chess.White
	for i, san := range sans {
		switch {
		case white:
			tokens = append(tokens, fmt.Sprintf("%d.", num))
		case i == 0 || tokens[len(tokens)-1] == "}":
			tokens = append(tokens, fmt.Sprintf("%d...", num))
		}
		tokens = append(tokens, san)
		if n := nagAt[i]; n != "" {
			tokens = append(tokens, n)
		}
		comment(comments[i])
		if !white {
			num++
		}
		white = !white
	}
	tokens = append(tokens, result)
	var b strings.Builder
	col := 0
	for _, t := range tokens {
		if col > 0 && col+1+len(t) > 79 {
			b.WriteString("\n")
			col = 0
		} else if col > 0 {
			b.WriteString(" ")
			col++
		}
		b.WriteString(t)
		col += len(t)
	}
	b.WriteString("\n")
	return b.String()
}

// pgnEval writes an evaluation the way PGN comments carry it: pawns from
// White's side ("0.35", "-1.20") or a mate ("#3", "#-2"); "" after mate.
func pgnEval(e review.Eval) string {
	if e.IsMate {
		if e.Mate == 0 {
			return ""
		}
		return fmt.Sprintf("#%d", e.Mate)
	}
	return strconv.FormatFloat(float64(e.CP)/100, 'f', 2, 64)
}
