-- Step exams (L9, issue 36): the steps a visitor has passed. A pass
-- unlocks the step's certificate; passed_at_ms is the first pass (the
-- certificate's date), score/total the best pass. Failed tries store
-- nothing.
CREATE TABLE exam_passes (
    visitor_id   TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    step         INTEGER NOT NULL CHECK (step BETWEEN 1 AND 20),
    score        INTEGER NOT NULL CHECK (score >= 0),
    total        INTEGER NOT NULL CHECK (total > 0 AND score <= total),
    passed_at_ms INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, step)
) WITHOUT ROWID;
