-- Step exams (L9, issue 36): as store/sqlite/migrations/0018, the steps
-- a visitor has passed, with the first pass's time and the best score.
CREATE TABLE exam_passes (
    visitor_id   TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    step         INTEGER NOT NULL CHECK (step BETWEEN 1 AND 20),
    score        INTEGER NOT NULL CHECK (score >= 0),
    total        INTEGER NOT NULL CHECK (total > 0 AND score <= total),
    passed_at_ms BIGINT NOT NULL,
    PRIMARY KEY (visitor_id, step)
);
