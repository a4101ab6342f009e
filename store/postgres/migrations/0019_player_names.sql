-- Players' names in a friend game (issue 38, G27), as
-- store/sqlite/migrations/0019: kept only with the game and written into
-- its PGN. '' when not given.
ALTER TABLE games ADD COLUMN white_name TEXT NOT NULL DEFAULT '' CHECK (char_length(white_name) <= 30);
ALTER TABLE games ADD COLUMN black_name TEXT NOT NULL DEFAULT '' CHECK (char_length(black_name) <= 30);
