"""bench/scale.py at its 100-document size: the JSON it prints, and answers above a floor.

The run builds the folder (in a temporary cache), indexes it cold once, on one worker
(the pools have tests of their own: tests/test_parse_workers.py), and asks 8 of its
questions (spread over lookups, pairs, aggregates and unanswerable ones) offline with the automatic start and through the Gemini backend against the local fake server.

The accuracy floor, 0.5. On all 24 questions the offline backend scores 0.79 on this folder
today; the 8-question subset (2 lookups, 2 pairs, 2 aggregates, 2 unanswerable) scores
0.625: the lookup s01 (a boilerplate dollar amount quoted for the unit price), the pair c01
and the unanswerable x02 are missed. The run is deterministic; the floor leaves room for
one more answer to flip while the offline strategy is being reworked (issues 27, 28) and
fails when half the subset is wrong, which is what a broken bench (scoring, planted facts,
the index not used) or a gross regression of the offline answers gives. About 30 seconds:
the cold indexing of the folder takes half of it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC_KEYS = {
    "documents",
    "index_cold_s",
    "index_docs_per_s",
    "peak_rss_mb",
    "accuracy",
    "p50_s",
    "p95_s",
    "tokens_mean",
}
FLOOR = 0.5


@pytest.mark.slow
def test_the_100_document_size(tmp_path: Path):
    command = [
        sys.executable,
        str(ROOT / "bench" / "scale.py"),
        "--sizes",
        "100",
        "--questions",
        "8",
        "--workers",
        "1",
        "--starts",
        "auto",  # at 100 documents it starts with the scan: the same runs as `scan`
        "--cache",
        str(tmp_path),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)

    assert set(report["sizes"]) == {"100"}
    size = report["sizes"]["100"]
    assert size.keys() >= SPEC_KEYS
    assert size["documents"] == 100
    assert size["indexed"] == 100 and size["index_failed"] == 0
    assert size["index_cold_s"] > 0 and size["index_docs_per_s"] > 0
    assert 0 < size["peak_rss_mb"] < 1536
    assert size["index_mb"] > 0
    assert len(size["questions"]) == 8
    assert size["accuracy"] >= FLOOR, size["questions"]
    assert 0 < size["p50_s"] <= size["p95_s"]
    # the scripted model took a few calls and a few thousand tokens per question
    assert 2 <= size["calls_mean"] <= 6
    assert 2_000 < size["tokens_mean"] < 40_000
    # 100 documents are few enough to preview: every run starts with the scan
    assert size["by_start"]["auto"]["starts"] == {"scan": 8}
    assert set(size["corpus"]["formats"]) == {"pdf", "docx", "xlsx", "html", "md"}
    assert report["targets"] == {}  # one size: nothing to compare


def test_the_corpus_is_deterministic_and_sizes_nest(tmp_path: Path):
    """Two builds of a size are byte-identical, and a larger size holds every file of a
    smaller one (the same planted documents, the same distractors, more around them)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from scale_corpus import build, plan
    finally:
        sys.path.remove(str(ROOT / "bench"))

    small = plan(40, 0)
    assert [p for p, _, _ in small] == [p for p, _, _ in plan(60, 0)][:40]
    assert [p for p, _, _ in plan(40, 1)] != [p for p, _, _ in small]
    first = build(30, 0, tmp_path / "a", log=lambda _: None) / "docs"
    second = build(30, 0, tmp_path / "b", log=lambda _: None) / "docs"
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert len(files) == 30
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    assert all((first / f).read_bytes() == (second / f).read_bytes() for f in files)
