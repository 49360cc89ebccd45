"""Limits on one table extraction, so that one hostile file cannot stall or exhaust a run.

A 1,000-page PDF took 258 s and 10 GB in pdfplumber, a 40M-cell workbook and a 286 MB
CSV minutes and gigabytes. Each `extract_tables` call gets a `Budget`: a deadline (the
parse time limit, `FSNB_PARSE_TIMEOUT`), checked between pages, tables and row batches,
a number of PDF pages, and a number of cells read in all. A limit that is hit stops the
reading there and leaves one line in `Budget.notes` saying what was left out and why:
the tables read so far are kept, never cut silently.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from fsnb.documents.limits import Limits

#: PDF pages searched for tables: pdfplumber takes up to ~0.25 s and ~10 MB a page (a
#: 1,000-page PDF took 258 s and 10.1 GB), so 200 pages is about a minute at worst.
MAX_PDF_PAGES = 200
#: Cells read from a document in all: each is a Python string in the text frame and a
#: value in the typed one, ~150 bytes together, so 2M cells is ~300 MB (a 286 MB CSV took
#: 3.4 GB). That is 200,000 rows of 10 columns, more than a scratchpad table holds in bytes.
MAX_CELLS = 2_000_000
#: Bytes of a CSV or TSV read: 64 MiB holds well over `MAX_CELLS` cells of a few characters.
MAX_TEXT_BYTES = 64 * 2**20
#: Rows read between two looks at the clock (a look costs ~100 ns; a batch ~1 ms).
ROW_BATCH = 1_000

#: The clock deadlines are read on (a test's fake clock replaces it).
_clock = time.monotonic


def _parse_seconds() -> float | None:
    return Limits.from_env().seconds


@dataclass(frozen=True)
class TableLimits:
    """The limits of one extraction: PDF pages, cells, CSV bytes and seconds (None: none;
    by default the parse time limit, `FSNB_PARSE_TIMEOUT`). The defaults are the module's
    constants when the limits are made."""

    pages: int = field(default_factory=lambda: MAX_PDF_PAGES)
    cells: int = field(default_factory=lambda: MAX_CELLS)
    text_bytes: int = field(default_factory=lambda: MAX_TEXT_BYTES)
    seconds: float | None = field(default_factory=_parse_seconds)


class Budget:
    """What is left of one extraction's limits, and the notes of those that were hit."""

    def __init__(self, limits: TableLimits) -> None:
        self.limits = limits
        self.deadline = _clock() + limits.seconds if limits.seconds else None
        self.cells = limits.cells
        self.notes: list[str] = []

    def expired(self) -> bool:
        """Whether the deadline has passed."""
        return self.deadline is not None and _clock() >= self.deadline

    def left(self) -> float | None:
        """Seconds left before the deadline (None: no deadline)."""
        return None if self.deadline is None else max(self.deadline - _clock(), 0.001)

    def take(self, cells: int) -> bool:
        """Spend `cells`; False (nothing spent) when fewer than that are left."""
        if cells > self.cells:
            self.cells = 0
            return False
        self.cells -= cells
        return True

    def overtime(self, kept: str) -> None:
        """Note that the deadline stopped the reading, and what was `kept`."""
        seconds = self.limits.seconds or 0
        self.note(f"stopped after {seconds:g} s (FSNB_PARSE_TIMEOUT raises it): {kept}")

    def over_cells(self, kept: str) -> None:
        """Note that the cell budget stopped the reading, and what was `kept`."""
        self.note(f"cut at the {self.limits.cells:,}-cell limit: {kept}")

    def note(self, text: str) -> None:
        self.notes.append(text)


def size_text(size: int) -> str:
    """A byte count as a note says it: '64 MB', or '100 bytes' under a megabyte."""
    return f"{size / 2**20:g} MB" if size >= 2**20 else f"{size:,} bytes"


__all__ = ["MAX_CELLS", "MAX_PDF_PAGES", "MAX_TEXT_BYTES", "Budget", "TableLimits", "size_text"]
