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
	"sync"

	"chesstutor/chess"
	"chesstutor/words"
)

//go:embed questions
var embedded embed.FS

// English is the source language: its folder holds the questions, and
// every other language's folder must match it (see sameShape).
const English = "en"

// Topics lists every topic a question may have, in no special order.
var Topics = []string{"board", "pieces", "king", "pawn", "capturing", "check", "checkmate", "stalemate",
	"castling", "en-passant", "promotion", "draws", "timeout", "notation", "tournament", "site"}

// topicKeys are the catalogue keys of the topics' titles.
var topicKeys = map[string]string{
	"board":      "quiz.topic_board",
	"pieces":     "quiz.topic_pieces",
	"king":       "quiz.topic_king",
	"pawn":       "quiz.topic_pawn",
	"capturing":  "quiz.topic_capturing",
	"check":      "quiz.topic_check",
	"checkmate":  "quiz.topic_checkmate",
	"stalemate":  "quiz.topic_stalemate",
	"castling":   "quiz.topic_castling",
	"en-passant": "quiz.topic_en_passant",
	"promotion":  "quiz.topic_promotion",
	"draws":      "quiz.topic_draws",
	"timeout":    "quiz.topic_timeout",
	"notation":   "quiz.topic_notation",
	"tournament": "quiz.topic_tournament",
	"site":       "quiz.topic_site",
}

// The fixed answers of the board kinds: keys and the codes of their words.
var (
	statusOptions = []Option{
		{ID: "check", Words: words.M("quiz.status_check")},
		{ID: "checkmate", Words: words.M("quiz.status_checkmate")},
		{ID: "stalemate", Words: words.M("quiz.status_stalemate")},
		{ID: "none", Words: words.M("quiz.status_none")},
	}
	castleYes = map[chess.Color]words.Message{
		chess.White: words.M("quiz.castle_yes_white"),
		chess.Black: words.M("quiz.castle_yes_black"),
	}
	castleNo   = words.M("quiz.castle_no")
	drawLabels = map[string]words.Message{
		"none":       words.M("quiz.draw_none"),
		"stalemate":  words.M("quiz.draw_stalemate"),
		"repetition": words.M("quiz.draw_repetition"),
		"fifty":      words.M("quiz.draw_fifty"),
		"material":   words.M("quiz.draw_material"),
		"timeout":    words.M("quiz.draw_timeout"),
	}
	// winsOnTime is the "no" of a timeout question: the side that wins.
	winsOnTime = map[chess.Color]words.Message{
		chess.White: words.M("quiz.draw_white_wins_on_time"),
		chess.Black: words.M("quiz.draw_black_wins_on_time"),
	}
	drawOrder = []string{"none", "stalemate", "repetition", "fifty", "material"}
)

// rawQuestion is a question as written in questions/<lang>/*.json.
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

// rawOption is one option of a multiple-choice question. Its key is what
// a visitor's answer names and what the store keeps, so it never changes
// once published, whatever the order or the words.
type rawOption struct {
	Key   string `json:"key"`
	Text  string `json:"text"`
	Right bool   `json:"right"`
}

var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
var keyPattern = regexp.MustCompile(`^[a-z0-9]+$`)
var langPattern = regexp.MustCompile(`^[a-z]{2,3}$`)
var lessonPattern = regexp.MustCompile(`^/learn/[a-z0-9-]+(#[a-z0-9-]+)?$`)

// Bank is the loaded set of questions, in every language.
type Bank struct {
	questions []*Question
	byID      map[string]*Question
	langs     []string
}

// Load parses the embedded questions of every language and computes every
// key. Any problem (a bad FEN, an empty key, a duplicate id, a translation
// that differs from English in anything but its words) is an error naming
// the file and the question, and the site does not start.
//
// A bank is read-only, so the embedded one is parsed once per process and
// shared (tests build many sites).
func Load() (*Bank, error) { return embeddedBank() }

var embeddedBank = sync.OnceValues(func() (*Bank, error) { return Parse(embedded, "questions") })

