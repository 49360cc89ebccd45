"""What a tool hands back: the text the LLM reads, whether it worked, and typed data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolOutcome:
    """A tool's result. `text` goes to the LLM; `ok` and `data` are for the code around it.

    A tool function returns plain text or a `ToolOutcome` (when it has data worth keeping
    typed: the hits of a search, the range of a document it showed); the registry turns
    every call, failures included, into one. Nothing should parse `text` to learn what
    `ok` and `data` say.
    """

    text: str
    ok: bool = True
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def failure(cls, text: str, **data: Any) -> ToolOutcome:
        return cls(text, ok=False, data=data)

    def __str__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:
        return f"```\n{self.text}\n```"
