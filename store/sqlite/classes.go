package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

// Teachers' classrooms (store.Classes).

// inTx runs fn in a write transaction and commits it; errors are
// wrapped with what.
func (s *SQLite) inTx(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrFull) {
			return err
		}
		return fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	return nil
}

// affected runs a statement and reports store.ErrNotFound when it
// changed no row.
func affected(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

const rememberSQL = `INSERT INTO class_teachers (visitor_id, class_id, secret, added_at_ms)
	SELECT ?, id, ?, ? FROM classes WHERE id = ?
	ON CONFLICT (visitor_id, class_id) DO UPDATE SET secret = excluded.secret`

// CreateClass stores a class and remembers it for its teacher.
func (s *SQLite) CreateClass(ctx context.Context, c *store.Class, teacher, secret string) error {
	return s.inTx(ctx, "create class", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO classes (`+record.ClassColumns+`) VALUES (?, ?, ?, ?, ?, ?)`,
			c.ID, c.Name, c.JoinCode, c.SecretHash, c.CreatedAt.UnixMilli(), c.CreatedAt.UnixMilli())
		if duplicate(err) {
			return store.ErrConflict
		}
		if err != nil || teacher == "" {
			return err
		}
		_, err = tx.ExecContext(ctx, rememberSQL, teacher, secret, c.CreatedAt.UnixMilli(), c.ID)
		return err
	})
}

func (s *SQLite) classWhere(ctx context.Context, what, where string, arg any) (*store.Class, error) {
	c, err := record.Class(s.db.QueryRowContext(ctx, `SELECT `+record.ClassColumns+` FROM classes WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: %s: %w", what, translate(err))
	}
	return c, nil
}

// ClassBySecret finds a class by its teacher link's hash.
func (s *SQLite) ClassBySecret(ctx context.Context, secretHash string) (*store.Class, error) {
	return s.classWhere(ctx, "class by secret", "secret_hash = ?", secretHash)
}

// ClassByCode finds a class by its join code.
func (s *SQLite) ClassByCode(ctx context.Context, code string) (*store.Class, error) {
	return s.classWhere(ctx, "class by code", "join_code = ?", code)
}

// RememberClass remembers a class's teacher link for visitor.
func (s *SQLite) RememberClass(ctx context.Context, visitor, classID, secret string) error {
	return s.inTx(ctx, "remember class", func(tx *sql.Tx) error {
		return affected(ctx, tx, rememberSQL, visitor, secret, time.Now().UnixMilli(), classID)
	})
}

// RememberedClasses lists the classes visitor remembers.
func (s *SQLite) RememberedClasses(ctx context.Context, visitor string) ([]store.RememberedClass, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.name, c.join_code, c.secret_hash, c.created_at_ms, c.touched_at_ms, t.secret
		FROM class_teachers t JOIN classes c ON c.id = t.class_id WHERE t.visitor_id = ? ORDER BY t.added_at_ms DESC, c.id`, visitor)
	if err != nil {
		return nil, fmt.Errorf("sqlite: remembered classes: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, func(r record.Scanner) (store.RememberedClass, error) {
		var secret string
		c, err := record.Class(r, &secret)
		if err != nil {
			return store.RememberedClass{}, err
		}
		return store.RememberedClass{Class: *c, Secret: secret}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: remembered classes: %w", translate(err))
	}
	return out, nil
}

// RotateClassSecret gives the class a new teacher link.
func (s *SQLite) RotateClassSecret(ctx context.Context, classID, newHash, teacher, secret string) error {
	return s.inTx(ctx, "rotate class link", func(tx *sql.Tx) error {
		err := affected(ctx, tx, `UPDATE classes SET secret_hash = ? WHERE id = ?`, newHash, classID)
		if duplicate(err) {
			return store.ErrConflict
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM class_teachers WHERE class_id = ? AND visitor_id <> ?`, classID, teacher); err != nil {
			return err
		}
		if teacher == "" {
			return nil
		}
		_, err = tx.ExecContext(ctx, rememberSQL, teacher, secret, time.Now().UnixMilli(), classID)
		return err
	})
}

// RenameClass changes a class's name.
func (s *SQLite) RenameClass(ctx context.Context, classID, name string) error {
	return s.inTx(ctx, "rename class", func(tx *sql.Tx) error {
		return affected(ctx, tx, `UPDATE classes SET name = ? WHERE id = ?`, name, classID)
	})
}

