package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"chesstutor/store"
	"chesstutor/store/internal/record"
)

// A remote game is stored as a friend game with a row in remote_games
// (migration 0016 says why); these helpers keep that in one place.

// storedMode is the games.mode a game is stored with.
func storedMode(g *store.Game) string {
	if g.Mode == store.ModeRemote {
		return "friend"
	}
	return g.Mode
}

// createRemote writes g's remote row inside the transaction that creates g.
func createRemote(ctx context.Context, tx pgx.Tx, g *store.Game) error {
	if g.Mode != store.ModeRemote || g.Remote == nil {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO remote_games (game_id, watch_id, takeback) VALUES ($1, $2, $3)`,
		g.ID, g.Remote.WatchID, g.Remote.Takeback)
	return err
}

// loadRemote fills g.Remote (and Mode) when g is a remote game.
func (s *Postgres) loadRemote(ctx context.Context, g *store.Game) error {
	if g.Mode != "friend" {
		return nil
	}
	rm, err := record.Remote(s.db.QueryRow(ctx,
		`SELECT `+record.RemoteColumns+` FROM remote_games WHERE game_id = $1`, g.ID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	g.Mode, g.Remote = store.ModeRemote, rm
	return nil
}

// updateRemote saves what UpdateGame saves of g's remote row.
func updateRemote(ctx context.Context, tx pgx.Tx, g *store.Game) error {
	if g.Remote == nil {
		return nil
	}
	_, err := tx.Exec(ctx, `UPDATE remote_games SET takeback = $1, claimed = $2 WHERE game_id = $3`,
		g.Remote.Takeback, g.Remote.Claimed, g.ID)
	return err
}

// JoinGame takes the free seat of a remote game, and moves the game's
// version on. Of two visitors racing for the seat, PostgreSQL's row lock
// lets one update; the other re-reads the row, finds joined_at_ms set and
// updates nothing.
func (s *Postgres) JoinGame(ctx context.Context, id, visitor string, at time.Time) error {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: join game %s: %w", id, translate(err))
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `UPDATE remote_games SET guest_id = $1, joined_at_ms = $2, guest_seen_ms = $2
		WHERE game_id = $3 AND joined_at_ms IS NULL`, visitor, at.UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("postgres: join game %s: %w", id, translate(err))
	}
	if tag.RowsAffected() == 1 {
		if _, err := tx.Exec(ctx, `UPDATE games SET version = version + 1 WHERE id = $1`, id); err != nil {
			return fmt.Errorf("postgres: join game %s: %w", id, translate(err))
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("postgres: join game %s: %w", id, translate(err))
		}
		return nil
	}
	var one int
	err = tx.QueryRow(ctx, `SELECT 1 FROM remote_games WHERE game_id = $1`, id).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("postgres: join game %s: %w", id, translate(err))
	}
	return store.ErrConflict
}

// WatchedGame finds a game by its watch link.
func (s *Postgres) WatchedGame(ctx context.Context, watchID string) (string, error) {
	var id string
	err := s.db.QueryRow(ctx, `SELECT game_id FROM remote_games WHERE watch_id = $1`, watchID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", store.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("postgres: watched game: %w", translate(err))
	}
	return id, nil
}

// SeeSeat records that a seat's page is there.
func (s *Postgres) SeeSeat(ctx context.Context, id string, guest bool, at time.Time) error {
	col := "host_seen_ms"
	if guest {
		col = "guest_seen_ms"
	}
	if _, err := s.db.Exec(ctx, `UPDATE remote_games SET `+col+` = $1 WHERE game_id = $2`, at.UnixMilli(), id); err != nil {
		return fmt.Errorf("postgres: see seat %s: %w", id, translate(err))
	}
	return nil
}

// WatchGame records that a watcher's stream follows a game.
func (s *Postgres) WatchGame(ctx context.Context, id, stream string, at time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO remote_watchers (stream_id, game_id, seen_at_ms) VALUES ($1, $2, $3)
		ON CONFLICT (stream_id) DO UPDATE SET seen_at_ms = excluded.seen_at_ms`, stream, id, at.UnixMilli())
	if err != nil {
		return fmt.Errorf("postgres: watch game %s: %w", id, translate(err))
	}
	return nil
}

