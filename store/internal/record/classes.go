package record

import (
	"fmt"
	"strings"
	"time"

	"chesstutor/store"
)

// ClassColumns are the columns of classes, in the order Class reads them.
const ClassColumns = `id, name, join_code, secret_hash, created_at_ms, touched_at_ms`

// Class reads a row of ClassColumns, then any extra destinations.
func Class(r Scanner, extra ...any) (*store.Class, error) {
	var c store.Class
	var created, touched int64
	dest := append([]any{&c.ID, &c.Name, &c.JoinCode, &c.SecretHash, &created, &touched}, extra...)
	if err := r.Scan(dest...); err != nil {
		return nil, err
	}
	c.CreatedAt, c.TouchedAt = time.UnixMilli(created).UTC(), time.UnixMilli(touched).UTC()
	return &c, nil
}

// MemberColumns are the columns of class_members, in the order Member
// reads them.
const MemberColumns = `id, class_id, visitor_id, nickname, nickname_key, joined_at_ms`

// Member reads a row of MemberColumns.
func Member(r Scanner) (*store.Member, error) {
	var m store.Member
	var joined int64
	if err := r.Scan(&m.ID, &m.ClassID, &m.Visitor, &m.Nickname, &m.NicknameKey, &joined); err != nil {
		return nil, err
	}
	m.JoinedAt = time.UnixMilli(joined).UTC()
	return &m, nil
}

// HomeworkColumns are the columns of class_homework, in the order
// Homework reads them.
const HomeworkColumns = `id, class_id, items, due, created_at_ms`

// Homework reads a row of HomeworkColumns.
func Homework(r Scanner) (store.Homework, error) {
	var h store.Homework
	var items string
	var created int64
	if err := r.Scan(&h.ID, &h.ClassID, &items, &h.Due, &created); err != nil {
		return h, err
	}
	h.Items = strings.Fields(items)
	h.CreatedAt = time.UnixMilli(created).UTC()
	return h, nil
}

// JoinItems is how homework's items are kept: codes separated by spaces.
func JoinItems(items []string) string { return strings.Join(items, " ") }

// NewWork is a Work with its maps made and no level beaten.
func NewWork() *store.Work {
	return &store.Work{LessonsRead: map[string]time.Time{}, Solved: map[string]time.Time{},
		Misses: map[string]int{}, QuizWrong: map[string]int{}, QuizRight: map[string]bool{}, BestLevel: -1,
		Tries: map[string]store.TryRecord{}, Puzzles: map[string]bool{}}
}

// WorkQueries are the reads that fill the Work of a set of visitors, in
// the order ReadWork takes their rows. filter selects the visitors' rows
// by visitor_id in the store's dialect ("visitor_id = ?", or those of a
// class); each query uses it once and has no other parameter, and every
// query's first column is the visitor's id.
func WorkQueries(filter string) []string {
	return []string{
		`SELECT visitor_id, slug, read_at_ms FROM lessons_read WHERE ` + filter,
		`SELECT visitor_id, exercise_id, solved_at_ms FROM exercises_solved WHERE ` + filter,
		`SELECT visitor_id, exercise_id, wrong, last_at_ms FROM exercise_misses WHERE ` + filter,
		`SELECT visitor_id, COUNT(*), MAX(score), MAX(total), MAX(finished_at_ms) FROM quiz_rounds
			WHERE finished_at_ms IS NOT NULL AND ` + filter + ` GROUP BY visitor_id`,
		`SELECT visitor_id, question, CASE WHEN last_correct THEN 1 ELSE 0 END, times_wrong, updated_at_ms
			FROM quiz_history WHERE ` + filter,
		`SELECT visitor_id, MAX(best), MAX(best_at_ms) FROM trainer_best WHERE ` + filter + ` GROUP BY visitor_id`,
		// A game counts once it ended on the board (not while active, nor
		// closed as abandoned); won when the result is the human's colour.
		`SELECT visitor_id,
			SUM(CASE WHEN mode = 'computer' AND status NOT IN ('active', 'abandoned') THEN 1 ELSE 0 END),
			SUM(CASE WHEN mode = 'computer' AND ((human_color = 'white' AND result = '1-0')
				OR (human_color = 'black' AND result = '0-1')) THEN 1 ELSE 0 END),
			MAX(CASE WHEN mode = 'computer' AND ((human_color = 'white' AND result = '1-0')
				OR (human_color = 'black' AND result = '0-1')) THEN level ELSE -1 END),
			MAX(updated_at_ms)
		FROM games WHERE ` + filter + ` GROUP BY visitor_id`,
		// The stars' facts, frozen at each exercise's first solve.
		`SELECT visitor_id, exercise_id, solved_wrong, CASE WHEN solved_helped THEN 1 ELSE 0 END, updated_at_ms
			FROM exercise_tries WHERE solved_wrong IS NOT NULL AND ` + filter,
		// First attempts only: replays of a puzzle do not count.
		`SELECT visitor_id, puzzle_id, solved, at_ms FROM puzzle_attempts WHERE ` + filter,
		`SELECT visitor_id, rating, updated_at_ms FROM puzzle_players WHERE ` + filter,
	}
}

