"""Full parses in worker processes, or on any `concurrent.futures.Executor` (a Dask
`distributed` client's `get_executor()` included).

A job names the file, the cache folder and the pipeline, and returns plain data: the
parsed document as a dict or the one-line reason it failed, so results pickle to any
executor. A job may also carry a finisher, a picklable function of the document run in the
worker (the index prepares its rows there), whose result comes back instead. The local
pool is an `fsnb.documents.pool.Pool`: a parse past its time limit (`limits.within`) has
its worker killed and replaced, and is that file's error; the other files in flight carry
on.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor, Future, as_completed
from pathlib import Path
from typing import Any

from fsnb.documents.cache import ParseCache
from fsnb.documents.limits import WARM, crashed, overtime
from fsnb.documents.model import Document
from fsnb.documents.parse import Pipeline, default_pipeline, parse
from fsnb.documents.pool import IDLE_S, Overtime, Pool, WorkerDied
from fsnb.errors import ParseError

_pools: dict[tuple[int, tuple[str, ...]], Pool] = {}
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
    `executor`; files not started are cancelled when the caller stops early (and, on a
    `Pool`, those started are stopped). A path with a finisher in `finish` yields what the
    finisher made of its document, in the worker; `root` as for `parse`."""
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
            try:
                kind, value = future.result()
            except Overtime as exc:  # its worker was killed (`limits.within`)
                kind, value = "error", exc.why or overtime(exc.seconds)
            except WorkerDied as exc:
                kind, value = "error", crashed(exc)
            if kind == "document":
                yield path, Document.from_dict({**value, "path": str(path)})  # type: ignore[dict-item]
            elif kind == "finished":
                yield path, value
            else:
                yield path, ParseError(str(path), str(value))
    finally:
        for future in (f for f in futures if not f.done()):
            if isinstance(executor, Pool):
                executor.stop(future)
            else:
                future.cancel()


def process_pool(workers: int, preload: Iterable[str] = ()) -> Pool:
    """A pool of up to `workers` processes, started as jobs come and kept warm for
    `IDLE_S` seconds, shared by later calls for the same `preload` and killed at exit;
    each worker ignores interrupts and imports Docling and the modules named in `preload`
    as it starts."""
    modules = tuple(sorted(set(preload)))
    with _lock:
        pool = _pools.get((workers, modules))
        if pool is None:
            pool = _pools[workers, modules] = Pool(workers, (*WARM, *modules), idle_s=IDLE_S)
        return pool
