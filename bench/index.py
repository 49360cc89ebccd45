"""Indexing and search speed; prints one JSON object.

Per sample corpus: `index_cold_s` (empty database, empty parse cache) and
`reindex_unchanged_s` (the same `add_folder` again: nothing changed).

`scan_50k_s`: `Index.add_folder` over a synthetic tree of 50,000 small `.dat` files in
nested folders. `.dat` is not a document type, so nothing is parsed: the time is the
walk (with the sensitive-file policy), the stats and the `files` table. The tree is built
before the clock starts; `scan_50k_rescan_s` is the second, unchanged scan.
`name_search_p50_ms`: `find_files` over those 50,000 files (keywords and globs).

`search` (one entry per size: 10,000, 100,000 and 1,000,000 synthetic chunks): BM25
through `fsnb.index.search.search(store, ..., mode="bm25")`, what `Index.search` calls,
ranked by the tantivy engine (`engine_*`) and by the SQL ranking it replaced, still the
fallback (`sql_*`, with `FSNB_BM25_ENGINE=sql`), beside SQLite FTS5 (`fts5_*`) over the
same chunks and queries, all timed in one interleaved loop. Documents, chunks and terms
rows are generated with numpy and inserted directly (as the pipeline writes them, in
document order, 50,000 chunks a transaction), then `cluster_terms` sorts `terms` by term.
Terms follow a Zipf law (s = 1.07) over 60,000 pseudo-words whose 150 most frequent are
dropped as stopwords (as `fsnb.text.words.tokenize` drops them); chunks hold 100-300 terms
(~195 distinct), 20 to a document, and each terms row carries its corpus and chunk length
(as `fsnb.index.writer.write` writes them). Queries are 2-5 terms drawn from the same law.

- `*_p50_ms` / `*_p95_ms`: the call through the `Database` (it attaches the file, whose
  share alone is `db_open_ms`, unless the engine answers without it: the file unchanged
  since it was found up to date); `*_held_*`: on a connection already open, as the
  `semantic_search` tool makes it; `*_filtered_p50_ms`: `bm25` with a metadata filter
  (`document_type=agreement and max_amount>=1000000`, ~27% of the documents). All return
  the chunks' text and highlights (secret values masked) in a DataFrame. At a million
  chunks the SQL ranking answers the first `SQL_QUERIES` queries only (~0.1 s each).
- `fts5_*`: SQLite FTS5 (standard library) over each chunk's terms as fsnb indexed them,
  each written tf times (the same term frequencies and chunk lengths), queried with any of
  the query's words, ranked by its `bm25` and returning the text.
- `engine_build_s`: the engine built from the DuckDB file (`fsnb.index.derived.refresh`,
  from an empty folder); `engine_mb`, `db_mb`, `fts5_mb`: their sizes on disk;
  `top10_overlap_engine_sql`: the share of SQL's top 10 that the engine's top 10 holds
  (they differ by the engine's stored chunk lengths, `fsnb.index.engine`).
- The corpora and the FTS5 tables are built once and kept in `FSNB_BENCH_CACHE` (default
  ~/.cache/fsnb-bench/index-v1): `generate_s`, `cluster_terms_s` and `fts5_build_s` are
  from that build (`cached` says whether this run reused it). DuckDB is held to
  `DUCKDB_MEMORY`; `peak_rss_mb` is the process' peak so far.

    .venv/bin/python bench/index.py [--quick] [--search] [--sizes 10000,100000,1000000]

`--search` runs only the BM25 part; `--quick`: a smaller file tree, sizes 10k and 100k.
"""

from __future__ import annotations

import json
import os
import platform
import resource
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
VOCAB = 60_000
ROOT = "/synthetic/corpus"
SIZES = (10_000, 100_000, 1_000_000)
QUERIES = 200
#: Queries the SQL ranking answers at a size (it takes ~0.1 s a query at a million chunks).
SQL_QUERIES = {1_000_000: 100}
#: The synthetic corpora's layout in the cache; a new number builds them again.
CACHE_LAYOUT = 1
DUCKDB_MEMORY = "3GB"


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