// StopWatching forgets a watcher's stream.
func (s *Postgres) StopWatching(ctx context.Context, stream string) error {
	if _, err := s.db.Exec(ctx, `DELETE FROM remote_watchers WHERE stream_id = $1`, stream); err != nil {
		return fmt.Errorf("postgres: stop watching: %w", translate(err))
	}
	return nil
}

// Watchers counts the streams watching a game.
func (s *Postgres) Watchers(ctx context.Context, id string, since time.Time) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT count(*) FROM remote_watchers WHERE game_id = $1 AND seen_at_ms >= $2`,
		id, since.UnixMilli()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("postgres: count watchers %s: %w", id, translate(err))
	}
	return n, nil
}

// seatedSQL is true of a visitor (v.id) who holds a seat in a game from
// two devices that is still going, or was played or joined at or after
// $4 (milliseconds): retention keeps them, or their seat would empty
// under their friend (N8, G24). Both seats count.
const seatedSQL = `EXISTS (SELECT 1 FROM remote_games AS r JOIN games AS g ON g.id = r.game_id
	WHERE (r.guest_id = v.id OR g.visitor_id = v.id)
	AND (g.status = 'active' OR g.updated_at_ms >= $4 OR r.joined_at_ms >= $4))`

// lockSeats locks, in the order of their game ids, the remote_games rows
// that deleting visitors will touch: the games they created (deleted or
// handed over) and the seats they hold as guests (emptied). Every
// transaction that deletes visitors takes these locks first and in one
// order, so two of them sharing a game (two retention sweeps, or a sweep
// and a forget-me, one deleting the creator and one the guest) wait for
// each other instead of deadlocking half-way through their cascades.
func lockSeats(ctx context.Context, tx pgx.Tx, visitors []string) error {
	_, err := tx.Exec(ctx, `SELECT 1 FROM remote_games
		WHERE guest_id = ANY($1) OR game_id IN (SELECT id FROM games WHERE visitor_id = ANY($1))
		ORDER BY game_id FOR UPDATE`, visitors)
	return err
}

// handOver gives the games from two devices that visitor created, and
// whose friend still holds the other seat, to that friend before visitor
// is forgotten: the friend becomes the game's owner in their own colour,
// the forgotten seat stays taken and empty (as a forgotten guest's does),
// and a review the creator asked for stays with the game. Games nobody
// else sits in go with their creator. The caller holds lockSeats.
func handOver(ctx context.Context, tx pgx.Tx, visitor string) error {
	rows, err := tx.Query(ctx, `SELECT r.game_id, r.guest_id FROM remote_games AS r JOIN games AS g ON g.id = r.game_id
		WHERE g.visitor_id = $1 AND r.guest_id IS NOT NULL ORDER BY r.game_id`, visitor)
	if err != nil {
		return err
	}
	type seat struct{ game, guest string }
	seats, err := record.Collect(rows, func(r record.Scanner) (seat, error) {
		var s seat
		return s, r.Scan(&s.game, &s.guest)
	})
	rows.Close()
	if err != nil {
		return err
	}
	for _, s := range seats {
		if _, err := tx.Exec(ctx, `UPDATE games SET visitor_id = $2, version = version + 1,
			human_color = CASE human_color WHEN 'white' THEN 'black' ELSE 'white' END WHERE id = $1`, s.game, s.guest); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE remote_games SET guest_id = NULL,
			host_seen_ms = guest_seen_ms, guest_seen_ms = host_seen_ms WHERE game_id = $1`, s.game); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE reviews SET visitor_id = $2 WHERE game_id = $1`, s.game, s.guest); err != nil {
			return err
		}
	}
	return nil
}

// exportSeats reads the games from two devices in which visitor holds the
// guest's seat, as the game shows them to that player (see
// record.SeatExportColumns).
func exportSeats(ctx context.Context, tx pgx.Tx, visitor string) ([]map[string]any, error) {
	rows, err := tx.Query(ctx, `SELECT `+record.SeatExportColumns+`
		FROM remote_games AS r JOIN games AS g ON g.id = r.game_id WHERE r.guest_id = $1 ORDER BY g.created_at_ms, g.id`, visitor)
	if err != nil {
		return nil, err
	}
	out, err := exportRows(rows)
	if out == nil {
		out = []map[string]any{}
	}
	return out, err
}
