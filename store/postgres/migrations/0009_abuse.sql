-- Abuse resistance (N8), as store/sqlite/migrations/0009: the 'abandoned'
-- code for games the site closes, indexes for the retention job, and the
-- site's own keys (the cookie-signing key), shared by every instance.
ALTER TABLE games DROP CONSTRAINT games_status_is_code;
ALTER TABLE games DROP CONSTRAINT games_reason_is_code;

ALTER TABLE games ADD CONSTRAINT games_status_is_code CHECK (status IN (
    'active', 'checkmate', 'stalemate', 'threefold-repetition', 'fifty-move-rule',
    'insufficient-material', 'timeout', 'resignation', 'agreement', 'abandoned'));

ALTER TABLE games ADD CONSTRAINT games_reason_is_code CHECK (reason IN (
    '', 'checkmate', 'stalemate', 'threefold-repetition', 'fifty-move-rule',
    'insufficient-material', 'timeout', 'timeout-no-mate', 'resignation', 'agreement',
    'abandoned'));

CREATE INDEX visitors_by_last_seen ON visitors (last_seen);
CREATE INDEX active_games_by_update ON games (updated_at_ms) WHERE status = 'active';

CREATE TABLE site_secrets (
    name       TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 100),
    value      BYTEA NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
