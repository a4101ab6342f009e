-- Anonymous visitors, recognised by a random 128-bit id kept in a cookie (N2).
-- Everything a visitor owns references visitors(id).
CREATE TABLE visitors (
    id         TEXT PRIMARY KEY CHECK (length(id) = 32),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    last_seen  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
