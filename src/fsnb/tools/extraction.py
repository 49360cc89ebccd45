"""The agent's table tools: list a document's tables, load one into the scratchpad, and
read rows from prose into a scratchpad table.

`extract_tables` shows each table of a document with its index, page, caption, shape,
column types and first rows; `load_table` copies one into a scratchpad table with its
provenance (`source_file`, `page`, `source_row`), so SQL answers can cite their rows;
`extract_rows` has the run's LLM read rows out of documents' text, each with its
`source_file`, `page`, `quote` and whether the quote was found (`verified`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd

from fsnb.errors import FsnbError, one_line
from fsnb.extract import load, rows
from fsnb.extract.tables import ExtractedTable
from fsnb.protocol.outcome import ToolOutcome, from_data
from fsnb.tools.context import ToolContext
from fsnb.tools.matching import paths_argument
from fsnb.tools.payloads import (
    Extracted,
    Loaded,
    LoadedMany,
    LoadFailure,
    TableInfo,
    TableLoad,
    Tables,
)
from fsnb.tools.registry import tool

#: Rows shown of each table.
HEAD_ROWS = 5
#: Characters shown of one cell.
CELL_CHARS = 40
#: Columns named (with their types) and shown of each table: a table thousands of columns
#: wide would otherwise fill the model's context.
SHOW_COLUMNS = 50


def _cell(value: Any) -> Any:
    """A cell as JSON-friendly data (dates as ISO text, missing as None)."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value.item() if hasattr(value, "item") else value


def _described(table: ExtractedTable) -> TableInfo:
    frame = table.frame
    types = list(load.column_types(frame).values())[len(load.PROVENANCE) :]
    head = frame.head(HEAD_ROWS)
    return TableInfo(
        table.index,
        table.page,
        table.where,
        table.caption,
        len(frame),
        dict(zip(map(str, frame.columns), types, strict=True)),
        tuple(
            dict(zip(map(str, frame.columns), map(_cell, row), strict=True)) for row in head.values
        ),
    )


@tool
def extract_tables(path: str, *, ctx: ToolContext) -> ToolOutcome[Tables]:
    """List the tables of a document (PDF, DOCX, XLSX, CSV, HTML, ...) with typed columns.

    Shows each table's index, page, caption, size, column types and first rows; load one
    into the scratchpad with load_table, then compute with query_data.

    Args:
        path: The document, relative to the folder.
    """
    target = ctx.sandbox.existing(path, "file")
    source = ctx.sandbox.relative(target)
    extracted = load.document_tables(target, ctx.sandbox)
    tables = tuple(_described(t) for t in extracted)
    left_out = tuple(getattr(extracted, "notes", ()))  # what a limit left out
    notes = [f"[{note}]" for note in left_out]
    payload = Tables(source, tables, (source,), left_out)
    if not tables:
        return ToolOutcome("\n".join([f"No tables found in {source}.", *notes]), payload=payload)
    lines = [f"{len(tables)} table{'s' * (len(tables) != 1)} in {source}:", *notes]
    for table, found in zip(tables, extracted, strict=True):
        where = f", {table.where}" if table.where else ""
        caption = f' "{table.caption}"' if table.caption else ""
        named = list(table.columns.items())
        columns = ", ".join(f"{c} {k}" for c, k in named[:SHOW_COLUMNS])
        if len(named) > SHOW_COLUMNS:
            columns += f", and {len(named) - SHOW_COLUMNS:,} more"
        lines.append(
            f"\nTable {table.index}{where}{caption}: {table.rows:,} rows x "
            f"{len(table.columns)} columns ({columns})"
        )
        head = found.raw.iloc[:HEAD_ROWS, :SHOW_COLUMNS]
        if not head.empty:
            lines.append(head.to_string(index=False, max_colwidth=CELL_CHARS))
    return ToolOutcome("\n".join(lines), payload=payload)


