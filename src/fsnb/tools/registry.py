"""Turn plain typed functions into tools an LLM can call.

A tool is a function whose keyword-only `root` argument is the sandbox root (and, for
tools that need it, `db`: the DuckDB file) and whose other parameters are what the LLM
supplies. Its JSON schema comes from the signature
(through pydantic) and its descriptions from the docstring; arguments are validated
before the call, and every failure comes back as text the LLM can read: expected ones
(`tool_errors`) as their message, anything else as "error: <tool> failed: <Type>: ...".
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field, ValidationError, create_model

from fsnb.errors import AccessDenied, FsnbError, ToolError, one_line

ToolFunction = Callable[..., str]
#: Keyword-only parameters the caller supplies, never the LLM.
CONTEXT_PARAMS = frozenset({"root", "db"})
#: How a tool's error line begins; such a line is cut to `MAX_ERROR_CHARS` (it may echo input).
ERROR_PREFIXES = ("error:", "access denied:")
MAX_ERROR_CHARS = 1_000


def tool_errors(func: ToolFunction) -> ToolFunction:
    """Return expected failures as one line of text instead of raising."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> str:
        try:
            return func(*args, **kwargs)
        except AccessDenied as exc:
            return str(exc)
        except OSError as exc:
            name = Path(exc.filename).name if exc.filename else ""
            reason = (exc.strerror or str(exc)).lower()
            return f"error: {name}: {reason}" if name else f"error: {reason}"
        except (FsnbError, ValueError) as exc:
            return f"error: {exc}"

    return wrapper


def describe(exc: BaseException, limit: int = 300) -> str:
    """`Type: message` of an exception, on one line of at most about `limit` characters."""
    message = one_line(exc, limit)
    return type(exc).__name__ + (f": {message}" if message else "")


def failure_line(tool: str, exc: BaseException) -> str:
    """An unexpected exception from a tool as the error line the LLM reads."""
    return f"error: {tool} failed: {describe(exc)}"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _docstring_parts(func: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """The description (text before 'Args:') and per-argument descriptions."""
    doc = inspect.getdoc(func) or ""
    head, _, args = doc.partition("\nArgs:\n")
    params: dict[str, str] = {}
    current = None
    for line in args.splitlines():
        match = re.match(r"\s{0,4}(\w+):\s*(.*)", line)
        if match:
            current = match.group(1)
            params[current] = match.group(2).strip()
        elif current and line.strip():
            params[current] += " " + line.strip()
    return " ".join(head.split()), params


@dataclass
class Tool:
    """A callable tool with its LLM-facing schema."""

    name: str
    description: str
    function: ToolFunction
    model: type

    @classmethod
    def from_function(cls, func: ToolFunction) -> Tool:
        description, docs = _docstring_parts(func)
        hints = inspect.get_annotations(func, eval_str=True)
        fields: dict[str, Any] = {}
        for name, param in inspect.signature(func).parameters.items():
            if name in CONTEXT_PARAMS:
                continue
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[name] = (hints.get(name, str), Field(default, description=docs.get(name)))
        model = create_model(  # type: ignore[call-overload]
            f"{func.__name__}_args", __config__=ConfigDict(extra="forbid"), **fields
        )
        return cls(func.__name__, description, func, model)

    def schema(self) -> dict[str, Any]:
        """{name, description, parameters} with a JSON schema for the parameters."""
        parameters = self.model.model_json_schema()
        parameters.pop("title", None)
        for prop in parameters.get("properties", {}).values():
            prop.pop("title", None)
        return {"name": self.name, "description": self.description, "parameters": parameters}

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Checked keyword arguments, or `ToolError` naming what is wrong."""
        try:
            return self.model(**arguments).model_dump()
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                for e in exc.errors()
            )
            msg = f"invalid arguments for {self.name}: {_cut(problems, 500)}"
            raise ToolError(msg) from None

    def __call__(self, arguments: dict[str, Any], *, root: str, **context: Any) -> str:
        """Validate and run; invalid arguments and any failure come back as an error line.

        `context` (e.g. `db`) is passed on to tools whose signature takes it.
        """
        try:
            kwargs = self.validate(arguments)
        except ToolError as exc:
            return f"error: {exc}"
        accepted = inspect.signature(self.function).parameters
        extra = {k: v for k, v in context.items() if k in accepted and v is not None}
        try:
            text = self.function(**kwargs, root=root, **extra)
        except Exception as exc:  # a tool's bug or an unforeseen input must not end the run
            return failure_line(self.name, exc)
        text = text if isinstance(text, str) else str(text)
        return _cut(text, MAX_ERROR_CHARS) if text.startswith(ERROR_PREFIXES) else text


class Registry:
    """Tools by name."""

    def __init__(self, functions: list[ToolFunction] | None = None) -> None:
        self.tools: dict[str, Tool] = {}
        for func in functions or []:
            self.add(func)

    def add(self, func: ToolFunction) -> Tool:
        tool = Tool.from_function(func)
        self.tools[tool.name] = tool
        return tool

    def __contains__(self, name: object) -> bool:
        return name in self.tools

    def __getitem__(self, name: str) -> Tool:
        return self.tools[name]

    def names(self) -> list[str]:
        return list(self.tools)

    def schemas(self) -> list[dict[str, Any]]:
        return [tool.schema() for tool in self.tools.values()]

    def call(self, name: str, arguments: dict[str, Any], *, root: str, **context: Any) -> str:
        """Run a tool by name; an unknown name is an error line listing the known ones."""
        if name not in self.tools:
            known = ", ".join(self.tools)
            return f"error: unknown tool {_cut(name, 60)!r}; available tools: {known}"
        if not isinstance(arguments, dict):
            return f"error: arguments for {name} must be an object, not {type(arguments).__name__}"
        return self.tools[name](arguments, root=root, **context)
