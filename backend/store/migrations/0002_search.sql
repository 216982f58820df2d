-- 0002: full-text search over each turn's request and answer.
-- External-content FTS5 table: the text lives once, in turns; the triggers keep
-- the index in step with every insert, update and delete (cascades included).

CREATE VIRTUAL TABLE turns_fts USING fts5 (
    request,
    answer,
    content = 'turns',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);

CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
    INSERT INTO turns_fts (rowid, request, answer) VALUES (new.id, new.request, new.answer);
END;

CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN
    INSERT INTO turns_fts (turns_fts, rowid, request, answer) VALUES ('delete', old.id, old.request, old.answer);
END;

CREATE TRIGGER turns_fts_update AFTER UPDATE OF request, answer ON turns BEGIN
    INSERT INTO turns_fts (turns_fts, rowid, request, answer) VALUES ('delete', old.id, old.request, old.answer);
    INSERT INTO turns_fts (rowid, request, answer) VALUES (new.id, new.request, new.answer);
END;

-- Index the turns written before this migration.
INSERT INTO turns_fts (turns_fts) VALUES ('rebuild');
