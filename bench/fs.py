"""File-index speed against `find` and `du`, measured in the same run; prints one JSON object.

A synthetic tree of `--files` small files (default 50,000) in nested folders, with mixed
extensions that are not documents (images, archives, binaries, data), plus `--documents`
tiny `.txt` files (default 0), is built in a temporary folder before any clock starts.

- `find_s`: `find DIR -printf '%p %s %T@\\n'` (the reference);
- `index_cold_s`: `Index(new db).add_folder(DIR)`: walk, policy, stats, `files` table;
- `rescan_s`: the same `add_folder` again over the unchanged tree;
- `du_s`: `du -sb DIR`;
- `find_files_p50_ms`: the `find_files` tool by exact name, glob and words over the indexed
  tree (each query `--repeat` x 5 times); `disk_usage_s`: the `disk_usage` tool over the whole
  indexed tree (best of `--repeat`), beside `du_s`; `tree_ms`: `tree` of the root to depth 2;
  `disk_usage_walk_s` and `tree_walk_ms`: the same tools on the folder when it is not indexed;
- `peak_rss_mb` (the process' maximum resident size) and `index_peak_traced_mb` (Python
  allocations during the cold index, by tracemalloc, measured in a separate run so that
  tracing does not slow the timed one).

Targets: `index_cold_s <= 3 * find_s`, `rescan_s <= 2 * find_s`, `find_files_p50_ms <= 10`,
`disk_usage_s <= 1.5 * du_s`, `tree_ms <= 100`.

    .venv/bin/python bench/fs.py [--files 50000] [--documents 0] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

EXTENSIONS = [
    ".dat", ".bin", ".png", ".jpg", ".gif", ".zip", ".gz", ".parquet", ".mp3", ".mp4",
    ".wav", ".o", ".so", ".pyc", ".sqlite", ".xls", ".iso", ".psd", ".woff", ".ttf",
]  # fmt: skip
NAMES = ["invoice", "report", "scan", "ledger", "export", "backup", "vendor", "payroll"]


def build_tree(root: Path, files: int, documents: int) -> None:
    """`files` small files, 20 per folder, three levels deep; then `documents` .txt files."""
    for i in range(files):
        area, team, batch = i // 4000, i // 400 % 10, i // 20 % 20
        folder = root / f"area_{area:02d}" / f"team_{team}" / f"set_{batch:02d}"
        if i % 20 == 0:
            folder.mkdir(parents=True, exist_ok=True)
        ext = EXTENSIONS[i * 7 % len(EXTENSIONS)]
        (folder / f"{NAMES[i % len(NAMES)]}_{2015 + i % 10}_{i:06d}{ext}").write_bytes(
            b"\x00fsnb-bench\x00" * (1 + i % 5)
        )
    for i in range(documents):
        folder = root / "notes" / f"n{i // 50:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note_{i:05d}.txt").write_text(f"Note {i}: a short text about vendor {i % 97}.")


def _best(command: list[str], repeat: int) -> float:
    """The best wall time of `repeat` runs of `command`, its output discarded."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return min(times)


def _timed(func, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return time.perf_counter() - start, result


#: find_files queries over `build_tree`'s names: an exact name, globs, words.
QUERIES = ["ledger_2018_000123.bin", "*_2019_*.png", "payroll_*", "*.zip", "vendor 2021"]


def _p50(values: list[float]) -> float:
    return statistics.median(values)


def measure_tools(root: Path, db: Path, unindexed_db: Path, repeat: int) -> dict[str, object]:
    """The navigator tools' times over the indexed tree (and, for reference, from a walk)."""
    from fsnb.tools import disk_usage, find_files, tree
    from fsnb.tools.context import ToolContext

    ctx, walk = ToolContext(root, db), ToolContext(root, unindexed_db)
    finds = []
    for query in QUERIES * repeat * 5:
        elapsed, outcome = _timed(find_files.outcome, query, ctx=ctx, search_type="name")
        assert outcome.ok and outcome.data["source"] == "index", outcome.text
        finds.append(elapsed)
    usage = [_timed(disk_usage.outcome, ".", ctx=ctx)[0] for _ in range(repeat)]
    trees = [_timed(tree.outcome, ".", ctx=ctx, max_depth=2)[0] for _ in range(repeat * 5)]
    walked = _timed(disk_usage.outcome, ".", ctx=walk)
    assert walked[1].data["source"] == "walk"
    return {
        "find_files_p50_ms": round(_p50(finds) * 1000, 2),
        "find_files_p95_ms": round(sorted(finds)[int(0.95 * (len(finds) - 1))] * 1000, 2),
        "disk_usage_s": round(min(usage), 3),
        "tree_ms": round(_p50(trees) * 1000, 2),
        "disk_usage_walk_s": round(walked[0], 3),
        # a new context: `walk` keeps the walk disk_usage made (`ToolContext.files`)
        "tree_walk_ms": round(
            _timed(tree.outcome, ".", ctx=ToolContext(root, unindexed_db), max_depth=2)[0] * 1000,
            1,
        ),
    }


def measure(files: int, documents: int, repeat: int) -> dict[str, object]:
    from fsnb.index.index import Index

    with tempfile.TemporaryDirectory(prefix="fsnb-fs-bench-") as tmp:
        root = Path(tmp) / "tree"
        build_tree(root, files, documents)
        find_s = _best(["find", str(root), "-printf", "%p %s %T@\\n"], repeat)
        du_s = _best(["du", "-sb", str(root)], repeat)

        colds = []
        for n in range(repeat):  # a new database file each time
            index = Index(Path(tmp) / f"fs{n}.duckdb")
            cold, report = _timed(index.add_folder, root, progress=False)
            colds.append(cold)
        cold = min(colds)
        rescan, again = _timed(index.add_folder, root, progress=False)
        rescans = [rescan]
        for _ in range(repeat - 1):
            rescans.append(_timed(index.add_folder, root, progress=False)[0])
        indexed = len(index.files(root))
        tools = measure_tools(root, index.path, Path(tmp) / "none.duckdb", repeat)

        tracemalloc.start()
        Index(Path(tmp) / "traced.duckdb").add_folder(root, progress=False)
        traced_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()

    rescan_s = min(rescans)
    return {
        "files": files,
        "documents": documents,
        "files_indexed": indexed,
        "documents_added": len(report.added),  # type: ignore[attr-defined]
        "rescan_unchanged": again.unchanged,  # type: ignore[attr-defined]
        "find_s": round(find_s, 3),
        "du_s": round(du_s, 3),
        "index_cold_s": round(cold, 3),
        "rescan_s": round(rescan_s, 3),
        "index_cold_vs_find": round(cold / find_s, 2),
        "rescan_vs_find": round(rescan_s / find_s, 2),
        "target_index_cold_vs_find": 3.0,
        "target_rescan_vs_find": 2.0,
        "index_cold_ok": cold <= 3 * find_s,
        "rescan_ok": rescan_s <= 2 * find_s,
        **tools,
        "disk_usage_vs_du": round(tools["disk_usage_s"] / du_s, 2),  # type: ignore[operator]
        "find_files_ok": tools["find_files_p50_ms"] <= 10,  # type: ignore[operator]
        "disk_usage_ok": tools["disk_usage_s"] <= 1.5 * du_s,  # type: ignore[operator]
        "tree_ok": tools["tree_ms"] <= 100,  # type: ignore[operator]
        "index_peak_traced_mb": round(traced_peak / 2**20, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "cores": os.cpu_count(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--documents", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.files, args.documents, max(1, args.repeat)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
