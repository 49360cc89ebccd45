"""Indexing with parses in worker processes and on a Dask cluster gives what a local run gives."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from fsnb.documents.model import Document
from fsnb.documents.workers import parse_on, process_pool
from fsnb.errors import ParseError
from fsnb.index import pipeline
from fsnb.index.index import Index
from fsnb.index.writer import Entry

DATA = Path(__file__).resolve().parent.parent / "data"


def _content(index: Index) -> list[tuple]:
    frame = index.sql(
        "SELECT d.path, d.error, k.position, k.text FROM documents d"
        " LEFT JOIN chunks k ON k.doc_id = d.id ORDER BY d.path, k.position"
    )
    return [tuple(row) for row in frame.itertuples(index=False)]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    shutil.copytree(DATA / "test_acquisition", folder, ignore=shutil.ignore_patterns("*.json"))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n no objects")
    return folder


def test_a_process_pool_streams_documents_and_errors(corpus: Path):
    files = sorted(corpus.iterdir())
    found = dict(parse_on(process_pool(2), files))
    assert set(found) == set(files)
    assert isinstance(found[corpus / "broken.pdf"], ParseError)
    assert found[corpus / "07_nda.pdf"].title.startswith("MUTUAL NON-DISCLOSURE")


def _where(doc: Document) -> tuple[int, str, bool]:
    """A finisher: the process it ran in, the document's title, whether `json.tool` (a
    module nothing here imports) is loaded there."""
    return os.getpid(), doc.title, "json.tool" in sys.modules


def test_finishers_run_in_the_workers_that_preloaded_modules(corpus: Path):
    files = sorted(corpus.glob("*.pdf"))
    pool = process_pool(2, preload=["json.tool"])
    found = dict(parse_on(pool, files, finish=dict.fromkeys(files, _where)))
    assert isinstance(found[corpus / "broken.pdf"], ParseError)  # no document to finish
    done = [v for k, v in found.items() if k.name != "broken.pdf"]
    assert len(done) == len(files) - 1 and all(loaded for _, _, loaded in done)
    assert {pid for pid, _, _ in done} <= set(pool.pids()) and os.getpid() not in pool.pids()
    assert found[corpus / "07_nda.pdf"][1].startswith("MUTUAL NON-DISCLOSURE")


def test_a_process_pool_prepares_the_rows_and_this_process_only_writes(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    local = Index(tmp_path / "local.duckdb")
    local.add_folder(corpus, progress=False, workers=1)
    entries: list[object] = []
    real = pipeline._entry

    def entry(row, digest, result):  # what came back from the pool, before it is used
        entries.append(result)
        return real(row, digest, result)

    monkeypatch.setattr(pipeline, "_entry", entry)
    monkeypatch.setattr(pipeline, "POOL_FROM", 2)
    pooled = Index(tmp_path / "pooled.duckdb")
    report = pooled.add_folder(corpus, progress=False, workers=2)
    assert len(report.added) == 10 and "broken.pdf" in report.failed
    assert sum(isinstance(e, Entry) for e in entries) == 10  # prepared in the workers
    assert not any(isinstance(e, Document) for e in entries)
    assert _content(pooled) == _content(local)


@pytest.mark.slow
def test_indexing_on_a_dask_cluster_matches_a_local_run(corpus: Path, tmp_path: Path):
    distributed = pytest.importorskip("distributed")
    local = Index(tmp_path / "local.duckdb")
    local.add_folder(corpus, progress=False, workers=1)
    cluster = distributed.LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, host="127.0.0.1",
        dashboard_address=None,
    )  # fmt: skip
    with cluster, distributed.Client(cluster) as client:
        remote = Index(tmp_path / "dask.duckdb")
        report = remote.add_folder(corpus, progress=False, executor=client.get_executor())
    assert len(report.added) == 10 and "broken.pdf" in report.failed
    assert _content(remote) == _content(local)