// Parse loads dir/en/*.json, the questions, and then every other folder
// dir/<lang>/, a translation: the same files with the same questions in
// the same order, differing from English only in prompts, explanations
// and option texts.
func Parse(fsys fs.FS, dir string) (*Bank, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("quiz: %w", err)
	}
	b := &Bank{byID: map[string]*Question{}, langs: []string{English}}
	raws, files, err := readLanguage(fsys, dir, English)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		for i, raw := range raws[f] {
			q, err := build(raw)
			if err != nil {
				return nil, fmt.Errorf("quiz: %s: question %d (%q): %w", f, i+1, raw.ID, err)
			}
			if _, dup := b.byID[q.ID]; dup {
				return nil, fmt.Errorf("quiz: %s: question id %q is used twice", f, q.ID)
			}
			b.byID[q.ID] = q
			b.questions = append(b.questions, q)
		}
	}
	for _, e := range entries {
		lang := e.Name()
		if !e.IsDir() || lang == English {
			continue
		}
		if !langPattern.MatchString(lang) {
			return nil, fmt.Errorf("quiz: %s/%s: a language folder is named by its code (es, ru)", dir, lang)
		}
		if err := b.translate(fsys, dir, lang, raws, files); err != nil {
			return nil, err
		}
		b.langs = append(b.langs, lang)
	}
	return b, nil
}

// readLanguage reads every question file of one language, by file name.
func readLanguage(fsys fs.FS, dir, lang string) (map[string][]rawQuestion, []string, error) {
	names, err := fs.Glob(fsys, path.Join(dir, lang, "*.json"))
	if err != nil {
		return nil, nil, fmt.Errorf("quiz: %w", err)
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("quiz: no question files in %s", path.Join(dir, lang))
	}
	raws := map[string][]rawQuestion{}
	var files []string
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, nil, fmt.Errorf("quiz: %w", err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var qs []rawQuestion
		if err := dec.Decode(&qs); err != nil {
			return nil, nil, fmt.Errorf("quiz: %s: %w", name, err)
		}
		f := path.Base(name)
		raws[f] = qs
		files = append(files, f)
	}
	return raws, files, nil
}

// translate reads one translation, checks it against English and adds
// its words to the questions.
func (b *Bank) translate(fsys fs.FS, dir, lang string, en map[string][]rawQuestion, files []string) error {
	tr, trFiles, err := readLanguage(fsys, dir, lang)
	if err != nil {
		return err
	}
	for _, f := range trFiles {
		if _, ok := en[f]; !ok {
			return fmt.Errorf("quiz: %s/%s/%s: English has no such file", dir, lang, f)
		}
	}
	for _, f := range files {
		name := path.Join(dir, lang, f)
		qs, ok := tr[f]
		if !ok {
			return fmt.Errorf("quiz: %s: missing (English has %s)", name, path.Join(dir, English, f))
		}
		if len(qs) != len(en[f]) {
			return fmt.Errorf("quiz: %s: %d questions, English has %d", name, len(qs), len(en[f]))
		}
		for i, raw := range qs {
			if err := sameShape(en[f][i], raw); err != nil {
				return fmt.Errorf("quiz: %s: question %d (%q): %w", name, i+1, raw.ID, err)
			}
			text, err := textOf(raw)
			if err != nil {
				return fmt.Errorf("quiz: %s: question %d (%q): %w", name, i+1, raw.ID, err)
			}
			b.byID[raw.ID].texts[lang] = text
		}
	}
	return nil
}

// sameShape reports the first thing in which a translated question differs
// from its English original other than its words: a translation changes
// prompts, explanations and option texts, and nothing else.
func sameShape(en, tr rawQuestion) error {
	differs := func(what string, a, b any) error {
		return fmt.Errorf("%s differs from English (%v, English %v)", what, b, a)
	}
	switch {
	case tr.ID != en.ID:
		return differs("the id", en.ID, tr.ID)
	case tr.Topic != en.Topic:
		return differs("the topic", en.Topic, tr.Topic)
	case tr.Kind != en.Kind:
		return differs("the kind", en.Kind, tr.Kind)
	case tr.Lesson != en.Lesson:
		return differs("the lesson link", en.Lesson, tr.Lesson)
	case tr.FEN != en.FEN:
		return differs("the fen", en.FEN, tr.FEN)
	case tr.Find != en.Find:
		return differs("find", en.Find, tr.Find)
	case tr.Square != en.Square:
		return differs("the square", en.Square, tr.Square)
	case tr.Side != en.Side:
		return differs("the side", en.Side, tr.Side)
	case !slices.Equal(tr.Moves, en.Moves):
		return differs("the moves", en.Moves, tr.Moves)
	case tr.Flag != en.Flag:
		return differs("the flag", en.Flag, tr.Flag)
	case tr.SAN != en.SAN:
		return differs("san", en.SAN, tr.SAN)
	case tr.Name != en.Name:
		return differs("the named square", en.Name, tr.Name)
	case len(tr.Options) != len(en.Options):
		return differs("the number of options", len(en.Options), len(tr.Options))
	}
	for i, o := range tr.Options {
		if o.Key != en.Options[i].Key {
			return differs(fmt.Sprintf("option %d's key", i+1), en.Options[i].Key, o.Key)
		}
		if o.Right != en.Options[i].Right {
			return differs(fmt.Sprintf("whether option %q is right", o.Key), en.Options[i].Right, o.Right)
		}
	}
	return nil
}

