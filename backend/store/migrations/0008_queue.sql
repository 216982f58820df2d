-- 0008: the engine's per-session queue of inputs written while a turn runs.
-- The session's owner (the engine in the process that runs its turns) drains
-- it oldest first after each turn; Stop hands the rows back to the person.
-- owner is the process that queued the row (store/owner.go); a row whose
-- owner is gone is held until someone sends it again. images_json is a JSON
-- array of {"path": ..., "name": ..., "bytes": base64} as the input offered
-- them; model and base_url are per-turn overrides (the CLI's flags).

CREATE TABLE queue (
    id          INTEGER PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('turn', 'shell', 'goal-set', 'goal-resume')),
    text        TEXT NOT NULL,
    images_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(images_json) AND json_type(images_json) = 'array'),
    channel     TEXT NOT NULL DEFAULT 'desktop',
    model       TEXT NOT NULL DEFAULT '',
    base_url    TEXT NOT NULL DEFAULT '',
    owner       TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX queue_session ON queue (session_id, id);
