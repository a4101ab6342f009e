-- Games played on the site (G13). A game is stored as its start position and
-- its moves in UCI; loading replays them through the rules package. Clock
-- times are milliseconds; clock_snapshots holds, per ply, what both clocks
-- showed when that position first appeared, so undo can restore them (G10).
CREATE TABLE games (
    id               TEXT PRIMARY KEY CHECK (length(id) = 32),
    visitor_id       TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    mode             TEXT NOT NULL CHECK (mode IN ('friend', 'computer')),
    human_color      TEXT NOT NULL CHECK (human_color IN ('white', 'black')),
    level            INTEGER NOT NULL DEFAULT 0,
    clock_name       TEXT NOT NULL DEFAULT 'none',
    clock_base_ms    INTEGER NOT NULL DEFAULT 0,
    clock_inc_ms     INTEGER NOT NULL DEFAULT 0,
    undo_allowed     INTEGER NOT NULL DEFAULT 1,
    pass_screen      INTEGER NOT NULL DEFAULT 0,
    turn_board       INTEGER NOT NULL DEFAULT 0,
    start_fen        TEXT NOT NULL,
    moves            TEXT NOT NULL DEFAULT '',
    ply              INTEGER NOT NULL DEFAULT 0,
    clock_white_ms   INTEGER NOT NULL DEFAULT 0,
    clock_black_ms   INTEGER NOT NULL DEFAULT 0,
    running_since_ms INTEGER,
    clock_snapshots  TEXT NOT NULL DEFAULT '[]',
    draw_offer       TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL DEFAULT 'active',
    result           TEXT NOT NULL DEFAULT '*',
    reason           TEXT NOT NULL DEFAULT '',
    end_color        TEXT NOT NULL DEFAULT '',
    version          INTEGER NOT NULL DEFAULT 0,
    created_at_ms    INTEGER NOT NULL,
    updated_at_ms    INTEGER NOT NULL
);

CREATE INDEX games_by_visitor ON games (visitor_id, updated_at_ms DESC);
