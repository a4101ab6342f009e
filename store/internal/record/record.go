// Package record reads the SQL stores' rows into the store's record types.
// database/sql's rows and pgx's rows both Scan(...any), so the two stores
// share one reading of each column list (its order, its NULLs, the moves
// kept as one string, times kept as milliseconds); each keeps its own
// queries, in its own dialect.
package record

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"chesstutor/store"
)

// Scanner is one row of either driver.
type Scanner interface {
	Scan(dest ...any) error
}

// Rows is a result set of either driver. The caller closes it.
type Rows interface {
	Scanner
	Next() bool
	Err() error
}

// Collect reads every row of rows with scan.
func Collect[T any](rows Rows, scan func(Scanner) (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Map reads one row as column -> value, for the visitor's export: bytes
// become strings, everything else is as the driver gives it.
func Map(cols []string, r Scanner) (map[string]any, error) {
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := r.Scan(ptrs...); err != nil {
		return nil, err
	}
	row := make(map[string]any, len(cols))
	for i, c := range cols {
		if b, ok := vals[i].([]byte); ok {
			vals[i] = string(b)
		}
		row[c] = vals[i]
	}
	return row, nil
}

// UnixMS is t in milliseconds, or NULL for the zero time.
func UnixMS(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	ms := t.UnixMilli()
	return &ms
}

// GameColumns are the columns of games, in the order Game reads them.
const GameColumns = `id, visitor_id, mode, human_color, level, clock_name, clock_base_ms,
	clock_inc_ms, undo_allowed, pass_screen, turn_board, start_fen, moves, ply,
	clock_white_ms, clock_black_ms, running_since_ms, clock_snapshots, draw_offer,
	status, result, reason, end_color, version, created_at_ms, updated_at_ms, white_name, black_name`

// Game reads a row of GameColumns.
func Game(r Scanner) (*store.Game, error) {
	var (
		g                store.Game
		moves, snaps     string
		ply              int
		running          *int64
		created, updated int64
	)
	err := r.Scan(&g.ID, &g.Visitor, &g.Mode, &g.HumanColor, &g.Level, &g.ClockName,
		&g.BaseMS, &g.IncrementMS, &g.Undo, &g.PassScreen, &g.TurnBoard, &g.StartFEN, &moves, &ply,
		&g.Clocks.White, &g.Clocks.Black, &running, &snaps, &g.DrawOffer, &g.Status,
		&g.Result, &g.Reason, &g.EndColor, &g.Version, &created, &updated, &g.WhiteName, &g.BlackName)
	if err != nil {
		return nil, err
	}
	if moves != "" {
		g.Moves = strings.Fields(moves)
	}
	if len(g.Moves) != ply {
		return nil, fmt.Errorf("game %s: %d moves stored but ply %d", g.ID, len(g.Moves), ply)
	}
	if err := json.Unmarshal([]byte(snaps), &g.Snapshots); err != nil {
		return nil, fmt.Errorf("game %s: clock snapshots: %w", g.ID, err)
	}
	if running != nil {
		g.RunningSince = time.UnixMilli(*running)
	}
	g.CreatedAt = time.UnixMilli(created)
	g.UpdatedAt = time.UnixMilli(updated)
	return &g, nil
}

// ReviewColumns are the columns of reviews, in the order Review reads them.
const ReviewColumns = `game_id, visitor_id, token, status, start_fen, moves, ply, requested_at_ms, updated_at_ms, engine`

// Review reads a row of ReviewColumns (without its positions and moves).
func Review(r Scanner) (*store.Review, error) {
	var (
		rv                 store.Review
		moves              string
		ply                int
		requested, updated int64
	)
	if err := r.Scan(&rv.GameID, &rv.Visitor, &rv.Token, &rv.Status, &rv.StartFEN, &moves, &ply, &requested, &updated, &rv.Engine); err != nil {
		return nil, err
	}
	rv.Moves = strings.Fields(moves)
	if len(rv.Moves) != ply {
		return nil, fmt.Errorf("review %s: %d moves stored but ply %d", rv.GameID, len(rv.Moves), ply)
	}
	rv.RequestedAt, rv.UpdatedAt = time.UnixMilli(requested), time.UnixMilli(updated)
	return &rv, nil
}

// ReviewPosition reads a row of idx, cp, mate, is_mate, best, pv, depth.
func ReviewPosition(r Scanner) (store.ReviewPosition, error) {
	var p store.ReviewPosition
	var pv string
	if err := r.Scan(&p.Index, &p.CP, &p.Mate, &p.IsMate, &p.Best, &pv, &p.Depth); err != nil {
		return p, err
	}
	p.PV = strings.Fields(pv)
	return p, nil
}

// ReviewMove reads a row of ply, class, loss, best, reason.
func ReviewMove(r Scanner) (store.ReviewMove, error) {
	var m store.ReviewMove
	var reason string
	if err := r.Scan(&m.Ply, &m.Class, &m.Loss, &m.Best, &reason); err != nil {
		return m, err
	}
	if reason != "" {
		m.Reason = []byte(reason)
	}
	return m, nil
}

// QuizAnswer reads a row of idx, question, answer, correct, answered_at_ms.
func QuizAnswer(r Scanner) (store.QuizAnswer, error) {
	var (
		a  store.QuizAnswer
		at int64
	)
	if err := r.Scan(&a.Index, &a.Question, &a.Answer, &a.Correct, &at); err != nil {
		return a, err
	}
	a.At = time.UnixMilli(at)
	return a, nil
}

// QuizScore reads a row of score, total, finished_at_ms.
func QuizScore(r Scanner) (store.QuizScore, error) {
	var (
		sc store.QuizScore
		at int64
	)
	if err := r.Scan(&sc.Score, &sc.Total, &at); err != nil {
		return sc, err
	}
	sc.At = time.UnixMilli(at)
	return sc, nil
}

// Hint reads a row of ply, step.
func Hint(r Scanner) (store.Hint, error) {
	var h store.Hint
	err := r.Scan(&h.Ply, &h.Step)
	return h, err
}

// String reads a row of one text column.
func String(r Scanner) (string, error) {
	var s string
	err := r.Scan(&s)
	return s, err
}

// Times reads rows of a key and a time in milliseconds (lessons read,
// exercises solved) into into, in UTC.
func Times(rows Rows, into map[string]time.Time) error {
	for rows.Next() {
		var key string
		var ms int64
		if err := rows.Scan(&key, &ms); err != nil {
			return err
		}
		into[key] = time.UnixMilli(ms).UTC()
	}
	return rows.Err()
}

// TrainerBest reads rows of board_view, mode, best into into, keyed
// "view/mode".
func TrainerBest(rows Rows, into map[string]int) error {
	for rows.Next() {
		var view, mode string
		var best int
		if err := rows.Scan(&view, &mode, &best); err != nil {
			return err
		}
		into[view+"/"+mode] = best
	}
	return rows.Err()
}

// RemoteColumns are the columns of remote_games Remote reads, in order.
const RemoteColumns = `watch_id, guest_id, joined_at_ms, takeback, claimed, host_seen_ms, guest_seen_ms`

// SeatExportColumns are what "download my data" gives the guest of a game
// from two devices (from remote_games AS r JOIN games AS g): the game as
// it shows on their page, their seat's colour and their own last sign of
// life, never the creator's id or presence (N8).
const SeatExportColumns = `g.id AS game_id, 'remote' AS mode,
	CASE g.human_color WHEN 'white' THEN 'black' ELSE 'white' END AS seat,
	g.clock_name, g.clock_base_ms, g.clock_inc_ms, g.start_fen, g.moves, g.ply,
	g.clock_white_ms, g.clock_black_ms, g.draw_offer, g.status, g.result, g.reason, g.end_color,
	g.created_at_ms, g.updated_at_ms, r.joined_at_ms, r.takeback, r.claimed, r.guest_seen_ms AS seen_at_ms`

// SeatsTable is the name the guest's seats are exported under, beside
// the tables the visitor owns.
const SeatsTable = "remote_seats"

// ScrubExport removes from a visitor's exported row of table what is
// another visitor's: the id and presence of the friend who took the
// guest's seat in the visitor's game from two devices, and the id of
// whoever asked for a game's review when it was the other player.
func ScrubExport(table string, row map[string]any, visitor string) {
	switch table {
	case "remote_games":
		delete(row, "guest_id")
		delete(row, "guest_seen_ms")
	case "reviews":
		if v := row["visitor_id"]; v != nil && fmt.Sprint(v) != visitor {
			row["visitor_id"] = nil
		}
	}
}

// Remote reads a row of RemoteColumns.
func Remote(r Scanner) (*store.Remote, error) {
	var (
		rm                          store.Remote
		guest                       *string
		joined, hostSeen, guestSeen *int64
	)
	if err := r.Scan(&rm.WatchID, &guest, &joined, &rm.Takeback, &rm.Claimed, &hostSeen, &guestSeen); err != nil {
		return nil, err
	}
	if guest != nil {
		rm.Guest = *guest
	}
	rm.Joined, rm.HostSeen, rm.GuestSeen = fromMS(joined), fromMS(hostSeen), fromMS(guestSeen)
	return &rm, nil
}

// fromMS is the time of a nullable millisecond column; NULL is the zero time.
func fromMS(ms *int64) time.Time {
	if ms == nil {
		return time.Time{}
	}
	return time.UnixMilli(*ms)
}
