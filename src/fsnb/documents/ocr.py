"""OCR of scanned pages and images (issue 25): RapidOCR's PP-OCR models on ONNX Runtime.

The models come inside the `rapidocr` wheel (the `ocr` extra) and are named by path, so
nothing is ever downloaded. One engine per process, made on first use. A page is read in
the orientation that reads best: at 0 degrees first, then 90 and 270 when the text lines
stand upright (a page scanned sideways), or 180 when little was read with confidence (a
page scanned upside down); the engine's own classifier is off so that a turned line reads
as noise rather than being silently flipped. Lines are put in reading order after the
page's skew (a few degrees) is measured from the boxes and taken out.

Images are opened with limits: over `max_pixels` (Pillow's decompression-bomb limit by
default, `FSNB_OCR_MAX_PIXELS`) an image is refused before it is decoded (`TooLarge`),
and an image Pillow cannot decode is a `ParseError`.
"""

from __future__ import annotations

import math
import os
import statistics
from dataclasses import dataclass, field
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Any

from PIL import Image, ImageOps, UnidentifiedImageError

from fsnb.errors import ParseError

#: File suffixes read as images.
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp"})
#: A PDF page with fewer characters than this in its text layer, over an image covering at
#: least `_SCAN_COVER` of it, is a scan (a stamp such as "Scanned by ..." is not text).
FEW_CHARS = 40
_SCAN_COVER = 0.5
#: A page with no text at all needs only this much of it under images to be a scan.
_ANY_COVER = 0.1
#: A reading this sure of itself at 0 degrees is not tried turned.
_SURE = 0.9
_MODELS = ("PP-OCRv6_det_small.onnx", "ch_ppocr_mobile_v2.0_cls_mobile.onnx")
_REC_MODEL = "PP-OCRv6_rec_small.onnx"
_OCR = "OCR"  # what an OcrUnavailable names
INSTALL_HINT = "pip install 'fsnb[ocr]'"


class OcrUnavailable(ParseError):
    """The OCR engine is not installed (the `ocr` extra)."""


class ImageTooLarge(ParseError):
    """An image over the pixel limit (a decompression bomb, a 30,000 x 30,000 PNG)."""


@dataclass(frozen=True)
class OcrLine:
    """One line of text read, its confidence (0-1) and box (left, top, right, bottom) in
    pixels of the image as it was given, before any turning."""

    text: str
    confidence: float
    box: tuple[float, float, float, float]


@dataclass
class OcrPage:
    """The text of one page read by OCR, in reading order, one line a line."""

    text: str
    #: Mean confidence over the characters read (0 when none were).
    confidence: float
    lines: list[OcrLine]
    #: Degrees the page was turned (counter-clockwise) to be read: 0, 90, 180 or 270.
    angle: int = 0
    size: tuple[int, int] = (0, 0)
    notes: list[str] = field(default_factory=list)


def max_pixels() -> int:
    """`FSNB_OCR_MAX_PIXELS`, else Pillow's decompression-bomb limit (about 89 Mpx)."""
    raw = os.environ.get("FSNB_OCR_MAX_PIXELS", "").strip()
    return int(raw) if raw.isdigit() else int(Image.MAX_IMAGE_PIXELS or 89_478_485)


def available() -> bool:
    """Whether the OCR engine is installed."""
    from importlib.util import find_spec

    return find_spec("rapidocr") is not None and find_spec("onnxruntime") is not None


@lru_cache(maxsize=1)
def engine() -> Any:
    """This process's RapidOCR engine, on the models inside the package
    (`FSNB_OCR_THREADS`: ONNX Runtime's threads per inference; unset or 0, its default)."""
    try:
        import rapidocr
        from rapidocr import RapidOCR
    except ImportError:
        why = f"the OCR engine is not installed ({INSTALL_HINT})"
        raise OcrUnavailable(_OCR, why) from None
    models = Path(rapidocr.__file__).parent / "models"
    det, cls = (models / name for name in _MODELS)
    rec = models / _REC_MODEL
    missing = [p.name for p in (det, cls, rec) if not p.is_file()]
    if missing:  # never let the engine fetch them
        why = f"the OCR models are missing: {', '.join(missing)}"
        raise OcrUnavailable(_OCR, why)
    threads = os.environ.get("FSNB_OCR_THREADS", "").strip()
    params: dict[str, Any] = {
        "Global.log_level": "error",
        # Detection on the page at most 960 pixels a side (not the default: the whole page
        # at full size, ~5x slower at 300 dpi and no better on printed text).
        "Det.limit_type": "max",
        "Det.limit_side_len": 960,
        "Det.model_path": str(det),
        "Cls.model_path": str(cls),
        "Rec.model_path": str(rec),
    }
    if threads.isdigit() and int(threads) > 0:
        params["EngineConfig.onnxruntime.intra_op_num_threads"] = int(threads)
    return RapidOCR(params=params)


