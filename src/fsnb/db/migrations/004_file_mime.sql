-- 4: the file index's MIME type (guessed by name), filled by the next scan.
ALTER TABLE files ADD COLUMN IF NOT EXISTS mime VARCHAR;