def zipf(vocab: int = VOCAB) -> tuple[object, list[str]]:
    """The synthetic vocabulary: term probabilities (Zipf, s = 1.07, the 150 most frequent
    dropped as stopwords) and the words."""
    import numpy as np

    ranks = np.arange(STOPWORDS + 1, STOPWORDS + vocab + 1)
    prob = 1.0 / ranks**1.07
    return prob / prob.sum(), [_word(i) for i in range(vocab)]


def synthetic(store, chunks: int, per_doc: int = 20, seed: int = 0, batch: int = 50_000) -> int:
    """Insert a corpus of `chunks` chunks under `ROOT`, `batch` chunks a transaction (so
    that a million stays within memory); returns the terms rows written."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    prob, words = zipf()
    cdf = np.cumsum(prob)
    vocab_frame = pd.DataFrame({"tid": np.arange(len(words)), "word": words})
    with store.write() as con:
        sql = "INSERT INTO corpora (root, indexed_at) VALUES (?, current_timestamp) RETURNING id"
        cid = con.execute(sql, [ROOT]).fetchone()[0]
        first = con.execute("SELECT coalesce(max(id), 0) + 1 FROM documents").fetchone()[0]
        docs = chunks // per_doc
        con.execute(
            "INSERT INTO documents (id, corpus_id, path, title, format, pages, chars, metadata)"
            " SELECT ? + i, ?, 'docs/doc_' || i || '.pdf', 'Document ' || i, 'pdf',"
            " 1 + i % 30, 0, json_object('max_amount', i * 7919 % 5000000,"
            " 'document_type', (['memo', 'agreement', 'report'])[1 + i % 3]) FROM range(?) r(i)",
            [first, cid, docs],
        )
        con.execute(
            "INSERT INTO schemas VALUES (?, 'document_type', 'string', ?, '[]'),"
            " (?, 'max_amount', 'number', ?, '[]')",
            [cid, docs, cid, docs],
        )
    rows = 0
    for lo in range(0, chunks, batch):
        n = min(batch, chunks - lo)
        lengths = rng.integers(100, 301, n)
        tokens = np.searchsorted(cdf, rng.random(int(lengths.sum())), side="right")
        tokens = tokens.clip(0, len(words) - 1)
        chunk_of = np.repeat(np.arange(lo, lo + n, dtype=np.int64), lengths)
        keys, tf = np.unique(chunk_of * len(words) + tokens, return_counts=True)
        chunk, term = np.divmod(keys, len(words))
        frame = pd.DataFrame(
            {
                "doc_id": (first + chunk // per_doc).astype(np.int32),
                "position": (chunk % per_doc).astype(np.int32),
                "tid": term.astype(np.int32),
                "tf": tf.astype(np.int32),
                "n_terms": lengths[chunk - lo].astype(np.int32),
            }
        )
        rows += len(frame)
        with store.write() as con:
            con.register("vocab_frame", vocab_frame)
            con.register("rows", frame)
            con.execute(
                "INSERT INTO terms (doc_id, position, term, tf, corpus_id, n_terms)"
                " SELECT r.doc_id, r.position, v.word, r.tf, ?, r.n_terms FROM rows r"
                " JOIN vocab_frame v ON v.tid = r.tid ORDER BY r.doc_id, r.position",
                [cid],
            )
            con.execute(
                "INSERT INTO chunks (doc_id, position, text, start_char, end_char, page, heading,"
                " n_terms) SELECT doc_id, position, string_agg(term, ' '), 0, 0,"
                " 1 + position // 3, 'Section ' || position, any_value(n_terms) FROM terms"
                " WHERE doc_id BETWEEN ? AND ? GROUP BY doc_id, position"
                " ORDER BY doc_id, position",
                [first + lo // per_doc, first + (lo + n - 1) // per_doc],
            )
            con.unregister("rows")
            con.unregister("vocab_frame")
    return rows


def fts5(store, cid: int, path: Path) -> None:
    """An SQLite FTS5 table over the same chunks: each one's terms as fsnb indexed them,
    each written `tf` times (what fsnb's engine indexes), so that both sides see the same
    term frequencies and chunk lengths. Read in batches of documents."""
    from fsnb.index.derived import BATCH_CHUNKS
    from fsnb.index.sync import chunk_rows

    con = sqlite3.connect(path)
    con.execute("CREATE VIRTUAL TABLE chunks USING fts5(text)")
    with store.read() as duck:
        ids = [r[0] for r in duck.execute("SELECT id FROM documents WHERE corpus_id = ?"
                                          " ORDER BY id", [cid]).fetchall()]  # fmt: skip
    step = max(1, BATCH_CHUNKS // 20)
    for lo in range(0, len(ids), step):
        with store.read() as duck:
            rows = chunk_rows(duck, cid, ids[lo : lo + step])
        con.executemany("INSERT INTO chunks (text) VALUES (?)", [(r[2],) for r in rows])
    con.commit()
    con.close()


def fts5_search(con: sqlite3.Connection, query: str, k: int = 10) -> list[tuple]:
    """FTS5's BM25 (any of the query's words), best first, with each chunk's text."""
    match = " OR ".join(f'"{word}"' for word in dict.fromkeys(query.split()))
    sql = "SELECT rowid, bm25(chunks), text FROM chunks WHERE chunks MATCH ? ORDER BY rank LIMIT ?"
    return con.execute(sql, [match, k]).fetchall()


