-- The square-name trainer (X7): each visitor's best score per board view
-- and mode, with the time it was set and how many rounds were played.
CREATE TABLE trainer_best (
    visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    board_view TEXT NOT NULL CHECK (board_view IN ('white', 'black')),
    mode       TEXT NOT NULL CHECK (mode IN ('find', 'name')),
    best       INTEGER NOT NULL CHECK (best BETWEEN 0 AND 1000),
    rounds     INTEGER NOT NULL CHECK (rounds >= 1),
    best_at_ms INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, board_view, mode)
);
