"""Parse files to markdown with page spans: Docling for documents, a plain read for text,
OCR for scanned pages and images (`scans`).

PDFs go through Docling's model-free native pipeline (text cells from docling-parse,
reflowed into paragraphs here), and their scanned pages through OCR; the layout pipeline
is used only when asked for
(`pipeline="layout"` or `FSNB_PDF_PIPELINE=layout`) and installed. Results, failures
included, are kept in the persistent `ParseCache`. Only regular files are opened, and one
parse has limits on its time and content (`limits`). A file is opened once (`open_file`:
with `root`, the file opened must be the path a sandbox checked) and every parser reads
from that descriptor, Docling included, never the path again.
"""

from __future__ import annotations

import importlib.util
import io
import logging
import os
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal

from fsnb.documents.cache import ParseCache
from fsnb.documents.child import in_worker
from fsnb.documents.limits import Limits, TooLarge, overtime, within
from fsnb.documents.model import Document, assemble
from fsnb.documents.ocr import IMAGE_SUFFIXES
from fsnb.documents.pdf_text import corrupt_pdf
from fsnb.documents.reflow import Line, reflow
from fsnb.documents.scans import (
    Reading,
    cache_tag,
    image_document,
    read_pdf_pages,
    scanned_pages,
    thin_pages,
    with_reading,
)
from fsnb.documents.text import looks_binary, read_text
from fsnb.errors import EMPTY_FILE, AccessDenied, ParseError
from fsnb.security import NotRegular, Sandbox, Sensitivity, Swapped, open_file, os_reason

if TYPE_CHECKING:
    from docling.datamodel.base_models import DocumentStream
    from docling.document_converter import DocumentConverter
    from docling_core.types.doc import DoclingDocument

log = logging.getLogger(__name__)

Pipeline = Literal["native", "layout"]

#: File suffix -> format name, for the formats Docling reads.
DOCLING_FORMATS = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".pptx": "pptx",
    ".xlsx": "xlsx",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".md": "md",
    ".markdown": "md",
    ".csv": "csv",
}
#: Suffixes read as plain text.
TEXT_SUFFIXES = frozenset(
    (
        ".txt .text .log .rst .adoc .org .json .jsonl .yaml .yml .toml .ini .cfg .conf .xml"
        " .tex .py .js .ts .sql .sh .r .java .go .rs .c .h .cpp .rb .php .css .env"
    ).split()
)
#: Bumped whenever parsing output changes, so old cache entries stop matching
#: (4: Docling's markdown without HTML entities).
PARSER_VERSION = "4"

_local = threading.local()
#: docling-parse decodes pages on its own threads, outside the GIL, ahead of the pipeline.
_PARSER_THREADS = min(4, max(2, os.cpu_count() or 2))


def supported(path: str | os.PathLike[str]) -> bool:
    """Whether `parse` knows the file's format (by its suffix)."""
    suffix = Path(path).suffix.lower()
    return suffix in DOCLING_FORMATS or suffix in TEXT_SUFFIXES or suffix in IMAGE_SUFFIXES


def document_files(box: Sandbox, folder: str | os.PathLike[str] = ".") -> list[Path]:
    """The files under `folder` that tools may read as documents: a supported format,
    a regular file (not a symlink), and not blocked or skipped by the sensitive-file policy."""
    return [
        entry.path
        for entry in box.entries(folder)
        if entry.verdict.level in (Sensitivity.NONE, Sensitivity.WARN)
        and not (entry.symlink or entry.note)
        and supported(entry.rel)
    ]


def default_pipeline() -> Pipeline:
    return "layout" if os.environ.get("FSNB_PDF_PIPELINE", "").lower() == "layout" else "native"


