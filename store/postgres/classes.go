package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

// Teachers' classrooms (store.Classes). Races between instances are
// decided by the database: a join locks its class's row, so the count of
// pupils and the insert of one join never interleave with another's.

// unique reports whether err is a broken uniqueness constraint.
func unique(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "23505"
}

// classTx runs fn in a transaction; the store's own refusals pass
// through, anything else is wrapped with what.
func (s *Postgres) classTx(ctx context.Context, what string, fn func(tx pgx.Tx) error) error {
	err := s.inTx(ctx, pgx.TxOptions{}, fn)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrFull):
		return err
	}
	return fmt.Errorf("postgres: %s: %w", what, translate(err))
}

// changed runs a statement and reports store.ErrNotFound when it changed
// no row.
func changed(ctx context.Context, tx pgx.Tx, query string, args ...any) error {
	tag, err := tx.Exec(ctx, query, args...)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	return nil
}

const rememberSQL = `INSERT INTO class_teachers (visitor_id, class_id, secret, added_at_ms)
	SELECT $1, id, $2, $3 FROM classes WHERE id = $4
	ON CONFLICT (visitor_id, class_id) DO UPDATE SET secret = excluded.secret`

// CreateClass stores a class and remembers it for its teacher.
func (s *Postgres) CreateClass(ctx context.Context, c *store.Class, teacher, secret string) error {
	return s.classTx(ctx, "create class", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO classes (`+record.ClassColumns+`) VALUES ($1, $2, $3, $4, $5, $5)`,
			c.ID, c.Name, c.JoinCode, c.SecretHash, c.CreatedAt.UnixMilli())
		if unique(err) {
			return store.ErrConflict
		}
		if err != nil || teacher == "" {
			return err
		}
		_, err = tx.Exec(ctx, rememberSQL, teacher, secret, c.CreatedAt.UnixMilli(), c.ID)
		return err
	})
}

func (s *Postgres) classWhere(ctx context.Context, what, where string, arg any) (*store.Class, error) {
	c, err := record.Class(s.db.QueryRow(ctx, `SELECT `+record.ClassColumns+` FROM classes WHERE `+where, arg))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: %s: %w", what, translate(err))
	}
	return c, nil
}

// ClassBySecret finds a class by its teacher link's hash.
func (s *Postgres) ClassBySecret(ctx context.Context, secretHash string) (*store.Class, error) {
	return s.classWhere(ctx, "class by secret", "secret_hash = $1", secretHash)
}

// ClassByCode finds a class by its join code.
func (s *Postgres) ClassByCode(ctx context.Context, code string) (*store.Class, error) {
	return s.classWhere(ctx, "class by code", "join_code = $1", code)
}

// RememberClass remembers a class's teacher link for visitor.
func (s *Postgres) RememberClass(ctx context.Context, visitor, classID, secret string) error {
	return s.classTx(ctx, "remember class", func(tx pgx.Tx) error {
		return changed(ctx, tx, rememberSQL, visitor, secret, time.Now().UnixMilli(), classID)
	})
}

// RememberedClasses lists the classes visitor remembers.
func (s *Postgres) RememberedClasses(ctx context.Context, visitor string) ([]store.RememberedClass, error) {
	rows, err := s.db.Query(ctx, `SELECT c.id, c.name, c.join_code, c.secret_hash, c.created_at_ms, c.touched_at_ms, t.secret
		FROM class_teachers t JOIN classes c ON c.id = t.class_id WHERE t.visitor_id = $1 ORDER BY t.added_at_ms DESC, c.id`, visitor)
	if err != nil {
		return nil, fmt.Errorf("postgres: remembered classes: %w", translate(err))
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
		return nil, fmt.Errorf("postgres: remembered classes: %w", translate(err))
	}
	return out, nil
}

// RotateClassSecret gives the class a new teacher link.
func (s *Postgres) RotateClassSecret(ctx context.Context, classID, newHash, teacher, secret string) error {
	return s.classTx(ctx, "rotate class link", func(tx pgx.Tx) error {
		err := changed(ctx, tx, `UPDATE classes SET secret_hash = $1 WHERE id = $2`, newHash, classID)
		if unique(err) {
			return store.ErrConflict
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM class_teachers WHERE class_id = $1 AND visitor_id <> $2`, classID, teacher); err != nil {
			return err
		}
		if teacher == "" {
			return nil
		}
		_, err = tx.Exec(ctx, rememberSQL, teacher, secret, time.Now().UnixMilli(), classID)
		return err
	})
}