// DeleteClass deletes a class and everything in it.
func (s *SQLite) DeleteClass(ctx context.Context, classID string) error {
	return s.inTx(ctx, "delete class", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM classes WHERE id = ?`, classID)
		return err
	})
}

// TouchClass marks the class as used, at most once a day.
func (s *SQLite) TouchClass(ctx context.Context, classID string, now time.Time) error {
	return s.inTx(ctx, "touch class", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE classes SET touched_at_ms = ? WHERE id = ? AND touched_at_ms < ?`,
			now.UnixMilli(), classID, now.Add(-24*time.Hour).UnixMilli())
		return err
	})
}

// ExpireClasses deletes at most limit classes untouched since before.
func (s *SQLite) ExpireClasses(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	var n int64
	err := s.inTx(ctx, "expire classes", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM classes WHERE id IN (
			SELECT id FROM classes WHERE touched_at_ms < ? LIMIT ?)`, before.UnixMilli(), limit)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// JoinClass makes a visitor a pupil of a class. The transaction takes the
// write lock at BEGIN (_txlock=immediate), so the count of pupils and the
// insert cannot interleave with another join.
func (s *SQLite) JoinClass(ctx context.Context, m *store.Member, max int) (*store.Member, bool, error) {
	var got *store.Member
	created := false
	err := s.inTx(ctx, "join class", func(tx *sql.Tx) error {
		old, err := record.Member(tx.QueryRowContext(ctx, `SELECT `+record.MemberColumns+` FROM class_members
			WHERE class_id = ? AND visitor_id = ?`, m.ClassID, m.Visitor))
		if err == nil {
			got = old
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var exists, count int
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM classes WHERE id = ?),
			(SELECT COUNT(*) FROM class_members WHERE class_id = ?)`, m.ClassID, m.ClassID).Scan(&exists, &count); err != nil {
			return err
		}
		switch {
		case exists == 0:
			return store.ErrNotFound
		case count >= max:
			return store.ErrFull
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO class_members (`+record.MemberColumns+`) VALUES (?, ?, ?, ?, ?, ?)`,
			m.ID, m.ClassID, m.Visitor, m.Nickname, m.NicknameKey, m.JoinedAt.UnixMilli())
		if duplicate(err) {
			return store.ErrConflict
		}
		if err != nil {
			return err
		}
		c := *m
		got, created = &c, true
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return got, created, nil
}

// LeaveClass takes visitor out of a class.
func (s *SQLite) LeaveClass(ctx context.Context, classID, visitor string) error {
	return s.inTx(ctx, "leave class", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM class_members WHERE class_id = ? AND visitor_id = ?`, classID, visitor)
		return err
	})
}

// RenameMember changes a pupil's nickname.
func (s *SQLite) RenameMember(ctx context.Context, classID, memberID, nickname, key string) error {
	return s.inTx(ctx, "rename pupil", func(tx *sql.Tx) error {
		err := affected(ctx, tx, `UPDATE class_members SET nickname = ?, nickname_key = ? WHERE class_id = ? AND id = ?`,
			nickname, key, classID, memberID)
		if duplicate(err) {
			return store.ErrConflict
		}
		return err
	})
}

// RemoveMember takes a pupil out of a class.
func (s *SQLite) RemoveMember(ctx context.Context, classID, memberID string) error {
	return s.inTx(ctx, "remove pupil", func(tx *sql.Tx) error {
		return affected(ctx, tx, `DELETE FROM class_members WHERE class_id = ? AND id = ?`, classID, memberID)
	})
}