def parse(
    path: str | os.PathLike[str],
    *,
    cache: ParseCache | Literal[False] | None = None,
    pipeline: Pipeline | None = None,
    root: str | os.PathLike[str] | None = None,
) -> Document:
    """Parse one file, from the cache when the file is unchanged.

    Raises `ParseError` with a one-line reason for files that cannot be read: missing,
    not a regular file, unreadable, over a parse limit, or not a valid document.
    `cache=False` bypasses the cache; `None` uses the default one. With `root`, `path`
    is one a `Sandbox` rooted there checked, and the file read must be that very path.
    """
    file = Path(path)
    name = str(path)
    pipeline = pipeline or default_pipeline()
    limits = Limits.from_env()
    store = None if cache is False else (cache or ParseCache())
    with opened(file, name, root) as handle:
        stat = os.fstat(handle.fileno())  # of the file read, not of what the name is now
        key = store.key(file, stat, version(file, pipeline)) if store else ""
        entry = store.get(key) if store else None
        if entry is not None and entry.get("limits", limits.tag()) == limits.tag():
            if "error" in entry:
                raise ParseError(name, entry["error"])
            return Document.from_dict({**entry["document"], "path": str(file)})
        remember = partial(_remember_overtime, store, key, limits) if store else None
        try:
            document = _parse_uncached(handle, file, name, pipeline, stat.st_size, limits, remember)
        except ParseError as exc:
            if store:
                hit = {"limits": limits.tag()} if isinstance(exc, TooLarge) else {}
                store.put(key, {"error": exc.why, **hit})
            raise
    if store:
        store.put(key, {"document": document.to_dict()})
    return document


def version(file: Path, pipeline: Pipeline) -> str:
    """What a parse's cache key holds besides the file: the parser's version, the pipeline
    and, for a format that may hold scans, what OCR can do here (`scans.cache_tag`)."""
    suffix = file.suffix.lower()
    ocr = f"/{cache_tag()}" if suffix == ".pdf" or suffix in IMAGE_SUFFIXES else ""
    return f"{PARSER_VERSION}/{pipeline}{ocr}"


def opened(file: Path, name: str, root: str | os.PathLike[str] | None = None) -> BinaryIO:
    """`file` opened for reading by `open_file` (see `parse` for `root`), else a one-line
    `ParseError`: missing, not a regular file, unreadable, or swapped since its check."""
    try:
        return open_file(file, root)
    except NotRegular as exc:
        why = "is a folder" if exc.kind == "folder" else f"not a regular file ({exc.kind})"
        raise ParseError(name, why) from None
    except Swapped as exc:
        raise ParseError(name, f"access denied ({exc.reason})") from None
    except AccessDenied as exc:
        raise ParseError(name, f"access denied: {exc.why}") from None
    except OSError as exc:
        raise ParseError(name, os_reason(exc)) from None


def cached(
    file: Path, stat: os.stat_result, store: ParseCache, pipeline: Pipeline
) -> Document | None:
    """The full parse of `file` when the cache holds it (None for a miss or a failure)."""
    entry = store.get(store.key(file, stat, version(file, pipeline)))
    if entry is None or "document" not in entry:
        return None
    return Document.from_dict({**entry["document"], "path": str(file)})


def _remember_overtime(store: ParseCache, key: str, limits: Limits) -> None:
    """Cache a parse that ran out of time, for the pool that killed the worker it ran in
    (`within`)."""
    store.put(key, {"error": overtime(limits.seconds or 0), "limits": limits.tag()})


