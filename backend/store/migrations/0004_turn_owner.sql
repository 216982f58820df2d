-- 0004: a running turn names the process that runs it ("pid:start-ticks"),
-- so a second process (the CLI beside the window) marks as interrupted only
-- the turns whose process is gone, never a turn another live process runs.

ALTER TABLE turns ADD COLUMN owner TEXT NOT NULL DEFAULT '';
