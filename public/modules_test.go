package public

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// importRe finds the static imports and re-exports of an ES module:
// `import {a, b} from "./x.js"` (over several lines too), `import "./x.js"`
// and `export {a} from "./x.js"`. names holds what is inside the braces.
var importRe = regexp.MustCompile(`(?m)^\s*(?:import|export)\s*(?:(?:\{(?P<names>[^}]*)\}|\*\s+as\s+\w+|\w+)\s*(?:,\s*\{(?P<more>[^}]*)\})?\s*from\s*)?["'](?P<spec>[^"']+)["']`)

// module is one JavaScript file and what it imports, by file and name.
type module struct {
	imports []string            // paths of the modules it imports, like "js/game/net.js"
	names   map[string][]string // imported path -> the names taken from it
}

// readModules parses the imports of every module under public/js.
func readModules(t *testing.T) map[string]*module {
	t.Helper()
	mods := map[string]*module{}
	err := fs.WalkDir(Files, "js", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".js") {
			return err
		}
		src, err := fs.ReadFile(Files, name)
		if err != nil {
			return err
		}
		m := &module{names: map[string][]string{}}
		for _, match := range importRe.FindAllStringSubmatch(string(src), -1) {
			spec := match[importRe.SubexpIndex("spec")]
			if !strings.HasPrefix(spec, ".") {
				t.Errorf("%s imports %q: modules import each other by relative path", name, spec)
				continue
			}
			target := path.Join(path.Dir(name), spec)
			m.imports = append(m.imports, target)
			for _, list := range []string{match[importRe.SubexpIndex("names")], match[importRe.SubexpIndex("more")]} {
				for _, n := range strings.Split(list, ",") {
					if f := strings.Fields(n); len(f) > 0 { // "a" or "a as b": the name taken is a
						m.names[target] = append(m.names[target], f[0])
					}
				}
			}
		}
		mods[name] = m
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) == 0 {
		t.Fatal("no modules under public/js")
	}
	return mods
}

// TestNoImportCircle fails when modules under public/js import each other
// in a circle (N10): the page's state then has no one place it flows from.
func TestNoImportCircle(t *testing.T) {
	mods := readModules(t)
	for name, m := range mods {
		for _, dep := range m.imports {
			if mods[dep] == nil {
				t.Errorf("%s imports %s, which is not there", name, dep)
			}
		}
	}
	const (
		unseen = iota
		onPath
		done
	)
	mark := map[string]int{}
	var stack []string
	var visit func(string)
	visit = func(name string) {
		mark[name] = onPath
		stack = append(stack, name)
		for _, dep := range mods[name].imports {
			switch {
			case mods[dep] == nil:
			case mark[dep] == onPath:
				i := slices.Index(stack, dep)
				t.Errorf("import circle: %s -> %s", strings.Join(stack[i:], " -> "), dep)
			case mark[dep] == unseen:
				visit(dep)
			}
		}
		stack = stack[:len(stack)-1]
		mark[name] = done
	}
	names := make([]string, 0, len(mods))
	for name := range mods {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if mark[name] == unseen {
			visit(name)
		}
	}
}

// TestGamePageFlowsOneWay holds the game page to its flow (N10,
// ARCHITECTURE.md): only net.js talks to the server; only the input, the
// controls, the effects and game.js call net; only they and net change
// the state. Everything else in js/game only draws it.
func TestGamePageFlowsOneWay(t *testing.T) {
	mods := readModules(t)
	const (
		net   = "js/game/net.js"
		state = "js/game/state.js"
		board = "js/board.js"
	)
	// remotectl.js is the controls of a game from two devices.
	callers := []string{"js/game.js", "js/game/input.js", "js/game/controls.js", "js/game/remotectl.js", "js/game/effects.js"}
	for name, m := range mods {
		if name != "js/game.js" && !strings.HasPrefix(name, "js/game/") {
			continue
		}
		for _, n := range m.names[board] {
			if (n == "requestJSON" || n == "postJSON") && name != net {
				t.Errorf("%s imports %s: only net.js sends requests", name, n)
			}
		}
		if slices.Contains(m.imports, net) && !slices.Contains(callers, name) {
			t.Errorf("%s imports net.js: a view only draws the state (calls belong to input, controls or effects)", name)
		}
		if slices.Contains(m.names[state], "setState") && name != net && !slices.Contains(callers, name) {
			t.Errorf("%s imports setState: a view only draws the state", name)
		}
	}
	for _, must := range []string{net, state, "js/game/effects.js"} {
		if mods[must] == nil {
			t.Errorf("%s is missing", must)
		}
	}
}
