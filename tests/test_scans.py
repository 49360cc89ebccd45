"""Scanned pages and images as documents (issue 25): OCR in the parse, the index, the
tools, the citations and the reports, on data/scans/ (data/generate_scans.py) and on
files made here. The OCR engine itself is tested in test_ocr.py."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest
from conftest import DATA
from PIL import Image, ImageDraw, ImageFont

import fsnb
from fsnb.agent.citations import Citation
from fsnb.documents import Document, parse
from fsnb.documents.opening import opening
from fsnb.errors import ParseError
from fsnb.index import Index
from fsnb.tools.context import ToolContext
from fsnb.tools.finder import find_files
from fsnb.tools.overview import folder_map
from fsnb.tools.reading import with_page_marks
from fsnb.tools.scanning import scan_folder

SCANS = DATA / "scans"
RECEIPT = "TXN-58213-0947"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _copy(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(SCANS / name, folder / name)
    return folder


def _page_image(lines: list[str], size: tuple[int, int] = (1275, 1650)) -> Image.Image:
    """A page of printed text as a scanner gives it (150 dpi letter)."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 30) if Path(FONT).exists() else ImageFont.load_default(30)
    for i, line in enumerate(lines):
        draw.text((120, 150 + 60 * i), line, fill="black", font=font)
    return image


