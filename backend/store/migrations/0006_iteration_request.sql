-- 0006: the exact request of an iteration whose messages the loop compacted
-- (settled outputs stubbed, the recap's oldest turns dropped to fit the
-- context window). NULL for every other iteration: its request is the turn's
-- prompt_json plus the appended_json of the iterations before it, or the
-- newest earlier request_json plus the appended_json since, so ordinary
-- turns store nothing more. Rows written before this migration read NULL.

ALTER TABLE iterations ADD COLUMN request_json TEXT CHECK (request_json IS NULL OR json_valid(request_json));
