-- Stars (X11, issue 36): how each exercise went for a visitor. Wrong
-- tries and help (a hint or the answer shown) add up until the first
-- solve, which copies them into solved_wrong and solved_helped; from then
-- on the row no longer changes what the stars say. exercise.Stars turns
-- the frozen pair into one to three stars.
CREATE TABLE exercise_tries (
    visitor_id    TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    exercise_id   TEXT NOT NULL CHECK (length(exercise_id) BETWEEN 1 AND 100),
    lesson        TEXT NOT NULL CHECK (length(lesson) BETWEEN 1 AND 100),
    wrong         INTEGER NOT NULL DEFAULT 0 CHECK (wrong >= 0),
    helped        INTEGER NOT NULL DEFAULT 0 CHECK (helped IN (0, 1)),
    solved_wrong  INTEGER CHECK (solved_wrong >= 0),
    solved_helped INTEGER CHECK (solved_helped IN (0, 1)),
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, exercise_id),
    CHECK ((solved_wrong IS NULL) = (solved_helped IS NULL))
) WITHOUT ROWID;
