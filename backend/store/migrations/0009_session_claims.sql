-- 0009: which process runs a session's turns now. A process claims the
-- session before it starts a turn and releases it when its queue is done,
-- so two processes (the window and the CLI, or two CLIs) never run turns of
-- one session at once: the second queues its input and waits for the claim.
-- A claim whose owner is gone (store/owner.go) counts as free.

CREATE TABLE session_claims (
    session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    owner      TEXT NOT NULL,
    claimed_at INTEGER NOT NULL
) STRICT;
