"""Heuristic metadata extraction and schema discovery (pure functions, no files)."""

from __future__ import annotations

import pytest
from conftest import finishes

from fsnb.index.field_schema import discover_schema
from fsnb.index.metadata import MAX_ITEMS, extract_metadata

AGREEMENT = """# Acquisition Agreement

Dated January 15, 2025

This Acquisition Agreement is made on January 15, 2025 between TechCorp Industries,
Inc., a Delaware corporation ("Buyer"), and StartupXYZ LLC ("Seller"), under the
Master Services Agreement with Cartographic Systems Inc.

'Purchase Price' means $45,000,000, of which $30,000,000 is paid in cash at the Closing.
The Closing Date is March 1, 2025. Dr. Sarah Chen reviewed the technical terms.

TechCorp Industries, Inc., by James Mitchell, CEO. StartupXYZ LLC, by Sarah Chen - CTO.
"""


def test_fields_and_types():
    meta = extract_metadata(
        AGREEMENT, title="Acquisition Agreement", path="a/deal.pdf", format="PDF"
    )
    assert set(meta) == {
        "document_type", "format", "mentions_currency", "currencies", "amounts", "max_amount",
        "dates", "year", "organizations", "people",
    }  # fmt: skip
    assert meta["document_type"] == "agreement"
    assert meta["format"] == "pdf"
    assert meta["mentions_currency"] is True
    assert meta["currencies"] == ["USD"]
    assert meta["amounts"] == [45_000_000.0, 30_000_000.0]
    assert meta["max_amount"] == 45_000_000.0
    assert meta["dates"] == ["2025-01-15", "2025-03-01"]
    assert meta["year"] == 2025
    assert meta["organizations"] == [
        "TechCorp Industries, Inc.", "StartupXYZ LLC", "Cartographic Systems Inc.",
    ]  # fmt: skip
    assert meta["people"] == ["Dr. Sarah Chen", "James Mitchell"]


def test_empty_text():
    meta = extract_metadata("")
    assert meta["document_type"] == "other"
    assert meta["mentions_currency"] is False
    assert meta["amounts"] == meta["dates"] == meta["organizations"] == meta["people"] == []
    assert meta["max_amount"] is None and meta["year"] is None


@pytest.mark.parametrize(
    ("text", "amounts", "currencies"),
    [
        ("a fee of $1,200,000 is due", [1_200_000.0], ["USD"]),
        ("raised $4.2M last year", [4_200_000.0], ["USD"]),
        ("raised $4.2 million and $1.5 billion", [4_200_000.0, 1_500_000_000.0], ["USD"]),
        ("a $500k bonus and a $2bn fund", [500_000.0, 2_000_000_000.0], ["USD"]),
        ("EUR 3,500 and €2.5 million", [3_500.0, 2_500_000.0], ["EUR"]),
        ("£200 and ¥1,000 and 7,500 USD", [200.0, 1_000.0, 7_500.0], ["GBP", "JPY", "USD"]),
        ("4.2 million dollars", [4_200_000.0], ["USD"]),
        ("priced in euros", [], ["EUR"]),
        ("version 2.0 handles 3 million rows", [], []),
        ("€1.200.000", [], ["EUR"]),  # European thousands separators are skipped, not misread
    ],
)
def test_amounts_and_currencies(text, amounts, currencies):
    meta = extract_metadata(text)
    assert meta["amounts"] == amounts
    assert meta["currencies"] == currencies
    assert meta["mentions_currency"] is bool(currencies)
    assert meta["max_amount"] == (max(amounts) if amounts else None)


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("signed February 15, 2025.", "2025-02-15"),
        ("signed Feb. 15, 2025.", "2025-02-15"),
        ("signed 15 February 2025.", "2025-02-15"),
        ("signed the 15th of February, 2025.", "2025-02-15"),
        ("signed 2025-02-15.", "2025-02-15"),
        ("signed 02/15/2025.", "2025-02-15"),
        ("signed 15/02/2025.", "2025-02-15"),
        ("signed 15.02.2025.", "2025-02-15"),
        ("SIGNED FEBRUARY 15, 2025", "2025-02-15"),
    ],
)
def test_dates_in_each_format(text, iso):
    meta = extract_metadata(text)
    assert meta["dates"] == [iso]
    assert meta["year"] == 2025


def test_invalid_dates_and_year_hints():
    assert extract_metadata("due February 30, 2025 or 13/13/2025")["dates"] == []
    meta = extract_metadata("Results for FY2023 were strong; FY2023 beat 2000 units in Q3 2024.")
    assert meta["dates"] == [] and meta["year"] == 2023
    assert extract_metadata("no years here, only 12,2025 and $2025")["year"] is None
    assert extract_metadata("text", title="Annual Report 2024")["year"] == 2024
    assert extract_metadata("May 1, 2024; June 1, 2025; July 1, 2025")["year"] == 2025


def test_organizations():
    text = (
        "Between GlobalTech Corp and Shared Services LLC. The Company and IP Holdings LLC\n"
        "signed with Acme Widgets, Inc. and SIEMENS AG and Blue River Holdings, LLC.\n"
        "InnovateTech Solutions,\nInc. is the seller. Later SHARED SERVICES LLC appears again."
    )
    assert extract_metadata(text)["organizations"] == [
        "GlobalTech Corp", "Shared Services LLC", "IP Holdings LLC", "Acme Widgets, Inc.",
        "SIEMENS AG", "Blue River Holdings, LLC", "InnovateTech Solutions,\nInc.".replace("\n", " "),
    ]  # fmt: skip


def test_organizations_negatives():
    text = "The Company shall pay. Holdings were sold. The Working Capital adjustment applies."
    assert extract_metadata(text)["organizations"] == []


