-- 0003: one durable goal per session (seed 003). Every mutation is a
-- compare-and-swap on revision; a cleared goal stays as a record.

CREATE TABLE goals (
    session_id       TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    goal_id          TEXT NOT NULL,
    objective        TEXT NOT NULL,
    status           TEXT NOT NULL
                     CHECK (status IN ('active', 'paused', 'blocked', 'complete', 'cancelled', 'budget_limited', 'cleared')),
    iteration_budget INTEGER CHECK (iteration_budget IS NULL OR iteration_budget >= 1),
    iterations_used  INTEGER NOT NULL DEFAULT 0,
    tokens_used      INTEGER NOT NULL DEFAULT 0,
    time_used_ms     INTEGER NOT NULL DEFAULT 0,
    version          INTEGER NOT NULL DEFAULT 1,
    revision         INTEGER NOT NULL CHECK (revision >= 1),
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    active_since_ms  INTEGER
) STRICT;
