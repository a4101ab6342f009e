package words_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/template/parse"

	"chesstutor/words"
)

// This file proves point 7b of issue 31 from the sources: every key the
// code, the templates and the scripts use is in the English catalogue,
// and every key of the catalogue is used by one of them. It reads the
// module's files (not the tests, which may name keys that do not exist
// on purpose) the way a reviewer would: Go through go/ast, templates
// through text/template/parse, scripts with regular expressions.

// keyShape is what a key looks like: a feature, a dot, and dotted names
// (clock.label_10+0, ending.fifty-move-rule, board.piece_wK).
var keyShape = regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-zA-Z0-9_+\-]+)+$`)

// keyFunc is a Go function or method whose argument at arg is a key;
// prefix is what the function puts in front of it, and in, when set, the
// one folder whose function of that name this is.
type keyFunc struct {
	name   string
	arg    int
	prefix string
	in     string
	// qualifier, when set, is the package name the call must be made
	// through (words.M, not some other M).
	qualifier string
	// loose: other types have methods of this name (log.Error), so only
	// a literal shaped like a key counts.
	loose bool
	// method: a method of a type of folder in (p.moveErr), called on any
	// value.
	method bool
}

var keyFuncs = []keyFunc{
	{name: "M", qualifier: "words"},
	{name: "Errorf", qualifier: "words"},
	{name: "Wrap", arg: 1, qualifier: "words"},
	{name: "T", loose: true},                                     // (*words.Words).T
	{name: "HTML", loose: true},                                  // (*words.Words).HTML
	{name: "Has", loose: true},                                   // (*words.Words).Has
	{name: "Error", arg: 1, loose: true},                         // (*words.Words).Error's fallback
	{name: "refuse", arg: 1},                                     // handlers/errors.go
	{name: "fail", arg: 1, prefix: "game.", in: "games"},         // games/service.go
	{name: "failChess", arg: 2, prefix: "game.", in: "games"},    // games/service.go
	{name: "newError", prefix: "chess.", in: "chess"},            // chess/errors.go: codes worded as chess.<code>
	{name: "failRemote", arg: 1, prefix: "remote.", in: "games"}, // games/remote.go
}

// dynamic lists every place the code builds a key at run time from a
// fixed part and a code or number, and the keys each builds. The test
// finds every such construction in Go (a key-shaped literal followed by
// +, fmt.Sprintf) and in templates (t (printf …)); each must be listed
// here under its file, and each entry must still be found and still
// match a key, so the list cannot go stale. An entry without keys builds
// them from the argument of a function of keyFuncs, whose call sites
// are checked instead.
var dynamic = []struct {
	file, site string // site: the literal parts, … for the rest
	keys       string // the keys built (a regexp of the whole key), or ""
}{
	// A square's label: the piece on it (chess.Piece.String, "wK") and
	// its state classes (views.stateClasses), and the board's sides.
	{"views/board.go", `"board.piece_" + …`, `board\.piece_[wb][KQRBNP]`},
	// The pieces a setup item of an exam offers for a square.
	{"handlers/exams.go", `"board.piece_" + …`, `board\.piece_[wb][KQRBNP]`},
	{"views/board.go", `"board.state_" + …`, `board\.state_(selected|dest|check|last_move|marked|missed|wrong|correct|subject|forbidden)`},
	{"views/board.go", `"color." + …`, `color\.(white|black)`},
	// The practice page's sentence for the mix of exercise kinds of a
	// lesson (handlers.TestEveryKindMixHasItsSentence covers every mix).
	{"handlers/lessons.go", `"lesson.how_" + …`, `lesson\.how_(name|squares|move|setup|undefended)(_(squares|move|setup|undefended))*`},
	// Whose move it is on a game page, by colour.
	{"handlers/games.go", `"game.js.to_move_" + …`, `game\.js\.to_move_(white|black)`},
	// The HTTP status's own message (handlers.defaultMessage).
	{"handlers/errors.go", `fmt.Sprintf("error.status_%d")`, `error\.status_[0-9]{3}`},
	// A flag that fell: whose time ran out.
	{"games/actions.go", `"game.refuse_flag_" + …`, `game\.refuse_flag_(white|black)`},
	// A game's opponent: the computer playing the other colour.
	{"games/replay.go", `"game.opponent_computer_" + …`, `game\.opponent_computer_(white|black)`},
	// How a game ended (chess.Outcome.Code), with the winner for a win.
	{"games/state.go", `"ending.timeout_no_mate_" + …`, `ending\.timeout_no_mate_(white|black)`},
	{"games/state.go", `"ending." + …`, `ending\.(stalemate|threefold-repetition|fifty-move-rule|insufficient-material|agreement)`},
	{"games/state.go", `"ending." + … + "_" + …`, `ending\.(checkmate|resignation|timeout)_(white|black)`},
	{"games/state.go", `"game.cause_stalemate_" + …`, `game\.cause_stalemate_(white|black)`},
	{"games/state.go", `"game.cause_timeout_no_mate_" + …`, `game\.cause_timeout_no_mate_(white|black)`},
	// A game from two devices won by a claim: who was gone (G26).
	{"games/remote.go", `"remote.cause_gone_draw_" + …`, `remote\.cause_gone_draw_(white|black)`},
	{"games/remote.go", `"remote.cause_gone_" + …`, `remote\.cause_gone_(white|black)`},
	// ChessMessage puts chess. before a chess.Error's code: the codes
	// are checked where the chess package makes them (newError).
	{"games/service.go", `"chess." + …`, ""},
	// A chess.Error's colour and ending arguments, worded.
	{"games/service.go", `"color." + …`, `color\.(white|black)`},
	{"games/service.go", `"ending.method_" + …`, `ending\.method_(checkmate|stalemate|threefold-repetition|fifty-move-rule|insufficient-material|timeout|timeout-no-mate|resignation|agreement)`},
	// A piece as a noun phrase: "the knight", "your knight", … by its
	// type (chess.PieceType.String), and a piece by its code.
	{"exercise/exercise.go", `"piece." + … + "_" + …`, `piece\.(the|your|own|enemy|name)_(pawn|knight|bishop|rook|queen|king)`},
	{"handlers/exercises.go", `"piece.the_" + …`, `piece\.the_(pawn|knight|bishop|rook|queen|king)`},
	{"lessons/live.go", `"piece.the_" + …`, `piece\.the_(pawn|knight|bishop|rook|queen|king)`},
	{"handlers/exercises_said.go", `"piece.the_" + …`, `piece\.the_(pawn|knight|bishop|rook|queen|king)`},
	// The readable export names each table of the visitor's data (store tables).
	{"handlers/privacy_read.go", `"privacy.table_" + …`, `privacy\.table_[a-z_]+`},
	{"handlers/hints.go", `"piece.name_" + …`, `piece\.name_(pawn|knight|bishop|rook|queen|king)`},
	{"handlers/hints.go", `"piece.your_" + …`, `piece\.your_(pawn|knight|bishop|rook|queen|king)`},
	{"handlers/quiz.go", `"board.piece_" + …`, `board\.piece_[wb][KQRBNP]`},
	{"exercise/move.go", `"board.piece_" + …`, `board\.piece_[wb]K`},
	{"exercise/move.go", `"color." + …`, `color\.(white|black)`},
	// Setting up the board: the rule that places each piece, and the
	// piece with its colour (issue 36, X10).
	{"exercise/setup.go", `"exercise.setup_rule_pawn_" + …`, `exercise\.setup_rule_pawn_(white|black)`},
	{"exercise/setup.go", `"exercise.setup_rule_queen_" + …`, `exercise\.setup_rule_queen_(white|black)`},
	{"exercise/setup.go", `"exercise.setup_rule_" + …`, `exercise\.setup_rule_(rook|knight|bishop)`},
	{"exercise/setup.go", `"board.piece_" + …`, `board\.piece_[wb][KQRBNP]`},
	{"handlers/exercises_setup.go", `"board.piece_" + …`, `board\.piece_[wb][KQRBNP]`},
	{"handlers/worksheets.go", `"board.piece_" + …`, `board\.piece_[wb][KQRBNP]`},
	// A JSON body's value of the wrong kind (handlers.jsonKind).
	{"handlers/handler.go", `"http.json_kind_" + …`, `http\.json_kind_(string|number|bool|array|object)`},
	// The squares trainer's links: the board seen from each side, each
	// mode (exercise.TrainerFind, TrainerName).
	{"handlers/trainer.go", `"trainer.view_" + …`, `trainer\.view_(white|black)`},
	{"handlers/trainer.go", `"trainer.mode_" + …`, `trainer\.mode_(find|name)`},
	// A move exercise's goal (exercise.Goal).
	{"views/pages/practice-move.html", `printf "exercise.goal_%s"`, `exercise\.goal_[a-z-]+`},
	// Scripts: words by the side (white, black) or the piece (by name)
	// a state from the server names.
	{"public/js/game/paint.js", "`to_move_…`", `game\.js\.to_move_(white|black)`},
	{"public/js/game/paint.js", "`you_…`", `game\.js\.you_(white|black)`},
	{"public/js/game/paint.js", "`king_in_check_…`", `game\.js\.king_in_check_(white|black)`},
	{"public/js/game/paint.js", "`pass_title_…`", `game\.js\.pass_title_(white|black)`},
	{"public/js/game/paint.js", "`pass_title_draw_…`", `game\.js\.pass_title_draw_(white|black)`},
	{"public/js/game/clock.js", "`clock_…`", `game\.js\.clock_(white|black)`},
	{"public/js/game/remote.js", "`king_in_check_…`", `game\.js\.king_in_check_(white|black)`},
	{"public/js/game/dialogs.js", "`resign_confirm_…`", `game\.js\.resign_confirm_(white|black)`},
	{"public/js/game/drawboard.js", "`board_bottom_…_turn_…`", `game\.js\.board_bottom_(white|black)_turn_(white|black)`},
	{"public/js/game/help.js", "`threatened_by_…`", `game\.js\.threatened_by_(pawn|knight|bishop|rook|queen|king)`},
	{"public/js/game/help.js", "`threatens_…`", `game\.js\.threatens_(pawn|knight|bishop|rook|queen|king)`},
	// The spoken move: who took or played which piece, or promoted to
	// which (speech.js, two calls of the same shape).
	{"public/js/game/speech.js", "`…_…`", `game\.js\.((took|played)_(pawn|knight|bishop|rook|queen|king)|promoted(_took)?_(queen|rook|bishop|knight))`},
	{"public/js/exercise.js", "`reason_…`", `exercise\.js\.reason_(missed|wrong)`},
	{"public/js/move-exercise.js", "`promote_…`", `exercise\.move_js\.promote_[qrbn]`},
	{"public/js/puzzle.js", "`promote_…`", `puzzles\.js\.promote_[qrbn]`},
	// Puzzles: a theme's name (puzzles.Theme, "-" as "_"), the solver's
	// side, and the pieces a wrong move's reason or a hint names.
	{"handlers/puzzles.go", `"puzzles.theme_" + …`, `puzzles\.theme_[a-z0-9_]+`},
	{"handlers/puzzles.go", `"puzzles.side_" + …`, `puzzles\.side_(white|black)`},
	{"handlers/puzzles.go", `"piece.your_" + …`, `piece\.your_(pawn|knight|bishop|rook|queen|king)`},
	{"handlers/puzzles.go", `"piece.the_" + …`, `piece\.the_(pawn|knight|bishop|rook|queen|king)`},
	// A SAN move naming a piece the side lacks, or whose pieces cannot
	// go there: the code ends in the piece's name.
	{"chess/san.go", `"chess.san_no_" + …`, `chess\.san_no_(pawn|knight|bishop|rook|queen|king)`},
	{"chess/san.go", `"chess.san_illegal_" + …`, `chess\.san_illegal_(pawn|knight|bishop|rook|queen|king)`},
	// The review: a move's class by its code (review.Class.String), the
	// counts of a side's classes, a side's colour, and the piece phrases
	// of the reasons (review/words.go) by kind and piece.
	{"handlers/review.go", `"review.class." + …`, `review\.class\.(best|good|inaccuracy|mistake|blunder|book)`},
	{"handlers/review.go", `"review.class_lower." + …`, `review\.class_lower\.(best|good|inaccuracy|mistake|blunder|book)`},
	{"handlers/review.go", `"review.count." + …`, `review\.count\.(inaccuracy|mistake|blunder|book)`},
	{"handlers/review.go", `"color." + …`, `color\.(white|black)`},
	{"handlers/pgn.go", `"review.class." + …`, `review\.class\.(best|good|inaccuracy|mistake|blunder|book)`},
	{"review/words.go", `"review.piece." + … + …`, `review\.piece\.(their|your|your_acc|a|worth|the_acc|both|both_your)_(pawn|knight|bishop|rook|queen|king)`},
	// Words.Date's month names.
	{"words/words.go", `fmt.Sprintf("date.month_%d")`, `date\.month_([1-9]|1[0-2])`},
	{"handlers/exams.go", `fmt.Sprintf("exams.step_%d_title")`, `exams\.step_[0-9]+_title`},
	{"handlers/exams.go", `fmt.Sprintf("exams.step_%d_skill_%d")`, `exams\.step_[0-9]+_skill_[0-9]+`},
	// The new-game form: each level's name and description (levels
	// 1–8) and each clock's spoken name.
	{"views/pages/play.html", `printf "level.name_%d"`, `level\.name_[0-8]`},
	{"views/pages/play.html", `printf "level.desc_%d"`, `level\.desc_[0-8]`},
	{"views/pages/play.html", `printf "clock.label_%s"`, `clock\.label_(none|[0-9]+\+[0-9]+)`},
	// The invite page: the colour the friend will play.
	{"views/pages/remote-join.html", `printf "remote.join_you_%s"`, `remote\.join_you_(white|black)`},
}

// testOnly are keys that only tests use, each with why it is in the
// catalogue at all.
var testOnly = map[string]string{
	// The words package's proof of the plural rules (one, few, many) in
	// every language, and of plural forms in scripts.
	"test.plural": "words_test.go",
}

// fileName is a Go literal shaped like a key that names a file, such as
// "glossary.md" (lessons) or "chess.db" (cmd/loadtest): not a key.
var fileName = regexp.MustCompile(`\.(md|db|go|js|css|html|json|toml|wav|svg)$`)

// pending are script prefixes a page hands its scripts whose modules do
// not yet speak through t(): their keys count as used until the script
// is converted (issue 31), when the prefix must leave this list (the
// test says so).
var pending = map[string]string{}

// found is what the sources use.
type found struct {
	uses    map[string][]string  // key -> where
	sites   map[[2]string]string // {file, site} -> where
	unknown []string             // "where: key" for a key-shaped literal at a key's place that is no key
	prefix  map[string][]string  // page -> script word prefixes
}

func (f *found) use(key, where string) { f.uses[key] = append(f.uses[key], where) }

// root is the module's root, where go.mod is.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod in %s", dir)
	}
	return dir
}

// sourceFiles lists the module's files with the extension ext, as
// slash paths from root, leaving out tests, test data and packages.
func sourceFiles(t *testing.T, dir, ext string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ext) && !strings.HasSuffix(name, "_test.go") {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestEveryKeyIsUsedAndKnown: every key the sources use exists in
// English (the other languages are held to English by Check), every
// key of the catalogue is used, and every key built at run time is
// declared in dynamic.
func TestEveryKeyIsUsedAndKnown(t *testing.T) {
	cat := words.MustLoad()
	known := map[string]bool{}
	features := map[string]bool{}
	for _, k := range cat.Keys(words.English) {
		known[k] = true
		features[k[:strings.IndexByte(k, '.')]] = true
	}
	dir := root(t)
	f := &found{uses: map[string][]string{}, sites: map[[2]string]string{}, prefix: map[string][]string{}}
	scanGo(t, dir, f, features)
	scanTemplates(t, dir, f)
	scanScripts(t, dir, f, known)

	for _, u := range f.unknown {
		t.Errorf("unknown key: %s", u)
	}
	for k, where := range f.uses {
		slices.Sort(where)
		where = slices.Compact(where)
		if !known[k] {
			t.Errorf("unknown key %q (%s): add it to words/locales/*/ or fix the spelling", k, strings.Join(where, ", "))
		}
	}

	used := map[string]bool{}
	for k := range f.uses {
		used[k] = true
	}
	declared := map[[2]string]bool{}
	for _, d := range dynamic {
		id := [2]string{d.file, d.site}
		declared[id] = true
		if _, ok := f.sites[id]; !ok {
			t.Errorf("dynamic: %s no longer builds keys as %s: remove the entry", d.file, d.site)
		}
		if d.keys == "" {
			continue
		}
		re := regexp.MustCompile(`^(?:` + d.keys + `)$`)
		n := 0
		for k := range known {
			if re.MatchString(k) {
				used[k] = true
				n++
			}
		}
		if n == 0 {
			t.Errorf("dynamic: %s %s: no key matches %s", d.file, d.site, d.keys)
		}
	}
	for id, where := range f.sites {
		if !declared[id] {
			t.Errorf("%s builds keys as %s: declare it and the keys it builds in dynamic (usage_test.go)", where, id[1])
		}
	}
	for k := range testOnly {
		if !known[k] {
			t.Errorf("testOnly: %q is not in the catalogue", k)
		}
		used[k] = true
	}
	for p := range pending {
		n := 0
		for k := range known {
			if strings.HasPrefix(k, p) && !used[k] {
				used[k] = true
				n++
			}
		}
		if n == 0 {
			t.Errorf("pending: every key under %q is used now: remove it from pending", p)
		} else {
			t.Logf("pending: %d keys under %q wait for their script", n, p)
		}
	}
	var unused []string
	for _, k := range cat.Keys(words.English) {
		if !used[k] {
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		t.Errorf("%d keys of the catalogue are used nowhere (delete them from every language, or declare how they are built in dynamic):\n  %s",
			len(unused), strings.Join(unused, "\n  "))
	}
	t.Logf("%d keys: %d used by name, the rest built at run time or by tests", len(known), len(f.uses))
}

// scanGo finds keys in Go: strings at a key's place in a call of
// keyFuncs, of a wrapper of them (below) or in a words.Message{Key: …},
// key-shaped literals of a known feature anywhere (helpers that return a
// key, such as headingFor), and keys built from a string and something
// else. A string is a literal, a string constant (chess.CodeSANEmpty) or
// a local variable, which stands for every literal assigned to it in its
// function (key := "taken_free"; if … { key = "taken_lose" }).
//
// A wrapper is a function or method that hands one of its parameters,
// with or without a string before it, to a key's place: fail(k, key)
// words game.<key>, verdict(key) exercise.move_<key>, p.moveErr(code, …)
// chess.<code>. Its parameter is then a key's place at its calls, and its
// own "game." + key is no key built at run time.
func scanGo(t *testing.T, dir string, f *found, features map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	type goFile struct {
		name, folder string
		file         *ast.File
	}
	var files []goFile
	consts := map[string]map[string]string{} // folder -> constant -> value
	for _, name := range sourceFiles(t, dir, ".go") {
		file, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		folder := path.Dir(name)
		files = append(files, goFile{name, folder, file})
		if consts[folder] == nil {
			consts[folder] = map[string]string{}
		}
		for _, d := range file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							if v, ok := stringLit(vs.Values[i]); ok {
								consts[folder][n.Name] = v
							}
						}
					}
				}
			}
		}
	}
	// str is the value of a string literal or constant seen from folder.
	str := func(e ast.Expr, folder string) (string, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			return stringLit(e)
		case *ast.Ident:
			v, ok := consts[folder][e.Name]
			return v, ok
		case *ast.SelectorExpr:
			if pkg, ok := e.X.(*ast.Ident); ok && ast.IsExported(e.Sel.Name) {
				for folder, cs := range consts {
					if path.Base(folder) == pkg.Name {
						if v, ok := cs[e.Sel.Name]; ok {
							return v, true
						}
					}
				}
			}
		}
		return "", false
	}
	// eachFunc calls fn with every function of every file, with its
	// parameters by index.
	eachFunc := func(fn func(gf goFile, fd *ast.FuncDecl, params map[string]int)) {
		for _, gf := range files {
			for _, d := range gf.file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				params := map[string]int{}
				i := 0
				for _, field := range fd.Type.Params.List {
					for _, n := range field.Names {
						params[n.Name] = i
						i++
					}
					if len(field.Names) == 0 {
						i++
					}
				}
				fn(gf, fd, params)
			}
		}
	}

	funcs := slices.Clone(keyFuncs)
	wrapped := map[ast.Node]bool{}
	known := map[keyFunc]bool{}
	for _, kf := range funcs {
		known[kf] = true
	}
	for grew := true; grew; { // wrappers of wrappers: until no new one
		grew = false
		eachFunc(func(gf goFile, fd *ast.FuncDecl, params map[string]int) {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				for _, kf := range funcs {
					if !kf.matches(call, gf.folder) {
						continue
					}
					prefix, e := kf.prefix, call.Args[kf.arg]
					b, built := e.(*ast.BinaryExpr)
					if built && b.Op == token.ADD {
						lit, isLit := str(b.X, gf.folder)
						if !isLit || !isKeyPrefix(prefix+lit, features) {
							continue
						}
						prefix, e = prefix+lit, b.Y
					}
					id, ok := e.(*ast.Ident)
					if !ok {
						continue
					}
					i, isParam := params[id.Name]
					if !isParam {
						continue
					}
					w := keyFunc{name: fd.Name.Name, arg: i, prefix: prefix, in: gf.folder, method: fd.Recv != nil}
					if !known[w] {
						known[w] = true
						funcs = append(funcs, w)
						grew = true
					}
					if built {
						wrapped[b] = true
					}
				}
				return true
			})
		})
	}

	for _, gf := range files {
		name := gf.name
		where := func(n ast.Node) string {
			return fmt.Sprintf("%s:%d", name, fset.Position(n.Pos()).Line)
		}
		var locals map[string][]*ast.BasicLit // of the function being read
		// keyArg records the key expression e at a key's place.
		var keyArg func(e ast.Expr, prefix string, loose bool)
		keyArg = func(e ast.Expr, prefix string, loose bool) {
			if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD && !wrapped[b] {
				// fail(k, "refuse_flag_"+colour): the key is built.
				if site, ok := concatSite(b, prefix, features, func(e ast.Expr) (string, bool) { return str(e, gf.folder) }); ok {
					f.sites[[2]string{name, site}] = where(b)
				}
				return
			}
			if id, ok := e.(*ast.Ident); ok && locals[id.Name] != nil {
				for _, lit := range locals[id.Name] {
					keyArg(lit, prefix, loose)
				}
				return
			}
			if s, ok := str(e, gf.folder); ok {
				switch k := prefix + s; {
				case keyShape.MatchString(k):
					f.use(k, where(e))
				case !loose:
					f.unknown = append(f.unknown, where(e)+": "+strconv.Quote(s)+" is not shaped like a key")
				}
			}
		}
		ast.Inspect(gf.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				locals = nil
				eachLocal(n, func(id string, lit *ast.BasicLit) {
					if locals == nil {
						locals = map[string][]*ast.BasicLit{}
					}
					locals[id] = append(locals[id], lit)
				})
			case *ast.CallExpr:
				if site, ok := sprintfSite(n, features); ok {
					f.sites[[2]string{name, site}] = where(n)
				}
				for _, kf := range funcs {
					if kf.matches(n, gf.folder) {
						keyArg(n.Args[kf.arg], kf.prefix, kf.loose)
					}
				}
			case *ast.CompositeLit:
				if typeName(n.Type) == "Message" {
					for _, el := range n.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Key" {
								keyArg(kv.Value, "", false)
							}
						}
					}
				}
			case *ast.BinaryExpr:
				if wrapped[n] {
					return false
				}
				if site, ok := concatSite(n, "", features, func(e ast.Expr) (string, bool) { return str(e, gf.folder) }); ok {
					f.sites[[2]string{name, site}] = where(n)
					return false // the parts of a+b+c are one site
				}
			case *ast.BasicLit:
				if s, ok := stringLit(n); ok && keyShape.MatchString(s) && features[s[:strings.IndexByte(s, '.')]] && !fileName.MatchString(s) {
					f.use(s, where(n))
				}
			}
			return true
		})
	}
}

// eachLocal calls fn with each local variable of fd assigned a string
// literal, and the literal.
func eachLocal(fd *ast.FuncDecl, fn func(id string, lit *ast.BasicLit)) {
	if fd.Body == nil {
		return
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				id, isID := l.(*ast.Ident)
				lit, isLit := as.Rhs[i].(*ast.BasicLit)
				if isID && isLit && lit.Kind == token.STRING {
					fn(id.Name, lit)
				}
			}
		}
		return true
	})
}

// matches reports whether call, in a file of folder, calls kf with an
// argument at kf's place.
func (kf keyFunc) matches(call *ast.CallExpr, folder string) bool {
	qual, fn := callName(call)
	if fn != kf.name || kf.arg >= len(call.Args) {
		return false
	}
	switch {
	case kf.qualifier != "":
		return qual == kf.qualifier || qual == "" && folder == kf.qualifier
	case kf.method:
		return qual != "" && folder == kf.in
	case kf.in != "":
		return qual == "" && folder == kf.in || ast.IsExported(fn) && qual == path.Base(kf.in)
	}
	return true
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// callName is the function's name and, for pkg.F(…), the package's.
func callName(c *ast.CallExpr) (qualifier, name string) {
	switch fn := c.Fun.(type) {
	case *ast.Ident:
		return "", fn.Name
	case *ast.SelectorExpr:
		if id, ok := fn.X.(*ast.Ident); ok {
			return id.Name, fn.Sel.Name
		}
		return "?", fn.Sel.Name
	}
	return "?", ""
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

var keyStart = regexp.MustCompile(`^[a-z][a-z0-9]*\.[a-zA-Z0-9_+\-.]*$`)

// isKeyPrefix reports whether s starts a key of a known feature.
func isKeyPrefix(s string, features map[string]bool) bool {
	i := strings.IndexByte(s, '.')
	return i > 0 && features[s[:i]] && keyStart.MatchString(s)
}

// concatSite describes "feature.part" + x + … (with prefix put before
// the first part, for a function of keyFuncs): the strings quoted, the
// rest as …. str reads a string literal or constant.
func concatSite(b *ast.BinaryExpr, prefix string, features map[string]bool, str func(ast.Expr) (string, bool)) (string, bool) {
	if b.Op != token.ADD {
		return "", false
	}
	var parts []ast.Expr
	var flatten func(e ast.Expr)
	flatten = func(e ast.Expr) {
		if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		parts = append(parts, e)
	}
	flatten(b)
	first, ok := str(parts[0])
	if !ok || !isKeyPrefix(prefix+first, features) {
		return "", false
	}
	var out []string
	for i, p := range parts {
		if s, ok := str(p); ok {
			if i == 0 {
				s = prefix + s
			}
			out = append(out, strconv.Quote(s))
		} else {
			out = append(out, "…")
		}
	}
	return strings.Join(out, " + "), true
}

// sprintfSite describes fmt.Sprintf("feature.part_%d", …).
func sprintfSite(c *ast.CallExpr, features map[string]bool) (string, bool) {
	if q, n := callName(c); q != "fmt" || n != "Sprintf" || len(c.Args) == 0 {
		return "", false
	}
	format, ok := stringLit(c.Args[0])
	if !ok || !isKeyPrefix(strings.NewReplacer("%d", "0", "%s", "x").Replace(format), features) || !strings.Contains(format, "%") {
		return "", false
	}
	return fmt.Sprintf("fmt.Sprintf(%q)", format), true
}

// scanTemplates finds {{t "key"}} and {{th "key"}}, keys built with
// {{t (printf "feature.part_%d" …)}}, and the prefixes each page hands
// its scripts with {{scriptWords "prefix." …}}. The layout and the
// partials belong to every page.
func scanTemplates(t *testing.T, dir string, f *found) {
	t.Helper()
	for _, name := range sourceFiles(t, dir, ".html") {
		if !strings.HasPrefix(name, "views/") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		tree := parse.New(name)
		tree.Mode = parse.SkipFuncCheck
		trees := map[string]*parse.Tree{}
		if _, err := tree.Parse(string(src), "", "", trees); err != nil {
			t.Fatal(err)
		}
		for _, tr := range trees {
			walkTemplate(tr.Root, func(c *parse.CommandNode) {
				id, ok := c.Args[0].(*parse.IdentifierNode)
				if !ok || len(c.Args) < 2 {
					return
				}
				where := fmt.Sprintf("%s:%d", name, lineOf(src, int(c.Position())))
				switch id.Ident {
				case "t", "th":
					switch a := c.Args[1].(type) {
					case *parse.StringNode:
						if keyShape.MatchString(a.Text) {
							f.use(a.Text, where)
						} else {
							f.unknown = append(f.unknown, where+": "+a.Quoted+" is not shaped like a key")
						}
					case *parse.PipeNode:
						for _, pc := range a.Cmds {
							if fn, ok := pc.Args[0].(*parse.IdentifierNode); ok && fn.Ident == "printf" && len(pc.Args) > 1 {
								if s, ok := pc.Args[1].(*parse.StringNode); ok {
									f.sites[[2]string{name, "printf " + s.Quoted}] = where
								}
							}
						}
					}
				case "scriptWords":
					for _, a := range c.Args[1:] {
						if s, ok := a.(*parse.StringNode); ok {
							f.prefix[name] = append(f.prefix[name], s.Text)
						}
					}
				}
			})
		}
	}
}

func lineOf(src []byte, offset int) int {
	return 1 + strings.Count(string(src[:min(offset, len(src))]), "\n")
}

// walkTemplate calls fn for every command of a template tree.
func walkTemplate(n parse.Node, fn func(*parse.CommandNode)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			walkTemplate(c, fn)
		}
	case *parse.ActionNode:
		walkTemplate(n.Pipe, fn)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, c := range n.Cmds {
			walkTemplate(c, fn)
		}
	case *parse.CommandNode:
		fn(n)
		for _, a := range n.Args {
			walkTemplate(a, fn)
		}
	case *parse.ChainNode:
		walkTemplate(n.Node, fn)
	case *parse.IfNode:
		walkBranch(&n.BranchNode, fn)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, fn)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, fn)
	case *parse.TemplateNode:
		walkTemplate(n.Pipe, fn)
	}
}

func walkBranch(b *parse.BranchNode, fn func(*parse.CommandNode)) {
	walkTemplate(b.Pipe, fn)
	walkTemplate(b.List, fn)
	walkTemplate(b.ElseList, fn)
}

var (
	jsImport  = regexp.MustCompile(`(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+\.js)["']`)
	jsAsset   = regexp.MustCompile(`\basset\s+"(js/[^"]+\.js)"`)
	jsCall    = regexp.MustCompile(`(?:^|[^.\w$])(?:t|has)\(`)
	jsMention = regexp.MustCompile(`"([a-z][a-z0-9_]*)"|'([a-z][a-z0-9_]*)'`)
	jsComment = regexp.MustCompile(`(?m)/\*[\s\S]*?\*/|^\s*//.*$`)
	jsWordsIn = regexp.MustCompile(`from\s*["'](?:\./|\.\./)+words\.js["']`)
)

