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
}

var keyFuncs = []keyFunc{
	{name: "M", qualifier: "words"},
	{name: "Errorf", qualifier: "words"},
	{name: "Wrap", arg: 1, qualifier: "words"},
	{name: "T", loose: true},                                  // (*words.Words).T
	{name: "HTML", loose: true},                               // (*words.Words).HTML
	{name: "Has", loose: true},                                // (*words.Words).Has
	{name: "Error", arg: 1, loose: true},                      // (*words.Words).Error's fallback
	{name: "refuse", arg: 1},                                  // handlers/errors.go
	{name: "fail", arg: 1, prefix: "game.", in: "games"},      // games/service.go
	{name: "failChess", arg: 2, prefix: "game.", in: "games"}, // games/service.go
	{name: "newError", prefix: "chess.", in: "chess"},         // chess/errors.go: codes worded as chess.<code>
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
	{"views/board.go", `"board.state_" + …`, `board\.state_(selected|dest|check|last_move|marked|missed|wrong|correct|subject|forbidden)`},
	{"views/board.go", `"color." + …`, `color\.(white|black)`},
	// The practice page's sentence for the mix of exercise kinds of a
	// lesson (handlers.TestEveryKindMixHasItsSentence covers every mix).
	{"handlers/lessons.go", `"lesson.how_" + …`, `lesson\.how_(name|squares|move)(_(squares|move))*`},
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
	// fail and failChess put game. before their key, ChessMessage
	// chess. before a chess.Error's code: their callers are checked.
	{"games/service.go", `"game." + …`, ""},
	{"games/service.go", `"chess." + …`, ""},
	// A chess.Error's colour and ending arguments, worded.
	{"games/service.go", `"color." + …`, `color\.(white|black)`},
	{"games/service.go", `"ending.method_" + …`, `ending\.method_(checkmate|stalemate|threefold-repetition|fifty-move-rule|insufficient-material|timeout|timeout-no-mate|resignation|agreement)`},
	// Words.Date's month names.
	{"words/words.go", `fmt.Sprintf("date.month_%d")`, `date\.month_([1-9]|1[0-2])`},
	// The new-game form: each level's name and description (levels
	// 1–8) and each clock's spoken name.
	{"views/pages/play.html", `printf "level.name_%d"`, `level\.name_[1-8]`},
	{"views/pages/play.html", `printf "level.desc_%d"`, `level\.desc_[1-8]`},
	{"views/pages/play.html", `printf "clock.label_%s"`, `clock\.label_(none|[0-9]+\+[0-9]+)`},
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

// scanGo finds keys in Go: string literals at a key's place in a call of
// keyFuncs or in a words.Message{Key: …}, key-shaped literals of a known
// feature anywhere (helpers that return a key, such as headingFor), and
// keys built from a literal and something else.
func scanGo(t *testing.T, dir string, f *found, features map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	for _, name := range sourceFiles(t, dir, ".go") {
		file, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		folder := path.Dir(name)
		where := func(n ast.Node) string {
			return fmt.Sprintf("%s:%d", name, fset.Position(n.Pos()).Line)
		}
		// keyArg records the key expression e at a key's place.
		keyArg := func(e ast.Expr, prefix string, loose bool) {
			if b, ok := e.(*ast.BinaryExpr); ok && prefix != "" {
				// fail(k, "refuse_flag_"+colour): the key is built.
				if site, ok := concatSite(b, prefix, features); ok {
					f.sites[[2]string{name, site}] = where(b)
				}
			}
			if s, ok := stringLit(e); ok {
				switch k := prefix + s; {
				case keyShape.MatchString(k):
					f.use(k, where(e))
				case !loose:
					f.unknown = append(f.unknown, where(e)+": "+strconv.Quote(s)+" is not shaped like a key")
				}
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if site, ok := sprintfSite(n, features); ok {
					f.sites[[2]string{name, site}] = where(n)
				}
				qual, fn := callName(n)
				for _, kf := range keyFuncs {
					if kf.name != fn || kf.qualifier != "" && kf.qualifier != qual && !(qual == "" && folder == "words") ||
						kf.in != "" && kf.in != folder || kf.arg >= len(n.Args) {
						continue
					}
					keyArg(n.Args[kf.arg], kf.prefix, kf.loose)
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
				if site, ok := concatSite(n, "", features); ok {
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
// the first part, for a function of keyFuncs): the literals quoted, the
// rest as ….
func concatSite(b *ast.BinaryExpr, prefix string, features map[string]bool) (string, bool) {
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
	first, ok := stringLit(parts[0])
	if !ok || !isKeyPrefix(prefix+first, features) {
		return "", false
	}
	var out []string
	for i, p := range parts {
		if s, ok := stringLit(p); ok {
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
	jsCall    = regexp.MustCompile(`(?:^|[^.\w$])(?:t|has)\(\s*(?:"([^"]*)"|'([^']*)'|` + "`([^`]*)`" + `)\s*([,)+])?`)
	jsComment = regexp.MustCompile(`(?m)/\*[\s\S]*?\*/|^\s*//.*$`)
	jsWordsIn = regexp.MustCompile(`from\s*["'](?:\./|\.\./)+words\.js["']`)
)

// scanScripts finds t("key") and has("key") in the modules that import
// words.js. A script's key lacks its prefix: it must be a key under one
// of the prefixes of every page that loads the module (directly or
// through imports), since those are the words the page hands it.
func scanScripts(t *testing.T, dir string, f *found, known map[string]bool) {
	t.Helper()
	jsDir := "public/js"
	imports := map[string][]string{}  // module -> modules it imports
	calls := map[string][][2]string{} // module -> {key, where}
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
		for _, m := range jsCall.FindAllStringSubmatchIndex(string(src), -1) {
			where := fmt.Sprintf("%s/%s:%d", jsDir, name, lineOf(src, m[0]))
			key := ""
			for i := 2; i <= 6; i += 2 {
				if m[i] >= 0 {
					key = string(src[m[i]:m[i+1]])
				}
			}
			if m[8] >= 0 && src[m[8]] == '+' || m[6] >= 0 && strings.Contains(key, "${") {
				f.unknown = append(f.unknown, where+": a script builds a key ("+key+"…): give each case its own t(\"…\") call")
				continue
			}
			calls[name] = append(calls[name], [2]string{key, where})
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
