-- 3: one row per indexing run, updated with each batch commit, so that other processes
-- can tell a folder being indexed (and how far it got) from one that is not indexed.
CREATE SEQUENCE IF NOT EXISTS run_ids START 1;
CREATE TABLE IF NOT EXISTS index_runs (
    id INTEGER NOT NULL DEFAULT nextval('run_ids'),
    corpus_id INTEGER NOT NULL,
    state VARCHAR NOT NULL,
    total INTEGER,
    done INTEGER NOT NULL DEFAULT 0,
    pid INTEGER NOT NULL,
    host VARCHAR NOT NULL,
    started_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    updated_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    error VARCHAR
);
