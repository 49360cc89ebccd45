"""Limits on one parse, so that one hostile file cannot stall a scan.

- Time (`FSNB_PARSE_TIMEOUT`, seconds, default 120; 0 for none). Docling honours its own
  `document_timeout` only in the PDF pipelines, between pages; its office, HTML and
  Markdown backends convert in one call that nothing stops, at about a millisecond per
  paragraph, empty or not (a 50 KB DOCX holding a million `<w:p/>` takes over ten
  minutes). Those parses run under `within`, which interrupts the parsing thread when the
  time is up. Real documents fit: ~40 PDF pages or ~1,000 DOCX paragraphs parse a second.
- Content (`FSNB_MAX_PARSE_MB`, default 256; 0 for none): an office file's parts
  uncompressed (which stops zip bombs before anything is inflated), or a text file's size.

A file over a limit is `TooLarge`, a `ParseError` the cache keeps with the limits it hit,
so raising a limit parses it again.
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TypeVar

from fsnb.errors import ParseError

log = logging.getLogger(__name__)

T = TypeVar("T")
ZIP_FORMATS = frozenset({"docx", "pptx", "xlsx"})


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


class _Overtime(BaseException):
    """Raised into a thread whose parse ran out of time (a BaseException, so that the
    parser's own `except Exception` does not swallow it)."""


def _raise_in(thread: int, exc: type[BaseException] | None) -> None:
    """Raise `exc` in `thread` at its next bytecode (None: cancel one not yet raised)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread), ctypes.py_object(exc) if exc else None
    )


def within(seconds: float | None, name: str, func: Callable[..., T], *args: object) -> T:
    """`func(*args)`, stopped with `TooLarge` once it has run `seconds`.

    The call is interrupted between two Python bytecodes of this thread, so it must leave
    nothing behind that matters if it stops anywhere (Docling's converters are rebuilt).
    """
    if not seconds:
        return func(*args)
    thread, lock, state = threading.get_ident(), threading.Lock(), {"open": True, "fired": False}

    def expire() -> None:
        with lock:
            if state["open"]:
                state["fired"] = True
                _raise_in(thread, _Overtime)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    why = overtime(seconds)
    try:
        try:
            timer.start()
            return func(*args)
        finally:
            timer.cancel()
            with lock:
                state["open"] = False
                if state["fired"]:
                    _raise_in(thread, None)
    except _Overtime:
        raise TooLarge(name, why) from None
    except Exception:
        if state["fired"]:  # something turned the interruption into its own error
            raise TooLarge(name, why) from None
        raise
