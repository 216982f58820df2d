-- 0011: the permission mode a person chose for a session in the window
-- (read-only, workspace or full); '' = none chosen, the config's mode
-- applies. The engine reads it at every turn's plan, below `vis run
-- --sandbox` and above config's permissions.mode.

ALTER TABLE sessions ADD COLUMN sandbox_mode TEXT NOT NULL DEFAULT ''
    CHECK (sandbox_mode IN ('', 'read-only', 'workspace', 'full'));
