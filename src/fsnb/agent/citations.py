"""Check each citation after a run: the file was read, and the quote is in its text."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from fsnb.agent import file_evidence
from fsnb.documents import parse
from fsnb.documents.model import ocr_label
from fsnb.documents.quotes import quote_pattern
from fsnb.errors import AccessDenied, FsnbError, NotFound, ParseError
from fsnb.protocol import CitedSource
from fsnb.security import Sandbox, shown

_MARKER = re.compile(r"\[(\d{1,3})\]")


@dataclass
class Citation:
    """`[id]` in the answer: where it points and whether that held up."""

    id: int
    path: str
    page: int | None
    quote: str
    verified: bool
    problem: str = ""
    #: The mean confidence of the cited page's text when OCR read it (None: not OCR).
    ocr: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def page_label(self) -> str:
        """ "2", "1 (OCR)", "1 (OCR, low confidence 0.62)", or "" without a page."""
        if not self.page:
            return ""
        return f"{self.page} ({ocr_label(self.ocr)})" if self.ocr is not None else str(self.page)

    @property
    def where(self) -> str:
        """ "path, page 2", "path, page 1 (OCR)", or the path alone when there is no page."""
        if not self.page:
            return self.path or "(no source)"
        return f"{self.path}, page {self.page_label}"


def cited_ids(answer: str) -> list[int]:
    """The distinct [n] markers of an answer, in order of first use."""
    return list(dict.fromkeys(int(n) for n in _MARKER.findall(answer)))


def verify_citations(
    answer: str, sources: list[CitedSource], sandbox: Sandbox, read_paths: set[str]
) -> list[Citation]:
    """Check every source; flag (never drop) those that fail, and markers with no source."""
    checked = [_check(source, sandbox, read_paths) for source in sources]
    known = {c.id for c in checked}
    for n in cited_ids(answer):
        if n not in known:
            checked.append(
                Citation(n, "", None, "", False, f"[{n}] is used in the answer but has no source")
            )
    return sorted(checked, key=lambda c: c.id)


def _check(source: CitedSource, sandbox: Sandbox, read_paths: set[str]) -> Citation:
    citation = Citation(source.id, source.path, source.page, source.quote, False)
    found = file_evidence.facts(source.quote)
    if found is not None:
        return _check_facts(citation, sandbox, found)
    try:
        rel = sandbox.relative(sandbox.existing(source.path, "file"))
    except (AccessDenied, NotFound) as exc:
        citation.problem = str(exc)
        return citation
    citation.path = shown(rel)
    if rel not in read_paths:
        citation.problem = "the file was not read during the run"
        return citation
    try:
        doc = parse(sandbox.root / rel, root=sandbox.root)
    except (FsnbError, OSError) as exc:
        why = exc.why if isinstance(exc, ParseError) else str(exc)
        citation.problem = f"the file cannot be read now: {why}"
        return citation
    pattern = quote_pattern(source.quote)
    found = pattern.search(doc.text) if pattern else None
    if found is None:
        citation.problem = "the quote does not occur in the file's text"
        return citation
    page = doc.page_at(found.start())
    if source.page is not None and source.page != page:
        citation.problem = f"page given as {source.page}; the quote is on page {page}"
    citation.page = page
    citation.ocr = doc.ocr_confidence(page)
    citation.verified = True
    return citation


def _check_facts(citation: Citation, sandbox: Sandbox, found: list[tuple[str, str]]) -> Citation:
    """A citation of the file's own facts (size, date, hash, count), checked on the file."""
    try:
        target = sandbox.existing(citation.path, "any")
        citation.path = shown(sandbox.relative(target))
        citation.problem = file_evidence.check(sandbox, target, found)
    except (AccessDenied, NotFound, OSError) as exc:
        citation.problem = str(exc)
    citation.page = None
    citation.verified = not citation.problem
    return citation
