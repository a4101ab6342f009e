// Package schema is what the SQL stores share about their schemas: the
// embedded migrations (NNNN_name.sql, applied in order) and the walk over
// the foreign keys that finds every table holding a visitor's data (N8).
// Each store keeps its own SQL: its dialect's migrations, the query that
// reads its catalogue's foreign keys, and how it applies a migration.
package schema

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Migration is one embedded SQL file, numbered by its NNNN_ prefix.
type Migration struct {
	Version int
	Name    string // the file's name, as schema_migrations records it
	SQL     string
}

// Migrations reads dir/*.sql from fsys in version order and refuses
// duplicate or malformed numbers, so a bad file fails the boot.
func Migrations(fsys fs.FS, dir string) ([]Migration, error) {
	names, err := fs.Glob(fsys, dir+"/*.sql")
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	var ms []Migration
	seen := map[int]string{}
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a number like 0001_", base)
		}
		if other, dup := seen[v]; dup {
			return nil, fmt.Errorf("migrations %s and %s share number %d", other, base, v)
		}
		seen[v] = base
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", base, err)
		}
		ms = append(ms, Migration{Version: v, Name: base, SQL: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	return ms, nil
}

// ForeignKey is one reference in the schema: Table.From references
// Parent.To; Cascade when it is ON DELETE CASCADE.
type ForeignKey struct {
	Table, From, Parent, To string
	Cascade                 bool
}

// Owned is a table whose rows belong to a visitor: through Column it
// references Parent (visitors, or another owned table) with ON DELETE
// CASCADE. Filter selects one visitor's rows, with the store's placeholder
// for the visitor's id.
type Owned struct {
	Name, Column, Parent, Filter string
}

// notOwned are the tables that hold no visitor's data.
var notOwned = map[string]bool{"visitors": true, "schema_migrations": true, "site_secrets": true,
	// A class and its homework belong to whoever holds the teacher link,
	// not to a visitor: they go with the class (deleted by its teacher, or
	// after a year untouched). Its memberships and remembered links are
	// visitors' rows.
	"classes": true, "class_homework": true,
	// A puzzle's rating is moved by everybody's attempts: nobody's data.
	"puzzle_ratings": true}

// NotOwned reports whether table holds no visitor's data by design: the
// visitors themselves, the migrations' record, the site's secrets and the
// puzzles' own ratings (moved by everybody's attempts, nobody's data).
// Every other table must be found by OwnedTables.
func NotOwned(table string) bool { return notOwned[table] }

// VisitorFilter selects the visitor's own row in visitors, with param the
// store's placeholder for the id ("?" or "$1").
func VisitorFilter(param string) string { return "id = " + param }

// OwnedTables walks fks out from visitors and returns every table that
// belongs to a visitor, parents before children, its Filter written with
// param as the placeholder for the visitor's id. Tables added by later
// migrations are found without changing this code.
func OwnedTables(fks []ForeignKey, param string) []Owned {
	filters := map[string]string{"visitors": VisitorFilter(param)}
	var out []Owned
	for grew := true; grew; {
		grew = false
		for _, k := range fks {
			pf, ok := filters[k.Parent]
			if _, done := filters[k.Table]; done || !ok || !k.Cascade || notOwned[k.Table] {
				continue
			}
			f := `"` + k.From + `" = ` + param
			if k.Parent != "visitors" {
				f = `"` + k.From + `" IN (SELECT "` + k.To + `" FROM "` + k.Parent + `" WHERE ` + pf + `)`
			}
			filters[k.Table] = f
			out = append(out, Owned{Name: k.Table, Column: k.From, Parent: k.Parent, Filter: f})
			grew = true
		}
	}
	return out
}
