package quiz

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"chesstutor/chess"
)

//go:embed questions/*.json
var embedded embed.FS

// topicTitles names every topic a question may have, for people.
var topicTitles = map[string]string{
	"board":      "The board",
	"pieces":     "How the pieces move",
	"king":       "The king",
	"pawn":       "The pawn",
	"capturing":  "Capturing",
	"check":      "Check",
	"checkmate":  "Checkmate",
	"stalemate":  "Stalemate",
	"castling":   "Castling",
	"en-passant": "En passant",
	"promotion":  "Promotion",
	"draws":      "How games end",
	"timeout":    "Running out of time",
	"notation":   "Notation",
	"tournament": "Tournament play",
	"site":       "Playing on this site",
}

// The fixed answers of the board kinds.
var (
	statusOptions = []Option{
		{"check", "Check"},
		{"checkmate", "Checkmate"},
		{"stalemate", "Stalemate"},
		{"none", "None of these: the game goes on"},
	}
	castleOptions = []Option{
		{"yes", "Yes, White may castle"},
		{"no", "No, not in this position"},
	}
	drawLabels = map[string]string{
		"none":       "No, it is not a draw",
		"stalemate":  "Yes: stalemate",
		"repetition": "Yes: threefold repetition",
		"fifty":      "Yes: the fifty-move rule",
		"material":   "Yes: insufficient material",
		"timeout":    "Yes: the flag fell, but the other side could never checkmate",
	}
	drawOrder = []string{"none", "stalemate", "repetition", "fifty", "material"}
)

// rawQuestion is a question as written in questions/*.json.
type rawQuestion struct {
	ID          string      `json:"id"`
	Topic       string      `json:"topic"`
	Kind        Kind        `json:"kind"`
	Prompt      string      `json:"prompt"`
	Explanation string      `json:"explanation"`
	Lesson      string      `json:"lesson"`
	Options     []rawOption `json:"options"` // choice
	FEN         string      `json:"fen"`     // every board kind; draw: default start
	Find        string      `json:"find"`    // squares: what to click
	Square      string      `json:"square"`  // squares: the piece asked about
	Side        string      `json:"side"`    // castle: "king" or "queen"
	Moves       []string    `json:"moves"`   // draw: SAN moves played from FEN
	Flag        string      `json:"flag"`    // draw: the colour whose time ran out
	SAN         string      `json:"san"`     // squares with find "san": the move whose piece to click
	Name        string      `json:"name"`    // name: the square to click
}

type rawOption struct {
	Text  string `json:"text"`
	Right bool   `json:"right"`
}

var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
var lessonPattern = regexp.MustCompile(`^/learn/[a-z0-9-]+(#[a-z0-9-]+)?$`)

// Bank is the loaded set of questions.
type Bank struct {
	questions []*Question
	byID      map[string]*Question
}

// Load parses every embedded question file and computes every key. Any
// problem (a bad FEN, an empty key, a duplicate id) is an error naming the
// file and the question.
func Load() (*Bank, error) { return Parse(embedded, "questions") }

// Parse loads every *.json file in dir of fsys.
func Parse(fsys fs.FS, dir string) (*Bank, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("quiz: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("quiz: no question files in %s", dir)
	}
	b := &Bank{byID: map[string]*Question{}}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("quiz: %w", err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var raws []rawQuestion
		if err := dec.Decode(&raws); err != nil {
			return nil, fmt.Errorf("quiz: %s: %w", name, err)
		}
		for i, raw := range raws {
			q, err := build(raw)
			if err != nil {
				return nil, fmt.Errorf("quiz: %s: question %d (%q): %w", name, i+1, raw.ID, err)
			}
			if _, dup := b.byID[q.ID]; dup {
				return nil, fmt.Errorf("quiz: %s: question id %q is used twice", name, q.ID)
			}
			b.byID[q.ID] = q
			b.questions = append(b.questions, q)
		}
	}
	return b, nil
}

