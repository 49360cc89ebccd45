"""Turn plain typed functions into tools an LLM can call.

A tool is a function whose keyword-only `ctx` (a `ToolContext`: the sandbox, the index, the
scratchpad) comes from the caller and whose other parameters are what the LLM supplies. It
returns text for the LLM, or a `ToolOutcome` when it has typed data for the code around it,
and raises when it fails. Its JSON schema comes from the signature (through pydantic) and
its descriptions from the docstring; both are read once, when the `Tool` is made.

`Tool.run` (what the registry calls) validates the arguments and always returns a
`ToolOutcome`; a failure has `ok=False` and one line of text (at most `MAX_ERROR_CHARS`):
expected errors (access denied, an OS error, `FsnbError`, `ValueError`) as their message,
anything else as "error: <tool> failed: <Type>: ...". Called by hand,
`fsnb.tools.grep("x", root="data")` returns the text (an error line uncut, a bug raised);
`.outcome(...)` the whole outcome.

Traits are declared where the tool is written, `@tool(phase="read", reads="path")`: the
phase its steps show in (scan, search, read), the argument naming the file it reads
(so a citation may point there), whether that read parses a document; its payload type
comes from the return annotation (`-> ToolOutcome[PageRead]`). The loop, the offline
strategy and the views read these, never a list of tool names.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, overload

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from fsnb.errors import AccessDenied, FsnbError, ToolError, one_line
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import shown
from fsnb.tools.context import ToolContext

ToolFunction = Callable[..., str | ToolOutcome[Any]]
#: Where a tool's steps belong in a run's trace.
Phase = Literal["scan", "search", "read"]
#: Keyword-only parameters the caller supplies, never the LLM: the context or, in a tool
#: written before it, the root folder and the database path (`ToolContext.root`, `.db`).
CONTEXT_PARAMS = frozenset({"ctx", "root", "db"})
#: The longest error line (it may echo the input); longer ones are cut.
MAX_ERROR_CHARS = 1_000
_PATH = str | os.PathLike[str]


def expected_error(exc: BaseException) -> str | None:
    """The line an expected failure reads as, or None for an unexpected one."""
    if isinstance(exc, AccessDenied):
        return str(exc)
    if isinstance(exc, OSError):
        name = Path(exc.filename).name if exc.filename else ""
        reason = (exc.strerror or str(exc)).lower()
        return f"error: {name}: {reason}" if name else f"error: {reason}"
    if isinstance(exc, (FsnbError, ValueError)):
        return f"error: {exc}"
    return None


def describe(exc: BaseException, limit: int = 300) -> str:
    """`Type: message` of an exception, on one line of at most about `limit` characters."""
    message = one_line(exc, limit)
    return type(exc).__name__ + (f": {message}" if message else "")


def failure_line(tool: str, exc: BaseException) -> str:
    """An unexpected exception from a tool as the error line the LLM reads."""
    return f"error: {tool} failed: {describe(exc)}"


def failed(line: str) -> ToolOutcome:
    """A failed call's outcome: its error line, safe to print and send."""
    return ToolOutcome.failure(shown(line))


def _outcome(value: object) -> ToolOutcome[Any]:
    """What a tool function returned, as an outcome whose text is safe to print and send."""
    if not isinstance(value, ToolOutcome):
        return ToolOutcome(shown(value if isinstance(value, str) else str(value)))
    text = shown(value.text)
    return value if text == value.text else dataclasses.replace(value, text=text)


def _short(outcome: ToolOutcome) -> ToolOutcome:
    """A failure's line cut to `MAX_ERROR_CHARS` for the LLM (it may echo a huge input)."""
    if outcome.ok or len(outcome.text) <= MAX_ERROR_CHARS:
        return outcome
    return dataclasses.replace(outcome, text=one_line(outcome.text, MAX_ERROR_CHARS))


def _context(ctx: ToolContext | None, root: _PATH | None, db: _PATH | None) -> ToolContext:
    """`ctx`, or a context for the folder `root` and the database `db`."""
    if ctx is not None:
        return ctx
    if root is None:
        msg = "a tool needs the folder: pass root= (or a ToolContext as ctx=)"
        raise TypeError(msg)
    return ToolContext(root, db)


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


def _by_hand(signature: inspect.Signature) -> inspect.Signature:
    """The signature of a hand call: the LLM's parameters, then `root`, `db` and `ctx`;
    it returns text."""
    own = [p for p in signature.parameters.values() if p.name not in CONTEXT_PARAMS]
    given = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
        for name in ("root", "db", "ctx")
    ]
    params = sorted(own + given, key=lambda p: p.kind)
    return signature.replace(parameters=params, return_annotation=str)


