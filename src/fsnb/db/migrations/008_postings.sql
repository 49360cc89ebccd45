-- 8: each `terms` row (a posting) carries its corpus and its chunk's length, so that
-- BM25 reads only the query terms' rows: no join to `chunks` or `documents`. Rewritten
-- sorted by term (as `cluster_terms` keeps it); rows of deleted documents are dropped.
CREATE TABLE terms_v8 (
    doc_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    term VARCHAR NOT NULL,
    tf INTEGER NOT NULL,
    corpus_id INTEGER NOT NULL,
    n_terms INTEGER NOT NULL
);
INSERT INTO terms_v8
    SELECT t.doc_id, t.position, t.term, t.tf, d.corpus_id, c.n_terms
    FROM terms t JOIN chunks c USING (doc_id, position) JOIN documents d ON d.id = t.doc_id
    WHERE NOT d.deleted ORDER BY t.term, t.doc_id, t.position;
DROP TABLE terms;
ALTER TABLE terms_v8 RENAME TO terms;
DELETE FROM terms_layout;
INSERT INTO terms_layout (max_doc_id, term_rows)
    SELECT (SELECT coalesce(max(id), 0) FROM documents), (SELECT count(*) FROM terms);
