"""Light readers: the opening of a text, Markdown, CSV, HTML, DOCX, PPTX or XLSX file as
the full parse would begin it (Docling's markdown export, or the plain read of a text
file), read without Docling: from the bytes of the descriptor `parse` would read, under
the same content limit, with the same errors for what is empty, binary or too large.

The readers (`light_markdown`, `light_fastmd`, `light_html`, `light_word`, `light_slides`,
`light_sheets`; the markdown they write, `light_blocks`) mirror what Docling's backends
make of the common structures (headings, paragraphs and their inline formatting, lists,
tables, code, images, slides and their notes, sheets and the tables found on them) and
stop once the opening is long enough; tests/test_light_openings.py checks them against
the full parse, and says where they may differ.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO
from xml.etree.ElementTree import ParseError as XMLError

from fsnb.documents.light_blocks import Block, Pages
from fsnb.documents.light_html import html_blocks
from fsnb.documents.light_markdown import Unreadable, csv_blocks, markdown_blocks
from fsnb.documents.limits import Limits
from fsnb.documents.model import Document, PageSpan
from fsnb.documents.text import looks_binary, read_text
from fsnb.errors import EMPTY_FILE, ParseError

#: Bumped whenever what a light reader makes of a file changes (openings' cache key).
LIGHT_VERSION = "1"

#: What a reader raises on a damaged file: zip and deflate errors (an encrypted member is a
#: RuntimeError), XML errors, missing parts and values out of place.
_DAMAGED = (
    Unreadable,
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    RuntimeError,
    NotImplementedError,
    XMLError,
    LookupError,
    ValueError,
)
#: A reader: (the file's bytes, the characters wanted) -> (pages, (page, block) in order).
Reader = Callable[[bytes, int], tuple[int, Iterable[tuple[int, Block]]]]


def _one_page(read: Callable[[bytes], Iterable[tuple[int, Block]]]) -> Reader:
    return lambda data, chars: (1, read(data))


def _office(fmt: str) -> Reader:
    def read(data: bytes, chars: int) -> tuple[int, Iterable[tuple[int, Block]]]:
        from fsnb.documents import light_sheets, light_slides, light_word

        return {"docx": light_word.read, "pptx": light_slides.read, "xlsx": light_sheets.read}[fmt](
            data, chars
        )

    return read


READERS: dict[str, Reader] = {
    "md": _one_page(markdown_blocks),
    "csv": _one_page(csv_blocks),
    "html": _one_page(html_blocks),
    "docx": _office("docx"),
    "pptx": _office("pptx"),
    "xlsx": _office("xlsx"),
}
#: The formats a light reader opens ("txt": every plain-text suffix).
LIGHT_FORMATS = frozenset({"txt", *READERS})


def light_opening(
    handle: BinaryIO, file: Path, name: str, fmt: str, size: int, chars: int
) -> Document:
    """The opening of `file` (format `fmt`, opened as `handle`, `size` bytes): at least
    its first `chars` characters, `partial` when more follow. Raises `ParseError` as the
    full parse would for a file that is empty, binary or over the content limit, and a
    one-line `ParseError` for one the reader cannot read."""
    Limits.from_env().check_size(handle, fmt, size, name)
    handle.seek(0)
    data = handle.read()
    if fmt == "txt":
        return _text_opening(read_text(file, name, data), chars)
    head = data[:8192]
    if not head:
        raise ParseError(name, EMPTY_FILE)
    if fmt in ("md", "csv", "html") and looks_binary(head):
        raise ParseError(name, "binary content, not text")
    try:
        count, blocks = READERS[fmt](data, chars)
        pages = Pages(chars).take(blocks)
    except _DAMAGED as exc:
        raise ParseError(name, _why(exc, data)) from None
    doc = pages.document(file, fmt, count, f"light-{fmt}")
    if not doc.text.strip() and not pages.cut:
        raise ParseError(name, "no text found in the document")
    return doc


def _why(exc: Exception, data: bytes) -> str:
    """A reader's failure as one line (the full parse, through Docling, says only that it
    could not load the document)."""
    if data.startswith(b"\xd0\xcf\x11\xe0"):  # OLE: an encrypted package, or a .doc/.xls
        if "EncryptedPackage".encode("utf-16-le") in data:
            return "encrypted file (password required)"
        return "corrupt or unreadable file (an older binary Office file, not Office Open XML)"
    if isinstance(exc, KeyError):
        return f"corrupt or unreadable file (no part {exc.args[0]})"
    detail = " ".join(str(exc).split())[:160] or type(exc).__name__
    return f"corrupt or unreadable file ({detail})"


def _text_opening(doc: Document, chars: int) -> Document:
    """A text file's document cut after `chars` characters (at the next space)."""
    if len(doc.text) <= chars + 200:
        return doc
    cut = next((i for i in range(chars, chars + 200) if doc.text[i].isspace()), chars)
    doc.text = doc.text[:cut]
    doc.spans = [PageSpan(1, 0, cut)]
    doc.partial = True
    return doc
