package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"chesstutor/store"
	"chesstutor/store/internal/record"
	"chesstutor/store/internal/schema"
)

// Visitors' data as a whole (N8): forget, export and retention. Every
// table that holds a visitor's data references visitors(id), directly or
// through another such table, with ON DELETE CASCADE; ownedTables finds
// them from the catalogue, so tables added later are covered.

// ForgetVisitor deletes the visitor's row; cascades delete the rest, in
// one transaction. Games from two devices whose friend still sits in them
// are handed over to that friend first (handOver), under lockSeats.
func (s *Postgres) ForgetVisitor(ctx context.Context, id string) error {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: forget visitor: %w", translate(err))
	}
	defer tx.Rollback(ctx)
	// The hand-over makes the friends owners, which locks their visitor
	// rows (the foreign key): lock them, with the visitor's own, first
	// and in one order, before any game row; a sweep holding a friend's
	// row then finishes before this waits on anything it needs.
	if _, err := tx.Exec(ctx, `SELECT id FROM visitors WHERE id = $1 OR id IN (SELECT r.guest_id
		FROM remote_games AS r JOIN games AS g ON g.id = r.game_id WHERE g.visitor_id = $1)
		ORDER BY id FOR UPDATE`, id); err != nil {
		return fmt.Errorf("postgres: forget visitor: lock: %w", translate(err))
	}
	if err := lockSeats(ctx, tx, []string{id}); err != nil {
		return fmt.Errorf("postgres: forget visitor: lock seats: %w", translate(err))
	}
	if err := handOver(ctx, tx, id); err != nil {
		return fmt.Errorf("postgres: forget visitor: hand over games: %w", translate(err))
	}
	if _, err := tx.Exec(ctx, "DELETE FROM visitors WHERE id = $1", id); err != nil {
		return fmt.Errorf("postgres: forget visitor: %w", translate(err))
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: forget visitor: %w", translate(err))
	}
	return nil
}

// ExportVisitor reads, in one read-only snapshot, the visitor's row and
// every row of every table that belongs to it, and the games from two
// devices they sit in as the guest (under record.SeatsTable); nothing of
// the other player but what the game shows.
func (s *Postgres) ExportVisitor(ctx context.Context, id string) (*store.Export, error) {
	tx, err := s.db.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("postgres: export visitor: %w", translate(err))
	}
	defer tx.Rollback(ctx)
	owned, err := ownedTables(ctx, tx)
	if err != nil {
		return nil, err
	}
	e := &store.Export{Visitor: id, Tables: map[string][]map[string]any{}}
	for _, t := range append([]schema.Owned{{Name: "visitors", Filter: schema.VisitorFilter("$1")}}, owned...) {
		rows, err := tx.Query(ctx, `SELECT * FROM "`+t.Name+`" WHERE `+t.Filter, id)
		if err != nil {
			return nil, fmt.Errorf("postgres: export visitor: %s: %w", t.Name, translate(err))
		}
		out, err := exportRows(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: export visitor: %s: %w", t.Name, translate(err))
		}
		if out == nil {
			out = []map[string]any{}
		}
		for _, r := range out {
			record.ScrubExport(t.Name, r, id)
		}
		e.Tables[t.Name] = out
	}
	if len(e.Tables["visitors"]) == 0 {
		return nil, store.ErrNotFound
	}
	if e.Tables[record.SeatsTable], err = exportSeats(ctx, tx, id); err != nil {
		return nil, fmt.Errorf("postgres: export visitor: seats: %w", translate(err))
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("postgres: export visitor: %w", translate(err))
	}
	return e, nil
}

// ExpireVisitors deletes at most limit idle or empty visitors in one
// transaction; cascades delete their data. A visitor seated in a game
// from two devices that is going on, or was played within the idle
// period, is neither (seatedSQL): the seat is data too.
func (s *Postgres) ExpireVisitors(ctx context.Context, idleSince, emptySince time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	owned, err := ownedTables(ctx, s.db)
	if err != nil {
		return 0, err
	}
	cond := []string{"TRUE"}
	for _, t := range owned {
		if t.Parent == "visitors" {
			cond = append(cond, `NOT EXISTS (SELECT 1 FROM "`+t.Name+`" AS o WHERE o."`+t.Column+`" = v.id)`)
		}
	}
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("postgres: expire visitors: %w", translate(err))
	}
	defer tx.Rollback(ctx)
	// SKIP LOCKED: every instance runs the retention job, and two sweeps
	// at once then take different visitors instead of waiting on the same
	// rows. Visitors who share a game (its creator and its guest) may
	// still be taken by two sweeps: lockSeats orders them.
	rows, err := tx.Query(ctx, `SELECT v.id FROM visitors AS v
		WHERE (v.last_seen < $1 OR (v.last_seen < $2 AND `+strings.Join(cond, " AND ")+`))
		AND NOT `+seatedSQL+`
		LIMIT $3 FOR UPDATE SKIP LOCKED`, idleSince, emptySince, limit, idleSince.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("postgres: expire visitors: %w", translate(err))
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, fmt.Errorf("postgres: expire visitors: %w", translate(err))
	}
	if len(ids) == 0 {
		return 0, nil
	}
	if err := lockSeats(ctx, tx, ids); err != nil {
		return 0, fmt.Errorf("postgres: expire visitors: lock seats: %w", translate(err))
	}
	tag, err := tx.Exec(ctx, `DELETE FROM visitors WHERE id = ANY($1)`, ids)
	if err != nil {
		return 0, fmt.Errorf("postgres: expire visitors: %w", translate(err))
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("postgres: expire visitors: %w", translate(err))
	}
	return int(tag.RowsAffected()), nil
}

