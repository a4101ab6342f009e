-- Stars (X11, issue 36): how each exercise went for a visitor. As
-- store/sqlite/migrations/0014: wrong tries and help add up until the
-- first solve, which freezes them into solved_wrong and solved_helped.
CREATE TABLE exercise_tries (
    visitor_id    TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    exercise_id   TEXT NOT NULL CHECK (length(exercise_id) BETWEEN 1 AND 100),
    lesson        TEXT NOT NULL CHECK (length(lesson) BETWEEN 1 AND 100),
    wrong         INTEGER NOT NULL DEFAULT 0 CHECK (wrong >= 0),
    helped        BOOLEAN NOT NULL DEFAULT false,
    solved_wrong  INTEGER CHECK (solved_wrong >= 0),
    solved_helped BOOLEAN,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (visitor_id, exercise_id),
    CHECK ((solved_wrong IS NULL) = (solved_helped IS NULL))
);
