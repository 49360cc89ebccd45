"""An extracted table into the scratchpad, each row with its provenance.

`load_table` takes one table of a document (`fsnb.extract.tables.extract_tables`), and
creates the scratchpad table `name` with the table's typed columns plus `source_file`,
`page` and `source_row` (1-based row in the source table), or appends to an existing
table of the same shape, so that every row, and every SQL answer computed from it, can be
cited back to its document. Loading the same document's table again replaces its rows
(matched by source_file and page) instead of adding them twice. Column names become SQL
identifiers: lower case, underscores, unique. Appending a table of another shape is
refused with one line naming the columns that differ; nothing is changed then.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from pandas.api import types as ptypes

from fsnb.db.database import Database
from fsnb.db.scratchpad import Scratchpad, ScratchpadError, ScratchpadLimit, sanitize
from fsnb.extract.tables import ExtractedTable, Tables, extract_tables
from fsnb.security import Sandbox

#: The provenance columns every loaded table starts with, and their types.
PROVENANCE = {"source_file": "VARCHAR", "page": "INTEGER", "source_row": "INTEGER"}
#: Types a column may arrive as into an existing column of the key's type (a widening).
_WIDER = {"DOUBLE": {"BIGINT", "INTEGER"}, "BIGINT": {"INTEGER"}, "TIMESTAMP": {"DATE"}}


@dataclass(frozen=True)
class LoadReport:
    """What `load_table` did: rows added, rows the table has now, and its columns."""

    table: str
    added: int
    rows: int
    columns: dict[str, str]
    created: bool
    source_file: str
    page: int | None
    #: Where the rows were: 'page 3', 'pages 3-4', or '' without pages.
    where: str = ""
    #: Source column names that were changed to SQL identifiers, original -> clean.
    renamed: dict[str, str] = field(default_factory=dict)
    #: Rows of an earlier load of the same document's table that these replaced.
    replaced: int = 0
    #: What the extraction's limits left out of the document, one line each.
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line for the LLM or the terminal."""
        verb = "Created" if self.created else "Appended to"
        page = f", {self.where}" if self.where else ""
        columns = ", ".join(f"{c} {k}" for c, k in self.columns.items())
        again = f", replacing the {self.replaced:,} loaded before" if self.replaced else ""
        return "\n".join(
            [
                f"{verb} table {self.table}: {self.added:,} row{'s' * (self.added != 1)} from "
                f"{self.source_file}{page}{again} (now {self.rows:,} rows; columns: {columns}).",
                *(f"[{note}]" for note in self.notes),
            ]
        )


def column_names(names: Sequence[object]) -> list[str]:
    """Unique SQL identifiers for `names`, none of them a provenance column's.

    "Amount ($)" -> "amount", an empty name -> "column_3" (its 1-based position), a second
    "amount" -> "amount_2", "page" -> "page_2".
    """
    taken = set(PROVENANCE)
    clean = []
    for position, name in enumerate(names, 1):
        try:
            base = sanitize(str(name), "column")
        except ScratchpadError:
            base = f"column_{position}"
        candidate, n = base, 1
        while candidate in taken:
            n += 1
            candidate = f"{base[:58]}_{n}"
        taken.add(candidate)
        clean.append(candidate)
    return clean


def sql_type(column: pd.Series) -> str:
    """The scratchpad type of a typed column: BOOLEAN, BIGINT, DOUBLE, DATE (dates at
    midnight), TIMESTAMP or VARCHAR."""
    if ptypes.is_bool_dtype(column):
        return "BOOLEAN"
    if ptypes.is_integer_dtype(column):
        return "BIGINT"
    if ptypes.is_float_dtype(column):
        return "DOUBLE"
    if ptypes.is_datetime64_any_dtype(column):
        values = column.dropna()
        return "DATE" if (values == values.dt.normalize()).all() else "TIMESTAMP"
    return "VARCHAR"


def column_types(frame: pd.DataFrame) -> dict[str, str]:
    """Clean column names to scratchpad types, provenance columns first."""
    names = column_names(list(frame.columns))
    return {**PROVENANCE, **{n: sql_type(frame.iloc[:, i]) for i, n in enumerate(names)}}


def _value(value: Any, kind: str) -> Any:
    """One cell as a value the scratchpad stores (None for a missing one)."""
    if value is None or value is pd.NaT or (not isinstance(value, str) and pd.isna(value)):
        return None
    if kind == "DATE":
        return pd.Timestamp(value).date().isoformat()
    if kind == "TIMESTAMP":
        return pd.Timestamp(value).isoformat()
    return value.item() if hasattr(value, "item") else value  # numpy scalars: Python ones


def records(extracted: ExtractedTable, source_file: str) -> list[dict[str, Any]]:
    """The table's rows keyed by clean column name, each with its provenance (its own page
    when the table spans pages)."""
    frame = extracted.frame
    kinds = list(column_types(frame).items())[len(PROVENANCE) :]
    pages = extracted.pages or [extracted.page] * len(frame)
    rows = []
    for number, cells in enumerate(frame.itertuples(index=False, name=None), 1):
        row: dict[str, Any] = {
            "source_file": source_file,
            "page": pages[number - 1],
            "source_row": number,
        }
        row.update(
            {name: _value(cell, kind) for (name, kind), cell in zip(kinds, cells, strict=True)}
        )
        rows.append(row)
    return rows


