"""What can go wrong with the DuckDB file, and how a DuckDB error is told apart: another
process's lock, this process's other connections, or a damaged file."""

from __future__ import annotations

from pathlib import Path

import duckdb

from fsnb.errors import FsnbError


class DatabaseLocked(FsnbError):
    """Another process kept the database file locked for longer than we waited."""


class DatabaseDamaged(FsnbError):
    """The database file cannot be read: truncated, overwritten or not a DuckDB file."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(
            f"the index {path} is damaged ({why}): run `fsnb index FOLDER --rebuild` "
            "or Index().rebuild(FOLDER) to move it aside and rebuild"
        )
        self.path = path
        self.why = why

    def __reduce__(self) -> tuple[type, tuple[Path, str]]:
        return type(self), (self.path, self.why)


class DatabaseInUse(FsnbError):
    """A write was refused: this process holds the file open for reading elsewhere.
    `reason` names the connections to close (`fsnb.db.holders.Handouts.refusal`)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason

    def __reduce__(self) -> tuple[type, tuple[Path, str]]:
        return type(self), (self.path, self.reason)


def is_lock_error(exc: Exception) -> bool:
    """Whether DuckDB refused the file because another process holds its lock."""
    text = str(exc).lower()
    return "lock" in text and ("conflict" in text or "could not set" in text)


def in_process_conflict(exc: Exception) -> bool:
    """Whether DuckDB refused a connection because this process holds the file otherwise:
    open with another configuration, or attached by another database."""
    text = str(exc).lower()
    return "different configuration" in text or "unique file handle conflict" in text


#: What DuckDB says when the bytes of a database file (or its WAL) are not what it wrote.
_DAMAGE = (
    "could not read enough bytes",
    "not a valid duckdb database file",
    "corrupt database file",
    "does not match stored checksum",
    "replaying wal",
)


def damage(exc: BaseException) -> str | None:
    """The first line of a DuckDB error that means the file is damaged, else None."""
    if not isinstance(exc, duckdb.Error):
        return None
    line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    text = str(exc).lower()
    hit = isinstance(exc, duckdb.SerializationException) or any(m in text for m in _DAMAGE)
    return line if hit else None


#: The errors a front end shows as one line the user can act on: fsnb's own, a path
#: (`OSError`), a bad value, and DuckDB's (a locked or open file, bad SQL).
USER_ERRORS: tuple[type[Exception], ...] = (FsnbError, OSError, ValueError, duckdb.Error)
