-- The analysis engine that reviewed a game (issue 32): the built-in
-- engine or Stockfish, by the name it gives ("Stockfish 15.1"), so the
-- review page can say which. Reviews finished before are '' (the built-in
-- engine was the only one then).
ALTER TABLE reviews ADD COLUMN engine TEXT NOT NULL DEFAULT '';

-- A move that follows the opening book is classed 'book'. SQLite cannot
-- change a CHECK, so review_moves is made again with the new one and its
-- rows copied over.
CREATE TABLE review_moves_0011 (
    game_id TEXT NOT NULL REFERENCES reviews(game_id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL CHECK (ply >= 1),
    class   TEXT NOT NULL CHECK (class IN ('book', 'best', 'good', 'inaccuracy', 'mistake', 'blunder')),
    loss    REAL NOT NULL DEFAULT 0,
    best    TEXT NOT NULL DEFAULT '',
    reason  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
INSERT INTO review_moves_0011 (game_id, ply, class, loss, best, reason)
    SELECT game_id, ply, class, loss, best, reason FROM review_moves;
DROP TABLE review_moves;
ALTER TABLE review_moves_0011 RENAME TO review_moves;
