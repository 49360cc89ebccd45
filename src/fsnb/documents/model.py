"""The parsed document: markdown text with page spans. Imports nothing from fsnb."""

from __future__ import annotations

import bisect
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class PageSpan:
    """Characters `start` to `end` of the document text come from page `page` (1-based)."""

    page: int
    start: int
    end: int


@dataclass
class Document:
    """A file turned into markdown text, with where each page's text lies."""

    path: str
    text: str
    title: str
    format: str
    pages: int
    spans: list[PageSpan]
    parser: str
    warnings: list[str] = field(default_factory=list)
    #: The text holds only the opening pages (a preview, `fsnb.documents.opening`).
    partial: bool = False

    def page_at(self, offset: int) -> int:
        """The page that holds character `offset` (the nearest page before a gap)."""
        if not self.spans:
            return 1
        starts = [span.start for span in self.spans]
        index = max(bisect.bisect_right(starts, max(offset, 0)) - 1, 0)
        return self.spans[index].page

    def page_text(self, page: int) -> str:
        """The text of one page ('' when the page has none)."""
        return "".join(self.text[s.start : s.end] for s in self.spans if s.page == page)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Document:
        spans = [PageSpan(**span) for span in data["spans"]]
        return cls(**{**data, "spans": spans})
