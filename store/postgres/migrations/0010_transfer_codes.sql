-- Continue on another device (G28): a one-time code, valid for ten
-- minutes, that makes another device the same visitor. Only the code's
-- hash (SHA-256, hex) is kept; redeeming the code deletes its row. A
-- visitor has at most one pending code. As store/sqlite/migrations/0010.
CREATE TABLE transfer_codes (
    code_hash     TEXT PRIMARY KEY CHECK (length(code_hash) = 64),
    visitor_id    TEXT NOT NULL UNIQUE REFERENCES visitors(id) ON DELETE CASCADE,
    expires_at_ms BIGINT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The retention job deletes expired codes by time.
CREATE INDEX transfer_codes_by_expiry ON transfer_codes (expires_at_ms);
