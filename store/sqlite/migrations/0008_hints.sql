-- Hints asked for while playing against the computer (G23): the ply of the
-- position and the step ('piece': which piece to move, 'move': the move).
-- The PGN download notes them.
CREATE TABLE game_hints (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL CHECK (ply >= 0),
    step    TEXT NOT NULL CHECK (step IN ('piece', 'move')),
    PRIMARY KEY (game_id, ply, step)
) WITHOUT ROWID;