def _mb(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return round(sum(p.stat().st_size for p in files) / 2**20, 1)


def _corpus_data(cache: Path, chunks: int) -> tuple[dict[str, object], Path, Path]:
    """The DuckDB file and FTS5 table of `chunks` synthetic chunks, built once into
    `cache` (with their build times)."""
    from fsnb.db.database import database
    from fsnb.index.writer import cluster_terms

    db, lite = cache / f"search-{chunks}.duckdb", cache / f"fts5-{chunks}.sqlite"
    meta_path = cache / f"search-{chunks}.json"
    if meta_path.exists() and db.exists() and lite.exists():
        return {**json.loads(meta_path.read_text()), "cached": True}, db, lite
    for stale in (db, lite, db.with_name(db.name + ".wal")):
        stale.unlink(missing_ok=True)
    store = database(db)
    generate, rows = _timed(synthetic, store, chunks)
    cluster, _ = _timed(cluster_terms, store, force=True)
    with store.read() as con:
        cid = con.execute("SELECT id FROM corpora WHERE root = ?", [ROOT]).fetchone()[0]
    fts_build, _ = _timed(fts5, store, cid, lite)
    meta = {
        "terms_rows": rows,
        "generate_s": round(generate, 1),
        "cluster_terms_s": round(cluster, 1),
        "fts5_build_s": round(fts_build, 1),
    }
    meta_path.write_text(json.dumps(meta))
    return {**meta, "cached": False}, db, lite


def _queries(n: int) -> list[str]:
    import numpy as np

    prob, words = zipf()
    rng = np.random.default_rng(1)
    return [
        " ".join(words[i] for i in rng.choice(len(words), size=rng.integers(2, 6), p=prob))
        for _ in range(n)
    ]


def _engine(on: bool) -> None:
    if on:
        os.environ.pop("FSNB_BM25_ENGINE", None)
    else:
        os.environ["FSNB_BM25_ENGINE"] = "sql"


def search_speed(cache: Path, chunks: int, queries: int) -> dict[str, object]:
    """fsnb's BM25 (the engine and the SQL ranking) and FTS5 over the same chunks and
    queries, timed in one interleaved loop."""
    import shutil

    from fsnb.db.database import database
    from fsnb.index import derived
    from fsnb.index.bm25 import bm25
    from fsnb.index.search import search

    out, db, lite_path = _corpus_data(cache, chunks)
    store = database(db)
    shutil.rmtree(db.with_name(db.name + ".bm25"), ignore_errors=True)
    derived._open.clear()
    _engine(True)
    build, ready = _timed(derived.refresh, store, ROOT)
    assert ready, "the engine did not come up"
    lite = sqlite3.connect(lite_path)
    texts = _queries(queries)
    opened = []
    for _ in range(10):
        elapsed, _ = _timed(lambda: store.read().__enter__().close())
        opened.append(elapsed)
    expr = "document_type=agreement and max_amount>=1000000"
    times: dict[str, list[float]] = {}
    overlap = []
    with store.read() as con:
        for on in (False, True):  # warm the buffer pool, the caches and the filter's ids
            _engine(on)
            search(store, ROOT, texts[0], mode="bm25")
            bm25(con, ROOT, texts[0], k=10, filter=expr)
        fts5_search(lite, texts[0])
        # Interleaved, so that the machine's load weighs on every side alike.
        for i, q in enumerate(texts):
            top = {}
            for name, on in (("sql", False), ("engine", True)):
                _engine(on)
                if name == "engine" or i < SQL_QUERIES.get(chunks, queries):
                    elapsed, hits = _timed(search, store, ROOT, q, k=10, mode="bm25")
                    times.setdefault(f"{name}", []).append(elapsed)
                    top[name] = set(zip(hits["path"], hits["position"], strict=True))
                    elapsed, _ = _timed(search, con, ROOT, q, k=10, mode="bm25")
                    times.setdefault(f"{name}_held", []).append(elapsed)
                if i < 50:
                    elapsed, _ = _timed(bm25, store, ROOT, q, k=10, filter=expr)
                    times.setdefault(f"{name}_filtered", []).append(elapsed)
            times.setdefault("fts5", []).append(_timed(fts5_search, lite, q)[0])
            if len(top) == 2 and top["sql"]:
                overlap.append(len(top["sql"] & top["engine"]) / len(top["sql"]))
    _engine(True)
    lite.close()
    out.update(
        {
            "chunks": chunks,
            "queries": len(texts),
            "engine_build_s": round(build, 1),
            "engine_mb": _mb(db.with_name(db.name + ".bm25")),
            "db_mb": _mb(db),
            "fts5_mb": _mb(lite_path),
            "db_open_ms": _ms(opened, 0.5),
            "top10_overlap_engine_sql": round(sum(overlap) / max(1, len(overlap)), 3),
        }
    )
    for name, samples in times.items():
        out[f"{name}_p50_ms"] = _ms(samples, 0.5)
        if not name.endswith("filtered"):
            out[f"{name}_p95_ms"] = _ms(samples, 0.95)
    out["engine_ahead_of_fts5"] = out["engine_p50_ms"] < out["fts5_p50_ms"]
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def bench_cache() -> Path:
    """Where the synthetic corpora are kept between runs (`FSNB_BENCH_CACHE`, else
    ~/.cache/fsnb-bench/index)."""
    default = Path.home() / ".cache" / "fsnb-bench" / f"index-v{CACHE_LAYOUT}"
    path = Path(os.environ.get("FSNB_BENCH_CACHE") or default)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _limit_duckdb(tmp: Path) -> None:
    """Keep DuckDB within a shared machine's means (it would take 80% of the memory)."""
    from fsnb.db.engine import current

    con = current().cursor()
    con.execute(f"SET memory_limit = '{DUCKDB_MEMORY}'")
    con.execute(f"SET temp_directory = '{tmp}'")


def _sizes() -> list[int]:
    for i, arg in enumerate(sys.argv):
        if arg.startswith("--sizes"):
            value = arg.partition("=")[2] or sys.argv[i + 1]
            return [int(v.replace("_", "")) for v in value.split(",")]
    return [10_000, 100_000] if "--quick" in sys.argv else list(SIZES)


def main() -> None:
    quick = "--quick" in sys.argv
    only_search = "--search" in sys.argv
    began = time.perf_counter()
    result: dict[str, object] = {"machine": machine()}
    with tempfile.TemporaryDirectory(prefix="fsnb-bench-") as name:
        tmp = Path(name)
        _limit_duckdb(tmp)
        if not quick and not only_search:
            result["corpora"] = sample_corpora(tmp)
        if not only_search:
            result.update(scan_and_names(tmp, 5_000 if quick else 50_000, 200))
        cache = bench_cache()
        result["search"] = {str(n): search_speed(cache, n, QUERIES) for n in _sizes()}
    result["total_s"] = round(time.perf_counter() - began, 1)
    result["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
