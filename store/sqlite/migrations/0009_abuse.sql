-- Abuse resistance (N8).
--
-- A game nobody played for a long time, or the oldest of too many
-- unfinished games of one visitor, is closed as 'abandoned': status and
-- reason both hold that code, the result stays '*'. The triggers of 0005
-- are replaced to accept it.
DROP TRIGGER games_status_is_code_on_insert;
DROP TRIGGER games_status_is_code_on_update;

CREATE TRIGGER games_status_is_code_on_insert BEFORE INSERT ON games
WHEN NEW.status NOT IN ('active', 'checkmate', 'stalemate', 'threefold-repetition',
        'fifty-move-rule', 'insufficient-material', 'timeout', 'resignation', 'agreement',
        'abandoned')
  OR NEW.reason NOT IN ('', 'checkmate', 'stalemate', 'threefold-repetition',
        'fifty-move-rule', 'insufficient-material', 'timeout', 'timeout-no-mate',
        'resignation', 'agreement', 'abandoned')
BEGIN
    SELECT RAISE(ABORT, 'games: status and reason must be ending codes');
END;

CREATE TRIGGER games_status_is_code_on_update BEFORE UPDATE OF status, reason ON games
WHEN NEW.status NOT IN ('active', 'checkmate', 'stalemate', 'threefold-repetition',
        'fifty-move-rule', 'insufficient-material', 'timeout', 'resignation', 'agreement',
        'abandoned')
  OR NEW.reason NOT IN ('', 'checkmate', 'stalemate', 'threefold-repetition',
        'fifty-move-rule', 'insufficient-material', 'timeout', 'timeout-no-mate',
        'resignation', 'agreement', 'abandoned')
BEGIN
    SELECT RAISE(ABORT, 'games: status and reason must be ending codes');
END;

-- The retention job finds idle visitors and idle unfinished games by time.
CREATE INDEX visitors_by_last_seen ON visitors (last_seen);
CREATE INDEX active_games_by_update ON games (updated_at_ms) WHERE status = 'active';

-- The site's own keys (the cookie-signing key), shared by every instance
-- using this database. Not a visitor's data.
CREATE TABLE site_secrets (
    name       TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 100),
    value      BLOB NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
