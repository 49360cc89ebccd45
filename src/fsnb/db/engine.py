"""What DuckDB work in one process shares, owned by one `Engine`: the in-memory DuckDB each
unit of work attaches the file to, the per-file locks, the guard's parser instance, the
connections handed out to other tools, and the `Database` of each file.

`current()` is the process's engine. A test that wants a process of its own swaps it:
`monkeypatch.setattr("fsnb.db.engine._current", Engine())` (then `database(path)` gives new
`Database` objects, attached to a new in-memory instance, with no handouts).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from fsnb.db.holders import Handouts

if TYPE_CHECKING:
    from fsnb.db.database import Database

#: A write connection's commit that logs more than this checkpoints at once.
CHECKPOINT_AT = "1MB"


class Engine:
    """The process-wide DuckDB state; see the module doc."""

    def __init__(self) -> None:
        self._instance: duckdb.DuckDBPyConnection | None = None
        self._parser: duckdb.DuckDBPyConnection | None = None
        self._guard = threading.Lock()
        self._parser_lock = threading.Lock()
        self._locks: dict[str, threading.RLock] = {}
        self._aliases = itertools.count(1)
        #: The connections handed out to other tools (`fsnb.connect()`, jupysql).
        self.handouts = Handouts()
        #: One `Database` per resolved path (`fsnb.db.database.database`).
        self.databases: dict[Path, Database] = {}

    def instance(self) -> duckdb.DuckDBPyConnection:
        """The in-memory DuckDB to which each unit of work attaches the file: attaching
        costs about a millisecond, where `duckdb.connect(path)` starts a database instance
        of its own each time (~15 ms)."""
        with self._guard:
            if self._instance is None:
                self._instance = duckdb.connect(":memory:")
                # Every attachment is detached (and so checkpointed) after one unit of work:
                # a commit this large checkpoints at once instead (DuckDB then skips the WAL).
                self._instance.execute(f"SET checkpoint_threshold = '{CHECKPOINT_AT}'")
            return self._instance

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A connection to the in-memory DuckDB with no file attached, for tables that live
        only in this process (copies kept to answer repeated reads quickly)."""
        return self.instance().cursor()

    def alias(self) -> str:
        """A name no attachment of the in-memory DuckDB has used."""
        return f"fsnb_{next(self._aliases)}"

    def lock(self, path: Path) -> threading.RLock:
        """The lock that serializes this process's connections to the file at `path`:
        DuckDB refuses to attach one file read-only and read-write at once."""
        key = str(path.resolve())
        with self._guard:
            return self._locks.setdefault(key, threading.RLock())

    @contextmanager
    def parser(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """An in-memory DuckDB of its own, one user at a time, that never sees a file: the
        guard parses SQL and checks values on it."""
        with self._parser_lock:
            if self._parser is None:
                self._parser = duckdb.connect()
            yield self._parser

    def close(self) -> None:
        """Close the in-memory instances (a test's engine, when it is done)."""
        with self._guard, self._parser_lock:
            for con in (self._instance, self._parser):
                if con is not None:
                    with suppress(duckdb.Error):
                        con.close()
            self._instance = self._parser = None


_current = Engine()


def current() -> Engine:
    """The process's engine (see the module doc for swapping it in a test)."""
    return _current
