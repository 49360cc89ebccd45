"""The metadata filter language: `document_type=memo and max_amount>=1000000`.

Conditions are joined by `and`: `field=value`, `field!=value`, `field>=n`, `field<=n`,
`field>n`, `field<n`, `field in (a, b, "c d")` and `field~text` (contains, ignoring case).
Values may be quoted ('...' or "..."); bare numbers are numbers (`1,200,000`, `4.2M` and
`$5k` too) and `true`/`false` booleans. Fields are the keys of `documents.metadata` (their
types come from the corpus' discovered schema) and the columns `path`, `title`, `format`,
`pages` and `chars`.

On a list field, `=` means "contains", `in` "shares an element with", `~` "an element
contains" and `>=`/`<=` "some element is". Strings compare ignoring case. A date (ISO text)
may be partial: `date=2025-02` is any day of that month, `date<=2025` any day up to the end
of 2025. `to_sql` turns conditions into a DuckDB expression over the alias `d` with `?`
parameters; values never enter the SQL text.
"""

from __future__ import annotations

import datetime as dt
import difflib
import math
import re
import sys
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from fsnb.errors import FsnbError

#: The columns of `documents` that filters may use, with their types.
BUILTIN_FIELDS = {"path": "string", "title": "string", "format": "string", "pages": "number"}
BUILTIN_FIELDS["chars"] = "number"
OPERATORS = ("=", "!=", ">=", "<=", ">", "<", "in", "~")
_COMPARE = {">=", "<=", ">", "<"}
_ALLOWED = {
    "string": {"=", "!=", "in", "~"},
    "boolean": {"=", "!=", "in"},
    "number": {"=", "!=", "in", *_COMPARE},
    "date": set(OPERATORS),
}

Value = str | float | int | bool


class FilterError(FsnbError):
    """A metadata filter that cannot be parsed, or does not fit the corpus' fields."""


@dataclass(frozen=True)
class Condition:
    """One `field op value` test; `value` is a tuple for `in`, `text` the value(s) as typed."""

    field: str
    op: str
    value: Value | tuple[Value, ...]
    text: str | tuple[str, ...] = ""
    column: int = 1


_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OP = re.compile(r"!=|>=|<=|==|=|>|<|~|(?i:in)(?=[\s(])")
_AND = re.compile(r"(?i:and)(?=[\s(\"']|$)")
_BARE = re.compile(r"[^\s()]+")
_BARE_IN_LIST = re.compile(r"[^\s(),]+")
_NUMBER = re.compile(
    r"([-+]?)[$€£¥]?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:[eE]([-+]?\d+))?(k|m|mm|b|bn)?", re.I
)
_SCALES = {"": 1, "k": 10**3, "m": 10**6, "mm": 10**6, "b": 10**9, "bn": 10**9}
_PARTIAL_DATE = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")
#: Past the largest double: a number this long (in digits before the point) is out of range.
_MAX_DIGITS = len(str(int(sys.float_info.max)))
#: The day after 9999-12-31, as text: sorts after every ISO date.
_AFTER_LAST_DAY = "9999-12-32"


