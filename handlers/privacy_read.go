package handlers

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/chess"
)

// The readable copy of "Download my data" (N8, issue 38): the same
// export as the JSON file, as a page a parent can read — each table under
// a heading in the visitor's language, dates as dates and a game's moves
// as moves. Column names stay the data's own, as in the file.

// dataTable is one table of the readable export.
type dataTable struct {
	Name, Title string
	Columns     []string
	Rows        [][]string
}

// myDataPage is the payload of views/pages/my-data.html.
type myDataPage struct {
	Exported string
	Tables   []dataTable
}

// showMyData renders the visitor's data as a page. Like the download it
// is never cached.
func (h *Handler) showMyData(c echo.Context) error {
	d, err := h.exportMe(c)
	if err != nil {
		return err
	}
	w := h.w(c)
	page := myDataPage{Exported: h.when(c, d.ExportedAt)}
	names := make([]string, 0, len(d.Tables))
	for name := range d.Tables {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		rows := d.Tables[name]
		if len(rows) == 0 {
			continue
		}
		t := dataTable{Name: name, Title: name}
		if key := "privacy.table_" + name; w.Has(key) {
			t.Title = w.T(key)
		}
		seen := map[string]bool{}
		for _, row := range rows {
			for col := range row {
				if !seen[col] {
					seen[col] = true
					t.Columns = append(t.Columns, col)
				}
			}
		}
		sort.Strings(t.Columns)
		for _, row := range rows {
			cells := make([]string, len(t.Columns))
			for i, col := range t.Columns {
				cells[i] = h.readable(c, col, row[col], row)
			}
			t.Rows = append(t.Rows, cells)
		}
		page.Tables = append(page.Tables, t)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return h.render(c, http.StatusOK, "my-data", page)
}

// when says a moment as a date and a time of day (UTC).
func (h *Handler) when(c echo.Context, t time.Time) string {
	return h.w(c).Date(t) + " " + t.UTC().Format("15:04") + " UTC"
}

// readable says one stored value for a person: moments as dates, a
// game's moves as numbered moves in the visitor's notation, nothing as a
// dash, the rest as stored.
func (h *Handler) readable(c echo.Context, col string, v any, row map[string]any) string {
	if v == nil {
		return "—"
	}
	if strings.HasSuffix(col, "_at_ms") || strings.HasSuffix(col, "_since_ms") {
		if ms, err := strconv.ParseInt(fmt.Sprint(v), 10, 64); err == nil && ms > 0 {
			return h.when(c, time.UnixMilli(ms))
		}
	}
	s := fmt.Sprint(v)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return h.when(c, t)
	}
	if col == "moves" {
		if start, ok := row["start_fen"].(string); ok {
			if said, ok := h.movesRead(c, start, s); ok {
				return said
			}
		}
	}
	return s
}

// movesRead replays a stored game's moves (UCI) and writes them as a
// numbered line in the visitor's notation: "1. e4 e5 2. ♘f3".
func (h *Handler) movesRead(c echo.Context, start, moves string) (string, bool) {
	uci := strings.Fields(strings.ReplaceAll(moves, ",", " "))
	if len(uci) == 0 {
		return "—", true
	}
	g, err := chess.Replay(start, uci)
	if err != nil {
		return "", false
	}
	letters := h.shownLetters(c)
	black := strings.Fields(start)[1] == "b"
	number := 1
	if f := strings.Fields(start); len(f) == 6 {
		if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
			number = n
		}
	}
	var b strings.Builder
	for i, san := range g.SANs() {
		white := (i%2 == 0) != black
		switch {
		case white:
			fmt.Fprintf(&b, "%d. ", number)
		case i == 0:
			fmt.Fprintf(&b, "%d… ", number)
		}
		b.WriteString(letters.Write(san))
		b.WriteByte(' ')
		if !white {
			number++
		}
	}
	return strings.TrimSpace(b.String()), true
}
