"""What goes into a scratchpad table, checked before any SQL runs: names reduced to safe
identifiers (`sanitize`), column types from a short whitelist (`column_type`,
`parse_columns`), and rows as JSON objects turned into one JSON array per insert, with the
row and column of a value that does not convert named (`diagnose`).
"""

from __future__ import annotations

import functools
import json
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from fsnb.db.guard import memory_rows
from fsnb.errors import FsnbError

MAX_NAME = 63
#: Columns of one table: every insert, size count and query handles each column on its own
#: (a 182 KB CSV of 10,000 columns took 8.3 GB to load), and real tables have dozens.
MAX_COLUMNS = 1_000
TYPES = "VARCHAR, INTEGER, BIGINT, DOUBLE, DECIMAL(p,s), BOOLEAN, DATE, TIMESTAMP, JSON"
_ALIASES = {
    **dict.fromkeys(["VARCHAR", "TEXT", "STRING", "CHAR"], "VARCHAR"),
    **dict.fromkeys(["INTEGER", "INT", "INT4", "SMALLINT"], "INTEGER"),
    **dict.fromkeys(["BIGINT", "INT8", "LONG"], "BIGINT"),
    # FLOAT and REAL are single precision in DuckDB: too coarse for amounts, so DOUBLE.
    **dict.fromkeys(["DOUBLE", "DOUBLE PRECISION", "FLOAT", "FLOAT8", "REAL"], "DOUBLE"),
    **dict.fromkeys(["BOOLEAN", "BOOL"], "BOOLEAN"),
    **dict.fromkeys(["TIMESTAMP", "DATETIME"], "TIMESTAMP"),
    **dict.fromkeys(["DATE", "JSON"], None),
}
_DECIMAL = re.compile(r"(?:DECIMAL|NUMERIC)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?")
_WIDTHS = {"BOOLEAN": 1, "INTEGER": 4, "DATE": 4, "VARCHAR": 0, "JSON": 0}  # others: 8
Columns = str | Mapping[str, str] | Sequence[tuple[str, str]]
Rows = str | Mapping[str, Any] | Sequence[Mapping[str, Any]] | pd.DataFrame


class ScratchpadError(FsnbError):
    """A scratchpad call was refused: a bad name, type, row or query, or a missing table."""


class ScratchpadLimit(ScratchpadError):
    """A table, row or size limit would be exceeded; nothing was changed."""


@functools.cache
def _keywords() -> frozenset[str]:
    """DuckDB keywords that cannot be used unquoted as table or column names."""
    sql = "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category IN "
    return frozenset(row[0] for row in memory_rows(sql + "('reserved', 'type_function')"))


@functools.lru_cache(maxsize=4096)
def sanitize(name: str, what: str = "table") -> str:
    """A safe identifier: ASCII `[a-z0-9_]`, starting with a letter, at most 63 characters.

    Accents are dropped, other characters become `_`, a leading digit gets `t_`, a reserved
    word gets a trailing `_` ("order" -> "order_"). A name with nothing left is refused.
    """
    text = unicodedata.normalize("NFKD", str(name)).encode("ascii", "ignore").decode()
    clean = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    if not clean:
        msg = f"invalid {what} name {name!r}: use letters, digits and underscores"
        raise ScratchpadError(msg)
    clean = (clean if clean[0].isalpha() else f"t_{clean}")[:MAX_NAME].rstrip("_")
    return f"{clean[: MAX_NAME - 1]}_" if clean in _keywords() else clean


def column_type(text: str, column: str = "?") -> str:
    """The whitelisted DuckDB type for `text` (case-insensitive), or `ScratchpadError`."""
    spec = " ".join(str(text).upper().split())
    if match := _DECIMAL.fullmatch(spec):
        precision, scale = int(match[1] or 18), int(match[2] or (0 if match[1] else 3))
        if not 0 <= scale <= precision <= 38 or not precision:
            msg = f"invalid type {text!r} for column {column}: DECIMAL(p,s) needs s <= p <= 38"
            raise ScratchpadError(msg)
        return f"DECIMAL({precision},{scale})"
    spec = re.sub(r"^(VARCHAR|CHAR|TEXT|STRING)\s*\(\s*\d+\s*\)$", r"\1", spec)
    if spec not in _ALIASES:
        msg = f"unsupported type {text!r} for column {column}; use one of {TYPES}"
        raise ScratchpadError(msg)
    return _ALIASES[spec] or spec


