"""OCR of scanned pages and images (fsnb.documents.ocr, issue 25) on the generated sample
data/scans/ (data/generate_scans.py), whose truth is data/_truth/scans.json, and on a few
items of the held-out sample data/scans_heldout/ (data/generate_scans_heldout.py, truth in
data/_truth/scans_heldout.json), which the engine's settings were never tuned on."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageDraw

from fsnb.documents import ocr
from fsnb.errors import ParseError

DATA = Path(__file__).resolve().parent.parent / "data"
SCANS = DATA / "scans"
TRUTH = json.loads((DATA / "_truth" / "scans.json").read_text(encoding="utf-8"))["files"]
HELDOUT = DATA / "scans_heldout"
HELDOUT_TRUTH = json.loads((DATA / "_truth" / "scans_heldout.json").read_text(encoding="utf-8"))[
    "files"
]


def _norm(text: str) -> str:
    return " ".join(text.split())


def cer(read: str, truth: str) -> float:
    """Character error rate: Levenshtein distance over the truth's length, whitespace runs
    as one space."""
    a, b = _norm(read), _norm(truth)
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1] / max(len(b), 1)


def read_pages(name: str, folder: Path = SCANS) -> list[ocr.OcrPage]:
    path = folder / name
    if path.suffix != ".pdf":
        return ocr.ocr_file(path)
    pdf = pypdfium2.PdfDocument(path)
    try:
        return [ocr.ocr_image(ocr.render_pdf_page(pdf[i])) for i in range(len(pdf))]
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def readings() -> dict[str, list[ocr.OcrPage]]:
    return {name: read_pages(name) for name in TRUTH}


def test_the_sample_is_small_and_covers_every_format():
    files = sorted(p for p in SCANS.iterdir() if p.is_file())
    assert sum(p.stat().st_size for p in files) < 3 * 2**20
    assert {p.suffix for p in files} >= {".pdf", ".png", ".jpg", ".tiff", ".webp", ".bmp"}
    assert {p.name for p in files} == set(TRUTH)
    assert not (SCANS / "scans.json").exists()  # the truth is outside the corpus


def test_the_held_out_sample_is_small_and_its_truth_outside_it():
    files = sorted(p for p in HELDOUT.iterdir() if p.is_file())
    assert {p.name for p in files} == set(HELDOUT_TRUTH)
    assert not set(HELDOUT_TRUTH) & set(TRUTH)
    both = files + [p for p in SCANS.iterdir() if p.is_file()]
    assert sum(p.stat().st_size for p in both) < 3 * 2**20  # the repo is cloned in CI
    assert {info["set"] for info in HELDOUT_TRUTH.values()} == {"clean", "noisy"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "statement_harbour_mutual.pdf",  # clean 300 dpi, DejaVu Serif, a five-column table
        "receipt_phone_photo.jpg",  # a photo: perspective, blur, uneven light, on a table
    ],
)
def test_held_out_scans_read_within_a_loose_bound(name):
    """Two held-out items chosen before their figures were seen: a loose bound (5%), so
    that settings over-fitted to the tuning sample show here."""
    pages = read_pages(name, HELDOUT)
    assert len(pages) == len(HELDOUT_TRUTH[name]["pages"])
    for page, truth in zip(pages, HELDOUT_TRUTH[name]["pages"], strict=True):
        assert cer(page.text, truth) <= 0.05, (name, page.text)
        assert page.angle == 0


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="reading order is by rows across the whole page")
def test_a_two_column_page_is_read_column_by_column():
    """Known limit found by the held-out sample: the columns of a two-column page are read
    across the gutter, line by line (its CER is ~68%). Strict: fixed, this test says so."""
    (page,) = read_pages("newsletter_two_column.png", HELDOUT)
    assert cer(page.text, HELDOUT_TRUTH["newsletter_two_column.png"]["pages"][0]) <= 0.05


@pytest.mark.parametrize("turn", [Image.Transpose.ROTATE_270, Image.Transpose.ROTATE_90])
def test_a_sideways_table_keeps_its_short_cells(turn):
    """A page turned either way a quarter: the numbers in it (boxes about as wide as tall,
    which the engine reads as they lie) are read stood up too."""
    image = Image.new("L", (1400, 700), 255)
    draw = ImageDraw.Draw(image)
    rows = [("Apples", "3"), ("Pears", "12"), ("Plums", "7"), ("Total", "22")]
    for n, (name, count) in enumerate(rows):
        draw.text((80, 60 + n * 130), name, fill=0, font_size=60)
        draw.text((1100, 60 + n * 130), count, fill=0, font_size=60)
    page = ocr.ocr_image(image.transpose(turn))
    assert page.angle == (90 if turn == Image.Transpose.ROTATE_270 else 270)
    assert page.text == "Apples 3\nPears 12\nPlums 7\nTotal 22"


def test_text_on_a_part_of_a_large_page_keeps_its_place():
    """The blank paper around the ink is cut off before reading: the boxes come back on
    the whole page."""
    page_image = Image.new("L", (2480, 3508), 255)
    ImageDraw.Draw(page_image).text((1500, 3000), "Ref 55-2048", fill=0, font_size=60)
    page = ocr.ocr_image(page_image)
    assert page.text == "Ref 55-2048"
    left, top, right, bottom = page.lines[0].box
    assert 1480 <= left < 1520 and 2990 <= top < 3030 and right > 1700 and bottom < 3090
    assert page.size == (2480, 3508)


@pytest.mark.slow
def test_character_error_rate_is_within_the_targets(readings):
    for group, target in (("clean", 0.02), ("noisy", 0.05)):
        names = [n for n, info in TRUTH.items() if info["set"] == group]
        errors = chars = 0
        for name in names:
            pages = readings[name]
            assert len(pages) == len(TRUTH[name]["pages"]), name
            for page, truth in zip(pages, TRUTH[name]["pages"], strict=True):
                errors += cer(page.text, truth) * len(_norm(truth))
                chars += len(_norm(truth))
                assert cer(page.text, truth) <= 2 * target, (name, page.text)
                assert page.confidence > 0.9, name
        assert errors / chars <= target, group


@pytest.mark.slow
def test_turned_pages_are_read_in_order(readings):
    sideways = readings["invoice_sideways.jpg"][0]
    assert sideways.angle in (90, 270)
    assert sideways.text.splitlines()[0] == "INVOICE"
    assert "Total due 520.68" in sideways.text
    upside_down = readings["letter_lease_renewal.pdf"][1]
    assert upside_down.angle == 180
    assert upside_down.text.splitlines()[-1].startswith("Solicitor, Harbor Legal")
    receipt = readings["receipt_turned.webp"][0]
    assert receipt.text.splitlines()[0] == "CORNER MARKET"
    assert "TXN-58213-0947" in readings["receipt_photo.jpg"][0].text


@pytest.mark.slow
def test_lines_carry_boxes_on_the_image_as_given(readings):
    page = readings["invoice_sideways.jpg"][0]
    width, height = page.size
    assert width > height  # the invoice lies on its side
    title = page.lines[0]
    left, top, right, bottom = title.box
    assert 0 <= left < right <= width and 0 <= top < bottom <= height
    assert bottom - top > right - left  # "INVOICE" stands upright in the sideways image
    assert title.confidence > 0.9


def test_a_blank_page_is_empty_text_with_a_note():
    page = ocr.ocr_image(Image.new("RGB", (1240, 1754), "white"))
    assert page.text == "" and page.lines == [] and page.confidence == 0
    assert page.notes == ["no text found on the page"]


def test_a_small_image_in_memory_is_read():
    image = Image.new("L", (900, 120), 255)
    ImageDraw.Draw(image).text((20, 30), "Order 7731 paid", fill=0, font_size=48)
    assert ocr.ocr_image(image).text == "Order 7731 paid"


def test_a_corrupt_image_is_one_line(tmp_path):
    bad = tmp_path / "photo.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0" + b"not really a jpeg" * 10)
    with pytest.raises(ParseError) as caught:
        ocr.ocr_file(bad)
    assert str(caught.value).startswith(f"cannot read {bad}: not a readable image")
    assert "\n" not in str(caught.value)
    truncated = tmp_path / "cut.png"
    truncated.write_bytes((SCANS / "invoice_northfield.png").read_bytes()[:3000])
    with pytest.raises(ParseError, match="not a readable image"):
        ocr.ocr_file(truncated)


def _png_header(width: int, height: int) -> bytes:
    """A PNG that claims `width` x `height` pixels (its data is a few bytes)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 0, 0, 0, 0])
    idat = zlib.compress(b"\x00" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    )


