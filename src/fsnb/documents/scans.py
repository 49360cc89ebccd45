"""Scanned pages and images as documents: the OCR part of a parse (issue 25).

A PDF page with no text layer (or a few characters over a page-sized image) and every
page of an image file (PNG, JPEG, TIFF, WebP, BMP) is read by `fsnb.documents.ocr`. The
reading runs in the parse's worker process, with limits of its own (`OcrLimits`): a time
limit per page (the worker is killed past it), a time budget per file (no page is started
past it) and a page cap per file (a 2,000-page scanned book is read to the cap, and the
document says how long the rest would take). Each page read keeps its mean confidence
(`Document.ocr`); an image's pixel size, EXIF date and camera are its `Document.meta`.
Without the `ocr` extra, or with `FSNB_OCR=0`, such pages are named as unread, with the
install command.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fsnb.documents import ocr
from fsnb.documents.limits import within
from fsnb.documents.model import LOW_OCR_CONFIDENCE, Document, assemble
from fsnb.errors import ParseError

#: Bumped whenever what OCR reads changes (the engine's settings, the reading order), so
#: that cached parses of scans are read again.
READER_VERSION = "ocr2"
#: How the reason a scanned page or an image was not read begins (`unread_reason`).
NEEDS_OCR = "needs OCR"
#: EXIF tags: DateTimeOriginal and DateTime (the Exif IFD, then the main one), Make, Model.
_EXIF_IFD, _TAKEN, _DATETIME, _MAKE, _MODEL = 0x8769, 36867, 306, 271, 272


@dataclass(frozen=True)
class OcrLimits:
    """The limits of one file's OCR; None for no limit."""

    page_s: float | None = 60.0
    file_s: float | None = 600.0
    max_pages: int | None = 100

    @classmethod
    def from_env(cls) -> OcrLimits:
        """`FSNB_OCR_PAGE_TIMEOUT`, `FSNB_OCR_TIMEOUT` (seconds) and `FSNB_OCR_MAX_PAGES`
        over the defaults (0: no limit)."""
        page, file, pages = (
            _env(name, default)
            for name, default in (
                ("FSNB_OCR_PAGE_TIMEOUT", cls.page_s),
                ("FSNB_OCR_TIMEOUT", cls.file_s),
                ("FSNB_OCR_MAX_PAGES", cls.max_pages),
            )
        )
        return cls(page, file, int(pages) if pages else None)

    def tag(self) -> str:
        """The limits as part of a cache key."""
        return f"ocr{self.page_s}/{self.file_s}/{self.max_pages}"


@dataclass
class Reading:
    """What OCR read of one file: each page's text and confidence, the notes on what was
    left unread, and an image's metadata."""

    pages: dict[int, tuple[str, float]]
    notes: list[str]
    meta: dict[str, Any]


def enabled() -> bool:
    """Whether OCR runs here: installed (the `ocr` extra), and not turned off by
    `FSNB_OCR=0`."""
    off = os.environ.get("FSNB_OCR", "").strip().lower() in ("0", "off", "false", "no")
    return not off and ocr.available()


def why_off() -> str:
    """Why OCR does not run: "OCR is turned off (FSNB_OCR=0)" or "OCR is not installed
    (pip install 'fsnb[ocr]')"."""
    if ocr.available():
        return "OCR is turned off (FSNB_OCR=0)"
    return f"OCR is not installed ({ocr.INSTALL_HINT})"


def unread_reason() -> str:
    """Why scanned pages or images were left unread (it begins with `NEEDS_OCR`)."""
    return f"{NEEDS_OCR}: {why_off()}"


def summary(read: Mapping[str, Mapping[int, float]], unread: int) -> list[str]:
    """The lines a report gives of OCR: the pages read (`read`: path -> {page:
    confidence}) with their mean confidence, and the `unread` files whose scans went
    unread for want of OCR."""
    lines = []
    confidences = [c for pages in read.values() for c in pages.values()]
    if confidences:
        pages, files = len(confidences), sum(bool(p) for p in read.values())
        mean = sum(confidences) / pages
        low = sum(c < LOW_OCR_CONFIDENCE for c in confidences)
        lines.append(
            f"OCR read {pages:,} page{'s' * (pages != 1)} of {files:,} file"
            f"{'s' * (files != 1)}, mean confidence {mean:.2f}"
            + (f" ({low:,} below {LOW_OCR_CONFIDENCE:g})" if low else "")
        )
    if unread:
        holds = "s hold" if unread != 1 else " holds"
        lines.append(f"{unread:,} file{holds} scanned pages or images not read: {why_off()}")
    return lines


