"""The Action the LLM returns at each step, as a pydantic model.

The model is flat (one object with a `kind` and the fields each kind needs) and tool
arguments are a list of {name, value} pairs: Gemini's structured output rejects or
silently empties dict-typed fields, and handles flat objects most reliably.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

ActionKind = Literal["tool_call", "go_deeper", "ask_human", "stop"]


class ToolArg(BaseModel):
    """One tool argument. Values are strings; the tool's schema converts them."""

    name: str = Field(description="Parameter name, as in the tool's schema.")
    value: str = Field(description="Parameter value, written as text (numbers as digits).")


class CitedSource(BaseModel):
    """What an `[n]` marker in the answer points to."""

    id: int = Field(description="The number n used as [n] in the answer.")
    path: str = Field(description="File path relative to the folder, as the tools show it.")
    page: int | None = Field(default=None, description="Page number, from the [page N] marks.")
    quote: str = Field(description="A short passage copied exactly from the file's text.")


class Action(BaseModel):
    """The next step of an exploration."""

    kind: ActionKind = Field(
        description="tool_call: run a tool; go_deeper: move into a subfolder; "
        "ask_human: ask the user a question; stop: give the final answer."
    )
    reason: str = Field(description="Why this step, in one sentence.")
    tool: str | None = Field(default=None, description="For tool_call: the tool's name.")
    args: list[ToolArg] = Field(default_factory=list, description="For tool_call: arguments.")
    directory: str | None = Field(default=None, description="For go_deeper: the subfolder.")
    question: str | None = Field(default=None, description="For ask_human: the question.")
    answer: str | None = Field(
        default=None, description="For stop: the answer in markdown, citing sources as [n]."
    )
    citations: list[CitedSource] = Field(
        default_factory=list, description="For stop: the sources behind each [n]."
    )

    @model_validator(mode="after")
    def _fields_for_kind(self) -> Action:
        needed = {
            "tool_call": "tool",
            "go_deeper": "directory",
            "ask_human": "question",
            "stop": "answer",
        }[self.kind]
        if not getattr(self, needed):
            msg = f"a {self.kind} action needs a non-empty '{needed}'"
            raise ValueError(msg)
        return self

    def arguments(self) -> dict[str, Any]:
        """Tool arguments as a dict (later duplicates win)."""
        return {arg.name: arg.value for arg in self.args}

    @classmethod
    def call(cls, tool: str, reason: str, **args: Any) -> Action:
        """A tool_call action; argument values are converted to text."""
        pairs = [
            ToolArg(name=k, value=v if isinstance(v, str) else json.dumps(v))
            for k, v in args.items()
        ]
        return cls(kind="tool_call", tool=tool, args=pairs, reason=reason)

    @classmethod
    def stop(cls, answer: str, reason: str, citations: list[CitedSource] | None = None) -> Action:
        return cls(kind="stop", answer=answer, reason=reason, citations=citations or [])