// Questions returns every question, in file order.
func (b *Bank) Questions() []*Question { return slices.Clone(b.questions) }

// Len returns how many questions the bank holds, without copying them.
func (b *Bank) Len() int { return len(b.questions) }

// Question finds a question by id.
func (b *Bank) Question(id string) (*Question, bool) {
	q, ok := b.byID[id]
	return q, ok
}

// Counts returns how many questions there are of each kind.
func (b *Bank) Counts() map[Kind]int {
	n := map[Kind]int{}
	for _, q := range b.questions {
		n[q.Kind]++
	}
	return n
}

func build(raw rawQuestion) (*Question, error) {
	q := &Question{
		ID:          raw.ID,
		Topic:       raw.Topic,
		Kind:        raw.Kind,
		Prompt:      strings.TrimSpace(raw.Prompt),
		Explanation: strings.TrimSpace(raw.Explanation),
		Lesson:      raw.Lesson,
		From:        chess.NoSquare,
	}
	switch {
	case !idPattern.MatchString(q.ID):
		return nil, errors.New("the id must be lower-case words joined by hyphens")
	case topicTitles[q.Topic] == "":
		return nil, fmt.Errorf("unknown topic %q", q.Topic)
	case q.Prompt == "":
		return nil, errors.New("the prompt is empty")
	case q.Explanation == "":
		return nil, errors.New("the explanation is empty")
	case !lessonPattern.MatchString(q.Lesson):
		return nil, fmt.Errorf("lesson link %q is not of the form /learn/<slug> or /learn/<slug>#<anchor>", q.Lesson)
	}
	if raw.Kind != Choice && len(raw.Options) > 0 {
		return nil, errors.New("only multiple-choice questions list options")
	}
	if raw.Kind != Squares && (raw.Find != "" || raw.Square != "" || raw.SAN != "") {
		return nil, errors.New("find, square and san belong to squares questions")
	}
	if raw.Kind != Name && raw.Name != "" {
		return nil, errors.New("name belongs to name questions")
	}
	if raw.Kind != Castle && raw.Side != "" {
		return nil, errors.New("side belongs to castle questions")
	}
	if raw.Kind != Draw && (len(raw.Moves) > 0 || raw.Flag != "") {
		return nil, errors.New("moves and flag belong to draw questions")
	}
	var err error
	switch raw.Kind {
	case Choice:
		err = buildChoice(q, raw)
	case Status:
		err = buildStatus(q, raw)
	case Squares:
		err = buildSquares(q, raw)
	case Castle:
		err = buildCastle(q, raw)
	case Draw:
		err = buildDraw(q, raw)
	case Name:
		err = buildName(q, raw)
	default:
		err = fmt.Errorf("unknown kind %q", raw.Kind)
	}
	if err != nil {
		return nil, err
	}
	if len(q.key) == 0 {
		return nil, errors.New("the computed key is empty")
	}
	slices.Sort(q.key)
	return q, nil
}

func buildChoice(q *Question, raw rawQuestion) error {
	if raw.FEN != "" {
		return errors.New("multiple-choice questions have no diagram")
	}
	if len(raw.Options) < 2 || len(raw.Options) > 8 {
		return fmt.Errorf("a multiple-choice question needs 2 to 8 options, not %d", len(raw.Options))
	}
	for i, o := range raw.Options {
		id := string(rune('a' + i))
		text := strings.TrimSpace(o.Text)
		if text == "" {
			return fmt.Errorf("option %s is empty", id)
		}
		q.Options = append(q.Options, Option{ID: id, Text: text})
		if o.Right {
			q.key = append(q.key, id)
		}
	}
	if len(q.key) == 0 {
		return errors.New("no option is marked right")
	}
	q.Multiple = len(q.key) > 1
	shuffleOptions(q.ID, q.Options)
	return nil
}