// CapActiveGames closes the visitor's least recently played active games
// beyond the newest keep, as abandoned.
func (s *Postgres) CapActiveGames(ctx context.Context, visitor string, keep int) (int, error) {
	return s.abandon(ctx, "cap active games", `SELECT id FROM games
		WHERE visitor_id = $1 AND status = 'active'
		ORDER BY updated_at_ms DESC, id OFFSET $2`, visitor, max(keep, 0))
}

// AbandonIdleGames closes at most limit active games last played before
// idleSince, as abandoned.
func (s *Postgres) AbandonIdleGames(ctx context.Context, idleSince time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	// SKIP LOCKED, as in ExpireVisitors: concurrent sweeps share the work,
	// and a game a move is saving right now waits for the next sweep.
	return s.abandon(ctx, "abandon idle games", `SELECT id FROM games
		WHERE status = 'active' AND updated_at_ms < $1
		LIMIT $2 FOR UPDATE SKIP LOCKED`,
		idleSince.UnixMilli(), limit)
}

// abandon closes the active games whose ids pick selects; the
// last-played time stays: closing is not playing. pick runs once, as a
// MATERIALIZED CTE: as a plain IN (subquery) the planner may run a
// LIMITed, locking subquery more than once and close more than asked.
func (s *Postgres) abandon(ctx context.Context, what, pick string, args ...any) (int, error) {
	tag, err := s.db.Exec(ctx, `WITH picked AS MATERIALIZED (`+pick+`)
		UPDATE games SET status = 'abandoned', reason = 'abandoned',
		result = '*', running_since_ms = NULL, draw_offer = '', version = version + 1
		WHERE status = 'active' AND id IN (SELECT id FROM picked)`, args...)
	if err != nil {
		return 0, fmt.Errorf("postgres: %s: %w", what, translate(err))
	}
	return int(tag.RowsAffected()), nil
}

// Secret returns the value stored under name, storing fresh first when
// there is none; the first value stored wins.
func (s *Postgres) Secret(ctx context.Context, name string, fresh []byte) ([]byte, error) {
	if _, err := s.db.Exec(ctx, `INSERT INTO site_secrets (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO NOTHING`, name, fresh); err != nil {
		return nil, fmt.Errorf("postgres: secret %s: %w", name, translate(err))
	}
	var v []byte
	err := s.db.QueryRow(ctx, "SELECT value FROM site_secrets WHERE name = $1", name).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: secret %s: vanished", name)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: secret %s: %w", name, translate(err))
	}
	return v, nil
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// exportRows reads every row as column -> value maps, closing rows.
func exportRows(rows pgx.Rows) ([]map[string]any, error) {
	defer rows.Close()
	cols := make([]string, len(rows.FieldDescriptions()))
	for i, f := range rows.FieldDescriptions() {
		cols[i] = f.Name
	}
	return record.Collect(rows, func(r record.Scanner) (map[string]any, error) { return record.Map(cols, r) })
}

// ownedTables reads the catalogue's foreign keys and returns every table
// that belongs to a visitor (see schema.OwnedTables).
func ownedTables(ctx context.Context, q querier) ([]schema.Owned, error) {
	rows, err := q.Query(ctx, `SELECT cl.relname, a.attname, pcl.relname, pa.attname, c.confdeltype = 'c'
		FROM pg_constraint AS c
		JOIN pg_class AS cl ON cl.oid = c.conrelid
		JOIN pg_class AS pcl ON pcl.oid = c.confrelid
		JOIN pg_namespace AS n ON n.oid = cl.relnamespace
		JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
		JOIN pg_attribute AS pa ON pa.attrelid = c.confrelid AND pa.attnum = c.confkey[1]
		WHERE c.contype = 'f' AND n.nspname = current_schema()
		ORDER BY cl.relname, c.conname`)
	if err != nil {
		return nil, fmt.Errorf("postgres: read foreign keys: %w", translate(err))
	}
	defer rows.Close()
	fks, err := record.Collect(rows, func(r record.Scanner) (schema.ForeignKey, error) {
		var k schema.ForeignKey
		err := r.Scan(&k.Table, &k.From, &k.Parent, &k.To, &k.Cascade)
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: read foreign keys: %w", translate(err))
	}
	return schema.OwnedTables(fks, "$1"), nil
}
