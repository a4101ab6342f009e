-- Game reviews (G23): the game as it was when the review was asked for,
-- the engine's analysis of every position as soon as it is done (so a
-- review resumes after a restart), and once complete every move's class,
-- loss, better move and reason codes. Never sentences (N7).
-- As store/sqlite/migrations/0007.
CREATE TABLE reviews (
    game_id         TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    visitor_id      TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    token           TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'done')),
    start_fen       TEXT NOT NULL,
    moves           TEXT NOT NULL DEFAULT '',
    ply             INTEGER NOT NULL CHECK (ply >= 0),
    requested_at_ms BIGINT NOT NULL,
    updated_at_ms   BIGINT NOT NULL
);

CREATE INDEX reviews_pending ON reviews (status, requested_at_ms);

CREATE TABLE review_positions (
    game_id TEXT NOT NULL REFERENCES reviews(game_id) ON DELETE CASCADE,
    idx     INTEGER NOT NULL CHECK (idx >= 0),
    cp      INTEGER NOT NULL DEFAULT 0,
    mate    INTEGER NOT NULL DEFAULT 0,
    is_mate BOOLEAN NOT NULL DEFAULT FALSE,
    best    TEXT NOT NULL DEFAULT '',
    pv      TEXT NOT NULL DEFAULT '',
    depth   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE review_moves (
    game_id TEXT NOT NULL REFERENCES reviews(game_id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL CHECK (ply >= 1),
    class   TEXT NOT NULL CHECK (class IN ('best', 'good', 'inaccuracy', 'mistake', 'blunder')),
    loss    DOUBLE PRECISION NOT NULL DEFAULT 0,
    best    TEXT NOT NULL DEFAULT '',
    reason  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, ply)
);
