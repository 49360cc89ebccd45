"""Parse many files at once with a bounded pool of workers."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fsnb.documents.cache import ParseCache
from fsnb.documents.model import Document
from fsnb.documents.opening import opening
from fsnb.documents.parse import parse
from fsnb.documents.pool import default_workers
from fsnb.errors import ParseError

log = logging.getLogger(__name__)


def parse_many(
    paths: Iterable[Path],
    *,
    workers: int | None = None,
    cache: ParseCache | None = None,
    chars: int | None = None,
    root: str | os.PathLike[str] | None = None,
) -> Iterator[tuple[Path, Document | ParseError]]:
    """Yield (path, document or error) for every path, in the order given: one file that
    fails, however it fails, is that file's error and never stops the others. With `chars`,
    documents may hold only their opening (`fsnb.documents.opening`); `root` as for
    `parse`."""
    store = cache or ParseCache()

    def one(path: Path) -> Document | ParseError:
        try:
            if chars is not None:
                return opening(path, chars, cache=store, root=root)
            return parse(path, cache=store, root=root)
        except ParseError as exc:
            return exc
        except Exception as exc:  # a parser's bug must not take the whole batch down
            # The file's error says what happened; its traceback only when debugging,
            # never printed in the middle of a scan or an index run.
            log.debug("parsing %s failed", path, exc_info=True)
            return ParseError(
                str(path), f"unexpected {type(exc).__name__}: {' '.join(str(exc).split())[:160]}"
            )

    paths = list(paths)
    pool = ThreadPoolExecutor(max_workers=workers or default_workers())
    try:
        yield from zip(paths, pool.map(one, paths), strict=False)
    finally:  # left early (an interrupt): files not started are dropped, not waited for
        pool.shutdown(wait=False, cancel_futures=True)
