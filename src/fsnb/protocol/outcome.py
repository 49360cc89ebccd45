"""What a tool hands back: the text the LLM reads, whether it worked, and a typed payload.

A payload is a frozen dataclass (`fsnb.tools.payloads`); `as_data` gives its plain,
JSON-ready view (what events, saved runs and `--json` hold) and `from_data` rebuilds it
from that view, by the dataclass's type hints.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

P = TypeVar("P")
T = TypeVar("T")
#: Field metadata: leave the field out of `as_data` while it is None (a key that old
#: outcomes had only sometimes, such as a query's note).
OMIT_NONE = {"omit_none": True}


@dataclass(frozen=True)
class ToolOutcome(Generic[P]):
    """A tool's result. `text` goes to the LLM; `ok` and `payload` are for the code around it.

    A tool function returns plain text or a `ToolOutcome` (when it has data worth keeping
    typed: the hits of a search, the range of a document it showed); the registry turns
    every call, failures included, into one. Nothing should parse `text` to learn what
    `ok` and `payload` say.
    """

    text: str
    ok: bool = True
    payload: P | None = None

    @property
    def data(self) -> dict[str, Any]:
        """The payload as plain data (`as_data`), {} without one."""
        return as_data(self.payload)

    @classmethod
    def failure(cls, text: str, payload: Any = None) -> ToolOutcome[Any]:
        return cls(text, ok=False, payload=payload)

    def __str__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:
        return f"```\n{self.text}\n```"


def as_data(payload: object) -> dict[str, Any]:
    """A payload (a dataclass, or a mapping) as a JSON-ready dict: nested dataclasses as
    dicts, tuples as lists, fields marked `OMIT_NONE` left out while None; {} for None."""
    plain = _plain(payload)
    return plain if isinstance(plain, dict) else {}


def _plain(value: object) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _plain(item)
            for f in dataclasses.fields(value)
            if not ((item := getattr(value, f.name)) is None and f.metadata.get("omit_none"))
        }
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def from_data(cls: type[T], data: Mapping[str, Any]) -> T:
    """The dataclass `cls` rebuilt from its `as_data` view: nested dataclasses and tuples
    made again from the type hints, unknown keys ignored; `TypeError` when a field without
    a default is missing."""
    hints = typing.get_type_hints(cls)
    return cls(
        **{
            f.name: _typed(hints[f.name], data[f.name])
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            if f.init and f.name in data
        }
    )


def _typed(hint: Any, value: Any) -> Any:
    """`value` (plain data) as the type `hint` declares it."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if dataclasses.is_dataclass(hint) and isinstance(value, Mapping):
        return from_data(hint, value)  # type: ignore[arg-type]
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in args if a is not type(None)]
        return value if value is None or len(kinds) != 1 else _typed(kinds[0], value)
    if origin is tuple and isinstance(value, list | tuple):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(args[0], v) for v in value)
        return tuple(value)
    return value


__all__ = ["OMIT_NONE", "ToolOutcome", "as_data", "from_data"]
