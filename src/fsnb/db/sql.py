"""Quoting for the SQL fsnb writes itself: a name (`ident`) and a text value (`literal`).

Values go into queries as parameters wherever DuckDB takes one; these are for the places
it does not: table, schema and column names, and the path an ATTACH names.
"""

from __future__ import annotations


def ident(name: str) -> str:
    """`name` as a quoted SQL identifier: `order` -> `"order"`, `a"b` -> `"a""b"`."""
    return '"' + name.replace('"', '""') + '"'


def literal(text: str) -> str:
    """`text` as a quoted SQL string: `it's` -> `'it''s'`."""
    return "'" + text.replace("'", "''") + "'"