// textOf takes a question's words: prompt, explanation, option texts.
func textOf(raw rawQuestion) (*Text, error) {
	t := &Text{
		Prompt:      strings.TrimSpace(raw.Prompt),
		Explanation: strings.TrimSpace(raw.Explanation),
	}
	switch {
	case t.Prompt == "":
		return nil, errors.New("the prompt is empty")
	case t.Explanation == "":
		return nil, errors.New("the explanation is empty")
	}
	for _, o := range raw.Options {
		text := strings.TrimSpace(o.Text)
		if text == "" {
			return nil, fmt.Errorf("option %q is empty", o.Key)
		}
		if t.Options == nil {
			t.Options = map[string]string{}
		}
		t.Options[o.Key] = text
	}
	return t, nil
}

// Questions returns every question, in file order.
func (b *Bank) Questions() []*Question { return slices.Clone(b.questions) }

// Languages lists the bank's languages, English first.
func (b *Bank) Languages() []string { return slices.Clone(b.langs) }

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
		ID:     raw.ID,
		Topic:  raw.Topic,
		Kind:   raw.Kind,
		Lesson: raw.Lesson,
		From:   chess.NoSquare,
		texts:  map[string]*Text{},
	}
	switch {
	case !idPattern.MatchString(q.ID):
		return nil, errors.New("the id must be lower-case words joined by hyphens")
	case topicKeys[q.Topic] == "":
		return nil, fmt.Errorf("unknown topic %q", q.Topic)
	case !lessonPattern.MatchString(q.Lesson):
		return nil, fmt.Errorf("lesson link %q is not of the form /learn/<slug> or /learn/<slug>#<anchor>", q.Lesson)
	}
	text, err := textOf(raw)
	if err != nil {
		return nil, err
	}
	q.texts[English] = text
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
	for _, o := range raw.Options {
		if !keyPattern.MatchString(o.Key) {
			return fmt.Errorf("option key %q must be lower-case letters or digits", o.Key)
		}
		if slices.ContainsFunc(q.Options, func(p Option) bool { return p.ID == o.Key }) {
			return fmt.Errorf("option key %q is used twice", o.Key)
		}
		q.Options = append(q.Options, Option{ID: o.Key})
		if o.Right {
			q.key = append(q.key, o.Key)
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

// noWrongCheck refuses a position a game can never reach: the side that
// has just moved still in check. Board questions may leave out pieces
// (a lone rook shows how it moves), so only a king that is there counts.
func noWrongCheck(pos *chess.Position) error {
	them := pos.Turn().Other()
	if k := pos.KingSquare(them); k != chess.NoSquare && pos.IsAttacked(k, pos.Turn()) {
		return fmt.Errorf("the %s king on %s is in check although it is %s's turn", them, k, pos.Turn())
	}
	return nil
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
	if err := noWrongCheck(pos); err != nil {
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
	q.Options = []Option{{ID: "yes", Words: castleYes[pos.Turn()]}, {ID: "no", Words: castleNo}}
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
		q.Moves = chess.FullMoves(start, g.SANs())
	}
	choices := drawOrder
	var flagged chess.Color
	if raw.Flag != "" {
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
		label := drawLabels[id]
		if id == "none" && raw.Flag != "" {
			label = winsOnTime[flagged.Other()]
		}
		q.Options = append(q.Options, Option{ID: id, Words: label})
	}
	if !slices.Contains(choices, q.key[0]) {
		return fmt.Errorf("the computed answer %q is not among the choices", q.key[0])
	}
	return nil
}

// TopicTitle is the code of a topic's name ("quiz.topic_check").
func TopicTitle(topic string) words.Message { return words.M(topicKeys[topic]) }
