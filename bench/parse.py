"""Parsing and scanning speed over the sample corpora; prints one JSON object.

scan_cold_s / scan_warm_s: wall time of `scan_folder` over data/large_acquisition with an
empty and then a filled parse cache, in a process where Docling is already imported
(its one-off import and set-up time is reported apart as `docling_startup_s`), beside
`pypdfium2_text_s`, PDFium's plain text of every page of the same 25 PDFs.
Per corpus: documents parsed per second cold and warm, and megabytes per second cold.
`index_cold_docs_per_s`: `Index.add_folder` of data/large_acquisition with an empty cache
and database on a pool of 1 and of N worker processes, started beforehand (`pool_start_s`).

    .venv/bin/python bench/parse.py
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
DATA = Path(__file__).resolve().parent.parent / "data"
CORPORA = ["test_acquisition", "large_acquisition", "mixed"]


def _fresh_cache() -> str:
    path = tempfile.mkdtemp(prefix="fsnb-bench-cache-")
    os.environ["FSNB_CACHE_DIR"] = path
    return path


def _timed(func, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return time.perf_counter() - start, result


def _pdfium_text(files: list[Path]) -> None:
    import pypdfium2

    for file in files:
        pdf = pypdfium2.PdfDocument(file)
        for page in pdf:
            page.get_textpage().get_text_range()
        pdf.close()


def _indexing(workers: int) -> dict[str, float]:
    from fsnb.documents.workers import process_pool
    from fsnb.index.index import Index

    start, pool = _timed(process_pool, workers)
    _fresh_cache()
    folder = DATA / "large_acquisition"
    with tempfile.TemporaryDirectory() as tmp:
        index = Index(Path(tmp) / "bench.duckdb")
        elapsed, report = _timed(index.add_folder, folder, progress=False, executor=pool)
    return {
        "pool_start_s": round(start, 2),
        "index_cold_s": round(elapsed, 2),
        "index_cold_docs_per_s": round(len(report.added) / elapsed, 2),
    }


def main() -> None:
    from fsnb.documents import document_files, parse
    from fsnb.documents.batch import default_workers, parse_many
    from fsnb.errors import ParseError
    from fsnb.security import Sandbox
    from fsnb.tools import scan_folder

    _fresh_cache()
    with tempfile.TemporaryDirectory() as tmp:
        sample = Path(tmp) / "warmup.pdf"
        sample.write_bytes((DATA / "test_acquisition" / "07_nda.pdf").read_bytes())
        startup, _ = _timed(parse, sample, cache=False)

    _fresh_cache()
    root = str(DATA / "large_acquisition")
    scan_cold, _ = _timed(scan_folder, root=root)
    scan_warm, _ = _timed(scan_folder, root=root)
    pdfs = sorted((DATA / "large_acquisition").glob("*.pdf"))
    pdfium, _ = _timed(_pdfium_text, pdfs)
    workers = max(2, default_workers())
    indexing = {"1": _indexing(1), str(workers): _indexing(workers)}
    rates = [run["index_cold_docs_per_s"] for run in indexing.values()]

    corpora = {}
    for name in CORPORA:
        box = Sandbox(DATA / name)
        files = document_files(box)
        size_mb = sum(f.stat().st_size for f in files) / 2**20
        _fresh_cache()
        cold, results = _timed(lambda fs=files: list(parse_many(fs)))
        warm, _ = _timed(lambda fs=files: list(parse_many(fs)))
        parsed = sum(not isinstance(r, ParseError) for _, r in results)
        corpora[name] = {
            "files": len(files),
            "parsed": parsed,
            "failed": len(files) - parsed,
            "mb": round(size_mb, 3),
            "cold_s": round(cold, 3),
            "warm_s": round(warm, 4),
            "cold_docs_per_s": round(len(files) / cold, 1),
            "warm_docs_per_s": round(len(files) / warm, 1),
            "cold_mb_per_s": round(size_mb / cold, 3),
        }
    print(
        json.dumps(
            {
                "machine": {"cpus": os.cpu_count(), "workers": default_workers(),
                            "python": sys.version.split()[0]},
                "docling_startup_s": round(startup, 3),
                "scan_cold_s": round(scan_cold, 3),
                "scan_warm_s": round(scan_warm, 4),
                "pypdfium2_text_s": round(pdfium, 3),
                "indexing_by_workers": indexing,
                "index_speedup": round(rates[1] / rates[0], 2),
                "targets": {"scan_cold_s": 0.5, "scan_warm_s": 0.05, "index_speedup": 1.8},
                "corpora": corpora,
            },
            indent=2,
        )
    )  # fmt: skip


if __name__ == "__main__":
    main()
