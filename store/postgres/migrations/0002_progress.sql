-- Lesson progress (L5): which lessons a visitor has read and which exercises
-- they have solved. Each fact is stored once, with the time it first
-- happened; marking it again changes nothing.
CREATE TABLE lessons_read (
    visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    slug       TEXT NOT NULL CHECK (length(slug) BETWEEN 1 AND 100),
    read_at_ms BIGINT NOT NULL,
    PRIMARY KEY (visitor_id, slug)
);

CREATE TABLE exercises_solved (
    visitor_id   TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    exercise_id  TEXT NOT NULL CHECK (length(exercise_id) BETWEEN 1 AND 100),
    lesson       TEXT NOT NULL CHECK (length(lesson) BETWEEN 1 AND 100),
    solved_at_ms BIGINT NOT NULL,
    PRIMARY KEY (visitor_id, exercise_id)
);
