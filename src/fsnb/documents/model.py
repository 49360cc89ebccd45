"""The parsed document: markdown text with page spans. Imports nothing from fsnb."""

from __future__ import annotations

import bisect
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

#: OCR text read with less mean confidence than this is said to be uncertain wherever it is
#: shown or quoted.
LOW_OCR_CONFIDENCE = 0.8


def ocr_label(confidence: float) -> str:
    """How text read by OCR with `confidence` is marked: "OCR", or "OCR, low confidence
    0.62" when it may be misread."""
    if confidence < LOW_OCR_CONFIDENCE:
        return f"OCR, low confidence {confidence:.2f}"
    return "OCR"


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
    #: Pages read by OCR (a scan, a photo): page -> mean confidence of the text read (0-1).
    ocr: dict[int, float] = field(default_factory=dict)
    #: What the file says of itself beyond its text (an image's pixel size, EXIF date and
    #: camera), merged into the index's `documents.metadata`.
    meta: dict[str, Any] = field(default_factory=dict)

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
        ocr = {int(page): conf for page, conf in (data.get("ocr") or {}).items()}  # JSON keys
        return cls(**{**data, "spans": spans, "ocr": ocr})

    def ocr_confidence(self, page: int | None = None) -> float | None:
        """The OCR confidence of `page`, or the mean over the OCR'd pages; None when that
        text did not come from OCR."""
        if page is not None:
            return self.ocr.get(page)
        return sum(self.ocr.values()) / len(self.ocr) if self.ocr else None


def assemble(
    file: Path, fmt: str, pages: dict[int, str], count: int, parser: str, warnings: list[str]
) -> Document:
    """The document of `file` whose page `n` holds `pages[n]` (pages without text have no
    span), of `count` pages in all."""
    text, spans = "", []
    for number in sorted(pages):
        body = pages[number].strip()
        if not body:
            continue
        if text:
            text += "\n\n"
        spans.append(PageSpan(number, len(text), len(text) + len(body)))
        text += body
    return Document(
        path=str(file),
        text=text,
        title=_title(text, file),
        format=fmt,
        pages=count,
        spans=spans,
        parser=parser,
        warnings=warnings,
    )


def _title(text: str, file: Path) -> str:
    """The first heading, else the first line of prose, else the file's name."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    heading = next((line for line in lines[:50] if line.startswith("#")), None)
    first = lines[0] if lines and not lines[0].startswith(("|", "<", "{", "[")) else ""
    title = (heading or first).lstrip("#").strip()
    return title[:120] or file.stem.replace("_", " ").replace("-", " ")
