"""Table extraction on the sample corpora; prints one JSON object.

Statements (`data/statements`, twelve card statements, truth in `data/_truth/statements.csv`):
every table of each statement is extracted, and the tables whose typed columns look like
transactions (a date column, a number column and a text column) give rows of (date, amount,
description, page): the first date column, the last number column, and the text column with
the most distinct values. A row matches a true transaction of the same file with the same
date and amount (to the cent) whose merchant is contained in the description (each truth
row matches at most once).

- `row_recall`: true transactions matched / true transactions;
- `row_precision`: extracted rows matched / extracted rows;
- `page_agreement`: matched rows whose page is the true page / matched rows;
- `seconds_per_statement`: extraction time per statement (best of `--repeat`).

Other corpora (`data/mixed`, `data/test_acquisition`, `data/large_acquisition`), per format
(CSV, XLSX, DOCX, PPTX, HTML, PDF): `files`, `tables`, `cells` (rows x columns of the typed
frames), `errors` (files that raised `ParseError`) and `seconds` (all its files, one run).

Targets: `row_recall` and `row_precision` 1.0, `page_agreement` 1.0.

    .venv/bin/python bench/extract.py [--data data] [--repeat 3]
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pandas as pd
from pandas.api import types as ptypes

from fsnb.errors import ParseError
from fsnb.extract import ExtractedTable, extract_tables

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ("mixed", "test_acquisition", "large_acquisition")
FORMATS = {
    "csv": (".csv",),
    "xlsx": (".xlsx",),
    "docx": (".docx",),
    "pptx": (".pptx",),
    "html": (".html", ".htm"),
    "pdf": (".pdf",),
}

#: One extracted transaction: (date as ISO text, amount, description, page).
Row = tuple[str, float, str, int | None]


def transactions(table: ExtractedTable) -> list[Row]:
    """The table's rows as transactions, or none when its columns do not look like them."""
    frame = table.frame
    dates = [c for c in frame.columns if ptypes.is_datetime64_any_dtype(frame[c])]
    numbers = [
        c
        for c in frame.columns
        if ptypes.is_numeric_dtype(frame[c]) and not ptypes.is_bool_dtype(frame[c])
    ]
    texts = [c for c in frame.columns if frame[c].dtype == object]
    if not (dates and numbers and texts):
        return []
    date, amount = dates[0], numbers[-1]
    text = max(texts, key=lambda c: frame[c].nunique())
    pages = table.pages or [table.page] * len(frame)
    return [
        (d.date().isoformat(), float(a), str(t), p)
        for d, a, t, p in zip(frame[date], frame[amount], frame[text], pages, strict=True)
        if not (pd.isna(d) or pd.isna(a))
    ]


def match(rows: list[Row], truth: list[dict[str, str]]) -> tuple[int, int]:
    """(rows matched, matched rows on the true page): date, amount, merchant in text."""
    left = list(truth)
    matched = same_page = 0
    for date, amount, text, page in rows:
        for i, true in enumerate(left):
            if (
                true["date"] == date
                and abs(float(true["amount"]) - amount) < 0.005
                and true["merchant"].lower() in text.lower()
            ):
                matched += 1
                same_page += page == int(true["page"])
                del left[i]
                break
    return matched, same_page


def statements(data: Path, repeat: int) -> dict[str, Any]:
    """Recall, precision and page agreement of the statements' transactions, and speed."""
    with (data / "_truth" / "statements.csv").open(newline="") as handle:
        truth = list(csv.DictReader(handle))
    by_file: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in truth:
        by_file[row["source_file"]].append(row)
    files = sorted((data / "statements").glob("*.pdf"))
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        found = {f.name: extract_tables(f) for f in files}
        best = min(best, time.perf_counter() - start)
    extracted = matched = same_page = 0
    for name, tables in found.items():
        rows = [row for table in tables for row in transactions(table)]
        hits, pages = match(rows, by_file.get(name, []))
        extracted, matched, same_page = extracted + len(rows), matched + hits, same_page + pages
    return {
        "statements": len(files),
        "true_rows": len(truth),
        "extracted_rows": extracted,
        "row_recall": round(matched / len(truth), 4) if truth else None,
        "row_precision": round(matched / extracted, 4) if extracted else None,
        "page_agreement": round(same_page / matched, 4) if matched else None,
        "seconds_per_statement": round(best / len(files), 4) if files else None,
    }


def formats(data: Path) -> dict[str, dict[str, Any]]:
    """Files, tables, cells, errors and seconds per format over the other corpora."""
    files = sorted(f for c in CORPORA for f in (data / c).rglob("*") if f.is_file())
    figures = {}
    for kind, suffixes in FORMATS.items():
        chosen = [f for f in files if f.suffix.lower() in suffixes]
        tables = cells = errors = 0
        start = time.perf_counter()
        for file in chosen:
            try:
                found = extract_tables(file)
            except ParseError:
                errors += 1
                continue
            tables += len(found)
            cells += sum(t.frame.size for t in found)
        seconds = time.perf_counter() - start
        figures[kind] = {
            "files": len(chosen),
            "tables": tables,
            "cells": cells,
            "errors": errors,
            "seconds": round(seconds, 3),
        }
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data", help="the sample data")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the statements")
    args = parser.parse_args(argv)
    result = {**statements(args.data, max(1, args.repeat)), "formats": formats(args.data)}
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