def shape_difference(have: dict[str, str], wanted: dict[str, str]) -> str | None:
    """How `wanted` differs from an existing table's columns `have`, on one line; None when
    it can be appended (the same columns, types equal or widening into the table's)."""
    missing = [c for c in have if c not in wanted]
    extra = [c for c in wanted if c not in have]
    other = [
        f"{c} ({wanted[c]}, the table has {have[c]})"
        for c in wanted
        if c in have and wanted[c] != have[c] and wanted[c] not in _WIDER.get(have[c], ())
    ]
    parts = [
        f"{what}: {', '.join(names)}"
        for what, names in (("missing", missing), ("extra", extra), ("other type", other))
        if names
    ]
    return "; ".join(parts) or None


def pick_table(tables: Sequence[ExtractedTable], which: int | str, source: str) -> ExtractedTable:
    """The table `which` of a document: its index (as extract_tables lists it), or words
    found in its caption or column names ("Transactions", "date amount"), the first such
    table. `ScratchpadError` names the tables there are when none fits."""
    if not tables:
        msg = f"{source} has no tables to load"
        raise ScratchpadError(msg)
    if isinstance(which, str) and which.strip().lstrip("-").isdigit():
        which = int(which)
    if isinstance(which, int):
        found = [t for t in tables if t.index == which]
    else:
        words = which.lower().split()
        found = [t for t in tables if all(w in _label(t) for w in words)]
    if not found:
        listed = "; ".join(f"{t.index}: {_label(t)}" for t in tables)
        msg = f"{source} has no table {which!r}; its tables are {listed} (see extract_tables)"
        raise ScratchpadError(msg)
    return found[0]


def _label(table: ExtractedTable) -> str:
    """A table's caption and column names, lower case, for matching words against."""
    return " ".join([table.caption or "", *map(str, table.frame.columns)]).lower()


def document_tables(path: str | os.PathLike[str], sandbox: Sandbox) -> Tables:
    """Every table of the document `path` (`fsnb.extract.tables.extract_tables`), with
    the notes of the limits its extraction hit."""
    return extract_tables(path, sandbox=sandbox)


def load_table(
    store_or_db: Database | str | os.PathLike[str] | None,
    folder: str | os.PathLike[str] | Sandbox,
    path: str | os.PathLike[str],
    table_index: int | str,
    name: str,
    *,
    tables: Sequence[ExtractedTable] | None = None,
) -> LoadReport:
    """Load table `table_index` of the document `path` (inside `folder`) into the folder's
    scratchpad table `name`: created when new, appended to when it has the same shape.
    The table is named by its index or by words of its caption or columns (`pick_table`).

    `tables` are the document's tables when already extracted (else they are extracted
    here). A path outside the folder is refused (`AccessDenied`); a missing table, a table
    of another shape or a row that does not fit raises `ScratchpadError`.
    """
    table = sanitize(name)  # a bad name is refused before the document is read
    sandbox = folder if isinstance(folder, Sandbox) else Sandbox(folder)
    target = sandbox.existing(path, "file")
    source = sandbox.relative(target)
    found = document_tables(target, sandbox) if tables is None else tables
    extracted = pick_table(found, table_index, source)
    wanted = column_types(extracted.frame)
    pad = Scratchpad(store_or_db, folder=sandbox.root)
    if len(wanted) > pad.max_columns:  # before anything is made of a table that wide
        msg = (
            f"table {extracted.index} of {source} has {extracted.frame.shape[1]:,} columns, "
            f"more than a scratchpad table may have ({pad.max_columns:,}, with "
            f"{', '.join(PROVENANCE)}); nothing was loaded"
        )
        raise ScratchpadLimit(msg)
    created = table not in pad
    if not created and (diff := shape_difference(pad.schema(table), wanted)):
        msg = f"table {table} has another shape than table {extracted.index} of {source}: {diff}"
        raise ScratchpadError(msg)
    if created:
        pad.create_table(table, wanted)
    before = 0 if created else pad.rows(table)
    rows = records(extracted, source)
    # loading a document's table again replaces its rows rather than adding them twice
    again = {"source_file": [source], "page": sorted({r["page"] for r in rows}, key=str)}
    try:
        added = pad.insert(table, rows, replacing=None if created else again)
    except ScratchpadError:
        if created:
            pad.drop(table)
        raise
    renamed = {
        str(o): c
        for o, c in zip(extracted.frame.columns, list(wanted)[len(PROVENANCE) :], strict=True)
        if str(o) != c
    }
    return LoadReport(
        table=table,
        added=added,
        rows=(total := pad.rows(table)),
        columns=pad.schema(table),
        replaced=before + added - total,
        created=created,
        source_file=source,
        page=extracted.page,
        where=extracted.where,
        renamed=renamed,
        notes=list(getattr(found, "notes", ())),
    )


__all__ = [
    "PROVENANCE",
    "LoadReport",
    "column_names",
    "column_types",
    "document_tables",
    "load_table",
    "pick_table",
]