def open_image(source: str | Path | bytes, name: str | None = None) -> list[Image.Image]:
    """The frames of an image file (one, or a multi-page TIFF's pages), decoded, turned by
    their EXIF orientation, in RGB. Raises `ImageTooLarge` before decoding an image over
    `max_pixels()`, `ParseError` for one that cannot be decoded."""
    name = name or (str(source) if not isinstance(source, bytes) else "image")
    limit = max_pixels()
    try:
        image = Image.open(BytesIO(source) if isinstance(source, bytes) else source)
    except Image.DecompressionBombError:
        raise ImageTooLarge(name, _too_large(None, limit)) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise ParseError(name, f"not a readable image ({_why(exc)})") from None
    frames: list[Image.Image] = []
    try:
        for index in range(getattr(image, "n_frames", 1)):
            image.seek(index)
            width, height = image.size
            if width * height > limit:
                raise ImageTooLarge(name, _too_large((width, height), limit))
            frames.append(ImageOps.exif_transpose(image).convert("RGB"))
    except ParseError:
        raise
    except Image.DecompressionBombError:
        raise ImageTooLarge(name, _too_large(image.size, limit)) from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ParseError(name, f"not a readable image ({_why(exc)})") from None
    finally:
        image.close()
    return frames


def ocr_image(image: Image.Image | str | Path | bytes, name: str | None = None) -> OcrPage:
    """The text of one image (the first frame of a file) read by OCR."""
    if not isinstance(image, Image.Image):
        image = open_image(image, name)[0]
    rgb = image.convert("RGB")
    best, upright = _read(rgb, 0)
    if best.confidence < _SURE or upright:
        tries = (90, 270) if upright else (180,)
        # Text standing upright was read line by line, but in no reading order: a turned
        # reading nearly as good wins.
        floor = _score(best) * (0.8 if upright else 1.0)
        for angle in tries if best.lines else ():
            found, _ = _read(rgb, angle)
            if _score(found) > floor:
                best, floor = found, _score(found)
    if not best.lines:
        best.notes.append("no text found on the page")
    elif best.confidence < 0.8:
        best.notes.append(f"low OCR confidence ({best.confidence:.2f})")
    return best


def ocr_file(path: str | Path, max_pages: int | None = None) -> list[OcrPage]:
    """Each page of an image file read by OCR (a multi-page TIFF has several)."""
    frames = open_image(path)
    return [ocr_image(frame) for frame in frames[:max_pages]]


def needs_ocr(page: Any) -> bool:
    """Whether a PDF page (a `pypdfium2.PdfPage`) is a scan: no text layer, or only a few
    characters, over images that cover the page."""
    import pypdfium2.raw as pdfium_c

    textpage = page.get_textpage()
    try:
        chars = len("".join(textpage.get_text_range().split()))
    finally:
        textpage.close()
    if chars >= FEW_CHARS:
        return False
    width, height = page.get_size()
    covered = 0.0
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=4):
        bounds = getattr(obj, "get_bounds", None) or obj.get_pos  # pypdfium2 5, 4
        left, bottom, right, top = bounds()
        covered += max(0.0, min(right, width) - max(left, 0.0)) * max(
            0.0, min(top, height) - max(bottom, 0.0)
        )
    cover = min(covered / (width * height), 1.0) if width * height else 0.0
    return cover >= (_ANY_COVER if chars == 0 else _SCAN_COVER)


def render_pdf_page(page: Any, dpi: int = 300) -> Image.Image:
    """A PDF page (a `pypdfium2.PdfPage`) as an RGB image at `dpi`."""
    return page.render(scale=dpi / 72).to_pil().convert("RGB")


