-- Teachers' classrooms (T1–T6). A class belongs to nobody: whoever holds
-- its teacher link runs it (only the SHA-256 of the link's secret is kept
-- here), and it is deleted by its teacher or after a year untouched.
-- A membership belongs to its pupil (forget-me removes it) and to its
-- class (deleting the class removes it); a remembered teacher link
-- belongs to the browser's visitor.
CREATE TABLE classes (
    id            TEXT PRIMARY KEY CHECK (length(id) = 32),
    name          TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    join_code     TEXT NOT NULL UNIQUE CHECK (length(join_code) = 6),
    secret_hash   TEXT NOT NULL UNIQUE CHECK (length(secret_hash) = 64),
    created_at_ms INTEGER NOT NULL,
    touched_at_ms INTEGER NOT NULL
) WITHOUT ROWID;

-- The retention job deletes classes by the time they were last used.
CREATE INDEX classes_by_touch ON classes (touched_at_ms);

CREATE TABLE class_members (
    id           TEXT PRIMARY KEY CHECK (length(id) = 32),
    visitor_id   TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    class_id     TEXT NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    nickname     TEXT NOT NULL CHECK (length(nickname) BETWEEN 1 AND 20),
    nickname_key TEXT NOT NULL,
    joined_at_ms INTEGER NOT NULL,
    UNIQUE (class_id, visitor_id),
    UNIQUE (class_id, nickname_key)
) WITHOUT ROWID;

CREATE INDEX class_members_by_visitor ON class_members (visitor_id);

-- The classes a browser remembers (the teacher's /teach page), with the
-- link's secret as it was handed to this browser.
CREATE TABLE class_teachers (
    visitor_id    TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    class_id      TEXT NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    secret        TEXT NOT NULL,
    added_at_ms   INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, class_id)
) WITHOUT ROWID;

CREATE INDEX class_teachers_by_class ON class_teachers (class_id);

-- Homework: a list of task codes ("lesson:<slug>", "exercise:<id>",
-- "level:<n>", "quiz:<topic>") separated by spaces, and a due date.
CREATE TABLE class_homework (
    id            TEXT PRIMARY KEY CHECK (length(id) = 32),
    class_id      TEXT NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    items         TEXT NOT NULL CHECK (length(items) > 0),
    due           TEXT NOT NULL DEFAULT '',
    created_at_ms INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX class_homework_by_class ON class_homework (class_id, created_at_ms);

-- Wrong tries of an exercise, for the dashboard's "stuck" mark.
CREATE TABLE exercise_misses (
    visitor_id  TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    exercise_id TEXT NOT NULL,
    wrong       INTEGER NOT NULL CHECK (wrong > 0),
    last_at_ms  INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, exercise_id)
) WITHOUT ROWID;
