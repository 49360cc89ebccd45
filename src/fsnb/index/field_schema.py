"""The schema the metadata fields form across a corpus (`discover_schema`): per field its
type, how many documents fill it and a few examples, for the `schemas` table and the
filter language."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from fsnb.index.metadata import KNOWN_TYPES

MAX_EXAMPLES = 5


def discover_schema(rows: Iterable[dict[str, Any] | str]) -> list[dict[str, Any]]:
    """Per field across documents (metadata dicts or their JSON): type, documents, examples."""
    values: dict[str, list[Any]] = {}
    counts: Counter[str] = Counter()
    for row in rows:
        data = json.loads(row) if isinstance(row, str) else row
        for field, value in (data or {}).items():
            values.setdefault(field, [])
            if value is None or value == "" or value == [] or value == {}:
                continue
            counts[field] += 1
            values[field].append(value)
    schema = []
    for field in sorted(values):
        observed = values[field]
        examples: list[Any] = []
        for value in observed:
            for item in value if isinstance(value, list) else [value]:
                item = item if isinstance(item, (str, int, float, bool)) else json.dumps(item)
                if not any(_same(item, e) for e in examples):
                    examples.append(item)
            if len(examples) >= MAX_EXAMPLES:
                break
        schema.append(
            {
                "field": field,
                "type": _field_type(observed, KNOWN_TYPES.get(field, "string")),
                "documents": counts[field],
                "examples": examples[:MAX_EXAMPLES],
            }
        )
    return schema


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _scalar_type(values: list[Any]) -> str:
    if all(isinstance(v, bool) for v in values):
        return "boolean"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "number"
    if all(isinstance(v, str) and _ISO_DATE.match(v) for v in values):
        return "date"
    return "string"


def _field_type(values: list[Any], default: str) -> str:
    """The type of a field from its non-empty values (`default` when it has none)."""
    if not values:
        return default
    if all(isinstance(v, list) for v in values):
        items = [item for v in values for item in v]
        kind = _scalar_type(items)
        return f"list[{'string' if kind == 'boolean' else kind}]"
    if any(isinstance(v, list) for v in values):
        return "list[string]"
    return _scalar_type(values)