@dataclasses.dataclass(eq=False, repr=False)
class Tool:
    """A typed function with its LLM-facing schema; calling it by hand returns its text."""

    name: str
    description: str
    function: ToolFunction
    model: type[BaseModel]
    #: The context parameters the function takes (see `CONTEXT_PARAMS`).
    context: frozenset[str]
    #: The phase its steps show in.
    phase: Phase = "read"
    #: The argument naming the file it reads (None: it reads no one file).
    reads: str | None = None
    #: Whether that read parses a document (it counts among the documents parsed).
    parses: bool = False
    #: The type of its outcomes' payload (None: it returns text alone).
    payload: Any = None

    @classmethod
    def from_function(
        cls,
        func: ToolFunction,
        *,
        phase: Phase = "read",
        reads: str | None = None,
        parses: bool = False,
    ) -> Tool:
        """The tool of a typed function, with its traits; its signature, docstring and
        payload type (`-> ToolOutcome[P]`) are read here, once."""
        description, docs = _docstring_parts(func)
        hints = inspect.get_annotations(func, eval_str=True)
        signature = inspect.signature(func)
        fields: dict[str, Any] = {}
        for name, param in signature.parameters.items():
            if name in CONTEXT_PARAMS:
                continue
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[name] = (hints.get(name, str), Field(default, description=docs.get(name)))
        model = create_model(  # type: ignore[call-overload]
            f"{func.__name__}_args", __config__=ConfigDict(extra="forbid"), **fields
        )
        context = CONTEXT_PARAMS & set(signature.parameters)
        if reads is not None and reads not in fields:
            msg = f"{func.__name__} reads {reads!r}, which is not one of its arguments"
            raise TypeError(msg)
        returned = hints.get("return")
        payload = get_args(returned)[0] if get_origin(returned) is ToolOutcome else None
        tool = cls(
            func.__name__, description, func, model, frozenset(context),
            phase, reads, parses, payload,
        )  # fmt: skip
        functools.update_wrapper(tool, func)  # its name and docstring for help() and `?`
        tool.__signature__ = _by_hand(signature)  # type: ignore[attr-defined]
        return tool

    def __repr__(self) -> str:
        return f"<tool {self.name}>"

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
            msg = f"invalid arguments for {self.name}: {one_line(problems, 500)}"
            raise ToolError(msg) from None

    def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Validate and run, as the LLM calls it; never raises: invalid arguments and any
        failure are an outcome with `ok=False`."""
        try:
            kwargs = self.validate(arguments)
        except ToolError as exc:
            return failed(f"error: {exc}")
        try:
            return _short(self._invoke((), kwargs, ctx))
        except Exception as exc:  # a tool's bug or an unforeseen input must not end the run
            return failed(failure_line(self.name, exc))

    def outcome(
        self,
        *args: Any,
        root: _PATH | None = None,
        db: _PATH | None = None,
        ctx: ToolContext | None = None,
        **kwargs: Any,
    ) -> ToolOutcome:
        """Run with Python arguments, unchecked, in `ctx` or the folder `root`; an expected
        failure is an outcome with `ok=False`, a bug raises."""
        return self._invoke(args, kwargs, _context(ctx, root, db))

    def __call__(self, *args: Any, **kwargs: Any) -> str:
        """Run by hand (`grep("x", root="data")`): the text the LLM would read."""
        return self.outcome(*args, **kwargs).text

    def _invoke(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], ctx: ToolContext
    ) -> ToolOutcome:
        try:
            given = {name: ctx if name == "ctx" else getattr(ctx, name) for name in self.context}
            value = self.function(*args, **kwargs, **given)
        except Exception as exc:
            if (line := expected_error(exc)) is None:
                raise
            return failed(line)
        return _outcome(value)


@overload
def tool(func: ToolFunction, /) -> Tool: ...
@overload
def tool(
    *, phase: Phase = "read", reads: str | None = None, parses: bool = False
) -> Callable[[ToolFunction], Tool]: ...
def tool(
    func: ToolFunction | None = None,
    /,
    *,
    phase: Phase = "read",
    reads: str | None = None,
    parses: bool = False,
) -> Tool | Callable[[ToolFunction], Tool]:
    """Decorator: the typed function as a `Tool` (see the module's docstring); with
    arguments, `@tool(phase="read", reads="path")`, with its traits."""
    if func is not None:
        return Tool.from_function(func)
    return lambda f: Tool.from_function(f, phase=phase, reads=reads, parses=parses)


class Registry:
    """Tools by name."""

    def __init__(self, functions: Sequence[Tool | ToolFunction] = ()) -> None:
        self.tools: dict[str, Tool] = {}
        for func in functions:
            self.add(func)

    def add(self, func: Tool | ToolFunction) -> Tool:
        """Register a `Tool`, or a plain function made into one."""
        tool = func if isinstance(func, Tool) else Tool.from_function(func)
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

    def call(
        self,
        name: str,
        arguments: dict[str, Any],
        *,
        ctx: ToolContext | None = None,
        root: _PATH | None = None,
        db: _PATH | None = None,
    ) -> ToolOutcome:
        """Run a tool by name in `ctx` (or the folder `root`, the database `db`) as the LLM
        calls it; an unknown name is a failure listing the known ones."""
        if name not in self.tools:
            known = ", ".join(self.tools)
            return failed(f"error: unknown tool {one_line(name, 60)!r}; available tools: {known}")
        if not isinstance(arguments, dict):
            kind = type(arguments).__name__
            return failed(f"error: arguments for {name} must be an object, not {kind}")
        return self.tools[name].run(arguments, _context(ctx, root, db))


__all__ = [
    "CONTEXT_PARAMS",
    "Phase",
    "Registry",
    "Tool",
    "ToolContext",
    "ToolFunction",
    "ToolOutcome",
    "describe",
    "failed",
    "failure_line",
    "tool",
]
