-- Puzzles (P4, P5): each visitor's Glicko-2 rating, counts and streaks;
-- their first attempts (one per puzzle: replays do not count); and the
-- puzzles' own ratings, which every first attempt moves and which belong
-- to nobody (store/internal/schema lists the table as not owned).
CREATE TABLE puzzle_players (
    visitor_id     TEXT PRIMARY KEY REFERENCES visitors(id) ON DELETE CASCADE,
    rating         REAL NOT NULL,
    rd             REAL NOT NULL CHECK (rd > 0),
    volatility     REAL NOT NULL CHECK (volatility > 0),
    solved         INTEGER NOT NULL CHECK (solved >= 0),
    failed         INTEGER NOT NULL CHECK (failed >= 0),
    streak_current INTEGER NOT NULL CHECK (streak_current >= 0),
    streak_best    INTEGER NOT NULL CHECK (streak_best >= streak_current),
    streak_seed    INTEGER NOT NULL,
    version        INTEGER NOT NULL CHECK (version >= 1),
    updated_at_ms  INTEGER NOT NULL
);

CREATE TABLE puzzle_attempts (
    visitor_id    TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    puzzle_id     TEXT NOT NULL CHECK (length(puzzle_id) BETWEEN 1 AND 12),
    solved        INTEGER NOT NULL CHECK (solved IN (0, 1)),
    rating_before REAL NOT NULL,
    rating_after  REAL NOT NULL,
    at_ms         INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, puzzle_id)
);

CREATE TABLE puzzle_ratings (
    puzzle_id  TEXT PRIMARY KEY CHECK (length(puzzle_id) BETWEEN 1 AND 12),
    rating     REAL NOT NULL,
    rd         REAL NOT NULL CHECK (rd > 0),
    volatility REAL NOT NULL CHECK (volatility > 0),
    attempts   INTEGER NOT NULL CHECK (attempts >= 1)
);
