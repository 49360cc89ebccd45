-- 6: the file index lighter to write: `file_rows` holds what a scan finds, with no
-- primary key (rows are written by anti-join, one per path by construction; the key's
-- index cost a fifth of indexing a tree from cold); the `files` view adds the name,
-- parent folder and depth, computed from the path when read.
CREATE TABLE file_rows (
    corpus_id INTEGER NOT NULL,
    path VARCHAR NOT NULL,
    extension VARCHAR NOT NULL,
    size BIGINT NOT NULL,
    mtime_ns BIGINT NOT NULL,
    category VARCHAR NOT NULL,
    sensitivity VARCHAR NOT NULL DEFAULT 'none',
    mime VARCHAR,
    sha256 VARCHAR
);
INSERT INTO file_rows
    SELECT corpus_id, path, extension, size, mtime_ns, category, sensitivity, mime, sha256
    FROM files;
DROP TABLE files;
CREATE VIEW files AS
    SELECT corpus_id, path, regexp_extract(path, '[^/]*$') AS name, extension, size,
           mtime_ns, category, len(path) - len(replace(path, '/', '')) AS depth,
           coalesce(nullif(regexp_extract(path, '^(.*)/[^/]*$', 1), ''), '.') AS parent,
           sensitivity, mime, sha256
    FROM file_rows;
