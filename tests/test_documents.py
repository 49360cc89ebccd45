from __future__ import annotations

import importlib
import json
import os
from pathlib import Path

import pytest
from conftest import make_pdf

from fsnb.documents import ParseCache, parse, preview
from fsnb.errors import ParseError


def test_pdf_parses_to_paragraphs_with_page_spans(folder: Path):
    doc = parse(folder / "agreement.pdf")
    assert doc.format == "pdf"
    assert doc.parser == "docling-native-pdf"
    assert doc.pages == 2
    assert doc.title == "Share Purchase Agreement"
    assert "The Purchase Price is $9,000,000 payable at Closing." in doc.text
    assert [span.page for span in doc.spans] == [1, 2]
    offset = doc.text.index("June 30, 2025")
    assert doc.page_at(offset) == 2
    assert doc.page_at(doc.text.index("$9,000,000")) == 1
    assert "June 30, 2025" in doc.page_text(2)
    assert "June 30, 2025" not in doc.page_text(1)


def test_wrapped_lines_are_joined_into_one_paragraph(tmp_path: Path):
    sentence = " ".join(f"clause{n} applies to the escrow account" for n in range(30))
    doc = parse(make_pdf(tmp_path / "long.pdf", [[sentence]]))
    assert sentence in doc.text


def test_text_file_utf8_and_latin1(tmp_path: Path):
    (tmp_path / "u.txt").write_text("Café owner: Zoë Müller\n", encoding="utf-8")
    (tmp_path / "l.txt").write_bytes(
        "Le propriétaire du café est François Hérault.\n".encode("latin-1")
    )
    assert "Zoë Müller" in parse(tmp_path / "u.txt").text
    latin = parse(tmp_path / "l.txt")
    assert "François Hérault" in latin.text
    assert any("not UTF-8" in w for w in latin.warnings)


@pytest.mark.parametrize(
    ("name", "content", "why"),
    [
        ("empty.txt", b"", "empty file (0 bytes)"),
        ("empty.pdf", b"", "empty file (0 bytes)"),
        ("blob.txt", b"\x00\x01\x02binary\x00", "binary content, not text"),
        ("broken.pdf", b"this is not a pdf at all", "corrupt PDF: no PDF header"),
        ("photo.heic", b"\x00\x00", "unsupported file type '.heic'"),
    ],
)
def test_bad_files_raise_one_line_reasons(tmp_path: Path, name: str, content: bytes, why: str):
    (tmp_path / name).write_bytes(content)
    with pytest.raises(ParseError) as info:
        parse(tmp_path / name)
    assert info.value.why == why
    assert "\n" not in str(info.value)


def test_truncated_pdf_is_reported_as_corrupt(folder: Path, tmp_path: Path):
    data = (folder / "agreement.pdf").read_bytes()
    (tmp_path / "truncated.pdf").write_bytes(data[: len(data) // 3])
    with pytest.raises(ParseError) as info:
        parse(tmp_path / "truncated.pdf")
    assert "\n" not in info.value.why
    assert info.value.why


def test_missing_file(tmp_path: Path):
    with pytest.raises(ParseError, match="no such file"):
        parse(tmp_path / "nope.pdf")


def test_preview_cuts_at_a_word(folder: Path):
    text = preview(folder / "agreement.pdf", chars=40)
    assert len(text) <= 40
    assert parse(folder / "agreement.pdf").text.startswith(text)
    assert not text.endswith(" ")


def _entries(cache_dir: Path) -> list[Path]:
    return sorted(cache_dir.glob("*/*.json"))


def test_cache_hit_skips_parsing(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    cache = ParseCache(tmp_path / "cache")
    first = parse(folder / "agreement.pdf", cache=cache)
    assert len(_entries(cache.directory)) == 1

    module = importlib.import_module("fsnb.documents.parse")

    def boom(*args, **kwargs):
        raise AssertionError("parsed again despite a cache entry")

    monkeypatch.setattr(module, "_parse_uncached", boom)
    second = parse(folder / "agreement.pdf", cache=cache)
    assert second == first


def test_cache_invalidated_when_mtime_changes(tmp_path: Path):
    cache = ParseCache(tmp_path / "cache")
    note = tmp_path / "note.txt"
    note.write_text("version one")
    assert parse(note, cache=cache).text == "version one"
    note.write_text("version two")
    stat = note.stat()
    os.utime(note, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
    assert parse(note, cache=cache).text == "version two"
    assert len(_entries(cache.directory)) == 2


def test_corrupt_cache_entry_is_ignored_and_rewritten(tmp_path: Path, caplog):
    cache = ParseCache(tmp_path / "cache")
    note = tmp_path / "note.txt"
    note.write_text("the real text")
    parse(note, cache=cache)
    (entry,) = _entries(cache.directory)
    entry.write_text("{ not json")
    assert parse(note, cache=cache).text == "the real text"
    assert "corrupt parse-cache entry" in caplog.text
    assert json.loads(entry.read_text())["document"]["text"] == "the real text"


def test_failures_are_cached_too(tmp_path: Path):
    cache = ParseCache(tmp_path / "cache")
    (tmp_path / "bad.pdf").write_bytes(b"garbage")
    for _ in range(2):
        with pytest.raises(ParseError, match="no PDF header"):
            parse(tmp_path / "bad.pdf", cache=cache)
    (entry,) = _entries(cache.directory)
    assert json.loads(entry.read_text())["error"] == "corrupt PDF: no PDF header"


def test_pptx_slides_are_pages_and_speaker_notes_are_kept(tmp_path: Path):
    from pptx import Presentation

    deck = Presentation()
    for title, body, notes in [
        ("Board Update", "Revenue grew 40%", "The CFO is Maria Lopez."),
        ("Hiring", "Twelve engineers joined", ""),
    ]:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text, slide.placeholders[1].text = title, body
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
    deck.save(tmp_path / "deck.pptx")
    doc = parse(tmp_path / "deck.pptx")
    assert (doc.format, doc.pages, doc.title) == ("pptx", 2, "Board Update")
    assert doc.page_at(doc.text.index("Maria Lopez")) == 1
    assert doc.page_at(doc.text.index("Twelve engineers")) == 2


def test_xlsx_sheets_are_pages_and_docx_tables_are_markdown(tmp_path: Path):
    import openpyxl
    from docx import Document as Docx

    book = openpyxl.Workbook()
    book.active.append(["Item", "Value"])
    book.active.append(["Price", 100])
    details = book.create_sheet("Details")
    details.append(["Name", "Bonus"])
    details.append(["Ana Ruiz", 5000])
    book.save(tmp_path / "book.xlsx")
    doc = parse(tmp_path / "book.xlsx")
    assert doc.pages == 2 and doc.page_at(doc.text.index("Ana Ruiz")) == 2

    word = Docx()
    word.add_heading("Retention Plan", level=1)
    table = word.add_table(rows=2, cols=2)
    for cell, text in zip(table._cells, ["Employee", "Bonus", "Li Wei", "$250,000"], strict=True):
        cell.text = text
    word.save(tmp_path / "plan.docx")
    doc = parse(tmp_path / "plan.docx")
    assert doc.title == "Retention Plan"
    assert "| Li Wei" in doc.text and "$250,000" in doc.text