def cache_tag() -> str:
    """What a parse's cache key holds of OCR: whether it runs, and its limits (so that
    installing the extra, or raising a limit, reads the scans again)."""
    return f"{READER_VERSION}/{OcrLimits.from_env().tag()}" if enabled() else "no-ocr"


def read_image(data: bytes, name: str) -> Reading:
    """Every frame of the image file in `data` read by OCR, within the limits. Raises
    `ParseError` for an image that cannot be read (corrupt, over the pixel limit) or when
    OCR is not installed."""
    if not enabled():
        raise ParseError(name, f"an image, {unread_reason()}")
    limits = OcrLimits.from_env()
    budget = _budget(limits)
    return within(budget, name, _read, data, "image", [], name, limits, why=_file_why(budget))


def read_pdf_pages(data: bytes, name: str, pages: list[int]) -> Reading:
    """`pages` (1-based) of the PDF in `data`, scans, read by OCR within the limits; when
    OCR is not installed, a note that names them."""
    if not enabled():
        return Reading({}, [f"{_pages(pages)} scanned, not read: {unread_reason()}"], {})
    limits = OcrLimits.from_env()
    budget = _budget(limits)
    return within(budget, name, _read, data, "pdf", pages, name, limits, why=_file_why(budget))


def image_document(file: Path, data: bytes, name: str) -> Document:
    """An image file read by OCR, page by page (a multi-page TIFF has several); `ParseError`
    for one that cannot be read (corrupt, over the pixel limit) or without OCR."""
    reading = read_image(data, name)
    count = max(reading.pages, default=0)
    pages = {n: text for n, (text, _) in reading.pages.items()}
    # a photo without text is still a document: its date, camera and size can be searched
    empty = [] if any(text.strip() for text in pages.values()) else ["OCR found no text"]
    doc = assemble(file, "image", pages, count, "rapidocr", empty)
    return with_reading(doc, reading)


def with_reading(doc: Document, reading: Reading) -> Document:
    """`doc` marked with what OCR read: each page's confidence, the notes, the metadata."""
    doc.ocr = {n: conf for n, (text, conf) in reading.pages.items() if text.strip()}
    doc.warnings += reading.notes
    doc.meta |= reading.meta
    if doc.ocr and doc.parser != "rapidocr":
        doc.parser += "+rapidocr"
    return doc


def thin_pages(pages: dict[int, str], count: int) -> list[int]:
    """Of pages 1..`count`, those whose text (in `pages`) has fewer than `ocr.FEW_CHARS`
    visible characters: the ones that may be scans."""
    return [
        n for n in range(1, count + 1) if len("".join(pages.get(n, "").split())) < ocr.FEW_CHARS
    ]


def scanned_pages(data: bytes, name: str, candidates: list[int]) -> list[int]:
    """Which of `candidates` (pages with little or no text) are scans (`ocr.needs_ocr`);
    none when PDFium cannot read the file (the parse says what it could read)."""
    if not candidates:
        return []
    import pypdfium2

    from fsnb.documents.pdf_text import PDFIUM_LOCK

    with PDFIUM_LOCK:
        try:
            pdf = pypdfium2.PdfDocument(data)
        except pypdfium2.PdfiumError:
            return []
        try:
            return [n for n in candidates if n <= len(pdf) and _is_scan(pdf, n)]
        except pypdfium2.PdfiumError:
            return []
        finally:
            pdf.close()


def image_meta(image: Any) -> dict[str, Any]:
    """A PIL image's pixel size, and its EXIF date taken (ISO) and camera when present."""
    width, height = image.size
    meta: dict[str, Any] = {"width": width, "height": height}
    try:
        exif = image.getexif()
        inner = exif.get_ifd(_EXIF_IFD)
    except Exception:  # a damaged EXIF block is no metadata, not an unreadable image
        return meta
    stamp = inner.get(_TAKEN) or exif.get(_DATETIME)
    if isinstance(stamp, str) and (taken := _exif_date(stamp)):
        meta["taken"] = taken[:10]  # a date, as the filter language compares dates
        meta["taken_at"] = taken
    camera = " ".join(str(exif.get(tag) or "").strip("\0 ") for tag in (_MAKE, _MODEL)).strip()
    if camera:
        meta["camera"] = camera[:80]
    return meta


