"""Openings (fast previews) agree with the full parse, on every sample file."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from conftest import make_pdf

from fsnb.documents import ParseCache, document_files, opening, parse
from fsnb.errors import ParseError
from fsnb.security import Sandbox

#: The module (`fsnb.documents.opening` is also the name of its function).
opening_module = importlib.import_module("fsnb.documents.opening")
DATA = Path(__file__).resolve().parent.parent / "data"
#: Files of the held-out contractor corpus whose opening differs from the full parse:
#: Docling leaves out the cell separator after the first cell of some table rows
#: ("Date issued 07/18/2025", the opening "Date issued | 07/18/2025"), and the light DOCX
#: reader stops short before a table. An opening is only a preview, replaced by the full
#: parse when the file is read; these are known, not yet fixed (strict: a fix shows).
DIVERGING = {
    Path("contractor", name)
    for name in (
        "Accounting/Invoices/Green_Mountain_Lumber/GML-2025-04.pdf",
        "Accounting/Invoices/Green_Mountain_Lumber/GML-2025-05.pdf",
        "Accounting/Invoices/Green_Mountain_Lumber/GML-2025-06.pdf",
        "Accounting/Invoices/Green_Mountain_Lumber/GML-2025-07.pdf",
        "Admin/Equipment/Summit_Rental_Agreement_RA-88412.pdf",
        "Admin/Insurance/COI_2025-2026_Ridgeline_Builders.pdf",
        "Archive/2024/COI_2024-2025_Ridgeline_Builders.pdf",
        "Archive/2024/GML-2024-12.pdf",
        "Bids/2025/Bid_J-2507_Northlake_Dental_Fitout.docx",
        "Jobs/J-2503_Pelletier/Subcontracts/Clearwater_Plumbing_subcontract.docx",
        "Jobs/J-2503_Pelletier/Subcontracts/Volt_Brothers_Electric_subcontract.pdf",
        "Jobs/J-2507_Northlake_Dental/Subcontracts/Volt_Brothers_Electric_J-2507.pdf",
        "Jobs/J-2511_Adeyemi/Permits/Building_Permit_BP-2025-0212.pdf",
    )
}
SAMPLES = [
    pytest.param(file, marks=pytest.mark.xfail(strict=True, reason="opening differs"))
    if file.relative_to(DATA) in DIVERGING
    else file
    for file in sorted(
        file
        for corpus in sorted(p for p in DATA.iterdir() if p.is_dir() and not p.name.startswith("_"))
        for file in document_files(Sandbox(corpus))
    )
]


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("file", SAMPLES, ids=lambda f: str(f.relative_to(DATA)))
def test_opening_agrees_with_the_full_parse(file: Path, monkeypatch: pytest.MonkeyPatch):
    try:
        full = parse(file, cache=False)
    except ParseError as exc:
        with pytest.raises(ParseError) as caught:
            opening(file, 2000, cache=False)
        assert caught.value.why == exc.why
        return
    # An opening that is the full parse (an image, a scanned PDF, a format no light reader
    # opens) gets the one just made, not a second OCR of the same pages.
    delegated: list[Path] = []

    def full_parse(path: Path, **_: object) -> object:
        delegated.append(Path(path))
        return full

    monkeypatch.setattr(opening_module, "parse", full_parse)
    head = opening(file, 2000, cache=False)
    assert delegated in ([], [file])
    shown = _flat(head.text)
    assert len(shown) >= min(1900, len(_flat(full.text)))
    assert shown == _flat(full.text)[: len(shown)]
    assert (head.format, head.pages, head.title) == (full.format, full.pages, full.title)
    assert head.partial == (len(shown) < len(_flat(full.text)))


def test_a_pdf_opening_reads_only_its_first_pages(tmp_path: Path):
    pages = [[f"Page {n} says clause {n} applies to the escrow account."] for n in range(1, 9)]
    doc = opening(make_pdf(tmp_path / "long.pdf", pages), 40)
    assert doc.partial and doc.pages == 8
    assert doc.parser == "pdfium-opening"
    assert "Page 1 says" in doc.text and "Page 8" not in doc.text


def test_the_cache_keeps_openings_and_prefers_the_full_parse(tmp_path: Path):
    file = make_pdf(tmp_path / "a.pdf", [["First page text."], ["Second page text."]])
    store = ParseCache(tmp_path / "cache")
    first = opening(file, 5, cache=store)
    assert len(list(store.directory.glob("*/*.json"))) == 1
    assert opening(file, 5, cache=store) == first
    parse(file, cache=store)
    assert opening(file, 5, cache=store).parser == "docling-native-pdf"


def test_a_damaged_pdf_gets_the_full_parse_error(tmp_path: Path):
    file = tmp_path / "bad.pdf"
    file.write_bytes(b"%PDF-1.4\n garbage, no objects")
    with pytest.raises(ParseError, match="corrupt PDF"):
        opening(file, 100)
    (tmp_path / "empty.pdf").write_bytes(b"")
    with pytest.raises(ParseError, match="empty file"):
        opening(tmp_path / "empty.pdf", 100)
