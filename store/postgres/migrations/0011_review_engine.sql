-- The analysis engine that reviewed a game (issue 32): the built-in
-- engine or Stockfish, by the name it gives ("Stockfish 15.1"), so the
-- review page can say which. Reviews finished before are '' (the built-in
-- engine was the only one then). As store/sqlite/migrations/0011.
ALTER TABLE reviews ADD COLUMN engine TEXT NOT NULL DEFAULT '';

-- A move that follows the opening book is classed 'book'.
ALTER TABLE review_moves DROP CONSTRAINT review_moves_class_check,
    ADD CONSTRAINT review_moves_class_check
        CHECK (class IN ('book', 'best', 'good', 'inaccuracy', 'mistake', 'blunder'));