// jsKeyArg reads the first argument of a t( or has( call from src (just
// after the parenthesis): its string literals at the top level are keys
// (t(on ? "marked" : "unmarked")), its template literals with ${…} are
// keys built at run time, returned by shape (`to_move_…`); plus reports
// a key added up with +.
func jsKeyArg(src string) (keys, shapes []string, plus bool) {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"', '\'':
			j := jsStringEnd(src, i)
			before := strings.TrimRight(src[:i], " \t\n")
			after := strings.TrimLeft(src[j+1:], " \t\n")
			compared := strings.HasSuffix(before, "=") || strings.HasPrefix(after, "=") || strings.HasPrefix(after, "!=")
			if depth == 0 && !compared { // not the "black" of c === "black" ? …
				keys = append(keys, src[i+1:j])
			}
			i = j
		case '`':
			j, shape, dynamic := jsTemplateEnd(src, i)
			if depth == 0 {
				if dynamic {
					shapes = append(shapes, shape)
				} else {
					keys = append(keys, shape[1:len(shape)-1])
				}
			}
			i = j
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return
			}
			depth--
		case ',':
			if depth == 0 {
				return
			}
		case '+':
			if depth == 0 {
				plus = true
			}
		}
	}
	return
}

// jsStringEnd is the index of the quote that closes the string opened at i.
func jsStringEnd(src string, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case src[i]:
			return j
		}
	}
	return len(src) - 1
}

