-- The rules quiz (Q3, Q4). A round is a fixed list of question ids; each
-- answer is stored once per (round, index), so a repeated post can never be
-- counted twice. quiz_history keeps, per visitor and question, whether the
-- latest answer was right: questions whose latest answer was wrong come back
-- first in the next round.
CREATE TABLE quiz_rounds (
    id             TEXT PRIMARY KEY CHECK (length(id) = 32),
    visitor_id     TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    questions      TEXT NOT NULL,
    total          INTEGER NOT NULL CHECK (total > 0),
    score          INTEGER NOT NULL DEFAULT 0,
    created_at_ms  BIGINT NOT NULL,
    finished_at_ms BIGINT
);

CREATE INDEX quiz_rounds_by_visitor ON quiz_rounds (visitor_id, finished_at_ms DESC);

CREATE TABLE quiz_answers (
    round_id       TEXT NOT NULL REFERENCES quiz_rounds(id) ON DELETE CASCADE,
    idx            INTEGER NOT NULL CHECK (idx >= 0),
    question       TEXT NOT NULL,
    answer         TEXT NOT NULL,
    correct        BOOLEAN NOT NULL,
    answered_at_ms BIGINT NOT NULL,
    PRIMARY KEY (round_id, idx)
);

CREATE TABLE quiz_history (
    visitor_id    TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    question      TEXT NOT NULL,
    last_correct  BOOLEAN NOT NULL,
    times_right   INTEGER NOT NULL DEFAULT 0,
    times_wrong   INTEGER NOT NULL DEFAULT 0,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (visitor_id, question)
);