def test_a_decompression_bomb_is_refused_before_decoding(tmp_path, monkeypatch):
    bomb = tmp_path / "huge.png"
    bomb.write_bytes(_png_header(30_000, 30_000))
    with pytest.raises(ocr.ImageTooLarge) as caught:
        ocr.ocr_file(bomb)
    message = str(caught.value)
    assert "image too large to read" in message and "FSNB_OCR_MAX_PIXELS" in message
    assert "\n" not in message
    # Under Pillow's own bomb limit but over fsnb's, it is refused with its size.
    monkeypatch.setenv("FSNB_OCR_MAX_PIXELS", "1000000")
    bomb.write_bytes(_png_header(2_000, 2_000))
    with pytest.raises(ocr.ImageTooLarge, match="2,000 x 2,000 pixels"):
        ocr.open_image(bomb)


def test_needs_ocr_tells_scans_from_born_digital_pages():
    born_digital = sorted((DATA / "large_acquisition").glob("*.pdf"))[0]
    pdf = pypdfium2.PdfDocument(born_digital)
    try:
        assert not any(ocr.needs_ocr(pdf[i]) for i in range(len(pdf)))
    finally:
        pdf.close()
    for name in ("receipt_corner_market.pdf", "letter_lease_renewal.pdf"):
        pdf = pypdfium2.PdfDocument(SCANS / name)
        try:
            assert all(ocr.needs_ocr(pdf[i]) for i in range(len(pdf)))
        finally:
            pdf.close()


def test_needs_ocr_is_false_for_an_empty_page():
    pdf = pypdfium2.PdfDocument.new()
    try:
        assert not ocr.needs_ocr(pdf.new_page(595, 842))
    finally:
        pdf.close()
