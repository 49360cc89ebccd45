"""Indexing and search speed; prints one JSON object.

Per sample corpus: `index_cold_s` (empty database, empty parse cache) and
`reindex_unchanged_s` (the same `add_folder` again: nothing changed).

`scan_50k_s`: `Index.add_folder` over a synthetic tree of 50,000 small `.dat` files in
nested folders. `.dat` is not a document type, so nothing is parsed: the time is the
walk (with the sensitive-file policy), the stats and the `files` table. The tree is built
before the clock starts; `scan_50k_rescan_s` is the second, unchanged scan.
`name_search_p50_ms`: `find_files` over those 50,000 files (keywords and globs).

`bm25_10k_*` / `bm25_100k_*`: BM25 over 10,000 and 100,000 synthetic chunks. Documents,
chunks and terms rows are generated with numpy and inserted directly (as the pipeline
writes them, in document order), then `cluster_terms` sorts `terms` by term. Terms follow
a Zipf law (s = 1.07) over 60,000 pseudo-words whose 150 most frequent are dropped as
stopwords (as `fsnb.text.words.tokenize` drops them); chunks hold 100-300 terms, and each terms
row carries its corpus and chunk length (as `fsnb.index.writer.write` writes them).
Queries are 2-5 terms drawn from the same law. `bm25_*_p50_ms` is `fsnb.index.search.search(store,
...)` in BM25 mode, what `Index.search` calls (it attaches the file, whose share alone is
`db_open_*_ms`); `bm25_*_held_*` is the same call on a connection already open, as the
`semantic_search` tool makes it; both return the chunks' text and highlights.
`fts5_*_p50_ms` / `fts5_*_p95_ms`: SQLite FTS5 (standard library) over the same chunks
(each term written tf times) and queries (any of their words), ranked by its `bm25` and
returning the text, timed in the same loop.

    .venv/bin/python bench/index.py [--quick] [--search]

`--search` runs only the BM25 part.
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
DATA = Path(__file__).resolve().parent.parent / "data"
CORPORA = ["test_acquisition", "large_acquisition", "mixed"]
SYLLABLES = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"]
STOPWORDS = 150


def _ms(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)


def _timed(func, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return time.perf_counter() - start, result


def machine() -> dict[str, object]:
    import duckdb

    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    ) if Path("/proc/cpuinfo").exists() else platform.processor()  # fmt: skip
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": round(memory, 1),
        "python": platform.python_version(),
        "duckdb": duckdb.__version__,
        "platform": platform.platform(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }


def sample_corpora(tmp: Path) -> dict[str, dict[str, float]]:
    from fsnb.index.index import Index

    out = {}
    for name in CORPORA:
        os.environ["FSNB_CACHE_DIR"] = tempfile.mkdtemp(dir=tmp, prefix="cache-")
        index = Index(tmp / f"{name}.duckdb")
        cold, report = _timed(index.add_folder, DATA / name, progress=False)
        warm, _ = _timed(index.add_folder, DATA / name, progress=False)
        chunks = index.sql("SELECT count(*) AS n FROM chunks")["n"][0]
        out[name] = {
            "documents": len(report.added),
            "chunks": int(chunks),
            "index_cold_s": round(cold, 2),
            "reindex_unchanged_s": round(warm, 3),
        }
    return out


def file_tree(root: Path, files: int) -> list[str]:
    """`files` small .dat files, 25 per folder, two levels deep; returns their names."""
    names = []
    kinds = ["invoice", "report", "scan", "ledger", "export", "backup", "vendor", "payroll"]
    for i in range(files):
        folder = root / f"dept_{i // 2500:02d}" / f"batch_{i // 25 % 100:03d}"
        if i % 25 == 0:
            folder.mkdir(parents=True, exist_ok=True)
        name = f"{kinds[i % len(kinds)]}_{2015 + i % 10}_{i:06d}.dat"
        (folder / name).write_bytes(b"\x00fsnb-bench\x00")
        names.append(name)
    return names


def scan_and_names(tmp: Path, files: int, queries: int) -> dict[str, object]:
    import random

    from fsnb.index.bridge import find_files
    from fsnb.index.index import Index

    root = tmp / "tree"
    file_tree(root, files)
    index = Index(tmp / "scan.duckdb")
    cold, _ = _timed(index.add_folder, root, progress=False)
    warm, _ = _timed(index.add_folder, root, progress=False)
    counts = index.sql(
        "SELECT (SELECT count(*) FROM files) AS f, (SELECT count(*) FROM documents) AS d"
    )
    rng = random.Random(7)
    words = ["invoice", "report", "vendor", "ledger", "payroll", "2019", "2023", "backup", "dept"]
    patterns = [
        " ".join(rng.sample(words, rng.randint(1, 3))) if i % 4 else f"*{rng.choice(words)}*2021*"
        for i in range(queries)
    ]
    times = []
    with index.db.read() as con:
        for pattern in patterns:
            elapsed, _ = _timed(find_files, con, root, pattern, k=50)
            times.append(elapsed)
    return {
        "scan_50k_files": int(counts["f"][0]),
        "scan_50k_documents_parsed": int(counts["d"][0]),
        "scan_50k_s": round(cold, 2),
        "scan_50k_rescan_s": round(warm, 2),
        "name_search_queries": len(patterns),
        "name_search_p50_ms": _ms(times, 0.5),
        "name_search_p95_ms": _ms(times, 0.95),
    }


def _word(i: int) -> str:
    digits = []
    i += len(SYLLABLES)  # at least two syllables
    while i:
        i, r = divmod(i, len(SYLLABLES))
        digits.append(SYLLABLES[r])
    return "".join(digits)


def synthetic(store, chunks: int, vocab: int = 60_000, per_doc: int = 20, seed: int = 0):
    """Insert a corpus of `chunks` chunks; return (root, term probabilities, words)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    ranks = np.arange(STOPWORDS + 1, STOPWORDS + vocab + 1)
    prob = 1.0 / ranks**1.07
    prob /= prob.sum()
    lengths = rng.integers(100, 301, chunks)
    tokens = rng.choice(vocab, size=int(lengths.sum()), p=prob)
    chunk_of = np.repeat(np.arange(chunks, dtype=np.int64), lengths)
    keys, tf = np.unique(chunk_of * vocab + tokens, return_counts=True)
    chunk, term = np.divmod(keys, vocab)
    words = [_word(i) for i in range(vocab)]
    root = "/synthetic/corpus"
    with store.write() as con:
        sql = "INSERT INTO corpora (root, indexed_at) VALUES (?, current_timestamp) RETURNING id"
        cid = con.execute(sql, [root]).fetchone()[0]
        first = con.execute("SELECT coalesce(max(id), 0) + 1 FROM documents").fetchone()[0]
        docs = chunks // per_doc
        con.execute(
            "INSERT INTO documents (id, corpus_id, path, title, format, pages, chars, metadata)"
            " SELECT ? + i, ?, 'docs/doc_' || i || '.pdf', 'Document ' || i, 'pdf',"
            " 1 + i % 30, 0, json_object('max_amount', i * 7919 % 5000000,"
            " 'document_type', (['memo', 'agreement', 'report'])[1 + i % 3]) FROM range(?) r(i)",
            [first, cid, docs],
        )
        vocab_frame = pd.DataFrame({"tid": np.arange(vocab), "word": words})
        rows = pd.DataFrame(
            {
                "doc_id": (first + chunk // per_doc).astype(np.int32),
                "position": (chunk % per_doc).astype(np.int32),
                "tid": term.astype(np.int32),
                "tf": tf.astype(np.int32),
                "n_terms": lengths[chunk].astype(np.int32),
            }
        )
        con.register("vocab_frame", vocab_frame)
        con.register("rows", rows)
        con.execute(
            "INSERT INTO terms (doc_id, position, term, tf, corpus_id, n_terms)"
            " SELECT r.doc_id, r.position, v.word, r.tf, ?, r.n_terms FROM rows r"
            " JOIN vocab_frame v ON v.tid = r.tid ORDER BY r.doc_id, r.position",
            [cid],
        )
        con.execute(
            "INSERT INTO chunks SELECT doc_id, position, string_agg(term, ' '), 0, 0,"
            " 1 + position // 3, 'Section ' || position, any_value(n_terms) FROM terms"
            " WHERE doc_id >= ? GROUP BY doc_id, position ORDER BY doc_id, position",
            [first],
        )
        con.execute(
            "INSERT INTO schemas VALUES (?, 'document_type', 'string', ?, '[]'),"
            " (?, 'max_amount', 'number', ?, '[]')",
            [cid, docs, cid, docs],
        )
        con.unregister("rows")
        con.unregister("vocab_frame")
    return root, prob, words, len(keys)


def fts5(store, root: str, path: Path) -> sqlite3.Connection:
    """An SQLite FTS5 table over the same chunks: each term written `tf` times, so that
    both sides see the same term frequencies and chunk lengths."""
    con = sqlite3.connect(path)
    con.execute("CREATE VIRTUAL TABLE chunks USING fts5(text)")
    with store.read() as duck:
        cur = duck.execute(
            "SELECT string_agg(repeat(t.term || ' ', t.tf), '') FROM terms t"
            " JOIN documents d ON d.id = t.doc_id JOIN corpora c ON c.id = d.corpus_id"
            " WHERE c.root = ? GROUP BY t.doc_id, t.position ORDER BY t.doc_id, t.position",
            [root],
        )
        while batch := cur.fetchmany(10_000):
            con.executemany("INSERT INTO chunks (text) VALUES (?)", batch)
    con.commit()
    return con


def fts5_search(con: sqlite3.Connection, query: str, k: int = 10) -> list[tuple]:
    """FTS5's BM25 (any of the query's words), best first, with each chunk's text."""
    match = " OR ".join(f'"{word}"' for word in dict.fromkeys(query.split()))
    sql = "SELECT rowid, bm25(chunks), text FROM chunks WHERE chunks MATCH ? ORDER BY rank LIMIT ?"
    return con.execute(sql, [match, k]).fetchall()


def search_speed(tmp: Path, chunks: int, queries: int) -> dict[str, object]:
    """BM25 through fsnb's search path and FTS5 over the same chunks and queries."""
    import numpy as np

    from fsnb.db.database import database
    from fsnb.index.bm25 import bm25
    from fsnb.index.search import search
    from fsnb.index.writer import cluster_terms

    store = database(tmp / f"search-{chunks}.duckdb")
    build, (root, prob, words, rows) = _timed(synthetic, store, chunks)
    cluster, _ = _timed(cluster_terms, store, force=True)
    fts_build, lite = _timed(fts5, store, root, tmp / f"fts5-{chunks}.sqlite")
    rng = np.random.default_rng(1)
    texts = [
        " ".join(words[i] for i in rng.choice(len(words), size=rng.integers(2, 6), p=prob))
        for _ in range(queries)
    ]
    opened = []
    for _ in range(10):
        elapsed, _ = _timed(lambda: store.read().__enter__().close())
        opened.append(elapsed)
    search(store, root, texts[0], mode="bm25")  # warm the buffer pool and the caches
    fts5_search(lite, texts[0])
    # Interleaved, so that the machine's load weighs on both sides alike.
    through_store, held, lite_times, filtered = [], [], [], []
    with store.read() as con:
        for q in texts:
            through_store.append(_timed(search, store, root, q, k=10, mode="bm25")[0])
            held.append(_timed(search, con, root, q, k=10, mode="bm25")[0])
            lite_times.append(_timed(fts5_search, lite, q)[0])
        for q in texts[:50]:
            expr = "document_type=agreement and max_amount>=1000000"
            filtered.append(_timed(bm25, con, root, q, k=10, filter=expr)[0])
    lite.close()
    n = f"{chunks // 1000}k"
    return {
        f"bm25_{n}_terms_rows": rows,
        f"bm25_{n}_build_s": round(build, 1),
        f"bm25_{n}_cluster_terms_s": round(cluster, 1),
        f"bm25_{n}_queries": len(texts),
        f"bm25_{n}_p50_ms": _ms(through_store, 0.5),
        f"bm25_{n}_p95_ms": _ms(through_store, 0.95),
        f"bm25_{n}_held_p50_ms": _ms(held, 0.5),
        f"bm25_{n}_held_p95_ms": _ms(held, 0.95),
        f"bm25_{n}_filtered_p50_ms": _ms(filtered, 0.5),
        f"fts5_{n}_p50_ms": _ms(lite_times, 0.5),
        f"fts5_{n}_p95_ms": _ms(lite_times, 0.95),
        f"fts5_{n}_build_s": round(fts_build, 1),
        f"db_open_{n}_ms": _ms(opened, 0.5),
        f"db_{n}_mb": round(store.path.stat().st_size / 2**20, 1),
    }


def main() -> None:
    quick = "--quick" in sys.argv
    only_search = "--search" in sys.argv
    began = time.perf_counter()
    result: dict[str, object] = {"machine": machine()}
    with tempfile.TemporaryDirectory(prefix="fsnb-bench-") as name:
        tmp = Path(name)
        if not quick and not only_search:
            result["corpora"] = sample_corpora(tmp)
        if not only_search:
            result.update(scan_and_names(tmp, 5_000 if quick else 50_000, 200))
        for chunks in (10_000, 100_000):
            result.update(search_speed(tmp, chunks, 200))
    result["total_s"] = round(time.perf_counter() - began, 1)
    result["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
