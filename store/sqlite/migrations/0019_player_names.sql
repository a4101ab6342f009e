-- Players' names in a friend game (issue 38, G27): what the players typed
-- on the new-game form, kept only with the game (and so deleted with it,
-- or with the visitor) and written into its PGN. '' when not given.
ALTER TABLE games ADD COLUMN white_name TEXT NOT NULL DEFAULT '' CHECK (length(white_name) <= 30);
ALTER TABLE games ADD COLUMN black_name TEXT NOT NULL DEFAULT '' CHECK (length(black_name) <= 30);
