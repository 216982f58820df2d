-- 0012: what a turn changed in the workspace's files, from its checkpoints
-- (backend/checkpoint): how many files, lines added and deleted, so a turn
-- card says "N files changed +A −D" without reading the snapshots. A turn
-- that ran no program has no row. undone_by is the turn (of channel
-- 'undo') that undid it, when one did.

CREATE TABLE turn_changes (
    turn_id   INTEGER PRIMARY KEY REFERENCES turns (id) ON DELETE CASCADE,
    files     INTEGER NOT NULL DEFAULT 0,
    added     INTEGER NOT NULL DEFAULT 0,
    deleted   INTEGER NOT NULL DEFAULT 0,
    undo_of   INTEGER REFERENCES turns (id) ON DELETE SET NULL,
    undone_by INTEGER REFERENCES turns (id) ON DELETE SET NULL
) STRICT;
