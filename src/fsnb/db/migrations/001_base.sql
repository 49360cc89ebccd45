-- 1: the base schema: folders (corpora), the file index, documents, chunks, BM25 terms,
-- metadata schemas, bookmarks, the scan log and the shared scratch schema.
CREATE SEQUENCE IF NOT EXISTS corpus_ids START 1;
CREATE SEQUENCE IF NOT EXISTS document_ids START 1;
CREATE SEQUENCE IF NOT EXISTS bookmark_ids START 1;
CREATE SEQUENCE IF NOT EXISTS scan_ids START 1;
CREATE TABLE IF NOT EXISTS corpora (
    id INTEGER PRIMARY KEY DEFAULT nextval('corpus_ids'),
    root VARCHAR NOT NULL UNIQUE,
    created_at TIMESTAMP DEFAULT current_timestamp,
    indexed_at TIMESTAMP
);
CREATE TABLE IF NOT EXISTS files (
    corpus_id INTEGER NOT NULL,
    path VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    extension VARCHAR NOT NULL,
    size BIGINT NOT NULL,
    mtime_ns BIGINT NOT NULL,
    category VARCHAR NOT NULL,
    depth INTEGER NOT NULL,
    parent VARCHAR NOT NULL,
    sensitivity VARCHAR NOT NULL DEFAULT 'none',
    PRIMARY KEY (corpus_id, path)
);
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY DEFAULT nextval('document_ids'),
    corpus_id INTEGER NOT NULL,
    path VARCHAR NOT NULL,
    title VARCHAR,
    format VARCHAR,
    pages INTEGER,
    chars INTEGER,
    text VARCHAR,
    content_hash VARCHAR,
    metadata JSON DEFAULT '{}',
    parser VARCHAR,
    warnings JSON DEFAULT '[]',
    size BIGINT,
    mtime_ns BIGINT,
    error VARCHAR,
    deleted BOOLEAN NOT NULL DEFAULT false,
    indexed_at TIMESTAMP DEFAULT current_timestamp,
    UNIQUE (corpus_id, path)
);
CREATE TABLE IF NOT EXISTS chunks (
    doc_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    text VARCHAR NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    page INTEGER,
    heading VARCHAR,
    n_terms INTEGER NOT NULL,
    PRIMARY KEY (doc_id, position)
);
CREATE TABLE IF NOT EXISTS terms (
    doc_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    term VARCHAR NOT NULL,
    tf INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS schemas (
    corpus_id INTEGER NOT NULL,
    field VARCHAR NOT NULL,
    type VARCHAR NOT NULL,
    documents INTEGER NOT NULL,
    examples JSON,
    PRIMARY KEY (corpus_id, field)
);
CREATE TABLE IF NOT EXISTS bookmarks (
    id INTEGER PRIMARY KEY DEFAULT nextval('bookmark_ids'),
    corpus_id INTEGER NOT NULL,
    path VARCHAR NOT NULL,
    note VARCHAR,
    created_at TIMESTAMP DEFAULT current_timestamp
);
CREATE TABLE IF NOT EXISTS scan_log (
    id INTEGER PRIMARY KEY DEFAULT nextval('scan_ids'),
    corpus_id INTEGER NOT NULL,
    started_at TIMESTAMP NOT NULL,
    duration_s DOUBLE NOT NULL,
    added INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    unchanged INTEGER NOT NULL,
    deleted INTEGER NOT NULL,
    failed INTEGER NOT NULL,
    report JSON
);
CREATE INDEX IF NOT EXISTS terms_term ON terms (term);
CREATE SCHEMA IF NOT EXISTS scratch;
