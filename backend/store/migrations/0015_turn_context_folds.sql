-- 0015: what gave way in a turn's request to fit the model's context
-- window (backend/loop/context.go): the loop's summary as JSON, written at
-- each compaction, so `vis show` and a reloaded transcript mark the turn.
-- A turn whose request fitted has no row.

CREATE TABLE turn_context_folds (
    turn_id INTEGER PRIMARY KEY REFERENCES turns (id) ON DELETE CASCADE,
    fold    TEXT NOT NULL
) STRICT;