def _read(image: Image.Image, angle: int) -> tuple[OcrPage, bool]:
    """The page read turned by `angle`, and whether most of its text stood upright."""
    turned = image.rotate(angle, expand=True) if angle else image
    result = engine()(turned, use_cls=False)
    boxes = [] if result.boxes is None else result.boxes.tolist()
    items = [
        (quad, str(text).strip(), float(score))
        for quad, text, score in zip(boxes, result.txts or (), result.scores or (), strict=False)
        if str(text).strip()
    ]
    tall = sum(len(text) for quad, text, _ in items if _tall(_bounds([quad])))
    rows = _reading_order(items)
    lines = [
        OcrLine(
            " ".join(text for _, text, _ in row),
            _mean([(score, len(text)) for _, text, score in row]),
            _unturn(_bounds([q for q, _, _ in row]), angle, image.size),
        )
        for row in rows
    ]
    confidence = _mean([(line.confidence, len(line.text)) for line in lines])
    text = "\n".join(line.text for line in lines)
    upright = tall * 2 > sum(len(text) for _, text, _ in items)
    return OcrPage(text, confidence, lines, angle, image.size), upright


def _reading_order(items: list) -> list[list]:
    """The boxes grouped into lines (top to bottom) and each line's boxes left to right,
    after the page's skew is taken out of their centres."""
    if not items:
        return []
    slopes = [
        (math.atan2(q[1][1] - q[0][1], q[1][0] - q[0][0]), q[1][0] - q[0][0])
        for q, _, _ in items
        if q[1][0] - q[0][0] > 0
    ]
    skew = statistics.median(s for s, _ in slopes) if slopes else 0.0
    cos, sin = math.cos(-skew), math.sin(-skew)
    placed = []
    for item in items:
        quad = item[0]
        x = sum(p[0] for p in quad) / 4
        y = sum(p[1] for p in quad) / 4
        height = (abs(quad[3][1] - quad[0][1]) + abs(quad[2][1] - quad[1][1])) / 2
        placed.append((x * sin + y * cos, x * cos - y * sin, max(height, 1.0), item))
    placed.sort(key=lambda p: p[0])
    tolerance = 0.6 * statistics.median(p[2] for p in placed)
    rows: list[list] = []
    for y, x, _, item in placed:
        if rows and abs(y - rows[-1][0]) <= tolerance:
            rows[-1][1].append((x, item))
            rows[-1][0] = statistics.fmean(v for v in [rows[-1][0], y])
        else:
            rows.append([y, [(x, item)]])
    return [[item for _, item in sorted(row, key=lambda c: c[0])] for _, row in rows]


def _unturn(box: tuple[float, float, float, float], angle: int, size: tuple[int, int]):
    """A box on the image turned by `angle` (counter-clockwise), on the image as given."""
    left, top, right, bottom = box
    width, height = size
    if angle == 90:  # turned: x' = y, y' = width - x
        return (width - bottom, left, width - top, right)
    if angle == 180:
        return (width - right, height - bottom, width - left, height - top)
    if angle == 270:  # turned: x' = height - y, y' = x
        return (top, height - right, bottom, height - left)
    return box


def _bounds(quads: list) -> tuple[float, float, float, float]:
    xs = [p[0] for q in quads for p in q]
    ys = [p[1] for q in quads for p in q]
    return (min(xs), min(ys), max(xs), max(ys))


def _tall(box: tuple[float, float, float, float]) -> bool:
    """A box taller than wide: text standing on its side."""
    return box[3] - box[1] > 1.5 * (box[2] - box[0])


def _score(page: OcrPage) -> float:
    return sum(line.confidence**2 * len(line.text) for line in page.lines)


def _mean(weighted: list[tuple[float, int]]) -> float:
    total = sum(weight for _, weight in weighted)
    return sum(value * weight for value, weight in weighted) / total if total else 0.0


def _too_large(size: tuple[int, int] | None, limit: int) -> str:
    what = f"{size[0]:,} x {size[1]:,} pixels" if size else "a decompression bomb"
    return (
        f"image too large to read ({what}, over the {limit:,}-pixel limit; "
        "FSNB_OCR_MAX_PIXELS raises it)"
    )


def _why(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0].rstrip(".") or type(exc).__name__
