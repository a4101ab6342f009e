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
