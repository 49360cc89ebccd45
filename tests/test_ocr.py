"""OCR of scanned pages and images (fsnb.documents.ocr, issue 25) on the generated sample
data/scans/ (data/generate_scans.py), whose truth is data/_truth/scans.json."""

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


def read_pages(name: str) -> list[ocr.OcrPage]:
    path = SCANS / name
    if path.suffix != ".pdf":
        return ocr.ocr_file(path)
    pdf = pypdfium2.PdfDocument(path)
    try:
        return [ocr.ocr_image(ocr.render_pdf_page(pdf[i], dpi=200)) for i in range(len(pdf))]
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
