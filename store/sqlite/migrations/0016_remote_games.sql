-- A friend on another device (G24–G26). A game played from two devices is
-- a friend game (games.mode 'friend') with a row here; the store reads it
-- back as mode 'remote'. The row is kept beside games rather than as a new
-- mode because SQLite cannot widen games.mode's CHECK without rebuilding
-- the table, and a rebuild would cascade-delete its reviews and hints.
--
-- guest_id is the visitor who took the other seat. Forgetting that visitor
-- empties the column but keeps joined_at_ms, so the seat stays taken and
-- the game stays its creator's (their row cascades it away as before).
CREATE TABLE remote_games (
    game_id        TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    watch_id       TEXT NOT NULL UNIQUE CHECK (length(watch_id) = 32),
    guest_id       TEXT REFERENCES visitors(id) ON DELETE SET NULL,
    joined_at_ms   INTEGER,
    takeback       TEXT NOT NULL DEFAULT '' CHECK (takeback IN ('', 'white', 'black')),
    claimed        INTEGER NOT NULL DEFAULT 0,
    host_seen_ms   INTEGER,
    guest_seen_ms  INTEGER
) WITHOUT ROWID;

CREATE INDEX remote_games_by_guest ON remote_games (guest_id) WHERE guest_id IS NOT NULL;

-- Watch streams open on a game (G26: the players see how many watch), one
-- row per stream, refreshed while it is open; a row not refreshed for a
-- minute (an instance that died) no longer counts. No visitor is named.
CREATE TABLE remote_watchers (
    stream_id  TEXT PRIMARY KEY CHECK (length(stream_id) = 32),
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seen_at_ms INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX remote_watchers_by_game ON remote_watchers (game_id, seen_at_ms);