// VisitorClasses lists the classes visitor is a pupil of.
func (s *SQLite) VisitorClasses(ctx context.Context, visitor string) ([]store.Membership, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.name, c.join_code, c.secret_hash, c.created_at_ms, c.touched_at_ms,
		m.nickname, m.joined_at_ms FROM class_members m JOIN classes c ON c.id = m.class_id
		WHERE m.visitor_id = ? ORDER BY m.joined_at_ms, c.id`, visitor)
	if err != nil {
		return nil, fmt.Errorf("sqlite: visitor classes: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Membership)
	if err != nil {
		return nil, fmt.Errorf("sqlite: visitor classes: %w", translate(err))
	}
	return out, nil
}

// AddHomework stores a class's homework.
func (s *SQLite) AddHomework(ctx context.Context, hw *store.Homework) error {
	return s.inTx(ctx, "add homework", func(tx *sql.Tx) error {
		return affected(ctx, tx, `INSERT INTO class_homework (`+record.HomeworkColumns+`)
			SELECT ?, id, ?, ?, ? FROM classes WHERE id = ?`,
			hw.ID, record.JoinItems(hw.Items), hw.Due, hw.CreatedAt.UnixMilli(), hw.ClassID)
	})
}

// DeleteHomework deletes one homework of a class.
func (s *SQLite) DeleteHomework(ctx context.Context, classID, homeworkID string) error {
	return s.inTx(ctx, "delete homework", func(tx *sql.Tx) error {
		return affected(ctx, tx, `DELETE FROM class_homework WHERE class_id = ? AND id = ?`, classID, homeworkID)
	})
}

// ClassHomework lists the homework of classes, newest first.
func (s *SQLite) ClassHomework(ctx context.Context, classIDs []string) ([]store.Homework, error) {
	if len(classIDs) == 0 {
		return nil, nil
	}
	args := make([]any, len(classIDs))
	for i, id := range classIDs {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+record.HomeworkColumns+` FROM class_homework
		WHERE class_id IN (?`+strings.Repeat(", ?", len(classIDs)-1)+`) ORDER BY created_at_ms DESC, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: class homework: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Homework)
	if err != nil {
		return nil, fmt.Errorf("sqlite: class homework: %w", translate(err))
	}
	return out, nil
}

// ClassReport reads a class's pupils and their work in one transaction.
func (s *SQLite) ClassReport(ctx context.Context, classID string) ([]store.PupilReport, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: class report: %w", translate(err))
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT `+record.MemberColumns+` FROM class_members WHERE class_id = ?
		ORDER BY joined_at_ms, nickname_key`, classID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: class report: %w", translate(err))
	}
	members, err := record.Collect(rows, record.Member)
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("sqlite: class report: %w", translate(err))
	}
	works := make(map[string]*store.Work, len(members))
	for _, m := range members {
		works[m.Visitor] = record.NewWork()
	}
	if len(members) > 0 {
		filter := `visitor_id IN (SELECT visitor_id FROM class_members WHERE class_id = ?)`
		if err := readWork(ctx, tx, filter, classID, works); err != nil {
			return nil, fmt.Errorf("sqlite: class report: %w", translate(err))
		}
	}
	out := make([]store.PupilReport, len(members))
	for i, m := range members {
		out[i] = store.PupilReport{Member: *m, Work: *works[m.Visitor]}
	}
	return out, nil
}

// PupilWork reads one visitor's work.
func (s *SQLite) PupilWork(ctx context.Context, visitor string) (store.Work, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return store.Work{}, fmt.Errorf("sqlite: pupil work: %w", translate(err))
	}
	defer tx.Rollback()
	works := map[string]*store.Work{visitor: record.NewWork()}
	if err := readWork(ctx, tx, `visitor_id = ?`, visitor, works); err != nil {
		return store.Work{}, fmt.Errorf("sqlite: pupil work: %w", translate(err))
	}
	return *works[visitor], nil
}

// readWork runs record.WorkQueries with filter and its one argument.
func readWork(ctx context.Context, tx *sql.Tx, filter string, arg any, works map[string]*store.Work) error {
	for i, q := range record.WorkQueries(filter) {
		rows, err := tx.QueryContext(ctx, q, arg)
		if err != nil {
			return err
		}
		err = record.ReadWork(i, rows, works)
		rows.Close()
		if err != nil {
			return err
		}
	}
	for _, w := range works {
		record.Settle(w)
	}
	return nil
}

// RecordExerciseMiss counts a wrong try of an exercise.
func (s *SQLite) RecordExerciseMiss(ctx context.Context, visitor, exerciseID string) error {
	return s.inTx(ctx, "record exercise miss", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO exercise_misses (visitor_id, exercise_id, wrong, last_at_ms) VALUES (?, ?, 1, ?)
			ON CONFLICT (visitor_id, exercise_id) DO UPDATE SET wrong = wrong + 1, last_at_ms = excluded.last_at_ms`,
			visitor, exerciseID, time.Now().UnixMilli())
		return err
	})
}