// ReadWork reads the rows of WorkQueries(…)[i] into works, keyed by
// visitor id; a visitor not in works is skipped (a row written while the
// report was read). Solved exercises leave Misses afterwards (Settle).
func ReadWork(i int, rows Rows, works map[string]*store.Work) error {
	for rows.Next() {
		var v, key string
		var ms int64
		var w *store.Work
		seen := func(at int64) {
			if t := time.UnixMilli(at).UTC(); t.After(w.LastActive) {
				w.LastActive = t
			}
		}
		switch i {
		case 0, 1:
			if err := rows.Scan(&v, &key, &ms); err != nil {
				return err
			}
			if w = works[v]; w == nil {
				continue
			}
			if i == 0 {
				w.LessonsRead[key] = time.UnixMilli(ms).UTC()
			} else {
				w.Solved[key] = time.UnixMilli(ms).UTC()
			}
			seen(ms)
		case 2:
			var n int
			if err := rows.Scan(&v, &key, &n, &ms); err != nil {
				return err
			}
			if w = works[v]; w == nil {
				continue
			}
			w.Misses[key] = n
			seen(ms)
		case 3:
			var rounds, best, total int64
			if err := rows.Scan(&v, &rounds, &best, &total, &ms); err != nil {
				return err
			}
			if w = works[v]; w == nil {
				continue
			}
			w.QuizRounds, w.QuizBest, w.QuizTotal = int(rounds), int(best), int(total)
			seen(ms)
		case 4:
			var right, wrong int64
			if err := rows.Scan(&v, &key, &right, &wrong, &ms); err != nil {
				return err
			}
			if w = works[v]; w == nil {
				continue
			}
			if wrong > 0 {
				w.QuizWrong[key] = int(wrong)
			}
			if right != 0 {
				w.QuizRight[key] = true
			}
			seen(ms)
		case 5:
			var best int64
			if err := rows.Scan(&v, &best, &ms); err != nil {
				return err
			}
			if w = works[v]; w == nil {
				continue
			}
			w.TrainerBest = int(best)
			seen(ms)
		case 6:
			var played, won, level int64
			if err := rows.Scan(&v, &played, &won, &level, &ms); err != nil {
				return err
			}
			if w = works[v]; w == nil {
				continue
			}
			w.Played, w.Won, w.BestLevel = int(played), int(won), int(level)
			seen(ms)
		case 7:
			var wrong, helped int64
			if err := rows.Scan(&v, &key, &wrong, &helped, &ms); err != nil {
				return err
			}
			if w = works[v]; w == nil {
				continue
			}
			w.Tries[key] = store.TryRecord{Solved: true, SolvedWrong: int(wrong), SolvedHelped: helped != 0}
			seen(ms)
		case 8:
			var solved int64
			if err := rows.Scan(&v, &key, &solved, &ms); err != nil {
				return err
			}
			if w = works[v]; w == nil {
				continue
			}
			w.Puzzles[key] = solved != 0
			seen(ms)
		case 9:
			var rating float64
			if err := rows.Scan(&v, &rating, &ms); err != nil {
				return err
			}
			if w = works[v]; w == nil {
				continue
			}
			w.PuzzleRating = rating
			seen(ms)
		default:
			return fmt.Errorf("record: no work query %d", i)
		}
	}
	return rows.Err()
}

// Settle drops the misses of exercises since solved: a pupil who got
// there is not stuck.
func Settle(w *store.Work) {
	for id := range w.Misses {
		if _, ok := w.Solved[id]; ok {
			delete(w.Misses, id)
		}
	}
}

// Membership reads a row of ClassColumns, a nickname and joined_at_ms.
func Membership(r Scanner) (store.Membership, error) {
	var m store.Membership
	var joined int64
	c, err := Class(r, &m.Nickname, &joined)
	if err != nil {
		return m, err
	}
	m.Class, m.JoinedAt = *c, time.UnixMilli(joined).UTC()
	return m, nil
}
