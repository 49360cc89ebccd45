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
from fsnb.documents.scans import suffix_is_image
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
    # Openings of PDFs and images first: they run in native code (PDFium, OCR), one PDF at
    # a time, calling it again and again; interleaved with the light readers' Python, each
    # of those calls would wait out the interpreter's switch interval before going on.
    first = sorted(range(len(paths)), key=lambda i: not _native(paths[i])) if chars else None
    try:
        if first is None:
            yield from zip(paths, pool.map(one, paths), strict=False)
            return
        futures = {i: pool.submit(one, paths[i]) for i in first}
        for i, path in enumerate(paths):
            yield path, futures[i].result()
    finally:  # left early (an interrupt): files not started are dropped, not waited for
        pool.shutdown(wait=False, cancel_futures=True)


def _native(path: Path) -> bool:
    """Whether `path`'s opening is read by native code (a PDF, an image) rather than by a
    light reader."""
    return path.suffix.lower() == ".pdf" or suffix_is_image(path)
