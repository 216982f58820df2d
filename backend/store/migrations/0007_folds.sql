-- 0007: folds the model asked for with fold_session(key, gist). A fold
-- changes only what the model is sent (the recap of later turns, and the
-- running turn's wire messages): turns and iterations keep everything.
-- spans_json is the normalised coverage, a JSON array of
-- {"turn": n, "from": a, "to": b} (from = to = 0: the whole turn, its
-- request and answer included; else iterations a..b of that turn).

CREATE TABLE folds (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    key        TEXT NOT NULL,
    spans_json TEXT NOT NULL CHECK (json_valid(spans_json) AND json_type(spans_json) = 'array'),
    gist       TEXT NOT NULL CHECK (length(gist) BETWEEN 1 AND 500),
    created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX folds_session ON folds (session_id, id);