// RenameClass changes a class's name.
func (s *Postgres) RenameClass(ctx context.Context, classID, name string) error {
	return s.classTx(ctx, "rename class", func(tx pgx.Tx) error {
		return changed(ctx, tx, `UPDATE classes SET name = $1 WHERE id = $2`, name, classID)
	})
}

// DeleteClass deletes a class and everything in it.
func (s *Postgres) DeleteClass(ctx context.Context, classID string) error {
	return s.classTx(ctx, "delete class", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM classes WHERE id = $1`, classID)
		return err
	})
}

// TouchClass marks the class as used, at most once a day.
func (s *Postgres) TouchClass(ctx context.Context, classID string, now time.Time) error {
	return s.classTx(ctx, "touch class", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE classes SET touched_at_ms = $1 WHERE id = $2 AND touched_at_ms < $3`,
			now.UnixMilli(), classID, now.Add(-24*time.Hour).UnixMilli())
		return err
	})
}

// ExpireClasses deletes at most limit classes untouched since before;
// sweeps of several instances take different rows.
func (s *Postgres) ExpireClasses(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	var n int64
	err := s.classTx(ctx, "expire classes", func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM classes WHERE id IN (
			SELECT id FROM classes WHERE touched_at_ms < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`, before.UnixMilli(), limit)
		n = tag.RowsAffected()
		return err
	})
	return int(n), err
}

// JoinClass makes a visitor a pupil of a class.
func (s *Postgres) JoinClass(ctx context.Context, m *store.Member, max int) (*store.Member, bool, error) {
	var got *store.Member
	created := false
	err := s.classTx(ctx, "join class", func(tx pgx.Tx) error {
		var id string
		err := tx.QueryRow(ctx, `SELECT id FROM classes WHERE id = $1 FOR UPDATE`, m.ClassID).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		old, err := record.Member(tx.QueryRow(ctx, `SELECT `+record.MemberColumns+` FROM class_members
			WHERE class_id = $1 AND visitor_id = $2`, m.ClassID, m.Visitor))
		if err == nil {
			got = old
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var count int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM class_members WHERE class_id = $1`, m.ClassID).Scan(&count); err != nil {
			return err
		}
		if count >= max {
			return store.ErrFull
		}
		_, err = tx.Exec(ctx, `INSERT INTO class_members (`+record.MemberColumns+`) VALUES ($1, $2, $3, $4, $5, $6)`,
			m.ID, m.ClassID, m.Visitor, m.Nickname, m.NicknameKey, m.JoinedAt.UnixMilli())
		if unique(err) {
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
func (s *Postgres) LeaveClass(ctx context.Context, classID, visitor string) error {
	return s.classTx(ctx, "leave class", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM class_members WHERE class_id = $1 AND visitor_id = $2`, classID, visitor)
		return err
	})
}

// RenameMember changes a pupil's nickname.
func (s *Postgres) RenameMember(ctx context.Context, classID, memberID, nickname, key string) error {
	return s.classTx(ctx, "rename pupil", func(tx pgx.Tx) error {
		err := changed(ctx, tx, `UPDATE class_members SET nickname = $1, nickname_key = $2 WHERE class_id = $3 AND id = $4`,
			nickname, key, classID, memberID)
		if unique(err) {
			return store.ErrConflict
		}
		return err
	})
}

// RemoveMember takes a pupil out of a class.
func (s *Postgres) RemoveMember(ctx context.Context, classID, memberID string) error {
	return s.classTx(ctx, "remove pupil", func(tx pgx.Tx) error {
		return changed(ctx, tx, `DELETE FROM class_members WHERE class_id = $1 AND id = $2`, classID, memberID)
	})
}

// VisitorClasses lists the classes visitor is a pupil of.
func (s *Postgres) VisitorClasses(ctx context.Context, visitor string) ([]store.Membership, error) {
	rows, err := s.db.Query(ctx, `SELECT c.id, c.name, c.join_code, c.secret_hash, c.created_at_ms, c.touched_at_ms,
		m.nickname, m.joined_at_ms FROM class_members m JOIN classes c ON c.id = m.class_id
		WHERE m.visitor_id = $1 ORDER BY m.joined_at_ms, c.id`, visitor)
	if err != nil {
		return nil, fmt.Errorf("postgres: visitor classes: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Membership)
	if err != nil {
		return nil, fmt.Errorf("postgres: visitor classes: %w", translate(err))
	}
	return out, nil
}

// AddHomework stores a class's homework.
func (s *Postgres) AddHomework(ctx context.Context, hw *store.Homework) error {
	return s.classTx(ctx, "add homework", func(tx pgx.Tx) error {
		return changed(ctx, tx, `INSERT INTO class_homework (`+record.HomeworkColumns+`)
			SELECT $1, id, $2, $3, $4 FROM classes WHERE id = $5`,
			hw.ID, record.JoinItems(hw.Items), hw.Due, hw.CreatedAt.UnixMilli(), hw.ClassID)
	})
}

// DeleteHomework deletes one homework of a class.
func (s *Postgres) DeleteHomework(ctx context.Context, classID, homeworkID string) error {
	return s.classTx(ctx, "delete homework", func(tx pgx.Tx) error {
		return changed(ctx, tx, `DELETE FROM class_homework WHERE class_id = $1 AND id = $2`, classID, homeworkID)
	})
}

// ClassHomework lists the homework of classes, newest first.
func (s *Postgres) ClassHomework(ctx context.Context, classIDs []string) ([]store.Homework, error) {
	if len(classIDs) == 0 {
		return nil, nil
	}
	rows, err := s.db.Query(ctx, `SELECT `+record.HomeworkColumns+` FROM class_homework
		WHERE class_id = ANY($1) ORDER BY created_at_ms DESC, id`, classIDs)
	if err != nil {
		return nil, fmt.Errorf("postgres: class homework: %w", translate(err))
	}
	defer rows.Close()
	out, err := record.Collect(rows, record.Homework)
	if err != nil {
		return nil, fmt.Errorf("postgres: class homework: %w", translate(err))
	}
	return out, nil
}

// ClassReport reads a class's pupils and their work in one snapshot.
func (s *Postgres) ClassReport(ctx context.Context, classID string) ([]store.PupilReport, error) {
	var out []store.PupilReport
	err := s.inTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+record.MemberColumns+` FROM class_members WHERE class_id = $1
			ORDER BY joined_at_ms, nickname_key`, classID)
		if err != nil {
			return err
		}
		members, err := record.Collect(rows, record.Member)
		rows.Close()
		if err != nil {
			return err
		}
		works := make(map[string]*store.Work, len(members))
		for _, m := range members {
			works[m.Visitor] = record.NewWork()
		}
		if len(members) > 0 {
			filter := `visitor_id IN (SELECT visitor_id FROM class_members WHERE class_id = $1)`
			if err := readWork(ctx, tx, filter, classID, works); err != nil {
				return err
			}
		}
		out = make([]store.PupilReport, len(members))
		for i, m := range members {
			out[i] = store.PupilReport{Member: *m, Work: *works[m.Visitor]}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: class report: %w", translate(err))
	}
	return out, nil
}

// PupilWork reads one visitor's work.
func (s *Postgres) PupilWork(ctx context.Context, visitor string) (store.Work, error) {
	works := map[string]*store.Work{visitor: record.NewWork()}
	err := s.inTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		return readWork(ctx, tx, `visitor_id = $1`, visitor, works)
	})
	if err != nil {
		return store.Work{}, fmt.Errorf("postgres: pupil work: %w", translate(err))
	}
	return *works[visitor], nil
}

// readWork runs record.WorkQueries with filter and its one argument.
func readWork(ctx context.Context, tx pgx.Tx, filter string, arg any, works map[string]*store.Work) error {
	for i, q := range record.WorkQueries(filter) {
		rows, err := tx.Query(ctx, q, arg)
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
func (s *Postgres) RecordExerciseMiss(ctx context.Context, visitor, exerciseID string) error {
	_, err := s.db.Exec(ctx, `INSERT INTO exercise_misses AS m (visitor_id, exercise_id, wrong, last_at_ms) VALUES ($1, $2, 1, $3)
		ON CONFLICT (visitor_id, exercise_id) DO UPDATE SET wrong = m.wrong + 1, last_at_ms = excluded.last_at_ms`,
		visitor, exerciseID, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("postgres: record exercise miss: %w", translate(err))
	}
	return nil
}