// gamePosition parses a FEN that must also be a valid game position (both
// kings, side not to move not in check), so check and castling make sense.
func gamePosition(fen string) (*chess.Position, error) {
	if fen == "" {
		return nil, errors.New("the fen is missing")
	}
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	if _, err := chess.NewGame(pos); err != nil {
		return nil, err
	}
	return pos, nil
}

func buildStatus(q *Question, raw rawQuestion) error {
	pos, err := gamePosition(raw.FEN)
	if err != nil {
		return err
	}
	q.Pos = pos
	q.Options = slices.Clone(statusOptions)
	switch {
	case pos.IsCheckmate():
		q.key = []string{"checkmate"}
	case pos.IsStalemate():
		q.key = []string{"stalemate"}
	case pos.InCheck():
		q.key = []string{"check"}
	default:
		q.key = []string{"none"}
	}
	return nil
}

func buildSquares(q *Question, raw rawQuestion) error {
	if raw.FEN == "" {
		return errors.New("the fen is missing")
	}
	pos, err := chess.ParseFEN(raw.FEN)
	if err != nil {
		return err
	}
	q.Pos = pos
	from := chess.NoSquare
	if raw.Square != "" {
		if from, err = chess.ParseSquare(raw.Square); err != nil {
			return err
		}
		if pc := pos.PieceAt(from); pc == chess.NoPiece || pc.Color() != pos.Turn() {
			return fmt.Errorf("no piece of the side to move on %s", raw.Square)
		}
	}
	// pick keeps the moves that match and collects their target squares.
	pick := func(keep func(chess.Move) bool) []string {
		var sq []string
		for _, m := range pos.LegalMoves() {
			if (from == chess.NoSquare || m.From() == from) && keep(m) {
				if q.From == chess.NoSquare {
					q.From = m.From()
				}
				if s := m.To().String(); !slices.Contains(sq, s) {
					sq = append(sq, s)
				}
			}
		}
		return sq
	}
	switch raw.Find {
	case "piece":
		if from == chess.NoSquare {
			return errors.New(`find "piece" needs a square`)
		}
		q.From = from
		for _, s := range pos.Destinations(from) {
			q.key = append(q.key, s.String())
		}
	case "king":
		k := pos.KingSquare(pos.Turn())
		if k == chess.NoSquare {
			return errors.New("the side to move has no king")
		}
		q.From = k
		for _, s := range pos.Destinations(k) {
			q.key = append(q.key, s.String())
		}
	case "en-passant":
		q.key = pick(chess.Move.IsEnPassant)
	case "castle-king", "castle-queen":
		queen := raw.Find == "castle-queen"
		q.key = pick(func(m chess.Move) bool { return m.IsCastle() && (m.To() < m.From()) == queen })
	case "promotion":
		q.key = pick(chess.Move.IsPromotion)
	case "mate":
		q.key = pick(func(m chess.Move) bool { return pos.Play(m).IsCheckmate() })
	case "san":
		// The piece that makes the written move: the key is its square,
		// read by the chess package's own SAN parser.
		m, err := pos.ParseSAN(raw.SAN)
		if err != nil {
			return fmt.Errorf("san %q: %w", raw.SAN, err)
		}
		q.key = []string{m.From().String()}
	default:
		return fmt.Errorf("unknown find %q (piece, king, en-passant, castle-king, castle-queen, promotion, mate, san)", raw.Find)
	}
	if raw.Find != "san" && raw.SAN != "" {
		return errors.New(`san belongs to find "san"`)
	}
	return nil
}

// buildName reads a "click the named square" question: an empty board
// (or the FEN given, whose side to move sits at the bottom) and the square.
func buildName(q *Question, raw rawQuestion) error {
	fen := raw.FEN
	if fen == "" {
		fen = "8/8/8/8/8/8/8/8 w - - 0 1"
	}
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		return err
	}
	sq, err := chess.ParseSquare(raw.Name)
	if err != nil {
		return fmt.Errorf("name: %w", err)
	}
	q.Pos = pos
	q.key = []string{sq.String()}
	return nil
}

