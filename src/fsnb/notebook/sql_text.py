"""The text of `%explore_sql`: its leading options, and `:name` parameters bound to
Python variables.

`:name` (jupysql's convention) becomes DuckDB's named parameter `$name`, and the
variable's value is bound to it: a value, never SQL text. DuckDB's own tokenizer finds
them, so `:name` in a string, a comment or a `::` cast is left alone, as is the `:` after
a value (`{'key': v}`, `list[1:n]`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import duckdb

#: Options that may lead the line form, before the SQL.
_OPTION = re.compile(
    r"""\s*(?:(?:-o|--out|--db|--folder)(?:=|\s+)(?:"[^"]*"|'[^']*'|\S+)|-h|--help)(?=\s|$)"""
)
#: Tokens after which a `:` separates a value from what follows instead of naming one.
_AFTER_VALUE = {"identifier", "string_const", "numeric_const"}
_CLOSERS = {")", "]", "}", "["}


def split_line(line: str) -> tuple[str, str]:
    """(the leading options, the SQL) of `%explore_sql [options] SELECT ...`."""
    end = 0
    while match := _OPTION.match(line, end):
        end = match.end()
    return line[:end].strip(), line[end:].strip()


def parameters(sql: str) -> list[tuple[int, str]]:
    """(offset of the `:`, name) of every `:name` parameter in `sql`."""
    try:
        tokens = duckdb.tokenize(sql)
    except duckdb.Error:
        return []  # the query's own error says more
    ends = [start for start, _ in tokens[1:]] + [len(sql)]
    texts = [sql[start:end].strip() for (start, _), end in zip(tokens, ends, strict=True)]
    found = []
    for i in range(len(tokens) - 1):
        start, (following, kind) = tokens[i][0], tokens[i + 1]
        if texts[i] != ":" or following != start + 1 or not texts[i + 1].isidentifier():
            continue
        if kind.name not in ("identifier", "keyword"):
            continue
        if i and (tokens[i - 1][1].name in _AFTER_VALUE or texts[i - 1] in _CLOSERS):
            continue
        found.append((start, texts[i + 1]))
    return found


def bind(sql: str, namespace: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """`sql` with each `:name` written `$name`, and the values of those variables.

    A name with no variable raises `KeyError` naming it.
    """
    found = parameters(sql)
    if missing := [name for _, name in found if name not in namespace]:
        raise KeyError(missing[0])
    text = list(sql)
    for offset, _ in found:
        text[offset] = "$"
    return "".join(text), {name: namespace[name] for _, name in found}
