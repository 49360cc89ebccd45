"""A document's opening text, fast: what scans and previews show.

A PDF's first pages come from PDFium's text (`pdf_text`), shaped as the full native parse
shapes them, so the opening agrees with the full parse (a PDF whose first pages hold a
scan is parsed in full: OCR reads it). Text, Markdown, CSV, HTML, DOCX, PPTX and XLSX
files are opened by the light readers (`fsnb.documents.light`), which begin as the full
parse begins without loading Docling; images, and PDFs under the layout pipeline, are
parsed in full. The full parse is used when the cache already holds it; openings are
cached too, beside it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from fsnb.documents.cache import ParseCache
from fsnb.documents.light import LIGHT_FORMATS, LIGHT_VERSION, light_opening
from fsnb.documents.model import Document, assemble
from fsnb.documents.parse import (
    DOCLING_FORMATS,
    PARSER_VERSION,
    TEXT_SUFFIXES,
    Pipeline,
    cached,
    default_pipeline,
    opened,
    parse,
)
from fsnb.documents.pdf_text import PDFIUM_LOCK, pdf_opening
from fsnb.documents.scans import scanned_pages, thin_pages
from fsnb.errors import ParseError
from fsnb.security import Sandbox


def opening(
    path: str | os.PathLike[str],
    chars: int = 2000,
    *,
    cache: ParseCache | Literal[False] | None = None,
    pipeline: Pipeline | None = None,
    root: str | os.PathLike[str] | None = None,
) -> Document:
    """The document with at least its first `chars` characters (`partial` when the text
    stops before the end). Raises `ParseError` like `parse` for a file it cannot read;
    `root` as for `parse`."""
    file, name = Path(path), str(path)
    pipeline = pipeline or default_pipeline()
    again = {"cache": cache, "pipeline": pipeline, "root": root}
    suffix = file.suffix.lower()
    light = "txt" if suffix in TEXT_SUFFIXES else DOCLING_FORMATS.get(suffix)
    if light in LIGHT_FORMATS:
        return _light(file, name, light, chars, cache, pipeline, root)
    if suffix != ".pdf" or pipeline != "native":
        return parse(file, **again)
    store = None if cache is False else (cache or ParseCache())
    with opened(file, name, root) as handle:
        stat = os.fstat(handle.fileno())  # of the file read, not of what the name is now
        if store and (full := cached(file, stat, store, pipeline)):
            return full
        key = store.key(file, stat, f"{PARSER_VERSION}/opening") if store else ""
        entry = store.get(key) if store else None
        if entry and (entry["chars"] >= chars or not entry["document"]["partial"]):
            return Document.from_dict({**entry["document"], "path": str(file)})
        if not handle.read(5).startswith(b"%PDF-"):
            return parse(file, **again)  # its error, cached
        handle.seek(0)
        with PDFIUM_LOCK:
            pages, count = pdf_opening(handle, name, chars)
        read = max(pages, default=0)
        thin = thin_pages(pages, read)
        if thin and handle.seek(0) == 0 and scanned_pages(handle.read(), name, thin):
            return parse(file, **again)  # scanned pages: read by OCR in the full parse
    if not pages:  # no text layer, or nothing read: the full parse says why
        return parse(file, **again)
    empty = [f"page {n} has no text layer" for n in range(1, read + 1) if n not in pages]
    doc = assemble(file, "pdf", pages, count, "pdfium-opening", empty)
    doc.partial = read < count
    if store:
        store.put(key, {"chars": chars, "document": doc.to_dict()})
    return doc


def _light(
    file: Path,
    name: str,
    fmt: str,
    chars: int,
    cache: ParseCache | Literal[False] | None,
    pipeline: Pipeline,
    root: str | os.PathLike[str] | None,
) -> Document:
    """The opening of a file a light reader opens: the full parse when cached, else the
    cached opening when long enough, else the light reader's."""
    store = None if cache is False else (cache or ParseCache())
    with opened(file, name, root) as handle:
        stat = os.fstat(handle.fileno())  # of the file read, not of what the name is now
        if store and (full := cached(file, stat, store, pipeline)):
            return full
        key = (
            store.key(file, stat, f"{PARSER_VERSION}/opening/light{LIGHT_VERSION}") if store else ""
        )
        entry = store.get(key) if store else None
        if entry and (entry["chars"] >= chars or not entry["document"]["partial"]):
            return Document.from_dict({**entry["document"], "path": str(file)})
        doc = light_opening(handle, file, name, fmt, stat.st_size, chars)
    if store:
        store.put(key, {"chars": chars, "document": doc.to_dict()})
    return doc


def preview(path: str | os.PathLike[str], chars: int = 1500, **kwargs: Any) -> str:
    """The first `chars` characters of a document, cut at a word boundary."""
    text = opening(path, chars, **kwargs).text
    if len(text) <= chars:
        return text
    cut = text.rfind(" ", 0, chars)
    return text[: cut if cut > chars // 2 else chars].rstrip()


def read_document(box: Sandbox, file: Path, chars: int | None = None) -> Document:
    """`parse` of a file inside `box` (its opening `chars` only, when given), with errors
    that name the file relative to the root; the file read is the one `box` checked."""
    try:
        return parse(file, root=box.root) if chars is None else opening(file, chars, root=box.root)
    except ParseError as exc:
        raise ParseError(box.shown(file), exc.why) from None
