-- Anonymous visitors, recognised by a random 128-bit id kept in a cookie (N2).
-- Everything a visitor owns references visitors(id). The same logical
-- schema as store/sqlite/migrations/0001, in PostgreSQL's dialect.
CREATE TABLE visitors (
    id         TEXT PRIMARY KEY CHECK (length(id) = 32),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_seen  TIMESTAMPTZ NOT NULL DEFAULT now()
);