// jsTemplateEnd is the index of the backtick that closes the template
// literal opened at i, the literal with each ${…} written …, and whether
// it had any.
func jsTemplateEnd(src string, i int) (int, string, bool) {
	var b strings.Builder
	b.WriteByte('`')
	dynamic := false
	for j := i + 1; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\\':
			b.WriteString(src[j : j+2])
			j++
		case c == '`':
			b.WriteByte('`')
			return j, b.String(), dynamic
		case c == '$' && j+1 < len(src) && src[j+1] == '{':
			dynamic = true
			b.WriteString("…")
			depth := 0
			for j += 2; j < len(src); j++ {
				switch src[j] {
				case '"', '\'':
					j = jsStringEnd(src, j)
				case '`':
					j, _, _ = jsTemplateEnd(src, j)
				case '{':
					depth++
				case '}':
					depth--
				}
				if depth < 0 {
					break
				}
			}
		default:
			b.WriteByte(c)
		}
	}
	return len(src) - 1, b.String(), dynamic
}

// scanScripts finds t("key") and has("key") in the modules that import
// words.js. A script's key lacks its prefix: it must be a key under one
// of the prefixes of every page that loads the module (directly or
// through imports), since those are the words the page hands it.
func scanScripts(t *testing.T, dir string, f *found, known map[string]bool) {
	t.Helper()
	jsDir := "public/js"
	imports := map[string][]string{}  // module -> modules it imports
	calls := map[string][][2]string{} // module -> {key, where}
	// mentions are the other strings of a module that speaks through
	// t(), such as the keys of a table (paint.js: WON.checkmate =
	// "end_won_checkmate", then t(WON[method])): each names a key when
	// it is one under its page's prefixes.
	mentions := map[string][][2]string{}
	for _, name := range sourceFiles(t, filepath.Join(dir, jsDir), ".js") {
		src, err := os.ReadFile(filepath.Join(dir, jsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range jsImport.FindAllStringSubmatch(string(src), -1) {
			imports[name] = append(imports[name], path.Join(path.Dir(name), m[1]))
		}
		if name == "words.js" || !jsWordsIn.Match(src) {
			continue
		}
		src = jsComment.ReplaceAllFunc(src, func(c []byte) []byte { // keep the line numbers
			return []byte(strings.Repeat("\n", strings.Count(string(c), "\n")))
		})
		for _, m := range jsMention.FindAllSubmatchIndex(src, -1) {
			for i := 2; i <= 4; i += 2 {
				if m[i] >= 0 {
					mentions[name] = append(mentions[name], [2]string{string(src[m[i]:m[i+1]]), fmt.Sprintf("%s/%s:%d", jsDir, name, lineOf(src, m[0]))})
				}
			}
		}
		for _, m := range jsCall.FindAllStringIndex(string(src), -1) {
			where := fmt.Sprintf("%s/%s:%d", jsDir, name, lineOf(src, m[1]))
			keys, shapes, plus := jsKeyArg(string(src[m[1]:]))
			if plus {
				f.unknown = append(f.unknown, where+": a script adds up a key with +: write it as a template literal (`name_${x}`) and declare it in dynamic")
			}
			for _, k := range keys {
				calls[name] = append(calls[name], [2]string{k, where})
			}
			for _, sh := range shapes {
				f.sites[[2]string{jsDir + "/" + name, sh}] = where
			}
		}
	}
	// The modules each page loads, with everything they import.
	common := []string{}
	pageOf := map[string]string{} // template -> page ("" for layout and partials)
	loads := map[string][]string{}
	for _, name := range sourceFiles(t, dir, ".html") {
		if !strings.HasPrefix(name, "views/") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range jsAsset.FindAllStringSubmatch(string(src), -1) {
			loads[name] = append(loads[name], strings.TrimPrefix(m[1], "js/"))
		}
		if strings.HasPrefix(name, "views/pages/") {
			pageOf[name] = name
		} else {
			common = append(common, name)
		}
	}
	for page := range pageOf {
		var prefixes, roots []string
		for _, tmpl := range append([]string{page}, common...) {
			prefixes = append(prefixes, f.prefix[tmpl]...)
			roots = append(roots, loads[tmpl]...)
		}
		seen := map[string]bool{}
		var visit func(m string)
		visit = func(m string) {
			if seen[m] {
				return
			}
			seen[m] = true
			for _, c := range calls[m] {
				ok := false
				for _, p := range prefixes {
					if known[p+c[0]] {
						f.use(p+c[0], c[1])
						ok = true
					}
				}
				if !ok {
					f.unknown = append(f.unknown, fmt.Sprintf("%s: %q is under none of the prefixes %v that %s hands its scripts", c[1], c[0], prefixes, page))
				}
			}
			for _, c := range mentions[m] {
				for _, p := range prefixes {
					if known[p+c[0]] {
						f.use(p+c[0], c[1])
					}
				}
			}
			for _, i := range imports[m] {
				visit(i)
			}
		}
		for _, r := range roots {
			visit(r)
		}
	}
	slices.Sort(f.unknown)
	f.unknown = slices.Compact(f.unknown)
}
