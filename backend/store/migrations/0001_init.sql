-- 0001: sessions, turns, iterations, attachments.
-- Timestamps are unix milliseconds. Tables are STRICT so a wrongly typed value
-- (a time.Time bound as text, say) fails loudly instead of being stored.

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    workspace  TEXT NOT NULL DEFAULT '',
    title      TEXT NOT NULL DEFAULT '',
    model      TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

CREATE INDEX sessions_updated ON sessions (updated_at DESC, id DESC);
CREATE INDEX sessions_workspace_updated ON sessions (workspace, updated_at DESC, id DESC);

CREATE TABLE turns (
    id               INTEGER PRIMARY KEY,
    session_id       TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    position         INTEGER NOT NULL CHECK (position >= 1),
    request          TEXT NOT NULL DEFAULT '',
    channel          TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL DEFAULT 'running'
                     CHECK (status IN ('running', 'done', 'error', 'cancelled', 'interrupted', 'halted')),
    answer           TEXT NOT NULL DEFAULT '',
    error            TEXT NOT NULL DEFAULT '',
    iterations       INTEGER NOT NULL DEFAULT 0,
    input_tokens     INTEGER NOT NULL DEFAULT 0,
    output_tokens    INTEGER NOT NULL DEFAULT 0,
    cached_tokens    INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd         REAL NOT NULL DEFAULT 0,
    prompt_json      TEXT NOT NULL DEFAULT '' CHECK (prompt_json = '' OR json_valid(prompt_json)),
    started_at       INTEGER NOT NULL,
    finished_at      INTEGER,
    duration_ms      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (session_id, position)
) STRICT;

-- InterruptRunning scans only the (few) running turns.
CREATE INDEX turns_running ON turns (status) WHERE status = 'running';

CREATE TABLE iterations (
    id               INTEGER PRIMARY KEY,
    turn_id          INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    position         INTEGER NOT NULL CHECK (position >= 1),
    status           TEXT NOT NULL CHECK (status IN ('done', 'error', 'cancelled')),
    code             TEXT NOT NULL DEFAULT '',
    output           TEXT NOT NULL DEFAULT '',
    error            TEXT NOT NULL DEFAULT '',
    prose            TEXT NOT NULL DEFAULT '',
    reasoning        TEXT NOT NULL DEFAULT '',
    answer           TEXT NOT NULL DEFAULT '',
    model            TEXT NOT NULL DEFAULT '',
    tool_calls_json  TEXT NOT NULL DEFAULT '' CHECK (tool_calls_json = '' OR json_valid(tool_calls_json)),
    appended_json    TEXT NOT NULL DEFAULT '' CHECK (appended_json = '' OR json_valid(appended_json)),
    input_tokens     INTEGER NOT NULL DEFAULT 0,
    output_tokens    INTEGER NOT NULL DEFAULT 0,
    cached_tokens    INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    started_at       INTEGER NOT NULL,
    finished_at      INTEGER NOT NULL,
    llm_ms           INTEGER NOT NULL DEFAULT 0,
    eval_ms          INTEGER NOT NULL DEFAULT 0,
    UNIQUE (turn_id, position)
) STRICT;

CREATE TABLE attachments (
    id           INTEGER PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id      INTEGER REFERENCES turns (id) ON DELETE CASCADE,
    iteration_id INTEGER REFERENCES iterations (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL DEFAULT 'image',
    media_type   TEXT NOT NULL DEFAULT '',
    filename     TEXT NOT NULL DEFAULT '',
    size_bytes   INTEGER NOT NULL DEFAULT 0,
    bytes        BLOB NOT NULL,
    created_at   INTEGER NOT NULL
) STRICT;

CREATE INDEX attachments_session ON attachments (session_id, turn_id);
CREATE INDEX attachments_turn ON attachments (turn_id);
CREATE INDEX attachments_iteration ON attachments (iteration_id);