def _mixed_pdf(path: Path, typed: list[str], scanned: list[str]) -> Path:
    """A PDF whose page 1 has a text layer and whose page 2 is only an image of text."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), pagesize=letter)
    for i, line in enumerate(typed):
        pdf.drawString(72, 700 - 18 * i, line)
    pdf.showPage()
    buffer = io.BytesIO()
    _page_image(scanned).save(buffer, "PNG")
    buffer.seek(0)
    pdf.drawImage(ImageReader(buffer), 0, 0, *letter)
    pdf.showPage()
    pdf.save()
    return path


def _photo(path: Path, taken: str, camera: tuple[str, str] = ("Pixelcam", "P8")) -> Path:
    """The receipt photo with an EXIF date taken and camera."""
    image = Image.open(SCANS / "receipt_photo.jpg")
    exif = Image.Exif()
    exif[271], exif[272] = camera
    exif.get_ifd(0x8769)[36867] = taken
    image.save(path, exif=exif, quality=90)
    return path


def test_a_scanned_pdf_is_read_by_ocr_and_marked():
    doc = parse(SCANS / "receipt_corner_market.pdf")
    assert RECEIPT in doc.text
    assert list(doc.ocr) == [1] and doc.ocr[1] > 0.9
    assert doc.parser.endswith("+rapidocr")
    # the reading tools mark the page, so the trace and the model see where text came from
    assert with_page_marks(doc, 0, len(doc.text)).startswith("[page 1 (OCR)]\n")


def test_an_image_is_a_document_with_its_size_date_and_camera(tmp_path: Path):
    doc = parse(_photo(tmp_path / "IMG_0001.jpg", "2024:03:17 14:05:09"))
    assert doc.format == "image" and doc.pages == 1 and RECEIPT in doc.text
    assert doc.meta == {
        "width": 664,
        "height": 686,
        "taken": "2024-03-17",
        "taken_at": "2024-03-17T14:05:09",
        "camera": "Pixelcam P8",
    }
    assert doc.ocr[1] > 0.9
    assert Document.from_dict(json.loads(json.dumps(doc.to_dict()))).ocr == doc.ocr


def test_only_the_scanned_page_of_a_pdf_is_read_by_ocr(tmp_path: Path):
    typed = ["Quarterly maintenance report for the north building, typed and born digital."]
    pdf = _mixed_pdf(tmp_path / "mixed.pdf", typed, ["Elevator inspection passed", "Ref 4471"])
    doc = parse(pdf)
    assert list(doc.ocr) == [2]
    assert "born digital" in doc.page_text(1) and "Elevator inspection passed" in doc.page_text(2)
    # the opening of a PDF whose first pages hold text stays on PDFium's fast path
    assert opening(pdf, 60, cache=False).parser == "pdfium-opening"


def test_without_ocr_scans_are_named_unread_with_how_to_turn_it_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("FSNB_OCR", "0")
    folder = _copy(tmp_path / "home", "receipt_photo.jpg")
    _mixed_pdf(folder / "mixed.pdf", ["A typed page about the boiler service."], ["Scanned"])
    with pytest.raises(ParseError, match=r"an image, needs OCR: OCR is turned off \(FSNB_OCR=0\)"):
        parse(folder / "receipt_photo.jpg")
    assert parse(folder / "mixed.pdf").warnings == [
        "page 2 scanned, not read: needs OCR: OCR is turned off (FSNB_OCR=0)"
    ]
    report = Index().add_folder(folder)
    assert sorted(report.unread_scans) == ["mixed.pdf", "receipt_photo.jpg"]
    assert report.ocr_note() == (
        "2 files hold scanned pages or images not read: OCR is turned off (FSNB_OCR=0)"
    )
    ctx = ToolContext(folder)
    assert "OCR is turned off (FSNB_OCR=0)" in scan_folder(ctx=ctx).splitlines()[1]
    assert (
        folder_map(ctx)
        .text()
        .endswith(
            "Not readable here: 1 image file (and any scanned PDF pages): OCR is turned off "
            "(FSNB_OCR=0)"
        )
    )
    # turned on again, the next run reads what was left unread
    monkeypatch.delenv("FSNB_OCR")
    again = Index().add_folder(folder)
    assert sorted(again.ocr) == ["mixed.pdf", "receipt_photo.jpg"] and not again.unread_scans


def test_the_page_cap_says_how_long_the_rest_would_take(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FSNB_OCR_MAX_PAGES", "1")
    doc = parse(SCANS / "letter_lease_renewal.pdf")
    assert list(doc.ocr) == [1] and doc.pages == 2
    assert len(doc.warnings) == 1
    assert re.fullmatch(
        r"OCR read 1 of 2 scanned pages; the other 1 would take about [\d,]+ (s|min) "
        r"\(FSNB_OCR_MAX_PAGES raises the limit\)",
        doc.warnings[0],
    )


def test_bad_images_are_one_line_each_and_the_folder_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("FSNB_OCR_MAX_PIXELS", "1000000")
    folder = _copy(tmp_path / "photos", "receipt_150dpi.bmp")
    (folder / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00garbage" * 50)
    Image.new("1", (2000, 2000)).save(folder / "huge.png")  # 4 Mpx, over the 1 Mpx limit
    report = Index().add_folder(folder)
    assert report.added == ["receipt_150dpi.bmp"]
    assert set(report.failed) == {"broken.png", "huge.png"}
    assert report.failed["broken.png"].startswith("not a readable image")
    assert "image too large to read (2,000 x 2,000 pixels" in report.failed["huge.png"]
    assert all("\n" not in why for why in report.failed.values())


def test_the_index_marks_ocr_rows_and_search_says_so(tmp_path: Path):
    folder = _copy(tmp_path / "scans", "receipt_corner_market.pdf", "invoice_northfield.png")
    (folder / "notes.md").write_text("# Notes\n\nThe transaction log is kept by the bank.\n")
    report = Index().add_folder(folder)
    assert report.ocr_note().startswith("OCR read 2 pages of 2 files, mean confidence 0.9")
    con = duckdb.connect(fsnb.index.Index().path, read_only=True)
    try:
        docs = dict(
            con.execute(
                "SELECT regexp_extract(path, '[^/]*$'), ocr FROM documents WHERE NOT deleted"
            ).fetchall()
        )
        chunks = con.execute(
            "SELECT count(*), count(*) FILTER (WHERE c.ocr AND c.ocr_confidence > 0.9) FROM chunks"
            " c JOIN documents d ON d.id = c.doc_id WHERE d.path LIKE '%receipt%'"
        ).fetchone()
    finally:
        con.close()
    assert docs == {"receipt_corner_market.pdf": True, "invoice_northfield.png": True,
                    "notes.md": False}  # fmt: skip
    assert chunks[0] > 0 and chunks[0] == chunks[1]
    hits = Index().search("transaction TXN-58213-0947", folder=folder, k=3)
    assert hits.iloc[0]["path"].endswith("receipt_corner_market.pdf") and hits.iloc[0]["ocr"] > 0.9
    text = fsnb.tools.semantic_search("transaction TXN-58213-0947", root=folder)
    assert "receipt_corner_market.pdf, page 1 (OCR)" in text


def test_photo_dates_filter_search_and_find_files(tmp_path: Path):
    folder = tmp_path / "photos"
    folder.mkdir()
    _photo(folder / "march.jpg", "2024:03:17 14:05:09")
    _photo(folder / "older.jpg", "2023:11:02 09:00:00", ("Othercam", "X1"))
    Index().add_folder(folder)
    hits = Index().search("corner market", folder=folder, filter="taken=2024-03")
    assert set(hits["path"]) == {"march.jpg"}
    hits = Index().search("corner market", folder=folder, filter="camera~othercam")
    assert set(hits["path"]) == {"older.jpg"}
    found = find_files.outcome("*", ctx=ToolContext(folder), taken_range="2024-03").payload
    assert [row.path for row in found.results] == ["march.jpg"]


def test_a_receipt_question_is_answered_offline_with_a_verified_ocr_citation(tmp_path: Path):
    folder = _copy(
        tmp_path / "home",
        "receipt_corner_market.pdf",
        "invoice_northfield.png",
        "letter_lease_renewal.pdf",
    )
    result = fsnb.explore(
        "What is the transaction number on the Corner Market receipt?", folder=folder
    )
    assert RECEIPT in result.answer.splitlines()[0]
    cited = [c for c in result.citations if RECEIPT in c.quote]
    assert cited and all(c.verified and c.ocr and c.ocr > 0.9 for c in cited)
    assert cited[0].where == "receipt_corner_market.pdf, page 1 (OCR)"
    assert "receipt_corner_market.pdf, page 1 (OCR):" in result.answer_with_sources()


def test_low_confidence_ocr_is_never_shown_as_exact():
    citation = Citation(1, "scan.pdf", 2, "Total 32.18", True, ocr=0.62)
    assert citation.where == "scan.pdf, page 2 (OCR, low confidence 0.62)"
    doc = Document("scan.pdf", "Total 32.18", "scan", "pdf", 1, [], "rapidocr", ocr={1: 0.62})
    assert with_page_marks(doc, 0, 11) == "[page 1 (OCR, low confidence 0.62)]\nTotal 32.18"


def test_the_panel_says_a_citation_came_from_ocr(tmp_path: Path):
    from fsnb.agent import Action, CitedSource, Explorer
    from fsnb.llm import ReplayLLM
    from fsnb.notebook.widget import ExplorePanel

    folder = _copy(tmp_path / "home", "receipt_corner_market.pdf")
    quote = f"Transaction: {RECEIPT}"
    cite = CitedSource(id=1, path="receipt_corner_market.pdf", page=1, quote=quote)
    actions = [
        Action.call("parse_file", "read it", path="receipt_corner_market.pdf"),
        Action.stop(f"It is {RECEIPT} [1].", "found it", [cite]),
    ]
    panel = ExplorePanel()
    panel.attach(Explorer(folder, ReplayLLM(actions)), "What is the transaction number?")
    assert panel.wait(120) is not None
    (shown,) = panel.citations
    assert shown["verified"] and shown["page_label"] == "1 (OCR)"  # the panel shows "p. 1 (OCR)"
    read = panel.trace[0]["result"]
    assert "[page 1 (OCR)]" in read  # the trace marks the page read by OCR


def test_a_scan_reads_a_few_images_and_lists_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from fsnb.tools import scanning

    monkeypatch.setattr(scanning, "SCAN_IMAGES", 1)
    folder = _copy(tmp_path / "photos", "receipt_150dpi.bmp", "receipt_photo.jpg")
    text = scan_folder(ctx=ToolContext(folder))
    assert "=== receipt_150dpi.bmp — image, 1 page" in text and "CORNER MARKET" in text
    assert (
        "=== receipt_photo.jpg — image, not previewed: OCR in a scan stops after 1 images "
        "(1 more here, about 1 s of OCR); parse_file reads it, and indexing the folder reads "
        "them all"
    ) in text
