"""OCR of scanned pages and images (issue 25): RapidOCR's PP-OCR models on ONNX Runtime.

The models come inside the `rapidocr` wheel (the `ocr` extra) and are named by path, so
nothing is ever downloaded. One engine per process, made on first use; in a pool's worker
(one per core) ONNX Runtime runs on one thread.

A page is read once, upright, on the part of it that holds ink (the blank paper around is
cut off first, so detection, which costs with the area it looks at, works on less), then
turned only when it must be: when its lines stand upright (a page scanned sideways) or
when little was read with confidence. Which way to turn is asked of the engine's 0/180
line classifier on a few of the lines found, not found by reading the page in every
orientation: a sideways page whose lines the first reading already got right is only put
in order, not read again. The classifier is never used to flip single lines inside a
reading, so that a turned line reads as noise rather than being silently flipped. Lines are
put in reading order after the page's skew (a few degrees) is measured from the boxes and
taken out (`ocr_layout`).

Images are opened with limits: over `max_pixels` (Pillow's decompression-bomb limit by
default, `FSNB_OCR_MAX_PIXELS`) an image is refused before it is decoded (`TooLarge`),
and an image Pillow cannot decode is a `ParseError`.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Any

from PIL import Image, ImageOps, UnidentifiedImageError

from fsnb.documents import ocr_layout as layout
from fsnb.documents.ocr_layout import OcrLine, OcrPage
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
#: The dpi PDF pages are rendered at for OCR: the engine works on a page at most 2,000
#: pixels a side (A4 at ~170 dpi), so a 300 dpi render would only be scaled down again.
OCR_DPI = 200
#: Detection sees the whole page at most this many pixels a side (a part of the page in
#: proportion): DB detection's time grows with its area; on printed text 736 reads as well
#: as 960 (the engine's 736 default is for the *shorter* side, ~5x the area at 300 dpi).
_DET_SIDE = 736
#: Lines the orientation classifier is asked about, and the share of their votes that
#: decides; between the two shares both orientations are read and the better one is kept.
_VOTERS = 7
_DECIDED = 0.75
_ENGINE_LOCK = threading.Lock()
_MODELS = ("PP-OCRv6_det_small.onnx", "ch_ppocr_mobile_v2.0_cls_mobile.onnx")
_REC_MODEL = "PP-OCRv6_rec_small.onnx"
_OCR = "OCR"  # what an OcrUnavailable names
INSTALL_HINT = "pip install 'fsnb[ocr]'"


class OcrUnavailable(ParseError):
    """The OCR engine is not installed (the `ocr` extra)."""


class ImageTooLarge(ParseError):
    """An image over the pixel limit (a decompression bomb, a 30,000 x 30,000 PNG)."""


def max_pixels() -> int:
    """`FSNB_OCR_MAX_PIXELS`, else Pillow's decompression-bomb limit (about 89 Mpx)."""
    raw = os.environ.get("FSNB_OCR_MAX_PIXELS", "").strip()
    return int(raw) if raw.isdigit() else int(Image.MAX_IMAGE_PIXELS or 89_478_485)


@lru_cache(maxsize=1)
def available() -> bool:
    """Whether the OCR engine is installed (looked up once a process: the index asks it
    of every file it plans)."""
    from importlib.util import find_spec

    return find_spec("rapidocr") is not None and find_spec("onnxruntime") is not None


@lru_cache(maxsize=1)
def engine() -> Any:
    """This process's RapidOCR engine, on the models inside the package
    (`FSNB_OCR_THREADS`: ONNX Runtime's threads per inference; 0, its default of every
    core; unset, 1 in a pool's worker and the default elsewhere)."""
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
    params: dict[str, Any] = {
        "Global.log_level": "error",
        # Detection on the page at most _DET_SIDE pixels a side (not the default: the
        # shorter side at 736, ~5x slower at 300 dpi and no better on printed text).
        "Det.limit_type": "max",
        "Det.limit_side_len": _DET_SIDE,
        "Det.model_path": str(det),
        "Cls.model_path": str(cls),
        "Rec.model_path": str(rec),
        # One line at a time: a batch is padded to its widest line, and on one thread
        # batching saves nothing (the recognizer's time is in proportion to the width).
        "Rec.rec_batch_num": 1,
    }
    threads = _threads()
    if threads:
        params["EngineConfig.onnxruntime.intra_op_num_threads"] = threads
    return RapidOCR(params=params)


def _threads() -> int:
    """`FSNB_OCR_THREADS`; unset, 1 in a pool's worker (the pool runs one per core) and
    ONNX Runtime's default (every core) elsewhere (0)."""
    raw = os.environ.get("FSNB_OCR_THREADS", "").strip()
    if raw.isdigit():
        return int(raw)
    try:
        from fsnb.documents import child
    except ImportError:  # pragma: no cover
        return 0
    return 1 if child.in_worker() else 0


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
    box = layout.inked(rgb)
    region = rgb.crop(box) if box else rgb
    limit = max(32, round(_DET_SIDE * max(region.size) / max(rgb.size)))
    best = _orient(region, limit)
    if box:
        best = layout.moved(best, box[0], box[1], rgb.size)
    if not best.lines:
        best.notes.append("no text found on the page")
    elif best.confidence < 0.8:
        best.notes.append(f"low OCR confidence ({best.confidence:.2f})")
    return best


