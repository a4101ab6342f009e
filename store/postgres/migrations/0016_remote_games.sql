-- A friend on another device (G24–G26), as store/sqlite/migrations/0016:
-- a game played from two devices is a friend game (games.mode 'friend')
-- with a row here, read back as mode 'remote', so both stores keep one
-- logical schema. Forgetting the guest empties guest_id but keeps
-- joined_at_ms: the seat stays taken.
CREATE TABLE remote_games (
    game_id        TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    watch_id       TEXT NOT NULL UNIQUE CHECK (length(watch_id) = 32),
    guest_id       TEXT REFERENCES visitors(id) ON DELETE SET NULL,
    joined_at_ms   BIGINT,
    takeback       TEXT NOT NULL DEFAULT '' CHECK (takeback IN ('', 'white', 'black')),
    claimed        BOOLEAN NOT NULL DEFAULT FALSE,
    host_seen_ms   BIGINT,
    guest_seen_ms  BIGINT
);

CREATE INDEX remote_games_by_guest ON remote_games (guest_id) WHERE guest_id IS NOT NULL;

-- Watch streams open on a game, one row per stream, refreshed while open.
CREATE TABLE remote_watchers (
    stream_id  TEXT PRIMARY KEY CHECK (length(stream_id) = 32),
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seen_at_ms BIGINT NOT NULL
);

CREATE INDEX remote_watchers_by_game ON remote_watchers (game_id, seen_at_ms);
