package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

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
func createRemote(ctx context.Context, tx *sql.Tx, g *store.Game) error {
	if g.Mode != store.ModeRemote || g.Remote == nil {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO remote_games (game_id, watch_id, takeback) VALUES (?, ?, ?)`,
		g.ID, g.Remote.WatchID, g.Remote.Takeback)
	return err
}

// loadRemote fills g.Remote (and Mode) when g is a remote game.
func (s *SQLite) loadRemote(ctx context.Context, g *store.Game) error {
	if g.Mode != "friend" {
		return nil
	}
	rm, err := record.Remote(s.db.QueryRowContext(ctx,
		`SELECT `+record.RemoteColumns+` FROM remote_games WHERE game_id = ?`, g.ID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	g.Mode, g.Remote = store.ModeRemote, rm
	return nil
}

// updateRemote saves what UpdateGame saves of g's remote row.
func updateRemote(ctx context.Context, tx *sql.Tx, g *store.Game) error {
	if g.Remote == nil {
		return nil
	}
	_, err := tx.ExecContext(ctx, `UPDATE remote_games SET takeback = ?, claimed = ? WHERE game_id = ?`,
		g.Remote.Takeback, g.Remote.Claimed, g.ID)
	return err
}

// JoinGame takes the free seat of a remote game, and moves the game's
// version on: the game changed (a page that names its version sees it).
func (s *SQLite) JoinGame(ctx context.Context, id, visitor string, at time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: join game %s: %w", id, translate(err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE remote_games SET guest_id = ?, joined_at_ms = ?, guest_seen_ms = ?
		WHERE game_id = ? AND joined_at_ms IS NULL`, visitor, at.UnixMilli(), at.UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("sqlite: join game %s: %w", id, translate(err))
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite: join game %s: %w", id, translate(err))
	} else if n == 1 {
		if _, err := tx.ExecContext(ctx, `UPDATE games SET version = version + 1 WHERE id = ?`, id); err != nil {
			return fmt.Errorf("sqlite: join game %s: %w", id, translate(err))
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("sqlite: join game %s: %w", id, translate(err))
		}
		return nil
	}
	var one int
	err = tx.QueryRowContext(ctx, `SELECT 1 FROM remote_games WHERE game_id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("sqlite: join game %s: %w", id, translate(err))
	}
	return store.ErrConflict
}

// WatchedGame finds a game by its watch link.
func (s *SQLite) WatchedGame(ctx context.Context, watchID string) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT game_id FROM remote_games WHERE watch_id = ?`, watchID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: watched game: %w", translate(err))
	}
	return id, nil
}

// SeeSeat records that a seat's page is there.
func (s *SQLite) SeeSeat(ctx context.Context, id string, guest bool, at time.Time) error {
	col := "host_seen_ms"
	if guest {
		col = "guest_seen_ms"
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE remote_games SET `+col+` = ? WHERE game_id = ?`, at.UnixMilli(), id); err != nil {
		return fmt.Errorf("sqlite: see seat %s: %w", id, translate(err))
	}
	return nil
}

// WatchGame records that a watcher's stream follows a game.
func (s *SQLite) WatchGame(ctx context.Context, id, stream string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO remote_watchers (stream_id, game_id, seen_at_ms) VALUES (?, ?, ?)
		ON CONFLICT (stream_id) DO UPDATE SET seen_at_ms = excluded.seen_at_ms`, stream, id, at.UnixMilli())
	if err != nil {
		return fmt.Errorf("sqlite: watch game %s: %w", id, translate(err))
	}
	return nil
}

// StopWatching forgets a watcher's stream.
func (s *SQLite) StopWatching(ctx context.Context, stream string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM remote_watchers WHERE stream_id = ?`, stream); err != nil {
		return fmt.Errorf("sqlite: stop watching: %w", translate(err))
	}
	return nil
}

// Watchers counts the streams watching a game.
func (s *SQLite) Watchers(ctx context.Context, id string, since time.Time) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM remote_watchers WHERE game_id = ? AND seen_at_ms >= ?`,
		id, since.UnixMilli()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("sqlite: count watchers %s: %w", id, translate(err))
	}
	return n, nil
}

// seatedSQL is true of a visitor (visitors.id) who holds a seat in a
// game from two devices that is still going, or was played or joined at
// or after the time given twice (in milliseconds): retention keeps them,
// or their seat would empty under their friend (N8, G24). Both seats
// count, the creator's as well as the guest's.
const seatedSQL = `EXISTS (SELECT 1 FROM remote_games AS r JOIN games AS g ON g.id = r.game_id
	WHERE (r.guest_id = visitors.id OR g.visitor_id = visitors.id)
	AND (g.status = 'active' OR g.updated_at_ms >= ? OR r.joined_at_ms >= ?))`

// handOver gives the games from two devices that visitor created, and
// whose friend still holds the other seat, to that friend before visitor
// is forgotten: the friend becomes the game's owner in their own colour,
// the forgotten seat stays taken and empty (as a forgotten guest's does),
// and a review the creator asked for stays with the game. Games nobody
// else sits in go with their creator.
func handOver(ctx context.Context, tx *sql.Tx, visitor string) error {
	rows, err := tx.QueryContext(ctx, `SELECT r.game_id, r.guest_id FROM remote_games AS r JOIN games AS g ON g.id = r.game_id
		WHERE g.visitor_id = ? AND r.guest_id IS NOT NULL ORDER BY r.game_id`, visitor)
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
		for _, q := range []string{
			`UPDATE games SET visitor_id = ?2, version = version + 1,
				human_color = CASE human_color WHEN 'white' THEN 'black' ELSE 'white' END WHERE id = ?1`,
			`UPDATE remote_games SET guest_id = NULL, host_seen_ms = guest_seen_ms, guest_seen_ms = host_seen_ms
				WHERE game_id = ?1`,
			`UPDATE reviews SET visitor_id = ?2 WHERE game_id = ?1`,
		} {
			if _, err := tx.ExecContext(ctx, q, s.game, s.guest); err != nil {
				return err
			}
		}
	}
	return nil
}

// exportSeats reads the games from two devices in which visitor holds the
// guest's seat, as the game shows them to that player: the game's own
// columns, the seat's colour and the guest's own presence, never the
// creator's id or presence (the creator's rows are exported to them).
func exportSeats(ctx context.Context, tx *sql.Tx, visitor string) ([]map[string]any, error) {
	return selectRows(ctx, tx, `SELECT `+record.SeatExportColumns+`
		FROM remote_games AS r JOIN games AS g ON g.id = r.game_id WHERE r.guest_id = ? ORDER BY g.created_at_ms, g.id`, visitor)
}
