-- 0005: images are stored once per session per content hash. An image
-- attachment row (kind 'image', sha256 set) keeps its name, type and size and
-- an empty bytes column; its bytes live in image_blobs under
-- (session_id, sha256), so the same screenshot attached to three turns is
-- stored once. Rows written before this migration keep their own bytes
-- (sha256 '').

CREATE TABLE image_blobs (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    sha256     TEXT NOT NULL CHECK (length(sha256) = 64),
    size_bytes INTEGER NOT NULL,
    bytes      BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (session_id, sha256)
) STRICT;

ALTER TABLE attachments ADD COLUMN sha256 TEXT NOT NULL DEFAULT '';