def test_people():
    text = (
        "Reviewed by Dr. Sarah Chen and Mr. John Park.\n"
        "Contacts: Maria Lopez (CFO); Tom Baker, Partner; Ana Ruiz - General Counsel.\n"
        "From: Jane Doe\nPrepared by: Robert Smith\n"
        "Later Mr. Park and Sarah Chen, CTO, met again."
    )
    assert extract_metadata(text)["people"] == [
        "Dr. Sarah Chen", "Mr. John Park", "Maria Lopez", "Tom Baker", "Ana Ruiz", "Jane Doe",
        "Robert Smith",
    ]  # fmt: skip


def test_people_negatives():
    text = (
        "Under the Master Services Agreement, Director approval is needed.\n"
        "From: Legal Department\nDear Board Members,\nPrepared by: Risk Committee\n"
        "Material Adverse Change - Partner review. Purchase Price, CEO sign-off.\n"
        "Signed by Acme Consulting. TechCorp Industries, CEO office."
    )
    assert extract_metadata(text)["people"] == []


@pytest.mark.parametrize(
    ("title", "path", "first_line", "fmt", "expected"),
    [
        ("Non-Disclosure Agreement", "", "", "pdf", "agreement"),
        ("Risk Assessment Memo", "", "", "pdf", "memo"),
        ("Legal Opinion Letter", "", "", "pdf", "letter"),
        ("Due Diligence Report", "", "", "pdf", "report"),
        ("Exhibit A - Financial Terms", "", "", "pdf", "exhibit"),
        ("Schedule 2 - Material Contracts", "", "", "pdf", "schedule"),
        ("Agreement and Plan of Merger", "", "", "pdf", "agreement"),
        ("Report on the Agreement", "", "", "pdf", "report"),
        ("Certificate of Incorporation", "", "", "pdf", "certificate"),
        ("", "deals/closing_checklist.docx", "", "docx", "checklist"),
        ("", "notes/q3.md", "# Board Meeting Minutes", "md", "minutes"),
        ("", "x/data.xlsx", "", "xlsx", "spreadsheet"),
        ("", "x/deck.bin", "", "pptx", "presentation"),
        ("Untitled", "x/notes.txt", "hello world", "txt", "other"),
    ],
)
def test_document_type(title, path, first_line, fmt, expected):
    text = f"{first_line}\n\nSome body text that mentions an agreement and a report in passing."
    got = extract_metadata(text, title=title, path=path, format=fmt)["document_type"]
    assert got == expected


def test_lists_are_capped_and_deduplicated():
    text = " ".join(f"${n},000 on March {n % 28 + 1}, 2024 and ${n},000." for n in range(1, 40))
    meta = extract_metadata(text)
    assert len(meta["amounts"]) == len(meta["dates"]) == MAX_ITEMS
    assert meta["amounts"][:2] == [1000.0, 2000.0]
    assert meta["max_amount"] == 39_000.0  # over all amounts, not just the first 20


def test_a_30_kb_text_and_a_hostile_one_finish():
    """A hang bound, not a speed check (bench/index.py times indexing): the patterns must
    not backtrack without end on long runs of near-matches."""
    text = (AGREEMENT * 40)[:30_000]
    assert finishes(extract_metadata, text, seconds=30) == extract_metadata(text)
    hostile = "$" + "1," * 20_000 + " on March " + "1 " * 5_000
    assert finishes(extract_metadata, hostile, seconds=30)["amounts"] is not None


def test_discover_schema_types_counts_examples():
    rows = [
        extract_metadata(AGREEMENT, title="Acquisition Agreement", format="pdf"),
        extract_metadata("Risk memo, no money.", title="Risk Memo", format="docx"),
        '{"custom": "x", "score": 1.5, "flag": true, "tags": ["a", 1]}',
        {"custom": "y", "score": 2, "flag": False, "tags": []},
        {"custom": None, "mixed": 1},
        {"mixed": "one"},
    ]
    schema = discover_schema(rows)
    assert [entry["field"] for entry in schema] == sorted(entry["field"] for entry in schema)
    by = {entry["field"]: entry for entry in schema}
    assert {name: entry["type"] for name, entry in by.items()} == {
        "amounts": "list[number]", "currencies": "list[string]", "custom": "string",
        "dates": "list[date]", "document_type": "string", "flag": "boolean",
        "format": "string", "max_amount": "number", "mentions_currency": "boolean",
        "mixed": "string", "organizations": "list[string]", "people": "list[string]",
        "score": "number", "tags": "list[string]", "year": "number",
    }  # fmt: skip
    assert by["amounts"]["documents"] == 1  # the memo's [] is empty
    assert by["mentions_currency"]["documents"] == 2  # false is a value
    assert by["custom"]["documents"] == 2
    assert by["document_type"]["examples"] == ["agreement", "memo"]
    assert by["amounts"]["examples"] == [45_000_000.0, 30_000_000.0]
    assert by["flag"]["examples"] == [True, False]
    assert by["tags"]["examples"] == ["a", 1]
    assert by["mixed"]["examples"] == [1, "one"]


def test_discover_schema_examples_are_capped_and_known_types_fill_gaps():
    rows = [{"n": i, "people": [], "max_amount": None} for i in range(10)] + [{"n": 3}]
    schema = {entry["field"]: entry for entry in discover_schema(rows)}
    assert schema["n"]["examples"] == [0, 1, 2, 3, 4]
    assert schema["n"]["documents"] == 11
    assert schema["people"] == {"field": "people", "type": "list[string]", "documents": 0,
                                "examples": []}  # fmt: skip
    assert schema["max_amount"]["type"] == "number"
    assert discover_schema([]) == []
