"""Exceptions a user of fsnb may want to catch."""

from __future__ import annotations


class FsnbError(Exception):
    """Base class of every error fsnb raises on purpose."""


class AccessDenied(FsnbError, PermissionError):
    """A path is outside the sandbox, or the sensitive-file policy blocks it."""

    def __init__(self, why: str) -> None:
        super().__init__(f"access denied: {why}")
        self.why = why

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return type(self), (self.why,)


class NotFound(FsnbError):
    """A path does not exist, or is not the kind of thing asked for (a file, a folder)."""

    def __init__(
        self, path: str, why: str = "does not exist", suggestions: tuple[str, ...] = ()
    ) -> None:
        hint = f"; did you mean {_alternatives(suggestions)}?" if suggestions else ""
        super().__init__(f"{path} {why}{hint}")
        self.path = path
        self.why = why
        self.suggestions = tuple(suggestions)

    def __reduce__(self) -> tuple[type, tuple[str, str, tuple[str, ...]]]:
        return type(self), (self.path, self.why, self.suggestions)


def _alternatives(names: tuple[str, ...]) -> str:
    """'a', 'b' or 'c'."""
    quoted = [f"'{name}'" for name in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


#: Why a file with nothing in it has no text: a caveat, not a failure to read it.
EMPTY_FILE = "empty file (0 bytes)"


class ParseError(FsnbError):
    """A file could not be turned into text (corrupt, binary, empty, unsupported)."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"cannot read {path}: {why}")
        self.path = path
        self.why = why

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return type(self), (self.path, self.why)


class ToolError(FsnbError):
    """A tool call was invalid (unknown tool, bad arguments)."""


class Cancelled(FsnbError):
    """The run was cancelled, or its time ran out: raised in a tool between documents or
    batches (`ToolContext.check`), so that a run given up on stops working."""


def one_line(value: object, limit: int | None = None) -> str:
    """An error (or any text) on one line: whitespace collapsed, the `LINE n:` and caret
    lines of a SQL error dropped, and cut to about `limit` characters with "…"."""
    lines = (ln.strip() for ln in str(value).splitlines())
    text = " ".join(
        " ".join(ln.split())
        for ln in lines
        if ln and not ln.startswith("LINE ") and set(ln) != {"^"}
    )
    if limit is not None and len(text) > limit:
        return text[:limit] + "…"
    return text
