"""Parsing and scanning speed over the sample corpora; prints one JSON object.

scan_cold_s / scan_warm_s: wall time of `scan_folder` over data/large_acquisition with an
empty and then a filled parse cache, in a process where Docling is already imported
(its one-off import and set-up time is reported apart as `docling_startup_s`), beside
`pypdfium2_text_s`, PDFium's plain text of every page of the same 25 PDFs.
`mixed_scan_cold_s`: `scan_folder` over a mixed-format folder (data/large_acquisition's 25
PDFs, and `MIXED_COPIES` copies of every DOCX, PPTX, XLSX, HTML, Markdown, CSV and text
sample under data/, built in a temporary folder) in a fresh process that has imported fsnb
and pypdfium2 but nothing else a scan loads on its first use (its modules compiled, as
installed), with an empty parse cache; beside it, in the same process,
`mixed_raw_extract_s`: the plain text of every file by the lightest means (PDFium's text
of every page, an OOXML file's XML parts with their tags stripped by a regex, a text file
read and decoded), `mixed_scan_vs_raw` their ratio (target: 3 or less; the median of
`MIXED_RUNS` processes), and `docling_imported_by_scan` (target: false): whether the scan
imported Docling, or started the worker processes that import it to parse.
Per corpus: documents parsed per second cold and warm, and megabytes per second cold.
`index_cold_docs_per_s`: `Index.add_folder` of data/large_acquisition with an empty cache
and database on a pool of 1 and of N worker processes, each started beforehand
(`pool_start_s`: spawning the workers and their imports) and warmed by indexing
data/test_acquisition (`warmup_s`: each worker's first converter, this process's first
index), so that both runs do the same work from the same state. Runs alternate between the
pools, `INDEX_RUNS` each, and the median is reported, with this process's CPU seconds
(`parent_cpu_s`: what the writing process does besides waiting). One worker is not one
core: Docling parses on threads of its own, and this process writes meanwhile; so the pool
of 1 also runs with itself and this process held to one CPU (`one_cpu`, Linux), and
`index_speedup_vs_one_cpu` compares N workers with that.

    .venv/bin/python bench/parse.py                 # everything
    .venv/bin/python bench/parse.py --mixed-only    # the mixed-format scan alone
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from contextlib import suppress
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
DATA = Path(__file__).resolve().parent.parent / "data"
CORPORA = ["test_acquisition", "large_acquisition", "mixed"]
INDEX_RUNS = 3
MIXED_COPIES = 4
MIXED_RUNS = 3
_TAGS = re.compile(rb"<[^>]+>")


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


def _mixed_folder(root: Path) -> Path:
    """data/large_acquisition's PDFs and `MIXED_COPIES` copies of every other sample
    document under data/ (not images: OCR is not a text extraction), under `root`."""
    from fsnb.documents import document_files
    from fsnb.security import Sandbox

    for pdf in sorted((DATA / "large_acquisition").glob("*.pdf")):
        shutil.copyfile(pdf, root / pdf.name)
    corpora = sorted(p for p in DATA.iterdir() if p.is_dir() and not p.name.startswith("_"))
    others = [
        (corpus, file)
        for corpus in corpora
        for file in document_files(Sandbox(corpus))
        if file.suffix.lower() in (".docx", ".pptx", ".xlsx", ".html", ".md", ".csv", ".txt")
    ]
    for copy in range(MIXED_COPIES):
        for corpus, file in others:
            target = root / f"copy{copy}" / corpus.name / file.relative_to(corpus)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, target)
    return root


def _raw_text(files: list[Path]) -> int:
    """The plain text of `files` by the lightest means; how many characters."""
    import pypdfium2

    size = 0
    for file in files:
        suffix = file.suffix.lower()
        if suffix == ".pdf":
            pdf = pypdfium2.PdfDocument(file)
            for page in pdf:
                size += len(page.get_textpage().get_text_range())
            pdf.close()
        elif suffix in (".docx", ".pptx", ".xlsx"):
            with zipfile.ZipFile(file) as archive:
                for name in archive.namelist():
                    if name.endswith(".xml"):
                        size += len(_TAGS.sub(b" ", archive.read(name)).decode("utf-8", "replace"))
        else:
            size += len(file.read_bytes().decode("utf-8", "replace"))
    return size


def _mixed_child(folder: str) -> None:
    """In a fresh process: the raw extraction of `folder`, then its cold scan (prints JSON)."""
    import pypdfium2

    from fsnb.tools import scan_folder

    _fresh_cache()
    files = sorted(p for p in Path(folder).rglob("*") if p.is_file())
    for file in files:  # both runs read files the OS has cached
        file.read_bytes()
    pypdfium2.PdfDocument(next(f for f in files if f.suffix == ".pdf")).close()
    raw, _ = _timed(_raw_text, files)
    scan, outcome = _timed(scan_folder, root=folder)
    # Docling here, or in worker processes this scan started (each imports it as it starts)
    workers = multiprocessing.active_children()
    docling = bool(workers) or any(
        m.split(".")[0] in ("docling", "docling_core") for m in sys.modules
    )
    print(json.dumps({
        "files": len(files),
        "previewed": int(re.search(r"(\d+) documents previewed", str(outcome)).group(1)),
        "raw_s": raw,
        "scan_s": scan,
        "docling": docling,
        "workers": len(workers),
    }))  # fmt: skip


def _mixed() -> dict[str, object]:
    """`MIXED_RUNS` fresh processes scanning the mixed folder cold; the median run. One
    run before them, not counted, leaves compiled bytecode for their imports to read, as
    an installed package has it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="fsnb-bench-mixed-") as tmp:
        folder = _mixed_folder(Path(tmp))
        runs = []
        for _ in range(MIXED_RUNS + 1):
            out = subprocess.run(
                [sys.executable, __file__, "--mixed-child", str(folder)],
                capture_output=True, text=True, check=True, env=env,
            )  # fmt: skip
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        runs = runs[1:]
    median = sorted(runs, key=lambda r: r["scan_s"])[len(runs) // 2]
    return {
        "mixed_files": median["files"],
        "mixed_previewed": median["previewed"],
        "mixed_scan_cold_s": round(median["scan_s"], 3),
        "mixed_raw_extract_s": round(median["raw_s"], 3),
        "mixed_scan_vs_raw": round(median["scan_s"] / median["raw_s"], 2),
        "mixed_runs_s": [round(r["scan_s"], 3) for r in runs],
        "docling_imported_by_scan": any(r["docling"] for r in runs),
    }


def _pool(workers: int) -> tuple[object, dict[str, float]]:
    """A started pool of `workers` processes, warmed by one index run, and how long each
    step took."""
    from fsnb.documents.workers import process_pool

    start, pool = _timed(process_pool, workers, preload=["fsnb.index.writer"])  # as indexing
    warmup = _index_once(pool, DATA / "test_acquisition")["index_cold_s"]
    return pool, {"pool_start_s": round(start, 2), "warmup_s": round(warmup, 2)}


def _index_once(pool: object, folder: Path, *, one_cpu: bool = False) -> dict[str, float]:
    """Index `folder` on `pool` with an empty cache and database (with `one_cpu`, this
    process and the pool's held to one CPU)."""
    from fsnb.index.index import Index

    _fresh_cache()
    pids = [os.getpid(), *pool.pids()] if one_cpu else []  # type: ignore[attr-defined]
    held = _hold(pids, min(os.sched_getaffinity(0)))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            index = Index(Path(tmp) / "bench.duckdb")
            cpu = time.process_time()
            elapsed, report = _timed(index.add_folder, folder, progress=False, executor=pool)
            cpu = time.process_time() - cpu
    finally:  # threads started meanwhile get their process's CPUs
        for pid, tid in _threads(pids):
            with suppress(OSError):  # a thread that ended meanwhile
                os.sched_setaffinity(tid, held.get(tid, held[pid]))
    return {"index_cold_s": elapsed, "docs": len(report.added), "parent_cpu_s": cpu}


def _threads(pids: list[int]) -> list[tuple[int, int]]:
    """(process, thread) ids of every thread of `pids` (Linux)."""
    return [(pid, int(tid.name)) for pid in pids for tid in Path(f"/proc/{pid}/task").iterdir()]


def _hold(pids: list[int], cpu: int) -> dict[int, set[int]]:
    """Hold every thread of `pids` to `cpu` (threads started later inherit it); return
    each one's CPUs before."""
    held = {tid: os.sched_getaffinity(tid) for _, tid in _threads(pids)}
    for tid in held:
        os.sched_setaffinity(tid, {cpu})
    return held


def _indexing(workers: int) -> dict[str, dict[str, float]]:
    """For a pool of 1 on one CPU, of 1 and of `workers`: start-up, then the median of
    `INDEX_RUNS` cold runs, alternating between them so that all see the same machine."""
    pools = {n: _pool(n) for n in (1, workers)}
    kinds = {"one_cpu": 1, "1": 1, str(workers): workers}
    if not hasattr(os, "sched_setaffinity"):
        del kinds["one_cpu"]
    runs: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
    for _ in range(INDEX_RUNS):
        for kind, n in kinds.items():
            pool = pools[n][0]
            one = kind == "one_cpu"
            runs[kind].append(_index_once(pool, DATA / "large_acquisition", one_cpu=one))
    out = {}
    for kind, n in kinds.items():
        median = sorted(runs[kind], key=lambda r: r["index_cold_s"])[len(runs[kind]) // 2]
        out[kind] = {
            **pools[n][1],
            "index_cold_s": round(median["index_cold_s"], 2),
            "index_cold_docs_per_s": round(median["docs"] / median["index_cold_s"], 2),
            "parent_cpu_s": round(median["parent_cpu_s"], 2),
            "runs_s": [round(r["index_cold_s"], 2) for r in runs[kind]],
        }
    return out


def main() -> None:
    from fsnb.documents import document_files, parse
    from fsnb.documents.batch import default_workers, parse_many
    from fsnb.errors import ParseError
    from fsnb.security import Sandbox
    from fsnb.tools import scan_folder

    mixed = _mixed()  # first: its processes start from nothing this one has loaded
    if "--mixed-only" in sys.argv:
        print(json.dumps(mixed, indent=2))
        return
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
    indexing = _indexing(workers)
    rate = {kind: run["index_cold_docs_per_s"] for kind, run in indexing.items()}

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
                **mixed,
                "indexing_by_workers": indexing,
                "index_speedup": round(rate[str(workers)] / rate["1"], 2),
                "index_speedup_vs_one_cpu": (
                    round(rate[str(workers)] / rate["one_cpu"], 2) if "one_cpu" in rate else None
                ),
                "targets": {"scan_cold_s": 0.5, "scan_warm_s": 0.05, "index_speedup": 1.8,
                            "mixed_scan_vs_raw": 3.0, "docling_imported_by_scan": False},
                "corpora": corpora,
            },
            indent=2,
        )
    )  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1:2] == ["--mixed-child"]:
        _mixed_child(sys.argv[2])
    else:
        main()
