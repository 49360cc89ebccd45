"""Finding a quoted passage in a document's text, as citations and extracted rows quote it."""

from __future__ import annotations

import re

_PAGE_MARK = re.compile(r"\[page \d+\]")


def quote_pattern(quote: str) -> re.Pattern[str] | None:
    """A regex that finds the quote in text regardless of line breaks, spacing and case."""
    words = _PAGE_MARK.sub(" ", quote).strip(" \"'“”‘’.…").split()
    if not words:
        return None
    return re.compile(r"\s+".join(re.escape(w) for w in words), re.IGNORECASE)


__all__ = ["quote_pattern"]
