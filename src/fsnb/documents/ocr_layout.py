"""What OCR read, laid out as text: the lines of a page in reading order (the page's skew,
a few degrees, measured from the boxes and taken out), each line's box on the image as it
was given (before any turning or trimming), and the part of a page that holds ink."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from PIL import Image

#: The blank paper around the ink is cut off when that leaves at most this much of the page.
TRIM = 0.8


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


def stood_up(quad: list) -> bool:
    """Whether the engine turned this box's crop a quarter before reading it (its rule:
    at least 1.5 times as tall as wide)."""
    width = max(math.dist(quad[0], quad[1]), math.dist(quad[2], quad[3]))
    height = max(math.dist(quad[0], quad[3]), math.dist(quad[1], quad[2]))
    return int(height) >= 1.5 * max(int(width), 1)


def turned(items: list, angle: int, size: tuple[int, int]) -> list:
    """The items with their quads moved onto the image turned by `angle` (90: a quarter
    counter-clockwise), each quad's corners from its top left, clockwise."""
    width, _ = size
    if angle != 90:
        raise ValueError(angle)
    return [
        (clockwise([(y, width - x) for x, y in quad]), text, score) for quad, text, score in items
    ]


def clockwise(quad: list) -> list:
    """A quad's corners clockwise (on screen) from its top left."""
    cx = sum(p[0] for p in quad) / 4
    cy = sum(p[1] for p in quad) / 4
    ordered = sorted(quad, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    first = min(range(4), key=lambda i: ordered[i][0] + ordered[i][1])
    return [list(p) for p in ordered[first:] + ordered[:first]]


def inked(image: Image.Image) -> tuple[int, int, int, int] | None:
    """The part of a page that holds ink, with a margin, when cutting the blank paper
    around it leaves at most `TRIM` of the page; else None. Ink is what is clearly darker
    than the paper (the page's median), found on a min-pooled copy (thin strokes kept);
    a dark pixel with no dark neighbour (speckle) is not ink."""
    import numpy as np

    width, height = image.size
    factor = max(1, max(width, height) // 1000)
    grey = np.asarray(image.convert("L"))
    h, w = (height // factor) * factor, (width // factor) * factor
    if h < 2 * factor or w < 2 * factor:
        return None
    rows = grey[0:h:factor, :w]  # min-pooled factor x factor (strided: ~20x a reshape's speed)
    for i in range(1, factor):
        rows = np.minimum(rows, grey[i:h:factor, :w])
    pooled = rows[:, 0::factor]
    for i in range(1, factor):
        pooled = np.minimum(pooled, rows[:, i::factor])
    paper = float(np.median(pooled))
    ink = pooled < paper - max(40.0, 0.25 * paper)
    neighbours = np.zeros_like(ink)
    neighbours[1:, :] |= ink[:-1, :]
    neighbours[:-1, :] |= ink[1:, :]
    neighbours[:, 1:] |= ink[:, :-1]
    neighbours[:, :-1] |= ink[:, 1:]
    ink &= neighbours
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if not len(rows):
        return None
    pad = max(width, height) // 30
    left = max(0, int(cols[0]) * factor - pad)
    top = max(0, int(rows[0]) * factor - pad)
    right = min(width, (int(cols[-1]) + 1) * factor + pad)
    bottom = min(height, (int(rows[-1]) + 1) * factor + pad)
    if (right - left) * (bottom - top) > TRIM * width * height:
        return None
    return (left, top, right, bottom)


def moved(page: OcrPage, dx: int, dy: int, size: tuple[int, int]) -> OcrPage:
    """`page` read on a part of an image, on the whole image of `size`."""
    page.lines = [
        OcrLine(
            line.text,
            line.confidence,
            (line.box[0] + dx, line.box[1] + dy, line.box[2] + dx, line.box[3] + dy),
        )
        for line in page.lines
    ]
    page.size = size
    return page


def page_of(items: list, angle: int, size: tuple[int, int]) -> OcrPage:
    """The page read turned by `angle` from the engine's `items` (quads on the turned
    image), its boxes on the image as given (of `size`)."""
    rows = reading_order(items)
    lines = [
        OcrLine(
            " ".join(text for _, text, _ in row),
            mean([(score, len(text)) for _, text, score in row]),
            unturn(bounds([q for q, _, _ in row]), angle, size),
        )
        for row in rows
    ]
    confidence = mean([(line.confidence, len(line.text)) for line in lines])
    text = "\n".join(line.text for line in lines)
    return OcrPage(text, confidence, lines, angle, size)


def upright(items: list) -> bool:
    """Whether most of the text read stood upright (its boxes taller than wide)."""
    standing = sum(len(text) for quad, text, _ in items if tall(bounds([quad])))
    return standing * 2 > sum(len(text) for _, text, _ in items)


def reading_order(items: list) -> list[list]:
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


def unturn(box: tuple[float, float, float, float], angle: int, size: tuple[int, int]):
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


def bounds(quads: list) -> tuple[float, float, float, float]:
    xs = [p[0] for q in quads for p in q]
    ys = [p[1] for q in quads for p in q]
    return (min(xs), min(ys), max(xs), max(ys))


def tall(box: tuple[float, float, float, float]) -> bool:
    """A box taller than wide: text standing on its side."""
    return box[3] - box[1] > 1.5 * (box[2] - box[0])


def score(page: OcrPage) -> float:
    return sum(line.confidence**2 * len(line.text) for line in page.lines)


def mean(weighted: list[tuple[float, int]]) -> float:
    total = sum(weight for _, weight in weighted)
    return sum(value * weight for value, weight in weighted) / total if total else 0.0
