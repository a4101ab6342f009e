-- Games played on the site (G13). A game is stored as its start position and
-- its moves in UCI; loading replays them through the rules package. Clock
-- times are milliseconds; clock_snapshots holds, per ply, what both clocks
-- showed when that position first appeared, so undo can restore them (G10).
-- version guards every write: an UPDATE ... WHERE version = $loaded is the
-- ply check that holds across several site processes (N3, N6).
CREATE TABLE games (
    id               TEXT PRIMARY KEY CHECK (length(id) = 32),
    visitor_id       TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    mode             TEXT NOT NULL CHECK (mode IN ('friend', 'computer')),
    human_color      TEXT NOT NULL CHECK (human_color IN ('white', 'black')),
    level            INTEGER NOT NULL DEFAULT 0,
    clock_name       TEXT NOT NULL DEFAULT 'none',
    clock_base_ms    BIGINT NOT NULL DEFAULT 0,
    clock_inc_ms     BIGINT NOT NULL DEFAULT 0,
    undo_allowed     BOOLEAN NOT NULL DEFAULT TRUE,
    pass_screen      BOOLEAN NOT NULL DEFAULT FALSE,
    turn_board       BOOLEAN NOT NULL DEFAULT FALSE,
    start_fen        TEXT NOT NULL,
    moves            TEXT NOT NULL DEFAULT '',
    ply              INTEGER NOT NULL DEFAULT 0,
    clock_white_ms   BIGINT NOT NULL DEFAULT 0,
    clock_black_ms   BIGINT NOT NULL DEFAULT 0,
    running_since_ms BIGINT,
    clock_snapshots  TEXT NOT NULL DEFAULT '[]',
    draw_offer       TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL DEFAULT 'active',
    result           TEXT NOT NULL DEFAULT '*',
    reason           TEXT NOT NULL DEFAULT '',
    end_color        TEXT NOT NULL DEFAULT '',
    version          BIGINT NOT NULL DEFAULT 0,
    created_at_ms    BIGINT NOT NULL,
    updated_at_ms    BIGINT NOT NULL
);

CREATE INDEX games_by_visitor ON games (visitor_id, updated_at_ms DESC);
