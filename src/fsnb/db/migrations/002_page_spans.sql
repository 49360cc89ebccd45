-- 2: page spans per document; terms clustered by term instead of an ART index (zone
-- maps over the sorted table are faster, the index was most of the file, and it kept
-- DuckDB from reclaiming deleted rows).
DROP INDEX IF EXISTS terms_term;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS spans JSON;
CREATE TABLE IF NOT EXISTS terms_layout (
    max_doc_id BIGINT,
    term_rows BIGINT,
    clustered_at TIMESTAMP DEFAULT current_timestamp
);
