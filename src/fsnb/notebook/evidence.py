"""The evidence behind a citation: the cited PDF page with the quote highlighted, or the
passage of another document with the text around it.

`page_image(root, cite)` renders the cited page of a PDF with PDFium (pypdfium2), finds the
quote in the page's text (fsnb's own matcher, then a looser one that reads letters and
digits alone, so line breaks, hyphenation, bullets and quote marks do not matter), and
draws a translucent highlight over its characters with Pillow. `crop=True` gives the small
variant that a saved notebook's record carries: the text column around the quote, at most
`CROP_WIDTH` pixels wide and `CROP_HEIGHT` high, in few colors (a few KB). A quote not on
the page gives the page without a highlight and a note.

`panel_evidence` is what the panel shows when a citation is opened: the page as a data URL
with the highlight's box (for scrolling it into view), or for any other format the passage
as HTML with the quote in `<mark>`. A missing, unreadable or corrupt file, or a path
outside the folder (refused by `fsnb.security.Sandbox`), is a one-line note, never an
exception. Pages are rendered only when asked for, and kept per (file, mtime, size, page,
quote) in a small in-memory cache.
"""

from __future__ import annotations

import base64
import html
import io
import logging
import os
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fsnb.documents.quotes import PAGE_MARK
from fsnb.errors import one_line

if TYPE_CHECKING:
    from PIL import Image

    from fsnb.agent.citations import Citation

log = logging.getLogger(__name__)

#: The page shown in the panel: about this wide, at most MAX_SCALE x, at most MAX_PIXELS.
VIEW_WIDTH = 1000
MAX_SCALE = 2.0
MAX_PIXELS = 4_000_000
#: The record's crops: at most this wide and high, with this many lines above and below.
CROP_WIDTH = 640
CROP_HEIGHT = 480
CROP_LINES = 1.5
#: The record carries at most RECORD_IMAGES crops, each under CROP_BYTES, in all under
#: RECORD_BYTES: the first verified PDF citations that fit.
RECORD_IMAGES = 8
CROP_BYTES = 60_000
RECORD_BYTES = 240_000
#: `FSNB_EVIDENCE_IMAGES=0` leaves the images out of every record.
ENV = "FSNB_EVIDENCE_IMAGES"
#: Multiplied into the page: white paper turns yellow, ink stays dark.
_HIGHLIGHT = (255, 222, 64)
_CACHE: OrderedDict[tuple, PageImage] = OrderedDict()
_CACHE_SIZE = 48
_CACHE_LOCK = threading.Lock()
#: A citation without a page is looked for on the first pages only.
SEARCH_PAGES = 50


