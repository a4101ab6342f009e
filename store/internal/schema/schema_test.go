package schema

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestMigrations(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	ms, err := Migrations(fstest.MapFS{
		"m/0002_games.sql":    file("CREATE TABLE games (id TEXT);"),
		"m/0001_visitors.sql": file("CREATE TABLE visitors (id TEXT);"),
		"m/README":            file("not a migration"),
	}, "m")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Version != 1 || ms[1].Name != "0002_games.sql" || !strings.HasPrefix(ms[1].SQL, "CREATE TABLE games") {
		t.Errorf("got %+v, want 0001_visitors.sql then 0002_games.sql", ms)
	}

	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
		want string
	}{
		{"no number", fstest.MapFS{"m/visitors.sql": file("")}, "must start with a number"},
		{"zero", fstest.MapFS{"m/0000_visitors.sql": file("")}, "must start with a number"},
		{"shared number", fstest.MapFS{"m/0001_a.sql": file(""), "m/0001_b.sql": file("")}, "share number 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Migrations(tc.fsys, "m"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestOwnedTables(t *testing.T) {
	fks := []ForeignKey{
		{Table: "quiz_answers", From: "round_id", Parent: "quiz_rounds", To: "id", Cascade: true},
		{Table: "games", From: "visitor_id", Parent: "visitors", To: "id", Cascade: true},
		{Table: "quiz_rounds", From: "visitor_id", Parent: "visitors", To: "id", Cascade: true},
		{Table: "audit", From: "visitor_id", Parent: "visitors", To: "id"}, // no cascade: not owned
		{Table: "orphans", From: "x", Parent: "elsewhere", To: "id", Cascade: true},
	}
	got := map[string]Owned{}
	var order []string
	for _, o := range OwnedTables(fks, "$1") {
		got[o.Name] = o
		order = append(order, o.Name)
	}
	want := map[string]string{
		"games":        `"visitor_id" = $1`,
		"quiz_rounds":  `"visitor_id" = $1`,
		"quiz_answers": `"round_id" IN (SELECT "id" FROM "quiz_rounds" WHERE "visitor_id" = $1)`,
	}
	if len(got) != len(want) {
		t.Fatalf("owned %v, want %d tables", order, len(want))
	}
	for name, filter := range want {
		if got[name].Filter != filter {
			t.Errorf("%s: filter %q, want %q", name, got[name].Filter, filter)
		}
	}
	if got["quiz_answers"].Parent != "quiz_rounds" || order[len(order)-1] != "quiz_answers" {
		t.Errorf("order %v: a child must come after its parent", order)
	}
	if NotOwned("games") || !NotOwned("site_secrets") {
		t.Error("NotOwned: games is a visitor's, site_secrets is not")
	}
}
