"""Full parses in worker processes, or on any `concurrent.futures.Executor` (a Dask
`distributed` client's `get_executor()` included).

A job names the file, the cache folder and the pipeline, and returns plain data: the
parsed document as a dict or the one-line reason it failed, so results pickle to any
executor. The local pool is a 'spawn' pool whose workers start from this module, not from
the caller's `__main__`: it is safe in a Jupyter kernel and in a script without a
`if __name__ == "__main__"` guard.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from pathlib import Path

from fsnb.documents.cache import ParseCache
from fsnb.documents.model import Document
from fsnb.documents.parse import Pipeline, default_pipeline, parse
from fsnb.errors import ParseError

_pools: dict[int, ProcessPoolExecutor] = {}
_lock = threading.Lock()


def parse_job(path: str, cache_dir: str, pipeline: Pipeline) -> tuple[str, object]:
    """("document", its dict) or ("error", why) for one file: what a worker runs."""
    try:
        doc = parse(path, cache=ParseCache(cache_dir), pipeline=pipeline)
    except ParseError as exc:
        return "error", exc.why
    except Exception as exc:  # a parser's bug is that file's error, never the batch's
        return "error", f"unexpected {type(exc).__name__}: {' '.join(str(exc).split())[:160]}"
    return "document", doc.to_dict()


def parse_on(
    executor: Executor, paths: Iterable[Path], *, cache: ParseCache | None = None
) -> Iterator[tuple[Path, Document | ParseError]]:
    """Yield (path, document or error) for every path, in order of completion, parsing on
    `executor`; files not started are cancelled when the caller stops early."""
    store = cache or ParseCache()
    pipeline = default_pipeline()
    futures: dict[Future[tuple[str, object]], Path] = {
        executor.submit(parse_job, str(p), str(store.directory), pipeline): p for p in paths
    }
    try:
        for future in as_completed(futures):
            path = futures[future]
            kind, value = future.result()
            if kind == "document":
                yield path, Document.from_dict({**value, "path": str(path)})  # type: ignore[dict-item]
            else:
                yield path, ParseError(str(path), str(value))
    finally:
        for future in futures:
            future.cancel()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A started pool of `workers` processes, shared by later calls and shut at exit."""
    with _lock:
        pool = _pools.get(workers)
        if pool is None:
            pool = ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
            with _main_is_this_module():  # every worker starts now, from this module
                for future in [pool.submit(_ready) for _ in range(workers)]:
                    future.result()
            _pools[workers] = pool
        return pool


def _watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the process that started the pool is gone (killed),
    rather than linger and hold its pipes open."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="fsnb-parent-watch", daemon=True).start()


def _ready() -> bool:
    import docling.document_converter  # noqa: F401  (imported once, before the first file)

    return True


@contextmanager
def _main_is_this_module() -> Iterator[None]:
    """Spawned workers import `__main__` by its spec or path: let it be this module."""
    main = sys.modules["__main__"]
    sys.modules["__main__"] = sys.modules[__name__]
    try:
        yield
    finally:
        sys.modules["__main__"] = main


@atexit.register
def _shutdown() -> None:
    for pool in _pools.values():
        pool.shutdown(wait=False, cancel_futures=True)
