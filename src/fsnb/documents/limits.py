"""Limits on one parse, so that one hostile file cannot stall a scan.

- Time (`FSNB_PARSE_TIMEOUT`, seconds, default 120; 0 for none). Docling honours its own
  `document_timeout` only in the PDF pipelines, between pages; its office, HTML and
  Markdown backends convert in one call that nothing stops, at about a millisecond per
  paragraph, empty or not (a 50 KB DOCX holding a million `<w:p/>` takes over ten
  minutes). Those parses run under `within`, in a worker process that is killed, and
  replaced, when the time is up (`fsnb.documents.pool`): C code stops too. Real documents
  fit: ~40 PDF pages or ~1,000 DOCX paragraphs parse a second.
- Content (`FSNB_MAX_PARSE_MB`, default 256; 0 for none): an office file's parts
  uncompressed (which stops zip bombs before anything is inflated), or a text file's size.

A file over a limit is `TooLarge`, a `ParseError` the cache keeps with the limits it hit,
so raising a limit parses it again.
"""

from __future__ import annotations

import logging
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TypeVar

from fsnb.documents import child, pool
from fsnb.errors import ParseError

log = logging.getLogger(__name__)

T = TypeVar("T")
ZIP_FORMATS = frozenset({"docx", "pptx", "xlsx"})
#: What a worker that parses under a time limit imports before its first job.
WARM = ("docling.document_converter",)


class TooLarge(ParseError):
    """A file over a parse limit (time or content size)."""


@dataclass(frozen=True)
class Limits:
    """The limits of one parse; None for no limit."""

    seconds: float | None = 120.0
    megabytes: float | None = 256.0

    @classmethod
    def from_env(cls) -> Limits:
        """`FSNB_PARSE_TIMEOUT` and `FSNB_MAX_PARSE_MB` over the defaults."""
        return cls(
            _env_number("FSNB_PARSE_TIMEOUT", cls.seconds),
            _env_number("FSNB_MAX_PARSE_MB", cls.megabytes),
        )

    def tag(self) -> str:
        """The limits as a cache-entry tag."""
        return f"{self.seconds}s/{self.megabytes}MB"

    def check_size(self, file: Path | BinaryIO, fmt: str, size: int, name: str) -> None:
        """Raise `TooLarge` when the content a parse would take on is over the limit
        (`file`: the path, or the file opened)."""
        if not self.megabytes:
            return
        content = _unzipped_size(file) if fmt in ZIP_FORMATS else size
        if content > self.megabytes * 2**20:
            what = "uncompressed" if fmt in ZIP_FORMATS else "of text"
            why = (
                f"too large to parse ({content / 2**20:,.1f} MB {what}, over the "
                f"{self.megabytes:g} MB limit; FSNB_MAX_PARSE_MB raises it)"
            )
            raise TooLarge(name, why)


def overtime(seconds: float) -> str:
    """Why a parse that ran out of time failed."""
    return f"too large to parse (still parsing after {seconds:g} s; FSNB_PARSE_TIMEOUT raises it)"


def _env_number(name: str, default: float | None) -> float | None:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        log.warning("ignoring %s=%r: not a number", name, value)
        return default
    return number if number > 0 else None


def _unzipped_size(file: Path | BinaryIO) -> int:
    """The declared size of a zip's members, uncompressed (what zipfile will inflate at
    most); 0 for a file that is not a zip, which the parser then reports."""
    try:
        with zipfile.ZipFile(file) as archive:
            return sum(info.file_size for info in archive.infolist())
    except (OSError, zipfile.BadZipFile, ValueError):
        return 0


def crashed(exc: BaseException) -> str:
    """Why a parse whose worker process died failed."""
    return f"the parser crashed ({exc})"


def within(
    seconds: float | None,
    name: str,
    func: Callable[..., T],
    *args: object,
    on_overtime: Callable[[], None] | None = None,
    why: str = "",
) -> T:
    """`func(*args)`, stopped with `TooLarge` once it has run `seconds`, by killing the
    process it runs in; a crash of that process is a `ParseError` too.

    Here, `func` and its arguments go to a warm worker of this process's pool for the
    module of `func` (`pool.shared`), and its result or error comes back (all of them
    picklable); an interrupt stops the worker. In a pool's worker (a parse of
    `fsnb.documents.workers`), `func` runs in place and the pool kills this process when
    the time is up; `on_overtime()` (picklable) is then run by the pool's owner, for what
    this process can no longer do (a parse's cache entry). `why` is the error's reason
    (by default `overtime(seconds)`). A daemonic process, which may
    start none (a Dask worker, by default), runs `func` in place with no time limit but
    Docling's own for PDFs.
    """
    if not seconds:
        return func(*args)
    if child.in_worker():
        # the reason names the limit, not what is left of it when the clock is set ("1.99999 s")
        with child.clock(seconds, on_overtime, why or overtime(seconds)):
            return func(*args)
    if not child.can_start():
        log.debug("no time limit on parsing %s: a daemonic process starts no worker", name)
        return func(*args)
    workers = pool.shared((*WARM, func.__module__))
    future = workers.submit_within(seconds, func, *args)
    try:
        return future.result()
    except pool.Overtime as exc:
        raise TooLarge(name, exc.why or why or overtime(seconds)) from None
    except pool.WorkerDied as exc:
        raise ParseError(name, crashed(exc)) from None
    except BaseException:  # func's own error, or this thread interrupted: stop the worker
        workers.stop(future)
        raise