func buildCastle(q *Question, raw rawQuestion) error {
	pos, err := gamePosition(raw.FEN)
	if err != nil {
		return err
	}
	if raw.Side != "king" && raw.Side != "queen" {
		return fmt.Errorf(`side must be "king" or "queen", not %q`, raw.Side)
	}
	queen := raw.Side == "queen"
	q.Pos = pos
	q.From = pos.KingSquare(pos.Turn())
	q.Options = slices.Clone(castleOptions)
	if pos.Turn() == chess.Black {
		q.Options[0].Text = "Yes, Black may castle"
	}
	q.key = []string{"no"}
	for _, m := range pos.LegalMoves() {
		if m.IsCastle() && (m.To() < m.From()) == queen {
			q.key = []string{"yes"}
		}
	}
	return nil
}

func buildDraw(q *Question, raw rawQuestion) error {
	fen := raw.FEN
	if fen == "" {
		fen = chess.StartFEN
	}
	start, err := gamePosition(fen)
	if err != nil {
		return err
	}
	g, err := chess.NewGame(start)
	if err != nil {
		return err
	}
	for _, san := range raw.Moves {
		m, err := g.Position().ParseSAN(san)
		if err != nil {
			return err
		}
		if err := g.Play(m); err != nil {
			return err
		}
	}
	pos := g.Position()
	q.Pos = pos
	if moves := g.Moves(); len(moves) > 0 {
		q.LastMove = moves[len(moves)-1]
		q.Moves = formatMoves(start, g.SANs())
	}
	choices := drawOrder
	if raw.Flag != "" {
		var flagged chess.Color
		switch raw.Flag {
		case "white":
			flagged = chess.White
		case "black":
			flagged = chess.Black
		default:
			return fmt.Errorf(`flag must be "white" or "black", not %q`, raw.Flag)
		}
		if g.Outcome().Over() {
			return errors.New("the game is already over before the flag falls")
		}
		g.Timeout(flagged)
		choices = []string{"none", "timeout"}
		// The game's verdict and the R9 test must agree.
		if g.Outcome().IsDraw() != chess.CanNeverMate(pos, flagged.Other()) {
			return errors.New("the timeout verdict disagrees with CanNeverMate")
		}
	}
	out := g.Outcome()
	switch out.Method {
	case chess.Stalemate:
		q.key = []string{"stalemate"}
	case chess.ThreefoldRepetition:
		q.key = []string{"repetition"}
	case chess.FiftyMoveRule:
		q.key = []string{"fifty"}
	case chess.InsufficientMaterial:
		q.key = []string{"material"}
	case chess.Timeout:
		if out.IsDraw() {
			q.key = []string{"timeout"}
		} else {
			q.key = []string{"none"}
		}
	case chess.NoMethod, chess.Checkmate:
		q.key = []string{"none"}
	default:
		return fmt.Errorf("unexpected ending %q", out.Method)
	}
	for _, id := range choices {
		text := drawLabels[id]
		if id == "none" && raw.Flag != "" {
			winner := "Black"
			if raw.Flag == "black" {
				winner = "White"
			}
			text = "No: " + winner + " wins on time"
		}
		q.Options = append(q.Options, Option{ID: id, Text: text})
	}
	if !slices.Contains(choices, q.key[0]) {
		return fmt.Errorf("the computed answer %q is not among the choices", q.key[0])
	}
	return nil
}

// formatMoves writes SAN moves with move numbers: "1. Nf3 Nf6 2. Ng1".
func formatMoves(start *chess.Position, sans []string) string {
	var parts []string
	for _, fm := range chess.FullMoves(start, sans) {
		if fm.White == "" {
			parts = append(parts, fmt.Sprintf("%d… %s", fm.Number, fm.Black))
			continue
		}
		parts = append(parts, fmt.Sprintf("%d. %s", fm.Number, fm.White))
		if fm.Black != "" {
			parts = append(parts, fm.Black)
		}
	}
	return strings.Join(parts, " ")
}
