-- 0014: a session forked from another (the window's "Edit" and "Fork
-- here", `vis fork`) starts with copies of the parent's first turns
-- (fork.go); this records which session and how many of its turns.
CREATE TABLE session_forks (
    session_id   TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    parent_id    TEXT NOT NULL, -- no foreign key: deleting the parent keeps its forks
    parent_turns INTEGER NOT NULL CHECK (parent_turns >= 0)
) STRICT;
