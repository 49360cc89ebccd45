"""Indexing with parses in worker processes and on a Dask cluster gives what a local run gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fsnb.documents.workers import parse_on, process_pool
from fsnb.errors import ParseError
from fsnb.index.index import Index

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
