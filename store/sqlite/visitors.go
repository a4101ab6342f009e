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
	"chesstutor/store/internal/schema"
)

// EnsureVisitor stores id if it is new and refreshes last_seen otherwise.
func (s *SQLite) EnsureVisitor(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: ensure visitor: %w", translate(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO visitors (id) VALUES (?)
		ON CONFLICT (id) DO UPDATE SET last_seen = strftime('%Y-%m-%dT%H:%M:%fZ','now')`, id); err != nil {
		return fmt.Errorf("sqlite: ensure visitor: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: ensure visitor: %w", translate(err))
	}
	return nil
}

// VisitorExists reports whether id was stored before.
func (s *SQLite) VisitorExists(ctx context.Context, id string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, "SELECT 1 FROM visitors WHERE id = ?", id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("sqlite: visitor exists: %w", translate(err))
	}
	return true, nil
}

// lastSeenFormat is how visitors.created_at and last_seen are written
// (strftime('%Y-%m-%dT%H:%M:%fZ')), so times compare as text.
const lastSeenFormat = "2006-01-02T15:04:05.000Z"

// ForgetVisitor deletes the visitor's row; every table that holds a
// visitor's data references visitors(id), directly or through another such
// table, with ON DELETE CASCADE (TestEveryTableBelongsToAVisitor keeps it
// so), so one statement in one transaction removes everything. Games
// from two devices whose friend still sits in them are handed over to
// that friend first (handOver).
func (s *SQLite) ForgetVisitor(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: forget visitor: %w", translate(err))
	}
	defer tx.Rollback()
	if err := handOver(ctx, tx, id); err != nil {
		return fmt.Errorf("sqlite: forget visitor: hand over games: %w", translate(err))
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM visitors WHERE id = ?", id); err != nil {
		return fmt.Errorf("sqlite: forget visitor: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: forget visitor: %w", translate(err))
	}
	return nil
}

// ExportVisitor reads, in one read transaction, the visitor's row and
// every row of every table that belongs to it, found from the schema's
// foreign keys so that tables added later are exported too, and the games
// from two devices they sit in as the guest (under record.SeatsTable);
// nothing of the other player but what the game shows.
func (s *SQLite) ExportVisitor(ctx context.Context, id string) (*store.Export, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: export visitor: %w", translate(err))
	}
	defer tx.Rollback()
	owned, err := ownedTables(ctx, tx)
	if err != nil {
		return nil, err
	}
	e := &store.Export{Visitor: id, Tables: map[string][]map[string]any{}}
	for _, t := range append([]schema.Owned{{Name: "visitors", Filter: schema.VisitorFilter("?")}}, owned...) {
		rows, err := selectRows(ctx, tx, `SELECT * FROM "`+t.Name+`" WHERE `+t.Filter, id)
		if err != nil {
			return nil, fmt.Errorf("sqlite: export visitor: %s: %w", t.Name, translate(err))
		}
		for _, r := range rows {
			record.ScrubExport(t.Name, r, id)
		}
		e.Tables[t.Name] = rows
	}
	if len(e.Tables["visitors"]) == 0 {
		return nil, store.ErrNotFound
	}
	if e.Tables[record.SeatsTable], err = exportSeats(ctx, tx, id); err != nil {
		return nil, fmt.Errorf("sqlite: export visitor: seats: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: export visitor: %w", translate(err))
	}
	return e, nil
}

// selectRows reads every row of a query as column -> value maps.
func selectRows(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]map[string]any, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	out, err := record.Collect(rows, func(r record.Scanner) (map[string]any, error) { return record.Map(cols, r) })
	if out == nil && err == nil {
		out = []map[string]any{}
	}
	return out, err
}

// ExpireVisitors deletes at most limit idle or empty visitors in one
// transaction; cascades delete their data. A visitor seated in a game
// from two devices that is going on, or was played within the idle
// period, is neither (seatedSQL): the seat is data too.
func (s *SQLite) ExpireVisitors(ctx context.Context, idleSince, emptySince time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire visitors: %w", translate(err))
	}
	defer tx.Rollback()
	owned, err := ownedTables(ctx, tx)
	if err != nil {
		return 0, err
	}
	// A visitor has nothing stored when no table that references visitors
	// directly holds a row of theirs (indirect tables hang off those).
	empty := []string{}
	for _, t := range owned {
		if t.Parent == "visitors" {
			empty = append(empty, `NOT EXISTS (SELECT 1 FROM "`+t.Name+`" WHERE "`+t.Column+`" = visitors.id)`)
		}
	}
	emptyCond := "1"
	if len(empty) > 0 {
		emptyCond = strings.Join(empty, " AND ")
	}
	idleMS := idleSince.UnixMilli()
	res, err := tx.ExecContext(ctx, `DELETE FROM visitors WHERE id IN (
		SELECT id FROM visitors WHERE last_seen < ? AND NOT `+seatedSQL+`
		UNION
		SELECT id FROM visitors WHERE last_seen < ? AND `+emptyCond+` AND NOT `+seatedSQL+`
		LIMIT ?)`,
		idleSince.UTC().Format(lastSeenFormat), idleMS, idleMS,
		emptySince.UTC().Format(lastSeenFormat), idleMS, idleMS, limit)
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire visitors: %w", translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire visitors: %w", translate(err))
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("sqlite: expire visitors: %w", translate(err))
	}
	return int(n), nil
}

// ownedTables reads the schema's foreign keys and returns every table
// that belongs to a visitor (see schema.OwnedTables).
func ownedTables(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) ([]schema.Owned, error) {
	rows, err := q.QueryContext(ctx, `SELECT m.name, f."from", f."table", f."to", f.on_delete
		FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
		WHERE m.type = 'table' ORDER BY m.name, f.id`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: read foreign keys: %w", translate(err))
	}
	defer rows.Close()
	fks, err := record.Collect(rows, func(r record.Scanner) (schema.ForeignKey, error) {
		var k schema.ForeignKey
		var onDelete string
		err := r.Scan(&k.Table, &k.From, &k.Parent, &k.To, &onDelete)
		k.Cascade = strings.EqualFold(onDelete, "CASCADE")
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: read foreign keys: %w", translate(err))
	}
	return schema.OwnedTables(fks, "?"), nil
}