def _parse_uncached(
    handle: BinaryIO,
    file: Path,
    name: str,
    pipeline: Pipeline,
    size: int,
    limits: Limits,
    remember: Callable[[], None] | None = None,
) -> Document:
    suffix = file.suffix.lower()
    fmt = "txt" if suffix in TEXT_SUFFIXES else DOCLING_FORMATS.get(suffix)
    fmt = "image" if suffix in IMAGE_SUFFIXES else fmt
    if fmt is None:
        raise ParseError(name, f"unsupported file type '{suffix or file.name}'")
    if fmt != "pdf":
        limits.check_size(handle, fmt, size, name)
    handle.seek(0)
    data = handle.read()
    if fmt == "txt":
        return read_text(file, name, data)
    head = data[:8192]
    if not head:
        raise ParseError(name, EMPTY_FILE)
    if fmt == "image":
        return image_document(file, data, name)
    if fmt == "pdf" and not head.startswith(b"%PDF-"):
        raise ParseError(name, "corrupt PDF: no PDF header")
    if fmt in ("md", "csv", "html") and looks_binary(head):
        raise ParseError(name, "binary content, not text")
    if fmt == "pdf" and pipeline == "layout" and not layout_available():
        document = _native_pdf(file, data, name, limits.seconds)
        document.warnings.append(
            "layout pipeline not installed (pip install 'fsnb[layout]'): used the native pipeline"
        )
        return document
    if fmt == "pdf" and pipeline == "native":
        return _native_pdf(file, data, name, limits.seconds)
    if fmt == "pdf":
        return _docling(file, data, name, fmt, pipeline)
    if in_worker():  # parsed in this process: built before the pool's clock starts
        _converter("office")
    args = (file, data, name, fmt, pipeline)
    return within(limits.seconds, name, _docling, *args, on_overtime=remember)


def layout_available() -> bool:
    """Whether Docling's layout models can run here (the `layout` extra is installed)."""
    return all(importlib.util.find_spec(m) for m in ("torch", "docling_ibm_models"))


def _converter(kind: str, seconds: float | None = None) -> DocumentConverter:
    """One converter per thread and kind ('native' PDFs, 'layout' PDFs, other formats);
    native PDF converters stop after `seconds` (Docling's `document_timeout`)."""
    converters = _local.__dict__.setdefault("converters", {})
    key = f"{kind}/{seconds}" if kind == "native" else kind
    if key not in converters:
        from docling.datamodel.base_models import InputFormat
        from docling.document_converter import DocumentConverter, NativePdfFormatOption

        options: dict[Any, Any] = {}
        if kind == "native":
            from docling.datamodel.pipeline_options import NativePdfPipelineOptions

            native = NativePdfPipelineOptions(
                generate_page_images=False,
                generate_picture_images=False,
                parser_threads=_PARSER_THREADS,
                document_timeout=seconds,
            )
            options[InputFormat.PDF] = NativePdfFormatOption(pipeline_options=native)
        converters[key] = DocumentConverter(format_options=options)
        # fsnb reports every file Docling cannot convert, on one line of its own: Docling's
        # warning that the input "is not valid" would say it twice, mid-progress.
        logging.getLogger("docling.document_converter").setLevel(logging.ERROR)
    return converters[key]


def _stream(file: Path, data: bytes) -> DocumentStream:
    """The bytes read from the checked descriptor, as Docling takes them (by the name's
    suffix), so Docling never opens the path."""
    from docling.datamodel.base_models import DocumentStream

    return DocumentStream(name=file.name, stream=io.BytesIO(data))


def convert(
    file: Path, data: bytes, name: str, kind: str, seconds: float | None = None
) -> DoclingDocument:
    """`data` (the content of `file`) as a DoclingDocument through the `kind` pipeline
    ("native" PDF, "office"); a failure or a timeout raises a one-line `ParseError`."""
    from docling.datamodel.base_models import ConversionStatus

    try:
        result = _converter(kind, seconds).convert(_stream(file, data), raises_on_error=False)
    except Exception as exc:  # Docling raises its own and its backends' errors
        raise ParseError(name, _reason(exc, file)) from None
    if result.has_timeout_errors():
        raise TooLarge(name, overtime(seconds or 0))
    if result.status not in (ConversionStatus.SUCCESS, ConversionStatus.PARTIAL_SUCCESS):
        detail = "; ".join(e.error_message for e in result.errors) or result.status.value
        raise ParseError(name, f"Docling could not convert it ({_unplaced(detail, file)})")
    return result.document


