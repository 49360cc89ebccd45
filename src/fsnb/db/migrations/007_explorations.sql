-- 7: every exploration run (`fsnb.index.explorations`): question, answer, citations,
-- usage and events as JSON, the folder, backend and model, its thread and parent (times
-- in UTC).
CREATE TABLE IF NOT EXISTS explorations (
    id VARCHAR PRIMARY KEY,
    thread_id VARCHAR NOT NULL,
    parent_id VARCHAR,
    folder VARCHAR NOT NULL,
    question VARCHAR NOT NULL,
    answer VARCHAR NOT NULL,
    error VARCHAR,
    backend VARCHAR NOT NULL,
    model VARCHAR NOT NULL,
    started_at TIMESTAMP,
    finished_at TIMESTAMP,
    citations JSON,
    usage JSON,
    events JSON,
    saved JSON NOT NULL
);