def _orient(image: Image.Image, limit: int) -> OcrPage:
    """`image` read in the orientation that reads best."""
    items = _run(image, limit)
    best = layout.page_of(items, 0, image.size)
    upright = layout.upright(items)
    if not items or (best.confidence >= _SURE and not upright):
        return best
    flipped = _flipped(image, items)
    if upright:
        # The engine turned each standing line a quarter turn counter-clockwise to read
        # it: right for a page turned a quarter clockwise (read at 90), upside down for
        # one turned the other way (read at 270). Either way the first reading was in no
        # order: a turned reading nearly as good wins.
        if flipped is False:
            items = _reread_flat(image, items)
            return layout.page_of(layout.turned(items, 90, image.size), 90, image.size)
        tries = (270,) if flipped else (90, 270)
        floor = layout.score(best) * 0.8
    else:
        if flipped is False:
            return best
        tries, floor = (180,), layout.score(best)
    for angle in tries:
        found = layout.page_of(_run(image, limit, angle), angle, image.size)
        if layout.score(found) > floor:
            best, floor = found, layout.score(found)
    return best


def _run(image: Image.Image, limit: int, angle: int = 0) -> list:
    """The engine's boxes (quads on `image` turned by `angle`), texts and scores, with
    detection at most `limit` pixels a side."""
    turned = image.rotate(angle, expand=True) if angle else image
    eng = engine()
    with _ENGINE_LOCK:
        _det_side(eng, limit)
        result = eng(turned, use_det=True, use_cls=False, use_rec=True)
    boxes = [] if result.boxes is None else result.boxes.tolist()
    return [
        (quad, str(text).strip(), float(score))
        for quad, text, score in zip(boxes, result.txts or (), result.scores or (), strict=False)
        if str(text).strip()
    ]


def _det_side(eng: Any, limit: int) -> None:
    """Detection at most `limit` pixels a side for the next call: the detector reads it
    from its config when it is made (on first use) and from itself on each call."""
    eng.cfg.Det.limit_side_len = limit
    detector = getattr(eng, "text_det", None)
    if detector is not None and hasattr(detector, "limit_side_len"):
        detector.limit_side_len = limit


def _cropper() -> Any:
    """The engine's own crop of a box, straightened (what it reads a line from)."""
    try:
        from rapidocr.utils.process_img import get_rotate_crop_image
    except ImportError:
        raise OcrUnavailable(_OCR, f"the OCR engine is not installed ({INSTALL_HINT})") from None
    return get_rotate_crop_image


def _flipped(image: Image.Image, items: list) -> bool | None:
    """Whether the lines found read upside down (as the engine cut them: standing lines
    turned a quarter counter-clockwise), by the 0/180 classifier's vote on the longest of
    them; None when the vote is split."""
    import numpy as np

    get_rotate_crop_image = _cropper()
    pixels = np.asarray(image)[:, :, ::-1]  # BGR, as the engine reads
    longest = sorted(items, key=lambda item: -len(item[1]))[:_VOTERS]
    votes = []
    eng = engine()
    for quad, _, _ in longest:
        crop = get_rotate_crop_image(pixels, np.array(quad, dtype=np.float32))
        height = crop.shape[0]
        if height < 4 or crop.shape[1] < 4:
            continue
        crop = np.ascontiguousarray(crop[:, : 4 * height])  # the classifier sees 48 x 192
        with _ENGINE_LOCK:
            result = eng(crop, use_det=False, use_cls=True, use_rec=False)
        labels = getattr(result, "cls_res", None) or []
        if labels:
            votes.append("180" in str(labels[0][0]))
    if not votes:
        return None
    share = sum(votes) / len(votes)
    if share >= _DECIDED:
        return True
    if share <= 1 - _DECIDED:
        return False
    return None


def _reread_flat(image: Image.Image, items: list) -> list:
    """On a page turned a quarter clockwise, the items whose box the engine did not stand
    up before reading (not tall enough: a number, a short word) read again stood up."""
    import numpy as np

    get_rotate_crop_image = _cropper()
    pixels = np.asarray(image)[:, :, ::-1]  # BGR, as the engine reads
    eng = engine()
    out = []
    for quad, text, score in items:
        crop = get_rotate_crop_image(pixels, np.array(quad, dtype=np.float32))
        if crop.shape[0] < 4 or crop.shape[1] < 4 or layout.stood_up(quad):
            out.append((quad, text, score))
            continue
        with _ENGINE_LOCK:
            result = eng(
                np.ascontiguousarray(np.rot90(crop)), use_det=False, use_cls=False, use_rec=True
            )
        texts, scores = getattr(result, "txts", None), getattr(result, "scores", None)
        floor = getattr(eng, "text_score", 0.5)  # what the engine keeps of a page's lines
        if texts and scores and str(texts[0]).strip() and float(scores[0]) >= floor:
            out.append((quad, str(texts[0]).strip(), float(scores[0])))
    return out


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


def render_pdf_page(page: Any, dpi: int = OCR_DPI) -> Image.Image:
    """A PDF page (a `pypdfium2.PdfPage`) as an RGB image at `dpi`."""
    return page.render(scale=dpi / 72).to_pil().convert("RGB")


def _too_large(size: tuple[int, int] | None, limit: int) -> str:
    what = f"{size[0]:,} x {size[1]:,} pixels" if size else "a decompression bomb"
    return (
        f"image too large to read ({what}, over the {limit:,}-pixel limit; "
        "FSNB_OCR_MAX_PIXELS raises it)"
    )


def _why(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0].rstrip(".") or type(exc).__name__


__all__ = [
    "FEW_CHARS",
    "IMAGE_SUFFIXES",
    "INSTALL_HINT",
    "OCR_DPI",
    "ImageTooLarge",
    "OcrLine",
    "OcrPage",
    "OcrUnavailable",
    "available",
    "engine",
    "max_pixels",
    "needs_ocr",
    "ocr_file",
    "ocr_image",
    "open_image",
    "render_pdf_page",
]