@dataclass(frozen=True)
class PageImage:
    """A rendered page (or crop) as PNG; `box` is the highlight's (x0, y0, x1, y1) in the
    image's pixels, None when the quote was not found on the page (then `note` says so)."""

    png: bytes
    width: int
    height: int
    page: int
    box: tuple[int, int, int, int] | None
    note: str = ""

    def data_url(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def images_enabled(setting: bool | None = None) -> bool:
    """Whether records carry evidence images: `setting` (`ExploreMagics.evidence_images`;
    None: yes), unless the environment says `FSNB_EVIDENCE_IMAGES=0` (or false, no, off)."""
    if os.environ.get(ENV, "").strip().lower() in ("0", "false", "no", "off"):
        return False
    return True if setting is None else bool(setting)


def is_pdf(path: str) -> bool:
    return path.lower().endswith(".pdf")


def find_quote(quote: str, text: str) -> tuple[int, int] | None:
    """The (start, end) of `quote` in `text`: fsnb's matcher (spacing and case), else the
    letters and digits alone (line breaks, hyphenation, bullets, dashes and quote marks
    left out), for a quote at least 8 such characters long."""
    from fsnb.documents.quotes import quote_pattern
    from fsnb.text.redact import MARKER

    pattern = quote_pattern(quote)
    if pattern and (found := pattern.search(text)):
        return found.span()
    part = max(PAGE_MARK.sub(" ", quote).split(MARKER), key=len)
    wanted = _folded(part)[0]
    if len(wanted) < 8:
        return None
    folded, where = _folded(text)
    at = folded.find(wanted)
    return None if at < 0 else (where[at], where[at + len(wanted) - 1] + 1)


def _folded(text: str) -> tuple[str, list[int]]:
    """`text`'s letters and digits, case-folded, and the index in `text` of each."""
    chars, where = [], []
    for index, char in enumerate(text):
        for folded in unicodedata.normalize("NFKC", char).casefold():
            if folded.isalnum():
                chars.append(folded)
                where.append(index)
    return "".join(chars), where


def page_image(root: str, cite: dict[str, Any], *, crop: bool = False) -> PageImage | None:
    """The cited page of a PDF with the quote highlighted (`crop`: the record's small crop
    around it); None when the cited file is not a PDF. Raises `FsnbError` or `OSError` for
    a path outside `root`, a missing or unreadable file, `ParseError` for a corrupt one."""
    from fsnb.security import Sandbox

    path = str(cite.get("path") or "")
    if not is_pdf(path):
        return None
    box = Sandbox(root)
    with box.open(path) as handle:
        stat = os.fstat(handle.fileno())
        page, quote = cite.get("page"), str(cite.get("quote") or "")
        key = (str(box.resolve(path)), stat.st_mtime_ns, stat.st_size, page, quote, crop)
        with _CACHE_LOCK:
            if key in _CACHE:
                _CACHE.move_to_end(key)
                return _CACHE[key]
        image = _render(handle, path, page if isinstance(page, int) else None, quote, crop)
    with _CACHE_LOCK:
        _CACHE[key] = image
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return image


def _render(handle: Any, name: str, page: int | None, quote: str, crop: bool) -> PageImage:
    import pypdfium2 as pdfium

    from fsnb.documents.pdf_text import (
        PDFIUM_LOCK,  # PDFium is not thread-safe
        corrupt_pdf,
        open_pdf,
    )
    from fsnb.errors import ParseError

    with PDFIUM_LOCK:
        pdf = open_pdf(handle, name)
        try:
            count = len(pdf)
            if count == 0:
                raise ParseError(name, "the PDF has no pages")
            return _render_page(pdf, count, page, quote, crop)
        except pdfium.PdfiumError as exc:
            raise ParseError(name, corrupt_pdf(exc)) from None
        finally:
            pdf.close()


def _render_page(pdf: Any, count: int, page: int | None, quote: str, crop: bool) -> PageImage:
    """Find the quote (on `page`, else on the first page that has it), render, highlight."""
    note = ""
    if page is not None and not 1 <= page <= count:
        note = f"page {page} is not in the file ({count} pages)"
        page = None
    for index in [page - 1] if page is not None else range(min(count, SEARCH_PAGES)):
        rects, lines = _quote_rects(pdf, index, quote)
        if rects:
            return _draw(pdf, index, rects, lines, crop, note)
    index = 0 if page is None else page - 1
    where = f"on page {index + 1}" if page is not None else "in the PDF's text"
    missing = f"the quote was not found {where}: the page is shown without a highlight"
    note = f"{note}; {missing}" if note else missing
    return _draw(pdf, index, [], [], crop, note)


def _quote_rects(pdf: Any, index: int, quote: str) -> tuple[list[tuple], list[tuple]]:
    """(the quote's rectangles, every text rectangle of page `index`), in PDF units."""
    import pypdfium2.raw as raw

    page = pdf[index]
    textpage = page.get_textpage()
    try:
        lines = [textpage.get_rect(i) for i in range(textpage.count_rects())]
        span = find_quote(quote, textpage.get_text_range()) if quote else None
        if span is None:
            return [], lines
        # get_text_range's indices are the text's; count_rects wants the character list's
        first = raw.FPDFText_GetCharIndexFromTextIndex(textpage.raw, span[0])
        last = raw.FPDFText_GetCharIndexFromTextIndex(textpage.raw, span[1] - 1)
        first, last = (span[0], span[1] - 1) if min(first, last) < 0 else (first, last)
        found = textpage.count_rects(first, last - first + 1)
        return [textpage.get_rect(i) for i in range(found)], lines
    finally:
        textpage.close()
        page.close()


def _draw(
    pdf: Any, index: int, rects: list[tuple], lines: list[tuple], crop: bool, note: str
) -> PageImage:
    page = pdf[index]
    try:
        width, height = page.get_size()
        marked = [_to_pixels(page, r, width, height) for r in rects]  # at scale 1
        around = [_to_pixels(page, r, width, height) for r in lines] if crop else []
        region = _crop_region(marked, around)
        if region is not None:
            scale = min(MAX_SCALE, CROP_WIDTH / max(region[2] - region[0], 1))
        else:
            scale = min(MAX_SCALE, VIEW_WIDTH / max(width, 1))
        scale = min(scale, (MAX_PIXELS / max(width * height, 1)) ** 0.5)
        image = page.render(scale=scale).to_pil().convert("RGB")
    finally:
        page.close()
    boxes = [tuple(round(v * scale) for v in r) for r in marked]
    if boxes:
        image = _highlight(image, boxes)
    box = _union(boxes) if boxes else None
    if region is not None:
        x0, y0, x1, y1 = (round(v * scale) for v in region)
        dx, dy = max(x0, 0), max(y0, 0)
        image = image.crop((dx, dy, min(x1, image.width), min(y1, y0 + CROP_HEIGHT, image.height)))
        box = box and (box[0] - dx, box[1] - dy, box[2] - dx, box[3] - dy)
    if box is not None:  # within the image (a long quote's crop shows its start)
        box = (max(box[0], 0), max(box[1], 0), min(box[2], image.width), min(box[3], image.height))
    png = _png(image, 16 if crop else 32)
    return PageImage(png, image.width, image.height, index + 1, box, note)


def _to_pixels(page: Any, rect: tuple, width: float, height: float) -> tuple[float, ...]:
    """A rectangle in PDF units as (x0, y0, x1, y1) in the page's image at scale 1, through
    PDFium's own mapping (the page's rotation and crop box included)."""
    import ctypes

    import pypdfium2.raw as raw

    ref = 8  # map at 8x, for sub-pixel precision from PDFium's integer results
    size = (round(width * ref), round(height * ref))
    xs, ys = [], []
    for x, y in ((rect[0], rect[1]), (rect[2], rect[3])):
        dx, dy = ctypes.c_int(), ctypes.c_int()
        raw.FPDF_PageToDevice(page.raw, 0, 0, *size, 0, x, y, ctypes.byref(dx), ctypes.byref(dy))
        xs.append(dx.value / ref)
        ys.append(dy.value / ref)
    return (min(xs), min(ys), max(xs), max(ys))


def _crop_region(marked: list[tuple], lines: list[tuple]) -> tuple[float, ...] | None:
    """The record's crop at scale 1: the page's text column, the quote's lines and those
    within CROP_LINES lines above and below it, whole, with a margin that stops short of
    the next line."""
    if not marked or not lines:
        return None
    heights = sorted(r[3] - r[1] for r in lines)
    band = CROP_LINES * 1.4 * heights[len(heights) // 2]
    near, far = min(r[1] for r in marked) - band, max(r[3] for r in marked) + band
    shown = [*marked, *(r for r in lines if r[3] > near and r[1] < far)]
    top, bottom = min(r[1] for r in shown), max(r[3] for r in shown)
    above = [top - r[3] for r in lines if r[3] <= top]
    below = [r[1] - bottom for r in lines if r[1] >= bottom]
    pad = 6.0
    top -= min([pad, *(gap / 2 for gap in above)])
    bottom += min([pad, *(gap / 2 for gap in below)])
    left, right = min(r[0] for r in lines) - pad, max(r[2] for r in lines) + pad
    return (max(left, 0.0), max(top, 0.0), right, bottom)


def _highlight(image: Image.Image, boxes: list[tuple]) -> Image.Image:
    from PIL import Image, ImageChops, ImageDraw

    overlay = Image.new("RGB", image.size, (255, 255, 255))
    draw = ImageDraw.Draw(overlay)
    for x0, y0, x1, y1 in boxes:
        draw.rectangle((x0 - 1, y0 - 1, x1 + 1, y1 + 1), fill=_HIGHLIGHT)
    return ImageChops.multiply(image, overlay)


def _union(boxes: list[tuple]) -> tuple[int, int, int, int]:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _png(image: Image.Image, colors: int) -> bytes:
    """`image` as a PNG of at most `colors` colors (a page is ink, paper and the highlight:
    a small palette keeps it legible and several times smaller)."""
    from PIL import Image

    small = image.quantize(colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", optimize=True)
    return out.getvalue()


# -- what the panel and the record show -------------------------------------------------


def passage_html(context: dict[str, Any]) -> str:
    """The passage around a quote (`quote_context`'s before, match and after) as HTML, the
    quote in `<mark>`; every character of the document escaped."""

    def tidy(text: str) -> str:
        return html.escape(re.sub(r"\s*\n\s*\n\s*", "\n", text))

    before, after = str(context.get("before") or ""), str(context.get("after") or "")
    mark = f"<mark>{html.escape(str(context.get('match') or ''))}</mark>"
    head = f"<span class='fsnb-context'>…{tidy(before)}</span>" if before else ""
    tail = f"<span class='fsnb-context'>{tidy(after)}…</span>" if after else ""
    return f"<blockquote class='fsnb-citation-passage'>{head}{mark}{tail}</blockquote>"


def panel_evidence(root: str | None, cite: dict[str, Any]) -> dict[str, Any]:
    """What the panel shows of an opened citation: the passage with its context (`before`,
    `match`, `after`, `page`, and `passage_html`), and for a PDF `evidence`: the page as a
    data URL with its size and the highlight's `box`; `note`: what could not be shown."""
    from fsnb.notebook.display import quote_context

    out: dict[str, Any] = {}
    if not root or not cite.get("path"):
        return {"note": "the citation names no file"}

    def note(what: str, exc: Exception) -> str:
        log.debug("fsnb: %s: %s", what, cite.get("path"), exc_info=True)
        where = f"{Path(root).resolve()}{os.sep}"  # file names relative to the folder
        return f"{what}: {one_line(exc).replace(where, '')}"

    try:
        out.update(quote_context(root, cite))
        out["passage_html"] = passage_html(out) if out.get("before") or out.get("after") else ""
    except Exception as exc:  # a note in the panel, never a failed request
        return {"note": note("the cited file cannot be shown", exc)}
    try:
        image = page_image(root, cite)
    except Exception as exc:
        return {**out, "note": note("the page cannot be shown", exc)}
    if image is not None:
        out["evidence"] = {
            "image": image.data_url(),
            "width": image.width,
            "height": image.height,
            "page": image.page,
            "box": list(image.box) if image.box else None,
        }
        if image.note:
            out["note"] = image.note
    return out


def record_images(root: str | None, citations: Iterable[Citation]) -> dict[int, PageImage]:
    """The crops a record carries, by citation id: verified PDF citations whose quote was
    found on the page, in id order, at most RECORD_IMAGES of them, each under CROP_BYTES,
    together under RECORD_BYTES; a file that cannot be rendered is left out."""
    found: dict[int, PageImage] = {}
    total = 0
    for cite in sorted(citations, key=lambda c: c.id):
        if not root or len(found) >= RECORD_IMAGES:
            break
        if not cite.verified or not is_pdf(cite.path):
            continue
        try:
            image = page_image(root, cite.to_dict(), crop=True)
        except Exception:
            log.debug("fsnb: no evidence image for %s", cite.path, exc_info=True)
            continue
        if image is None or image.box is None or len(image.png) > CROP_BYTES:
            continue
        if total + len(image.png) > RECORD_BYTES:
            break
        found[cite.id] = image
        total += len(image.png)
    return found