def parse_columns(spec: Columns) -> dict[str, str]:
    """Column names to types, from "name TYPE, ..." text, a dict or (name, type) pairs."""
    if isinstance(spec, str):
        pairs = []
        for part in re.split(r",(?![^()]*\))", spec):  # not the comma in DECIMAL(12,2)
            if not (match := re.fullmatch(r'\s*("[^"]*"|\S+)\s+(.+?)\s*', part)):
                msg = f"column {part.strip()!r} needs a name and a type, e.g. 'amount DOUBLE'"
                raise ScratchpadError(msg)
            pairs.append((match[1].strip('"'), match[2]))
    else:
        pairs = list(spec.items() if isinstance(spec, Mapping) else spec)
    columns: dict[str, str] = {}
    for raw, kind in pairs:
        if (name := sanitize(raw, "column")) in columns:
            msg = f"duplicate column {name!r} (from {raw!r})"
            raise ScratchpadError(msg)
        columns[name] = column_type(kind, name)
    if not columns:
        msg = "a table needs at least one column, e.g. 'name VARCHAR, amount DOUBLE'"
        raise ScratchpadError(msg)
    return columns


def value_width(kind: str) -> int:
    """Bytes of one value of a fixed-width type (0 for text, which is measured)."""
    if match := re.fullmatch(r"DECIMAL\((\d+),\d+\)", kind):
        return next(b for p, b in ((4, 2), (9, 4), (18, 8), (38, 16)) if int(match[1]) <= p)
    return _WIDTHS.get(kind, 8)


def as_records(rows: Rows) -> list[Mapping[str, Any]]:
    if isinstance(rows, str):
        try:
            rows = json.loads(rows)
        except json.JSONDecodeError as exc:
            msg = f"rows are not valid JSON: {exc}"
            raise ScratchpadError(msg) from None
    if isinstance(rows, pd.DataFrame):
        rows = rows.to_dict("records")
    rows = [rows] if isinstance(rows, Mapping) else rows
    if not isinstance(rows, Sequence) or not all(isinstance(r, Mapping) for r in rows):
        msg = 'rows must be a JSON array of objects, e.g. [{"name": "Ann", "amount": 10.5}]'
        raise ScratchpadError(msg)
    return list(rows)


def json_rows(table: str, columns: dict[str, str], records: list[Mapping[str, Any]]) -> str:
    """The rows as a JSON array of arrays in column order; unknown keys are refused."""
    index = {c: i for i, c in enumerate(columns)}
    as_json = [k == "JSON" for k in columns.values()]
    unknown: dict[str, None] = {}
    matrix = []
    for record in records:
        row: list[Any] = [None] * len(index)
        for key, value in record.items():
            try:
                i = index[sanitize(str(key), "column")]
            except (KeyError, ScratchpadError):
                unknown[str(key)] = None
                continue
            missing = value is None or value is pd.NA or value is pd.NaT
            if not missing and not (isinstance(value, float) and math.isnan(value)):
                row[i] = json.dumps(value, default=str) if as_json[i] else value
        matrix.append(row)
    if unknown:
        msg = (
            f"unknown column{'s' * (len(unknown) > 1)} {', '.join(map(repr, unknown))} for "
            f"table {table} (columns: {', '.join(columns)}); nothing was inserted"
        )
        raise ScratchpadError(msg)
    try:
        return json.dumps(matrix, default=str, allow_nan=False)
    except ValueError as exc:
        msg = f"rows cannot be stored: {exc}"
        raise ScratchpadError(msg) from None


def diagnose(payload: str, columns: dict[str, str]) -> str | None:
    """Name the first row and column whose value does not convert, e.g. 'abc' to DOUBLE."""
    rows = "SELECT unnest(a) AS r, generate_subscripts(a, 1) AS n FROM (SELECT ?::JSON[] AS a)"
    for i, (column, kind) in enumerate(columns.items()):
        values = f"SELECT n, json_extract_string(r, {i}) AS v FROM ({rows})"
        test = f"v IS NOT NULL AND TRY_CAST(v AS {kind}) IS NULL"
        for n, v in memory_rows(f"{values} WHERE {test} ORDER BY n LIMIT 1", [payload]):
            return f"row {n}, column {column}: cannot convert {v!r} to {kind}"
    return None