def _unplaced(text: str, file: Path) -> str:
    """A parser's message on one line, naming the file without the folders it lies in."""
    return " ".join(text.replace(str(file), file.name).split())


def _reason(exc: Exception, file: Path) -> str:
    text = _unplaced(str(exc), file) or type(exc).__name__
    lowered = text.lower()
    if "password" in lowered or "encrypt" in lowered:
        return "encrypted file (password required)"
    if "not valid" in lowered or "format" in lowered or "corrupt" in lowered:
        return f"corrupt or unreadable file ({text[:160]})"
    return text[:200]


def _native_pdf(file: Path, data: bytes, name: str, seconds: float | None) -> Document:
    from docling_core.types.doc import CoordOrigin

    converted = convert(file, data, name, "native", seconds)
    lines: list[Line] = []
    for item in converted.texts:
        if not item.prov or not item.text.strip():
            continue
        prov = item.prov[0]
        box = prov.bbox
        if box.coord_origin != CoordOrigin.BOTTOMLEFT:
            box = box.to_bottom_left_origin(converted.pages[prov.page_no].size.height)
        lines.append(Line(item.text, prov.page_no, box.l, box.t, box.r, box.b))
    if not converted.pages:
        raise ParseError(name, "corrupt PDF: no page could be read")
    count = len(converted.pages)
    pages = {n: "\n\n".join(b) for n, b in reflow(lines).items()}
    # Born-digital pages stay as read; only those with (nearly) no text are tried as scans.
    scans = scanned_pages(data, name, thin_pages(pages, count))
    reading = read_pdf_pages(data, name, scans) if scans else None
    if reading:
        pages |= {n: text for n, (text, _) in reading.pages.items()}
    if not any(text.strip() for text in pages.values()):
        raise ParseError(name, _why_no_text(data, reading))
    # scanned pages left unread are in the reading's notes
    unread = [n for n in range(1, count + 1) if n not in pages and n not in scans]
    warnings = [f"page {n} has no text layer" for n in unread]
    doc = assemble(file, "pdf", pages, count, "docling-native-pdf", warnings)
    return with_reading(doc, reading) if reading else doc


def _why_no_text(data: bytes, reading: Reading | None) -> str:
    """Tell a damaged PDF (PDFium cannot open it) from one without a text layer, and that
    from a scan OCR could not read (or that needs OCR installed)."""
    import pypdfium2

    try:
        pypdfium2.PdfDocument(data).close()
    except pypdfium2.PdfiumError as exc:
        return corrupt_pdf(exc)
    if reading is None:
        return "no text layer, and no scanned page to read"
    if reading.notes and not reading.pages:
        return f"no text layer: {reading.notes[0]}"
    return "no text layer, and OCR found no text on its scanned pages"


def _docling(file: Path, data: bytes, name: str, fmt: str, pipeline: Pipeline) -> Document:
    kind = "layout" if fmt == "pdf" else "office"
    from docling_core.types.doc import ContentLayer

    doc = convert(file, data, name, kind)
    count = doc.num_pages()
    # Speaker notes and comments live in Docling's NOTES layer, which exports leave out.
    # The text is kept as the document has it: no HTML entities (`&amp;`, `&lt;`) for the
    # index, the model and the views to show, and a literal "&amp;" in a document stays.
    layers = {ContentLayer.BODY, ContentLayer.NOTES}

    def export(page: int | None = None) -> str:
        return doc.export_to_markdown(
            page_no=page, included_content_layers=layers, escape_html=False
        )

    pages = {n: export(n) for n in range(1, count + 1)} if count > 1 else {1: export()}
    if not any(text.strip() for text in pages.values()):
        raise ParseError(name, "no text found in the document")
    parser = "docling-layout-pdf" if fmt == "pdf" else f"docling-{fmt}"
    return assemble(file, fmt, pages, max(count, 1), parser, [])
