"""Finding a quoted passage in a document's text, as citations and extracted rows quote it."""

from __future__ import annotations

import re

from fsnb.text.redact import MARKER

#: A `[page N]` line as the reading tools write it (`[page 2 (OCR)]` on a page read by OCR).
PAGE_MARK = re.compile(r"\[page \d+(?: \([^)\n]{1,60}\))?\]")
#: What stands for a withheld secret in a quote: the model saw the marker, the file holds
#: the value (one to a few tokens, never across a line).
_WITHHELD = r"[^\n]{1,300}?"


def quote_pattern(quote: str) -> re.Pattern[str] | None:
    """A regex that finds the quote in text regardless of line breaks, spacing and case;
    a `[secret withheld]` in the quote matches the value the masker withheld."""
    parts = [_words(part) for part in PAGE_MARK.sub(" ", quote).split(MARKER)]
    if not any(parts):
        return None
    return re.compile(_WITHHELD.join(parts), re.IGNORECASE)


def _words(text: str) -> str:
    words = text.strip(" \"'“”‘’.…").split()
    return r"\s+".join(re.escape(w) for w in words)


__all__ = ["PAGE_MARK", "quote_pattern"]
