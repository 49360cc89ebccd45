-- 5: the navigator's tables. A file's content hash (for duplicates), kept while its
-- row is (a changed file's row is replaced, so a stale hash cannot survive); bookmarks
-- with a label; the scan log's end and file counts.
ALTER TABLE files ADD COLUMN IF NOT EXISTS sha256 VARCHAR;
ALTER TABLE bookmarks RENAME COLUMN note TO label;
ALTER TABLE scan_log ADD COLUMN IF NOT EXISTS finished_at TIMESTAMP;
ALTER TABLE scan_log ADD COLUMN IF NOT EXISTS files INTEGER;
ALTER TABLE scan_log ADD COLUMN IF NOT EXISTS files_written INTEGER;
ALTER TABLE scan_log ADD COLUMN IF NOT EXISTS files_removed INTEGER;
