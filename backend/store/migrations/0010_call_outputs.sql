-- 0010: the full output of a program whose output was clipped. The
-- iteration's tool_calls_json keeps each program's output cut at the
-- model's limit (64 Ki chars), read for every transcript snapshot; the
-- rest of a longer output, up to sandbox.keep_output_bytes, lives here,
-- written in the same transaction as its iteration and deleted with it,
-- read only for "open full output". call is the program's 0-based place
-- among its iteration's calls; total_bytes is how much it printed in all
-- (more than length(output) when the keep cap cut it too).

CREATE TABLE call_outputs (
    iteration_id INTEGER NOT NULL REFERENCES iterations (id) ON DELETE CASCADE,
    call         INTEGER NOT NULL CHECK (call >= 0),
    call_id      TEXT NOT NULL DEFAULT '',
    output       BLOB NOT NULL,
    total_bytes  INTEGER NOT NULL,
    PRIMARY KEY (iteration_id, call)
) STRICT;