def _quoted(text: str, limit: int = 40) -> str:
    """`text` as a repr for a message, cut to `limit` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _fail(pos: int, message: str) -> FilterError:
    return FilterError(f"filter syntax error at column {pos + 1}: {message}")


def _skip(expr: str, pos: int) -> int:
    while pos < len(expr) and expr[pos].isspace():
        pos += 1
    return pos


def _show(expr: str, pos: int) -> str:
    token = re.match(r"\S{1,20}", expr[pos:])
    return f"'{token.group()}'" if token else "the end of the filter"


def parse_filter(expr: str) -> list[Condition]:
    """Parse a filter expression; raise `FilterError` (with the column) on bad syntax."""
    conditions: list[Condition] = []
    pos = _skip(expr, 0)
    while pos < len(expr):
        field_match = _FIELD.match(expr, pos)
        if not field_match:
            raise _fail(pos, f"expected a field name, found {_show(expr, pos)}")
        field, start = field_match.group(), pos
        pos = _skip(expr, field_match.end())
        op_match = _OP.match(expr, pos)
        if not op_match:
            found = _show(expr, pos)
            raise _fail(pos, f"expected an operator after '{field}', found {found}")
        op = {"==": "="}.get(op_match.group(), op_match.group().lower())
        pos = _skip(expr, op_match.end())
        if op == "in":
            values, texts, pos = _parse_list(expr, pos)
            quoted = True
            condition = Condition(field, op, tuple(values), tuple(texts), start + 1)
        else:
            value, text, quoted, pos = _parse_value(expr, pos, _BARE, op)
            condition = Condition(field, op, value, text, start + 1)
        conditions.append(condition)
        pos = _skip(expr, pos)
        if pos >= len(expr):
            break
        and_match = _AND.match(expr, pos)
        if not and_match:
            hint = "" if quoted else " (quote values that contain spaces)"
            found = _show(expr, pos)
            raise _fail(pos, f"expected 'and' or the end of the filter, found {found}{hint}")
        pos = _skip(expr, and_match.end())
        if pos >= len(expr):
            raise _fail(pos, "expected a condition after 'and'")
    return conditions


def _parse_list(expr: str, pos: int) -> tuple[list[Value], list[str], int]:
    if not expr.startswith("(", pos):
        raise _fail(pos, f"expected '(' after 'in', found {_show(expr, pos)}")
    values: list[Value] = []
    texts: list[str] = []
    pos = _skip(expr, pos + 1)
    while True:
        value, text, _, pos = _parse_value(expr, pos, _BARE_IN_LIST, "in")
        values.append(value)
        texts.append(text)
        pos = _skip(expr, pos)
        if expr.startswith(")", pos):
            return values, texts, pos + 1
        if not expr.startswith(",", pos):
            raise _fail(pos, f"expected ',' or ')' in the list, found {_show(expr, pos)}")
        pos = _skip(expr, pos + 1)


def _parse_value(expr: str, pos: int, bare: re.Pattern[str], op: str) -> tuple[Any, ...]:
    """(value, text as written, quoted?, position after it)."""
    if pos < len(expr) and expr[pos] in "\"'":
        quote, chars, i = expr[pos], [], pos + 1
        while i < len(expr) and expr[i] != quote:
            if expr[i] == "\\" and i + 1 < len(expr):
                i += 1
            chars.append(expr[i])
            i += 1
        if i >= len(expr):
            raise _fail(pos, f"unterminated quoted value (no closing {quote})")
        return "".join(chars), "".join(chars), True, i + 1
    match = bare.match(expr, pos)
    if not match or _AND.fullmatch(match.group()):
        raise _fail(pos, f"expected a value after '{op}', found {_show(expr, pos)}")
    text = match.group()
    number = _number(text)
    value: Value = text if number is None else number
    if text.lower() in ("true", "false"):
        value = text.lower() == "true"
    return value, text, False, match.end()


def _number(text: str) -> int | float | None:
    """`1,200,000`, `4.2M`, `$5k`, `1e6` as a number; None when `text` is not one.

    A number beyond the range of a double is `inf` (with its sign); one too small is 0.
    """
    match = _NUMBER.fullmatch(text.strip())
    if not match:
        return None
    sign, whole, fraction, exponent, scale = match.groups()
    mantissa = Decimal(whole.replace(",", "") + (fraction or "")) * _SCALES[(scale or "").lower()]
    if not mantissa:
        return 0
    power, sign_of = _power(exponent), -1 if sign == "-" else 1
    magnitude = mantissa.adjusted() + power
    if magnitude >= _MAX_DIGITS:
        return math.inf * sign_of
    if magnitude < -400:
        return 0.0
    number = mantissa.scaleb(power) * sign_of
    return int(number) if number == number.to_integral_value() else float(number)


def _power(exponent: str | None) -> int:
    """The exponent of `1e6`, clamped to ±10**7 (past that every number is 0 or too big)."""
    digits = (exponent or "").lstrip("+-").lstrip("0") or "0"
    power = int(digits) if len(digits) <= 7 else 10**7
    return -power if (exponent or "").startswith("-") else power


def _kind(ftype: str) -> tuple[str, bool]:
    """('string' | 'number' | 'boolean' | 'date', is it a list?) for a schema type."""
    is_list = ftype.startswith("list[")
    base = ftype[5:-1] if is_list else ftype
    if base not in _ALLOWED or (is_list and base == "boolean"):
        base = "string"
    return base, is_list


def _fields(schema: dict[str, str]) -> dict[str, str]:
    return {**schema, **BUILTIN_FIELDS}


def _resolve(condition: Condition, fields: dict[str, str]) -> str:
    """The schema name of a condition's field (case-insensitively), or a FilterError."""
    if condition.field in fields:
        return condition.field
    folded = {name.lower(): name for name in fields}
    if condition.field.lower() in folded:
        return folded[condition.field.lower()]
    close = difflib.get_close_matches(condition.field[:100], list(fields), n=1, cutoff=0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    known = ", ".join(sorted(fields))
    msg = f"unknown filter field {_quoted(condition.field)}{hint}; known fields: {known}"
    raise FilterError(msg)


def _coerce(condition: Condition, name: str, ftype: str) -> list[Any]:
    """The condition's value(s) as the field's type wants them; FilterError if they don't fit."""
    kind = _kind(ftype)[0]
    if condition.op not in _ALLOWED[kind]:
        ops = ", ".join(op for op in OPERATORS if op in _ALLOWED[kind])
        msg = f"operator '{condition.op}' does not apply to '{name}' (a {ftype} field); use {ops}"
        raise FilterError(msg)
    values = condition.value if isinstance(condition.value, tuple) else (condition.value,)
    texts = condition.text if isinstance(condition.text, tuple) else (condition.text,)
    if not any(texts):  # a Condition built by hand: its values as they would be written
        texts = tuple(str(v).lower() if isinstance(v, bool) else str(v) for v in values)
    out: list[Any] = []
    for value, text in zip(values, texts, strict=True):
        if kind == "number":
            is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
            number = value if is_number else _number(text)
            out.append(_finite(name, text, number))
        elif kind == "boolean":
            if text.lower() not in ("true", "false"):
                msg = f"'{name}' is a boolean field; use true or false, not {_quoted(text)}"
                raise FilterError(msg)
            out.append(text.lower() == "true")
        elif kind == "date" and condition.op != "~":
            out.append(_date_bounds(name, text))
        else:
            out.append(text.lower())
    return out


def _finite(name: str, text: str, number: float | None) -> float:
    """`number` as a finite float; FilterError when it is not a number or out of range."""
    if number is None or number != number:  # None, or NaN
        msg = f"'{name}' is a number field; {_quoted(text)} is not a number"
        raise FilterError(msg)
    try:
        value = float(number)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        msg = f"'{name}': {_quoted(text)} is out of range (numbers go up to about 1.8e308)"
        raise FilterError(msg)
    return value


def _date_bounds(name: str, text: str) -> tuple[str, str, str]:
    """A partial ISO date as the period it covers: (first day, day after, ISO prefix)."""
    match = _PARTIAL_DATE.fullmatch(text.strip())
    try:
        if not match:
            raise ValueError(text)
        year, month, day = (int(g) if g else 0 for g in match.groups())
        start = dt.date(year, month or 1, day or 1)
    except ValueError:
        example = "use a date like 2025-02-15, 2025-02 or 2025"
        msg = f"'{name}' is a date field; {example}, not {_quoted(text)}"
        raise FilterError(msg) from None
    prefix = start.isoformat()[: 10 if day else 7 if month else 4]
    try:
        if day:
            end = start + dt.timedelta(days=1)
        elif month:
            end = dt.date(year + (month == 12), month % 12 + 1, 1)
        else:
            end = dt.date(year + 1, 1, 1)
        after = end.isoformat()
    except (OverflowError, ValueError):  # the period ends with the year 9999
        after = _AFTER_LAST_DAY
    return start.isoformat(), after, prefix


def check_fields(conditions: list[Condition], schema: dict[str, str]) -> None:
    """Raise `FilterError` for an unknown field, an unfit operator or an unfit value."""
    fields = _fields(schema)
    for condition in conditions:
        name = _resolve(condition, fields)
        _coerce(condition, name, fields[name])


def to_sql(conditions: list[Condition], schema: dict[str, str]) -> tuple[str, list[Any]]:
    """A DuckDB boolean expression over the documents alias `d`, and its `?` parameters."""
    fields = _fields(schema)
    parts: list[str] = []
    params: list[Any] = []
    for condition in conditions:
        name = _resolve(condition, fields)
        values = _coerce(condition, name, fields[name])
        parts.append(f"({_condition_sql(condition.op, name, fields[name], values, params)})")
    return (" AND ".join(parts) or "TRUE"), params


def compile_filter(expr: str, schema: dict[str, str]) -> tuple[str, list[Any]]:
    """`parse_filter`, `check_fields` and `to_sql` in one call."""
    return to_sql(parse_filter(expr), schema)


def _condition_sql(op: str, name: str, ftype: str, values: list[Any], params: list[Any]) -> str:
    kind, is_list = _kind(ftype)
    negate = op == "!="
    op = "=" if negate else op
    if kind == "date" and op == "~":
        kind = "string"
    if kind == "date" and op in ("=", "in"):  # a date matches a period: one test per value
        tests = [_one(kind, is_list, "=", name, [v], params) for v in values]
        sql = " OR ".join(tests) if len(tests) == 1 else " OR ".join(f"({t})" for t in tests)
    else:
        sql = _one(kind, is_list, op, name, values, params)
    return f"NOT coalesce({sql}, false)" if negate else sql


def _column(name: str, kind: str, is_list: bool, params: list[Any]) -> str:
    if name in BUILTIN_FIELDS:
        return f"CAST(d.{name} AS DOUBLE)" if kind == "number" else f"d.{name}"
    params.append('$."' + name.replace("\\", "\\\\").replace('"', '\\"') + '"')
    if is_list:
        sql_type = "DOUBLE[]" if kind == "number" else "VARCHAR[]"
        return f"TRY_CAST(json_extract(d.metadata, ?) AS {sql_type})"
    if kind in ("number", "boolean"):
        sql_type = "DOUBLE" if kind == "number" else "BOOLEAN"
        return f"TRY_CAST(json_extract_string(d.metadata, ?) AS {sql_type})"
    return "json_extract_string(d.metadata, ?)"


def _each(column: str, is_list: bool, test: str) -> str:
    """`test` (with `{x}` for the value) on a scalar column, or on any element of a list."""
    if is_list:
        return f"list_bool_or(list_transform({column}, lambda x: {test.format(x='x')}))"
    return test.format(x=column)


def _one(kind: str, is_list: bool, op: str, name: str, values: list[Any], params: list[Any]) -> str:
    """SQL for one positive test (`=`, `in`, `~` or a comparison) of a field."""
    column = _column(name, kind, is_list, params)
    if kind == "date":
        start, end, prefix = values[0]
        if op == "=":
            params.append(prefix)
            return _each(column, is_list, "starts_with({x}, ?)")
        params.append({">=": start, ">": end, "<": start, "<=": end}[op])
        return _each(column, is_list, "{x} >= ?" if op[0] == ">" else "{x} < ?")
    if kind == "string":
        if op == "~":
            params.append(values[0])
            return _each(column, is_list, "contains(lower({x}), ?)")
        column = f"list_transform({column}, lambda x: lower(x))" if is_list else f"lower({column})"
    if is_list:
        if op in _COMPARE:
            params.append(values[0])
            return f"list_{'max' if op[0] == '>' else 'min'}({column}) {op} ?"
        params.append(values if op == "in" else values[0])
        return f"{'list_has_any' if op == 'in' else 'list_contains'}({column}, ?)"
    if op == "in":
        params.extend(values)
        return f"{column} IN ({', '.join('?' * len(values))})"
    params.append(values[0])
    return f"{column} {op} ?"
