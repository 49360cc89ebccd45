"""Plain text and code files: read with encoding detection, refuse binary content."""

from __future__ import annotations

import codecs
from pathlib import Path

from charset_normalizer import from_bytes

from fsnb.documents.model import Document, PageSpan
from fsnb.errors import EMPTY_FILE, ParseError

_SNIFF = 8192
_PREFERRED = ("cp1252", "latin_1", "iso8859_15")


def looks_binary(head: bytes) -> bool:
    """NUL bytes, or mostly control characters, in the first bytes mean binary."""
    if b"\x00" in head:
        return True
    if not head:
        return False
    control = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27))
    return control / len(head) > 0.1


def decode(data: bytes, name: str) -> tuple[str, list[str]]:
    """Decode bytes as UTF-8 when they are, else as the detected encoding, with a warning."""
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8"), []
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    matches = from_bytes(data)
    best = matches.best()
    if best is None:
        raise ParseError(name, "not valid text in any known encoding")
    # Break near-ties in favour of the most widespread Western legacy encodings: short
    # Latin texts fit several code pages equally well, and cp1252 is what they usually are.
    for match in matches:
        if (
            match.encoding in _PREFERRED
            and match.chaos <= best.chaos + 0.005
            and match.coherence >= best.coherence - 0.05
        ):
            best = match
            break
    return str(best), [f"decoded as {best.encoding} (not UTF-8)"]


def read_text(path: Path, name: str, data: bytes | None = None) -> Document:
    """A text file as one page: `data`, the file's content, when it is read already."""
    data = path.read_bytes() if data is None else data
    if not data:
        raise ParseError(name, EMPTY_FILE)
    if looks_binary(data[:_SNIFF]):
        raise ParseError(name, "binary content, not text")
    text, warnings = decode(data, name)
    title = next((line.strip("# ").strip() for line in text.splitlines() if line.strip()), "")
    title = "" if title.startswith(("{", "[", "<")) else title
    return Document(
        path=str(path),
        text=text,
        title=title[:120] or path.stem,
        format=path.suffix.lower().lstrip(".") or "txt",
        pages=1,
        spans=[PageSpan(1, 0, len(text))],
        parser="text",
        warnings=warnings,
    )
