"""Full parses in worker processes, or on any `concurrent.futures.Executor` (a Dask
`distributed` client's `get_executor()` included).

A job names the file, the cache folder and the pipeline, and returns plain data: the
parsed document as a dict or the one-line reason it failed, so results pickle to any
executor. A job may also carry a finisher, a picklable function of the document run in the
worker (the index prepares its rows there), whose result comes back instead. The local
pool is a 'spawn' pool whose workers start from this module, not from the caller's
`__main__`: it is safe in a Jupyter kernel and in a script without a
`if __name__ == "__main__"` guard.
"""

from __future__ import annotations

import atexit
import importlib
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fsnb.documents.cache import ParseCache
from fsnb.documents.model import Document
from fsnb.documents.parse import Pipeline, default_pipeline, parse
from fsnb.errors import ParseError

_pools: dict[tuple[int, tuple[str, ...]], ProcessPoolExecutor] = {}
_lock = threading.Lock()


#: What a worker applies to a parsed document before sending it back.
Finisher = Callable[[Document], Any]


def parse_job(
    path: str,
    cache_dir: str,
    pipeline: Pipeline,
    finish: Finisher | None = None,
    root: str | None = None,
) -> tuple[str, object]:
    """("document", its dict), ("finished", `finish(document)`) or ("error", why) for one
    file: what a worker runs (`root` as for `parse`)."""
    try:
        doc = parse(path, cache=ParseCache(cache_dir), pipeline=pipeline, root=root)
    except ParseError as exc:
        return "error", exc.why
    except Exception as exc:  # a parser's bug is that file's error, never the batch's
        return "error", f"unexpected {type(exc).__name__}: {' '.join(str(exc).split())[:160]}"
    if finish is not None:  # outside the `try`: a finisher's bug is the caller's to see
        return "finished", finish(doc)
    return "document", doc.to_dict()


def parse_on(
    executor: Executor,
    paths: Iterable[Path],
    *,
    cache: ParseCache | None = None,
    finish: Mapping[Path, Finisher] | None = None,
    root: str | os.PathLike[str] | None = None,
) -> Iterator[tuple[Path, Any]]:
    """Yield (path, document or error) for every path, in order of completion, parsing on
    `executor`; files not started are cancelled when the caller stops early. A path with a
    finisher in `finish` yields what the finisher made of its document, in the worker;
    `root` as for `parse`."""
    store = cache or ParseCache()
    pipeline = default_pipeline()
    finish = finish or {}
    top = None if root is None else os.fspath(root)
    futures: dict[Future[tuple[str, object]], Path] = {
        executor.submit(parse_job, str(p), str(store.directory), pipeline, finish.get(p), top): p
        for p in paths
    }
    try:
        for future in as_completed(futures):
            path = futures[future]
            kind, value = future.result()
            if kind == "document":
                yield path, Document.from_dict({**value, "path": str(path)})  # type: ignore[dict-item]
            elif kind == "finished":
                yield path, value
            else:
                yield path, ParseError(str(path), str(value))
    finally:
        for future in futures:
            future.cancel()


def process_pool(workers: int, preload: Iterable[str] = ()) -> ProcessPoolExecutor:
    """A started pool of `workers` processes, shared by later calls for the same `preload`
    and shut at exit; each worker imports Docling and the modules named in `preload` as
    it starts."""
    modules = tuple(sorted(set(preload)))
    with _lock:
        pool = _pools.get((workers, modules))
        if pool is None:
            pool = ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(), modules),
            )
            with _main_is_this_module():  # every worker starts now, from this module
                for future in [pool.submit(_ready) for _ in range(workers)]:
                    future.result()
            _pools[workers, modules] = pool
        return pool


def _start_worker(parent: int, modules: tuple[str, ...]) -> None:
    """In a new worker: watch the parent, import Docling and `modules`."""
    _watch_parent(parent)
    import docling.document_converter  # noqa: F401  (imported once, before the first file)

    for name in modules:
        importlib.import_module(name)


def _watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the process that started the pool is gone (killed),
    rather than linger and hold its pipes open."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="fsnb-parent-watch", daemon=True).start()


def _ready() -> bool:
    """A job that makes the pool start one more worker (each submit finding none idle)."""
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
