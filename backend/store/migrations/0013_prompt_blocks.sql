-- 0013: a turn's prompt stored once per distinct message. Every turn used
-- to keep its whole initial prompt in turns.prompt_json (~11.7 KB, 89 % of
-- a database of one-turn sessions), though most of it (the system prompt,
-- the project's instructions, the session block of sessions in the same
-- folder) is the same message turn after turn. Each message's exact JSON
-- is now kept once in prompt_blocks, keyed by its SHA-256, with its
-- session's id cut out (a NUL byte stands for it: compact JSON never
-- holds one), and a turn lists its messages' block ids in order with
-- the session id cut out (turns.prompt_blocks, {"session": id,
-- "blocks": [ids]}: a forked session's copied turns keep their parent's);
-- the prompt is '[' + the messages joined by ',' + ']' with that id put
-- back, byte for byte what was stored before. Turns written before keep
-- their prompt_json and are read as they were.

CREATE TABLE prompt_blocks (
    id   INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE, -- SHA-256 of text
    text TEXT NOT NULL
) STRICT;

ALTER TABLE turns ADD COLUMN prompt_blocks TEXT NOT NULL DEFAULT '' CHECK (prompt_blocks = '' OR json_valid(prompt_blocks));