def photo_taken(path: Path, root: Path) -> str | None:
    """When the image at `path` (inside `root`) was taken, from its EXIF header (ISO
    8601), without decoding its pixels; None when it has no date or cannot be read."""
    from PIL import Image

    from fsnb.security import open_file

    try:
        with open_file(path, root) as handle, Image.open(handle) as image:
            return image_meta(image).get("taken_at")
    except Exception:  # not an image, damaged, unreadable: no date
        return None


def _read(data: bytes, kind: str, pages: list[int], name: str, limits: OcrLimits) -> Reading:
    """The OCR job, in a worker: the pages one at a time, each under its own clock."""
    from fsnb.documents import child

    if kind == "image":
        frames = ocr.open_image(data, name)
        meta = image_meta(frames[0])
        images = {n: (lambda f=frame: f) for n, frame in enumerate(frames, 1)}
    else:
        meta, images = {}, {n: _renderer(data, name, n) for n in pages}
    wanted = list(images)[: limits.max_pages]
    read: dict[int, tuple[str, float]] = {}
    notes: list[str] = []
    started = time.monotonic()
    for number in wanted:
        spent = time.monotonic() - started
        if limits.file_s and read and spent + spent / len(read) > limits.file_s:
            notes.append(_stopped(len(read), len(images), spent, "FSNB_OCR_TIMEOUT"))
            break
        why = f"OCR of page {number} still running after {limits.page_s:g} s"
        why += " (FSNB_OCR_PAGE_TIMEOUT raises the limit)"
        if limits.page_s and child.in_worker():
            with child.clock(limits.page_s, None, why):
                page = ocr.ocr_image(images[number]())
        else:
            page = ocr.ocr_image(images[number]())
        read[number] = (page.text, round(page.confidence, 3))
    else:
        if len(wanted) < len(images):
            spent = time.monotonic() - started
            notes.append(_stopped(len(read), len(images), spent, "FSNB_OCR_MAX_PAGES"))
    return Reading(read, notes, meta)


def _renderer(data: bytes, name: str, number: int) -> Any:
    """A function rendering page `number` of the PDF in `data` for OCR."""

    def render() -> Any:
        from fsnb.documents.pdf_text import PDFIUM_LOCK, open_pdf

        with PDFIUM_LOCK:
            pdf = open_pdf(data, name)
            try:
                page = pdf[number - 1]
                try:
                    return ocr.render_pdf_page(page)
                finally:
                    page.close()
            finally:
                pdf.close()

    return render


def _is_scan(pdf: Any, number: int) -> bool:
    page = pdf[number - 1]
    try:
        return ocr.needs_ocr(page)
    finally:
        page.close()


def _stopped(done: int, total: int, spent: float, limit: str) -> str:
    """The note on a file whose OCR stopped at a limit: how long the rest would take."""
    rate = spent / done if done else 0.0
    rest = (total - done) * rate
    eta = f"{rest / 60:,.0f} min" if rest >= 90 else f"{rest:,.0f} s"
    return (
        f"OCR read {done:,} of {total:,} scanned pages; the other {total - done:,} would take "
        f"about {eta} ({limit} raises the limit)"
    )


def _budget(limits: OcrLimits) -> float | None:
    """The hard time limit of one file's OCR job: its budget and one page past it."""
    if not limits.file_s:
        return None
    return limits.file_s + (limits.page_s or limits.file_s)


def _file_why(budget: float | None) -> str:
    return f"OCR still running after {budget or 0:g} s (FSNB_OCR_TIMEOUT raises the limit)"


def _pages(pages: list[int]) -> str:
    if len(pages) == 1:
        return f"page {pages[0]}"
    shown = ", ".join(str(n) for n in pages[:5]) + (", ..." if len(pages) > 5 else "")
    return f"{len(pages)} pages ({shown})"


def _exif_date(stamp: str) -> str | None:
    """EXIF's "2024:03:17 14:05:09" as ISO 8601, or None for an unset or garbled stamp."""
    import datetime as dt

    try:
        return dt.datetime.strptime(stamp.strip("\0 ")[:19], "%Y:%m:%d %H:%M:%S").isoformat()
    except ValueError:
        return None


def _env(name: str, default: float | None) -> float | None:
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return value if value and value > 0 else None


def suffix_is_image(path: str | os.PathLike[str]) -> bool:
    """Whether a file is read as an image (by its suffix)."""
    return Path(path).suffix.lower() in ocr.IMAGE_SUFFIXES