@tool
def load_table(
    path: str, table: int | str, name: str, *, ctx: ToolContext
) -> ToolOutcome[Loaded | LoadedMany]:
    """Load a table of one or many documents into a scratchpad table, each row with its
    provenance.

    Creates the table `name` with the table's typed columns plus source_file, page and
    source_row, or appends to it when it has the same columns (e.g. one statement after
    another); then compute with query_data and cite rows by source_file and page.

    Args:
        path: The document, relative to the folder; or several, separated by commas, or a
            glob pattern such as "statements/*.pdf" to load the same table of each.
        table: The table's index as extract_tables lists it, or words of its caption or
            column names (e.g. "Transactions"), which also finds it in each document.
        name: Scratchpad table to create or append to, e.g. "transactions".
    """
    paths = paths_argument(ctx.sandbox, path)
    if len(paths) == 1:
        report = load.load_table(ctx.db, ctx.sandbox, paths[0], table, name)
        loaded = from_data(Loaded, dataclasses.asdict(report) | {"read": [report.source_file]})
        return ToolOutcome(report.summary(), payload=loaded)
    reports, failed = [], []
    for source in paths:
        ctx.check()  # between documents: a cancelled or timed-out run stops here
        try:
            reports.append(load.load_table(ctx.db, ctx.sandbox, source, table, name))
        except (FsnbError, OSError) as exc:
            failed.append(LoadFailure(source, one_line(exc, 200)))
    lines = [f"- {r.source_file}: {_loaded(r)}" for r in reports]
    lines += [f"- {f.path}: not loaded: {f.error}" for f in failed]
    many = LoadedMany(
        tuple(from_data(TableLoad, dataclasses.asdict(r)) for r in reports),
        tuple(failed),
        tuple(r.source_file for r in reports),
    )
    if not reports:
        head = f"error: no table loaded from the {len(paths)} documents:"
        return ToolOutcome("\n".join([head, *lines]), ok=False, payload=many)
    last = reports[-1]
    columns = ", ".join(f"{c} {k}" for c, k in last.columns.items())
    added = sum(r.added for r in reports)
    head = (
        f"Loaded {added:,} rows from {len(reports)} of {len(paths)} documents into table "
        f"{last.table} (now {last.rows:,} rows; columns: {columns}):"
    )
    many = dataclasses.replace(
        many, table=last.table, rows=last.rows, columns=last.columns, added=added
    )
    return ToolOutcome("\n".join([head, *lines]), payload=many)


@tool
def extract_rows(
    table: str, paths: str, instructions: str = "", *, ctx: ToolContext
) -> ToolOutcome[Extracted]:
    """Read rows of a scratchpad table out of documents' prose (letters, notes, receipts).

    The table must exist (create_table or load_table): its columns say what to read. Each
    row gets source_file, page, quote and verified (false when its quote is not found in the
    document: check those). For tables already in a document, use extract_tables and
    load_table instead; then compute with query_data.

    Args:
        table: The scratchpad table to add rows to, e.g. "expenses".
        paths: Documents relative to the folder: "a.docx, b.pdf", a JSON array, or a glob
            pattern such as "letters/*.docx".
        instructions: What to read and how, e.g. "one row per payment; amounts in USD".
    """
    sent = paths_argument(ctx.sandbox, paths)
    report = rows.extract_rows(
        ctx.scratchpad,
        ctx.sandbox,
        ctx.llm,
        table,
        sent,
        instructions,
        spend=ctx.spend,
        check=ctx.check,
    )
    extracted = from_data(Extracted, dataclasses.asdict(report) | {"read": sent})
    return ToolOutcome(report.summary(), payload=extracted)


def _loaded(report: load.LoadReport) -> str:
    where = f", {report.where}" if report.where else ""
    again = f", replacing {report.replaced:,} loaded before" if report.replaced else ""
    notes = "".join(f" [{note}]" for note in report.notes)
    return f"{report.added:,} rows{where}{again}{notes}"


EXTRACTION_TOOLS = [extract_tables, load_table, extract_rows]
